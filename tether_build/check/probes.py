"""Modifier probes: show that an installed modifier changes the rule it modifies.

One probe per modifier kind (spec.MODIFIERS), like the engine's CONSUMERS table. A probe
lists attempts; each attempt arranges a situation on a fresh copy of the scenario (move
the Champion onto a Mine, fight a battle as defender, ...) and measures the consuming rule
with the modifier and with it switched off. The modifier is observed when the two differ
exactly as its parameters declare; a difference of another size is a problem.
"""

from __future__ import annotations

from .probes_base import Obs
from .probes_battle import BATTLE_CHECK, battle_attempts
from .probes_move import MOVE_PROBES
from .probes_rules import RULE_PROBES

# modifier kind -> attempts(world, active) (tested to cover spec.MODIFIERS)
PROBES = {kind: battle_attempts for kind in BATTLE_CHECK}
PROBES.update(MOVE_PROBES)
PROBES.update(RULE_PROBES)

__all__ = ["PROBES", "Obs"]
