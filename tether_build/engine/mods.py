"""Modifiers and triggers: compiled definitions, active instances, durations and limits.

Faction passives and Champion abilities are installed as active modifiers/triggers
(passives for the whole game, abilities while the Champion is on the board); card
effects add them with a duration through the add_modifier / add_trigger steps.
"""

from __future__ import annotations

from .conds import condition
from .core import Ctx, shared
from .select import BridgeSel, HexSel, amount

BATTLE_BOUND = ("this_battle", "next_battle", "first_battle")

# modifier kind -> the rule that consults it (every kind of spec.MODIFIERS, tested)
CONSUMERS = {
    "hit_on": "combat.unit_stats", "extra_dice": "combat.unit_stats",
    "set_dice": "combat.unit_stats", "assign_hits": "combat._chosen_hits",
    "redirect_hit": "combat._redirect", "ignore_bridges": "paths.flies",
    "extra_move": "paths.extra_move", "deploy_anchor": "game.deploy_anchors",
    "untargetable": "game.untargetable", "prevent_damage_for_gold": "units._prevent_for_gold",
    "block_bridge": "paths.blocked_edges", "link_hexes": "paths.links",
    "mine_bonus": "phases._mine_bonus", "control_vp": "phases.control_vp",
    "vp_while": "phases.control_vp", "deploy_bonus": "units.deploy",
    "pick_extra": "cards.pick_extra", "cost_override": "declare.card_cost",
    "mines_connected": "paths.links", "retreat_from_battle": "combat._retreats",
}
DURATIONS = ("this_battle", "next_battle", "first_battle", "end_of_round", "permanent")
LIMITS = ("unlimited", "once_per_round", "once_per_battle", "once")


@shared
class ModDef:
    """A compiled modifier: kind, raw params, and compiled parts."""

    __slots__ = ("a", "amount", "b", "bridge", "hexsel", "kind", "params", "reads_alone",
                 "units", "when")

    def __init__(self, spec: dict):
        self.kind = spec["modifier"]
        if self.kind not in CONSUMERS:
            raise ValueError(f"no rule consults modifier {self.kind!r}")
        self.params = spec
        self.units = spec.get("units")
        self.when = condition(spec.get("when"))
        self.reads_alone = "moving_alone" in repr(spec.get("when"))  # does it ask who moves
        sel = spec.get("hex") or spec.get("where")
        self.hexsel = HexSel(sel) if isinstance(sel, dict) else None
        self.amount = amount(spec["amount"]) if "amount" in spec else None
        self.bridge = BridgeSel(spec["bridge"], build=False) if "bridge" in spec else None
        self.a = HexSel(spec["a"]) if "a" in spec else None
        self.b = HexSel(spec["b"]) if "b" in spec else None


@shared
class Ability:
    """A compiled Champion ability / faction passive / card trigger."""

    __slots__ = ("cond", "event", "limit", "mod", "name", "raw", "steps")

    def __init__(self, spec: dict, compile_steps):
        self.raw = spec
        self.name = spec.get("name", "")
        self.limit = spec.get("limit") or "unlimited"
        self.mod = ModDef(spec["modifier"]) if spec.get("modifier") else None
        self.event = spec.get("trigger")
        self.cond = condition(spec.get("condition"))
        self.steps = compile_steps(spec.get("steps") or [])


