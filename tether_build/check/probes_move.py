"""Probes of modifiers that change where units may go or be deployed, and what they are
worth: ignore_bridges, extra_move, deploy_anchor, block_bridge, link_hexes,
mines_connected, untargetable, control_vp, vp_while."""

from __future__ import annotations

from ..engine.core import Ctx
from .expect import amount
from .probes_base import Obs, arrange, differ, pure, pure_one, spots
from .world import fresh_inst


# ---- rules outside battle --------------------------------------------------------------
def _moves(unit: str, dist: int = 1):
    def measure(w, act):
        return frozenset(w.g.move_options(act.owner, unit, dist, False, False))
    return measure


def _flight_attempts(w, act) -> list:
    out = []
    for cid in w.s.players[act.owner].champions:
        def attempt(w, act, cid=cid) -> Obs:
            s = w.s
            ch = s.champions.get(cid)
            if ch is None:
                return Obs()
            s.bridges.difference_update(s.topo.edges_of[ch.hex])
            got, base = differ(w.g, act, lambda: _moves("champion")(w, act))
            extra = [o for o in got - base if o[2] == cid]
            probs = [] if all(len(o[4]) == 1 for o in extra) else [
                "ignore_bridges offered a longer path than declared"]
            return Obs(bool(extra), probs)
        out.append(attempt)
    return out


def _longest(opts) -> int:
    return max((len(o[4]) for o in opts), default=0)


def _extra_move_attempts(w, act) -> list:
    def attempt(w, act, unit, spot) -> Obs:
        arrange(w, act, spot)
        if unit == "champion" and act.champ is not None:
            w.s.remove_forces(act.owner, act.champ.hex, w.s.forces[act.champ.hex].get(
                act.owner, 0))
        got, base = differ(w.g, act, lambda: _moves(unit)(w, act))
        n = act.mod.params["amount"]
        if _longest(got) == _longest(base):
            return Obs()
        ok = _longest(got) <= _longest(base) + n
        return Obs(True, [] if ok else [(f"extra_move allowed {_longest(got)} hexes, "
                                        f"expected at most {_longest(base) + n}")])
    return [lambda w, act, u=u, sp=sp: attempt(w, act, u, sp)
            for u in ("champion", "stack") for sp in spots(w, act)]


def _subset(what: str, cands):
    def check(w, act, got, base) -> list[str]:
        extra = set(got) - set(base)
        allowed = set(cands(w, act))
        return [] if extra <= allowed else [(f"{what} added {sorted(extra - allowed)}, "
                                            "which the selector does not match")]
    return check


def _sel_cands(attr: str):
    return lambda w, act: getattr(act.mod, attr).candidates(act.ctx(w.g))


def _untarget_measure(w, act):
    foe = next(q for q in range(len(w.s.players)) if q != act.owner)
    types = ("order", "spell", "victory", "champion")
    cards = {t: next((c.id for c in w.g.rules.cards if c.type == t), None) for t in types}
    out = set()
    for cid in w.s.players[act.owner].champions:
        ch = w.s.champions[cid]
        for t, card in cards.items():
            if card and w.g.untargetable(ch, Ctx(w.g, foe, fresh_inst(w.g, card))):
                out.add((cid, t))
    return frozenset(out)


def _untarget_check(w, act, got, base) -> list[str]:
    bad = {t for _, t in set(got) - set(base)} - set(act.mod.params["by"])
    return [f"untargetable also against {sorted(bad)}"] if bad else []


def _link_check(w, act, got, base) -> list[str]:
    return [] if all(set(v) >= set(base.get(k, ())) for k, v in got.items()) else [
        "links lost an existing pair"]


def _links(w, act):
    return {k: frozenset(v) for k, v in w.g.links(act.owner).items()}


def _occupy_mines(w, act) -> None:
    mines = [h for h in range(w.s.topo.n) if w.s.tile[h] == "mine"]
    for h in mines[:2]:
        if len(w.s.occupants(h) - {act.owner}) < 2:
            w.s.add_forces(act.owner, h, 1)


def _vp_check(w, act, got, base) -> list[str]:
    d = act.mod.params
    if act.mod.kind == "vp_while":
        want = amount(d["amount"], act.ctx(w.g))
    else:
        s = w.s
        held = sum(1 for h in s.occupied_by(act.owner) if _kind_of(s, h, act.owner) == d[
            "kind"])
        want = max(0, d["amount"] - w.g.rules.game["scoring"]["control_vp"][d["kind"]]) * held
    return [] if got - base == want else [(f"{act.mod.kind}: Control VP {base} -> {got}, "
                                          f"expected +{want}")]


def _kind_of(s, h: int, p: int) -> str:
    if h in s.capital_of and s.capital_of[h] != p:
        return "enemy_capital"
    return s.tile[h]


def _control_attempts(w, act) -> list:
    def attempt(w, act) -> Obs:
        kind = act.mod.params.get("kind")
        if kind == "enemy_capital":
            w.s.add_forces(act.owner, w.s.players[1].capital, 1)
        return pure_one(w, act, None, lambda w, act: w.g.control_vp(act.owner), _vp_check)
    return [attempt]


def _mines_connected(w, act) -> list:
    def attempt(w, act) -> Obs:
        _occupy_mines(w, act)
        return pure_one(w, act, None, _links, _link_check)
    return [attempt]


MOVE_PROBES = {
    "ignore_bridges": _flight_attempts,
    "extra_move": _extra_move_attempts,
    "deploy_anchor": pure(lambda w, act: tuple(w.g.deploy_anchors(act.owner)),
                          _subset("deploy_anchor", _sel_cands("hexsel"))),
    "untargetable": pure(_untarget_measure, _untarget_check),
    "block_bridge": pure(lambda w, act: frozenset(w.g.blocked_edges()),
                         _subset("block_bridge", _sel_cands("bridge"))),
    "link_hexes": pure(_links, _link_check),
    "mines_connected": _mines_connected,
    "control_vp": _control_attempts,
    "vp_while": pure(lambda w, act: w.g.control_vp(act.owner), _vp_check),
}
