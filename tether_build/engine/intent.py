"""Whom a target choice is for: friend (+1), foe (-1) or either (0).

An agent asked to pick a Champion, a hex or a player for a step reads the step's kind
(`damage` hurts, `heal` helps) and, for a `choose_target` step, the kinds of the later
steps that use the chosen target by its name ({ref: name}) anywhere in the same effect.
"""

from __future__ import annotations

HOSTILE = frozenset({"damage", "destroy_forces", "remove_champion", "steal_gold", "lose_gold",
                     "destroy_bridge", "scatter", "discard"})
FRIENDLY = frozenset({"heal", "multiply_hp", "gain_gold", "gain_mana", "deploy", "draw",
                      "deploy_champion", "build_bridge", "mine_value", "relocate"})
# modifiers that weaken the units they name, and those that help them
HOSTILE_MODS = frozenset({"set_dice", "block_bridge", "retreat_from_battle"})
FRIENDLY_MODS = frozenset({"extra_dice", "untargetable", "prevent_damage_for_gold",
                           "extra_move", "ignore_bridges"})


def step_intent(kind: str, params: dict) -> int:
    """+1 if a step of this kind helps its target, -1 if it harms it, 0 if either."""
    if kind in HOSTILE:
        return -1
    if kind in FRIENDLY:
        return 1
    if kind == "add_modifier":
        mod = (params.get("modifier") or {}).get("modifier")
        if mod in HOSTILE_MODS:
            return -1
        if mod in FRIENDLY_MODS:
            return 1
    return 0


def uses(node, name: str) -> bool:
    if isinstance(node, dict):
        if node.get("ref") == name:
            return True
        return any(uses(v, name) for k, v in node.items() if k != "steps")
    if isinstance(node, list):
        return any(uses(v, name) for v in node)
    return False


def steps(node):
    """Every raw step dict in an effect tree (nested steps of if/choose_one/repeat too)."""
    if isinstance(node, dict):
        if "step" in node:
            yield node
        for v in node.values():
            yield from steps(v)
    elif isinstance(node, list):
        for v in node:
            yield from steps(v)


_CACHE: dict[int, tuple] = {}


def target_intent(step, effect) -> int:
    """The intent of a target choice made by compiled `step` inside raw `effect` steps."""
    got = _CACHE.get(id(step))
    if got is not None and got[0] is step:
        return got[1]
    if step.kind == "choose_target":
        name = step.params.get("as")
        votes = {step_intent(d["step"], d) for d in steps(effect or [])
                 if d is not step.params and uses(d, name)}
        votes.discard(0)
        value = votes.pop() if len(votes) == 1 else 0
    else:
        value = step_intent(step.kind, step.params)
    _CACHE[id(step)] = (step, value)
    return value


def ctx_intent(ctx) -> int:
    """The intent of the choice a running effect context is asking for (0 if unknown)."""
    key = getattr(ctx, "asking", None)
    step = key[0] if isinstance(key, tuple) else key
    if step is None or not hasattr(step, "kind"):
        return 0
    src = None
    if ctx.inst is not None:
        src = ctx.inst.defn.raw.get("effect")
    if src is None and ctx.champ is not None:
        src = [a.get("steps") for a in (ctx.champ.defn.champion or {}).get("abilities", [])]
    return target_intent(step, src)