class Active:
    """An active modifier or trigger instance."""

    __slots__ = (
        "ability",
        "battle",
        "champ",
        "cond",
        "duration",
        "event",
        "inst",
        "limit",
        "mod",
        "owner",
        "refs",
        "steps",
        "target",
        "used",
        "used_battle",
        "used_round",
        "uses",
    )

    def __init__(self, owner: int, duration: str, limit: str = "unlimited", champ=None,
                 inst=None, refs=None, target=None):
        self.owner, self.duration, self.limit = owner, duration, limit
        self.champ, self.inst, self.target = champ, inst, target
        self.refs = dict(refs or {})
        self.mod = self.event = self.cond = self.steps = None
        self.battle = None
        self.uses = None
        self.used_round = -1
        self.used_battle = -1
        self.used = False
        self.ability = None

    def ctx(self, g, battle=None, event=None) -> Ctx:
        """A context to evaluate this modifier's condition or run its steps."""
        c = Ctx(g, self.owner, self.inst, self.champ, battle, event)
        c.refs = dict(self.refs)
        return c

    def limit_ok(self, g, battle=None, reuse: bool = True) -> bool:
        """Does the once-per-round / battle / game limit still allow use now.
        `reuse`: a battle bonus already in use in this very battle still applies (a
        trigger passes False: each firing is a use)."""
        lim = self.limit
        if lim == "unlimited":
            return True
        bid = battle.bid if battle is not None else -2
        if reuse and self.used_battle == bid and bid >= 0:
            return True  # already in use in this very battle
        if lim == "once_per_round":
            return self.used_round != g.s.round
        if lim == "once_per_battle":
            return self.used_battle != bid
        return not self.used

    def mark_used(self, g, battle=None) -> None:
        """Record a use against the limit."""
        self.used_round = g.s.round
        self.used_battle = battle.bid if battle is not None else -1
        self.used = True


class Hooks:
    """Active modifiers by kind and triggers by event; `ver` changes on every change."""

    def __init__(self):
        self.mods: dict[str, list[Active]] = {}
        self.trigs: dict[str, list[Active]] = {}
        self.ver = 0

    def add_mod(self, act: Active, mod: ModDef) -> Active:
        """Install an active modifier."""
        act.mod = mod
        self.mods.setdefault(mod.kind, []).append(act)
        self.ver += 1
        return act

    def add_trig(self, act: Active, event: str, cond, steps) -> Active:
        """Install an active trigger."""
        act.event, act.cond, act.steps = event, cond, steps
        self.trigs.setdefault(event, []).append(act)
        self.ver += 1
        return act

    def install_ability(self, ab: Ability, owner: int, champ=None) -> Active:
        """Install a passive (champ None) or a Champion ability, permanent."""
        act = Active(owner, "permanent", ab.limit, champ=champ)
        act.ability = ab
        if ab.mod is not None:
            return self.add_mod(act, ab.mod)
        return self.add_trig(act, ab.event, ab.cond, ab.steps)

    def remove_where(self, pred) -> None:
        """Remove every active modifier/trigger for which pred(active) holds."""
        for table in (self.mods, self.trigs):
            for key, lst in table.items():
                if not lst:  # (a kind whose last active effect has gone)
                    continue
                keep = [a for a in lst if not pred(a)]
                if len(keep) != len(lst):
                    table[key] = keep
                    self.ver += 1

    def of(self, kind: str) -> list[Active]:
        """Active modifiers of a kind."""
        return self.mods.get(kind, ())

    def on(self, event: str) -> list[Active]:
        """Active triggers for an event (a copy: handlers may add or remove)."""
        return list(self.trigs.get(event, ()))

    def all(self):
        """Every active instance."""
        for table in (self.mods, self.trigs):
            for lst in table.values():
                yield from lst


def owned(acts, p: int) -> bool:
    """Does seat p own one of these active effects (a loop: cheaper than any(genexpr))."""
    for a in acts:
        if a.owner == p:
            return True
    return False


def battle_applies(act: Active, battle) -> bool:
    """A battle-bound modifier applies only in the battle it is bound to."""
    if act.duration in BATTLE_BOUND:
        return battle is not None and act.battle == battle.bid
    return True


def bind_battle(hooks: Hooks, battle, sides: tuple[int, int], champs) -> None:
    """At battle start, bind unbound next/first-battle effects of the two sides."""
    for act in hooks.all():
        if act.duration in ("next_battle", "first_battle") and act.battle is None:
            tgt = act.refs.get(act.target) if act.target else None
            if hasattr(tgt, "cid"):
                if tgt in champs:
                    act.battle = battle.bid
            elif act.owner in sides:
                act.battle = battle.bid
