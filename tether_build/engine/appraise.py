"""What the heuristic agent's scores are made of: its weights, and the board judgements it
reads (a card's worth, a side's strength, battle odds from the engine's own battle code, the
group a move option moves). Its weights are weights.py's module constants, read where they
are used, so a benchmark or an experiment can change one (the native agent reads them too)."""

from __future__ import annotations

from functools import lru_cache

from . import weights as W


def card_value(defn) -> float:
    """A rough worth of a card for drafting and bidding."""
    return (defn.vp * 4.0 + W.CATEGORY.get(defn.category, 1.0) - 0.3 * defn.mana
            - 0.4 * defn.gold)


def strength(g, p: int, h: int) -> float:
    """Rough fighting strength of seat p's units in hex h."""
    s = g.s
    v = s.forces[h].get(p, 0) * 1.0
    for c in s.champs_at[h]:
        if c.owner == p:
            ch = c.defn.champion
            v += c.hp * ch["dice"] * ch["hit"] / 4.0
    return v




def group(g, p: int, opt) -> tuple:
    """(Champions, Forces) that a move option (unit, hex, cid, n_forces, path) moves:
    one Force; one Champion (cid > 0); the Forces alone (cid -1); the Champions alone
    (cid 0, 0 Forces); or the stack (cid 0) with all or n_forces of its Forces."""
    unit, src, cid, nf, _ = opt
    s = g.s
    if unit == "force":
        return [], 1
    if unit == "champion" or cid > 0:
        return [c for c in s.champs_at[src] if c.cid == cid], 0
    forces = s.forces[src].get(p, 0) if nf is None else nf
    if cid < 0:
        return [], forces
    return [c for c in s.champs_at[src] if c.owner == p], forces


class Aim:
    """What the target scorers read of an asking context, for one target of a whole play."""

    __slots__ = ("asking", "champ", "inst")

    def __init__(self, key, inst):
        self.asking, self.inst, self.champ = key, inst, None


def attack_odds(rules, att: tuple, dfn: tuple, siege: bool) -> float:
    """P(attacker wins) from the engine's own battle code (engine/odds), fixed seed; a side
    is (forces, champion ids...), its Forces counted up to ODDS_FORCES (so sides that differ
    only beyond that count share one entry of the cache)."""
    return _odds(rules, _capped(att), _capped(dfn), siege)


def _capped(side: tuple) -> tuple:
    return side if side[0] <= W.ODDS_FORCES else (W.ODDS_FORCES, *side[1:])


@lru_cache(maxsize=1 << 15)  # 800 four-player games meet about 6,000 match-ups; a few MB
def _odds(rules, att: tuple, dfn: tuple, siege: bool) -> float:
    from .odds import battle_odds

    def side(t):
        return {"forces": t[0], "champions": list(t[1:])}
    got = battle_odds(rules, side(att), side(dfn), "capital" if siege else "plain",
                      trials=W.ODDS_TRIALS, seed=0)
    return got["attacker_wins"]


def side_at(g, p: int, h: int, champs=None, forces=None) -> tuple:
    """Seat p's fighting side in hex h as (forces, champion ids...) for attack_odds."""
    s = g.s
    if champs is None:
        champs = [c for c in s.champs_at[h] if c.owner == p]
    n = s.forces[h].get(p, 0) if forces is None else forces
    return (n, *sorted(c.defn.id for c in champs))
