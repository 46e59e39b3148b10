"""Condition shapers: change a constructed state so a condition holds (or fails).

One shaper per condition key of the effect language (spec.CONDITIONS), used to visit both
branches of every `if` step and to meet a card's play requirement. A shaper returns False
when it cannot set the condition up from the state alone (battle and event conditions,
which the probes create by fighting battles and making events happen instead).
"""

from __future__ import annotations

from ..engine.core import Ctx
from ..engine.select import ChampSel, HexSel


def shape(w, cond: dict | None, want: bool, steps: list) -> bool:
    """Make every key of `cond` hold (want) or make the condition fail (not want)."""
    if not cond:
        return want
    keys = sorted(cond)
    if want:
        return all(_one(w, k, cond[k], True, steps) for k in keys)
    return any(_one(w, k, cond[k], False, steps) for k in keys)


def _one(w, key: str, value, want: bool, steps: list) -> bool:
    fn = SHAPERS.get(key)
    return bool(fn and fn(w, value, want, steps))


def _ctx(w):
    return Ctx(w.g, w.p)


def _evict(w, h: int, keep_out=()) -> None:
    """Take the actor's units off hex h (Champions go to another hex it occupies)."""
    s = w.s
    s.remove_forces(w.p, h, s.forces[h].get(w.p, 0))
    homes = [x for x in s.occupied_by(w.p) if x != h and x not in keep_out]
    for ch in [c for c in s.champs_at[h] if c.owner == w.p]:
        if homes:
            _put(w, ch, homes[0])
        else:
            w.g.unplace_champion(ch, "burn_pile")


def _put(w, ch, h: int) -> None:
    s = w.s
    s.take_champ(ch)
    s.put_champ(ch, h)


def _room(w, h: int, p: int) -> bool:
    """Can seat p's units be put on hex h without a third player there."""
    return len(w.s.occupants(h) - {p}) < 2


def _occupies(w, spec, want, steps) -> bool:
    s = w.s
    cands = HexSel(spec).candidates(_ctx(w))
    if want:
        if any(s.occupies(w.p, h) for h in cands):
            return True
        free = [h for h in cands if _room(w, h, w.p)]
        if free:
            s.add_forces(w.p, free[0], 2)
        return bool(free)
    for h in cands:
        if s.occupies(w.p, h):
            _evict(w, h, keep_out=cands)
    return not any(s.occupies(w.p, h) for h in cands)


def _flag(attr: str):
    def fn(w, spec, want, steps) -> bool:
        setattr(w.s.players[w.p], attr, bool(spec) == want)
        return True
    return fn


def _target_size(spec: dict, want: bool) -> int | None:
    lo, hi = spec.get("min"), spec.get("max")
    if want:
        return lo or 0
    if lo:
        return lo - 1
    return None if hi is None else hi + 1


def _pile(zone: str):
    def fn(w, spec, want, steps) -> bool:
        n = _target_size(spec, want)
        if n is None:
            return False
        pl = w.s.players[w.p]
        pile = getattr(pl, zone)
        while len(pile) > n:
            pl.discard.append(pile.pop())
        while len(pile) < n:
            w.card(w.p, w.plain_cards[len(pile) % len(w.plain_cards)], zone)
        if not pl.discard:
            w.card(w.p, w.plain_cards[0], "discard")
        return True
    return fn


def _champions(w, spec, want, steps) -> bool:
    n = _target_size(spec, want)
    if n is None:
        return False
    s = w.s
    pl = s.players[w.p]
    while len(pl.champions) > n:
        w.g.unplace_champion(s.champions[pl.champions[-1]], "burn_pile")
    while len(pl.champions) < n:
        if w.champion(w.p, pl.capital) is None:
            return False
    return True


def _mana(w, spec, want, steps) -> bool:
    n = _target_size(spec, want)
    if n is None:
        return False
    w.s.players[w.p].mana = max(n, 10) if want and spec.get("max") is None else n
    return True


