"""Battle modifiers (hit_on, extra_dice, set_dice, assign_hits, redirect_hit,
retreat_from_battle): observed in a real battle, where every call of the combat rule is
recorded with the modifier and with it switched off."""

from __future__ import annotations

from ..engine.mods import BATTLE_BOUND
from .expect import amount
from .probes_base import Obs, about, battle_sides, isolate, join, ref_hexes, set_battle, without


def battle_attempts(w, act) -> list:
    """Battles on the modifier's hexes and on the actor's Mine, as defender and attacker,
    with and without Forces beside the Champions, with and without an enemy Champion."""
    places = ref_hexes(w, act) + [w.hexes["mine"], w.hexes["enemy"],
                                  w.s.players[1].capital, w.s.players[act.owner].capital]
    out = []
    for h in list(dict.fromkeys(places))[:5]:
        for defend in (True, False):
            for alone, enemy_champ in ((False, True), (False, False), (True, True),
                                       (True, False)):
                out.append(lambda w, act, h=h, d=defend, a=alone, e=enemy_champ:
                           _battle(w, act, h, d, a, e))
    return out


def _battle(w, act, h, defend, alone, enemy_champ) -> Obs:
    g, s = w.g, w.s
    me, foe = battle_sides(w, act, h)
    join(w, act, h)
    set_battle(w, me, foe, h, alone, enemy_champ, keep=about(act))
    owner = s.capital_of.get(h)
    if owner in (me, foe):
        dfn = owner
    else:
        dfn = me if defend else foe
    att = foe if dfn == me else me
    kind = act.mod.kind
    rows = _watch(g, act, "_chosen_hits" if kind == "assign_hits" else "unit_stats")
    if kind in ("redirect_hit", "retreat_from_battle"):
        isolate(g, act)
    mark = len(g.events)
    g.battle(h, att, dfn, siege=h in s.capital_of)
    probs = []
    if act.duration in BATTLE_BOUND and act.battle is not None and any(
            a is act for a in g.hooks.all()):
        probs.append(f"'{act.duration}' modifier still active after its battle")
    return BATTLE_CHECK[kind](w, act, rows, g.events[mark:], h, probs)


def _watch(g, act, name: str) -> list:
    """Record (args, with, without) of every call of a combat rule during the battle."""
    orig = getattr(g, name)
    rows: list = []

    def watched(*args):
        real = orig(*args)
        rows.append((args, real, without(g, act, lambda: orig(*args))))
        return real
    setattr(g, name, watched)
    return rows


def _stats_check(w, act, rows, events, h, probs) -> Obs:
    d, kind = act.mod.params, act.mod.kind
    seen = False
    for (b, p, _champ), (dice, hit), (bdice, bhit) in rows:
        if (dice, hit) == (bdice, bhit):
            continue
        seen = True
        if kind == "hit_on":
            want = (bdice, max(bhit, d["value"]) if p == act.owner else min(bhit, d["value"]))
        elif kind == "extra_dice":
            want = (bdice + amount(d["amount"], act.ctx(w.g, b)), bhit)
        else:
            want = (min(d["value"], dice), bhit)
        if (dice, hit) != want:
            probs.append(f"{kind}: a unit rolled {dice} dice hitting on {hit}, expected "
                         f"{want[0]} hitting on {want[1]} (without it {bdice}/{bhit})")
    return Obs(seen, probs)


def _assign_check(w, act, rows, events, h, probs) -> Obs:
    count = act.mod.params.get("count")
    seen = False
    for (_b, _p, n), real, base in rows:
        if real != base:
            seen = True
            want = min(n, max(base, n if count is None else count))
            if real != want:
                probs.append(f"assign_hits: chose {real} of {n} hits, expected {want}")
    return Obs(seen, probs)


def _event_check(event: str, limit_key: str | None):
    def check(w, act, rows, events, h, probs) -> Obs:
        mine = [e for e in events if e["e"] == event and e.get("p") == act.owner]
        if limit_key and len(mine) > act.mod.params.get(limit_key, 1):
            probs.append(f"{event} happened {len(mine)} times in one battle, declared at "
                         f"most {act.mod.params.get(limit_key, 1)}")
        if event == "retreat" and mine and w.s.units_of(act.owner, h):
            probs.append("units retreated but some are still in the battle hex")
        return Obs(bool(mine), probs)
    return check


BATTLE_CHECK = {"hit_on": _stats_check, "extra_dice": _stats_check, "set_dice": _stats_check,
                "assign_hits": _assign_check, "redirect_hit": _event_check("redirect", "count"),
                "retreat_from_battle": _event_check("retreat", None)}
