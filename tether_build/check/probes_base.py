"""Shared parts of the modifier probes: results, switching a modifier off, where to look,
how to arrange a situation, and how to set up a battle between exactly two sides."""

from __future__ import annotations

from ..engine.select import HexSel
from .shapes import shape


class Obs:
    """One attempt's result."""

    __slots__ = ("observed", "problems")

    def __init__(self, observed: bool = False, problems=()):
        self.observed, self.problems = observed, list(problems)


def without(g, act, fn):
    """fn() with `act` switched off (taken out of its hook list, then put back)."""
    lst = g.hooks.mods.get(act.mod.kind, [])
    i = next((k for k, a in enumerate(lst) if a is act), None)
    if i is None:
        return fn()
    lst.pop(i)
    g.hooks.ver += 1  # the index's caches of who owns which modifier are stale now
    try:
        return fn()
    finally:
        lst.insert(i, act)
        g.hooks.ver += 1


def isolate(g, act) -> None:
    """Remove every other modifier of the same kind and owner (effects become attributable)."""
    lst = g.hooks.mods.get(act.mod.kind, [])
    lst[:] = [a for a in lst if a is act or a.owner != act.owner]
    g.hooks.ver += 1  # as in without(): the index's caches must see the change


def differ(g, act, fn) -> tuple:
    """(with, without) of a pure measurement."""
    return fn(), without(g, act, fn)


# ---- where to look ------------------------------------------------------------------------
def ref_hexes(w, act) -> list[int]:
    """Hexes the modifier is about: its Champion, its refs, its hex selectors."""
    out = []
    if act.champ is not None and act.champ.cid in w.s.champions:
        out.append(act.champ.hex)
    for v in act.refs.values():
        if hasattr(v, "cid") and v.cid in w.s.champions:
            out.append(v.hex)
        elif isinstance(v, int) and 0 <= v < w.s.topo.n:
            out.append(v)
    ctx = act.ctx(w.g)
    for sel in (act.mod.hexsel, act.mod.a, act.mod.b) if act.mod else ():
        if sel is not None:
            out += sel.candidates(ctx)[:2]
    when = (act.mod.params.get("when") or {}) if act.mod else {}
    if "battle_in" in when:
        out += HexSel(when["battle_in"]).candidates(ctx)[:2]
    return list(dict.fromkeys(out))


def spots(w, act) -> list:
    """Arrangements: as built, then (for a Champion's ability) the Champion moved to a Mine,
    the Axis Mundi, a Forge; each with the modifier's condition shaped to hold."""
    out = [None]
    if act.champ is not None:
        out += [w.hexes[k] for k in ("mine", "center", "forge")]
    return out


def arrange(w, act, spot) -> None:
    """Move the Champion to `spot` (if any) and shape the modifier's `when`."""
    s = w.s
    ch = act.champ
    if spot is not None and ch is not None and ch.cid in s.champions and ch.hex != spot:
        s.take_champ(ch)
        s.put_champ(ch, spot)
        if not s.occupies(ch.owner, spot):
            s.add_forces(ch.owner, spot, 1)
    when = act.mod.params.get("when") if act.mod else None
    if when:
        shape(w, when, True, [])


def pure(measure, check):
    """Attempts over `spots`: arrange, measure with and without, check the difference."""
    def attempts(w, act):
        return [lambda w, act, spot=spot: pure_one(w, act, spot, measure, check)
                for spot in spots(w, act)]
    return attempts


def pure_one(w, act, spot, measure, check) -> Obs:
    """One pure attempt: arrange, then compare the measurement with and without."""
    arrange(w, act, spot)
    with_, without_ = differ(w.g, act, lambda: measure(w, act))
    if with_ == without_:
        return Obs()
    return Obs(True, check(w, act, with_, without_))


def about(act) -> set[int]:
    """Champion ids a modifier or trigger is about (its own, its refs)."""
    out = {v.cid for v in act.refs.values() if hasattr(v, "cid")}
    if act.champ is not None:
        out.add(act.champ.cid)
    return out


def join(w, act, h: int) -> None:
    """The modifier's own Champion takes part in the battle on h."""
    ch, s = act.champ, w.s
    if ch is not None and ch.cid in s.champions and ch.hex != h:
        s.take_champ(ch)
        s.put_champ(ch, h)


def battle_sides(w, act, h: int) -> tuple[int, int]:
    """(actor side, enemy side) for a battle on h about this modifier."""
    me = act.owner
    tgt = act.refs.get(act.target) if act.target else None
    if hasattr(tgt, "cid") and tgt.owner != me:
        return me, tgt.owner
    return me, next(q for q in range(len(w.s.players)) if q != me)


def set_battle(w, me: int, foe: int, h: int, alone: bool, enemy_champ: bool,
               forces: int = 3, keep=()) -> None:
    """Exactly two sides on h: the actor (Forces unless alone, a Champion) and the enemy."""
    s, g = w.s, w.g
    for q in list(s.occupants(h)):
        if q not in (me, foe):
            s.remove_forces(q, h, s.forces[h].get(q, 0))
            for ch in [c for c in s.champs_at[h] if c.owner == q]:
                g.unplace_champion(ch, "burn_pile")
    s.remove_forces(me, h, s.forces[h].get(me, 0))
    if not alone:
        s.add_forces(me, h, forces)
    if not any(c.owner == me for c in s.champs_at[h]):
        w.champion(me, h)
    s.add_forces(foe, h, forces)
    theirs = [c for c in s.champs_at[h] if c.owner == foe]
    if enemy_champ and not theirs:
        w.champion(foe, h)
    if not enemy_champ:
        for ch in theirs:
            if ch.cid not in keep:
                g.unplace_champion(ch, "burn_pile")