def _capital_enemy(w, spec, want, steps) -> bool:
    s = w.s
    cap = s.players[w.p].capital
    if bool(spec) == want:
        s.add_forces(w.enemy(), cap, 2)
        return True
    for q in [q for q in s.occupants(cap) if q != w.p]:
        s.remove_forces(q, cap, s.forces[cap].get(q, 0))
        for ch in [c for c in s.champs_at[cap] if c.owner == q]:
            w.g.unplace_champion(ch, "burn_pile")
    return True


def _last_drawn(w, spec, want, steps) -> bool:
    rules = w.g.rules
    pool = [c for c in rules.cards if not c.triggers and not c.abilities
            and (c.type == spec) == want]
    if not pool:
        return False
    w.card(w.p, min(pool, key=lambda c: c.id).id, "draw")
    return True


def _defining(steps: list, name: str) -> dict | None:
    """The step dict that names a ref (choose_target / move / scatter `as`)."""
    for d in steps or []:
        if d.get("as") == name:
            return d
        for key in ("then", "else", "steps"):
            got = _defining(d.get(key) or [], name)
            if got:
                return got
        for o in d.get("options", []) + d.get("outcomes", []):
            got = _defining(o["steps"], name)
            if got:
                return got
    return None


def _adjacent(w, spec, want, steps) -> bool:
    d = _defining(steps, spec["target"])
    if not d or "hex" not in d or d["step"] != "choose_target":
        return False
    s = w.s
    for c in HexSel(d["hex"]).candidates(_ctx(w)):
        have = sum(1 for n in s.topo.nbrs[c] if s.occupies(w.p, n))
        for n in s.topo.nbrs[c]:
            if want and have < spec["min"] and not s.occupies(w.p, n) and _room(w, n, w.p):
                s.add_forces(w.p, n, 1)
                have += 1
            elif not want and s.occupies(w.p, n) and n != s.players[w.p].capital:
                _evict(w, n, keep_out=s.topo.nbrs[c])
    return True


def _target_in(w, spec, want, steps) -> bool:
    d = _defining(steps, spec["target"])
    if not d or d["step"] != "choose_target" or "champion" not in d:
        return False
    dest = HexSel(spec["hex"]).candidates(_ctx(w))
    s = w.s
    away = [h for h in s.occupied_by(w.p) if h not in dest]
    for ch in ChampSel(d["champion"]).candidates(_ctx(w)):
        if want and dest and ch.hex not in dest:
            _put(w, ch, dest[0])
        elif not want and ch.hex in dest and away:
            _put(w, ch, away[0])
    return True


def _moves(w, spec, want, steps) -> bool:
    w.s.players[w.p].moves_this_round = 0 if bool(spec) == want else 1
    return True


def _not(w, spec, want, steps) -> bool:
    return shape(w, spec, not want, steps)


def _all(w, subs, want, steps) -> bool:
    if want:
        return all(shape(w, c, True, steps) for c in subs)
    return any(shape(w, c, False, steps) for c in subs)


def _any(w, subs, want, steps) -> bool:
    if want:
        return any(shape(w, c, True, steps) for c in subs)
    return all(shape(w, c, False, steps) for c in subs)


# condition key -> shaper(world, value, want, subject steps) -> could it
SHAPERS = {
    "occupies": _occupies,
    "won_battle_this_round": _flag("won_battle"),
    "hand_size": _pile("hand"),
    "draw_pile_size": _pile("draw"),
    "champions_in_play": _champions,
    "mana": _mana,
    "capital_has_enemy": _capital_enemy,
    "last_drawn_type": _last_drawn,
    "adjacent_occupied": _adjacent,
    "target_in": _target_in,
    "first_move_this_round": _moves,
    "not": _not,
    "all": _all,
    "any": _any,
}
# keys that only a battle or an event can make true: the probes fight and provoke them
SITUATIONAL = {"defending", "attacking", "battle_in", "siege", "combat_round",
               "enemy_champion_present", "friendly_forces_present", "moving_alone",
               "on_board", "victim_side", "last_count"}
