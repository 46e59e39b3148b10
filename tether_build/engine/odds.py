"""The designer's combat calculator: run the engine's own battle code many times."""

from __future__ import annotations

import random

from . import native
from .scenario import hex_of_kind, new_card, scenario

MAX_FORCES = 200  # per side: a battle the board can hold, and one the calculator ends fast
MAX_CHAMPIONS = 10


def parse_side(text: str) -> dict:
    """'forces=3,champion=shadeblade' -> {'forces': 3, 'champions': ['shadeblade']}."""
    out = {"forces": 0, "champions": []}
    for part in filter(None, (x.strip() for x in (text or "").split(","))):
        if "=" not in part:
            raise ValueError(f"expected key=value, got {part!r}")
        key, value = (x.strip() for x in part.split("=", 1))
        if key == "forces":
            if not value.isdigit():
                raise ValueError(f"forces must be a whole number, got {value!r}")
            if len(value) > 4 or int(value) > MAX_FORCES:
                raise ValueError(f"forces must be at most {MAX_FORCES}, got {value[:12]!r}")
            out["forces"] = int(value)
        elif key in ("champion", "champions"):
            out["champions"].append(value)
            if len(out["champions"]) > MAX_CHAMPIONS:
                raise ValueError(f"at most {MAX_CHAMPIONS} Champions a side")
        else:
            raise ValueError(f"unknown unit kind {key!r} (use forces= or champion=)")
    return out


def _battles(rules, attacker: dict, defender: dict, where: str, trials: int, seed: int,
             facs: list[str]) -> tuple[dict, list, int]:
    """(wins per outcome, survivors per side [Forces, Champion HP], combat rounds) of
    `trials` battles from the same units."""
    g, h, iids = _setup(rules, attacker, defender, where, facs, seed)
    sides = {0: attacker, 1: defender}
    tally = {"attacker": 0, "defender": 0, "none": 0}
    surv = [[0, 0], [0, 0]]  # per side: forces, champion HP
    rounds = 0
    for _ in range(trials):
        _reset(g, h, sides, iids)
        winner = g.battle(h, 0, 1, siege=(where == "capital"))
        tally["none" if winner is None else ("attacker" if winner == 0 else "defender")] += 1
        for p in (0, 1):
            surv[p][0] += g.s.forces[h].get(p, 0)
            surv[p][1] += sum(c.hp for c in g.s.champs_at[h] if c.owner == p)
        rounds += g.last_battle_rounds
    return tally, surv, rounds


def _setup(rules, att: dict, dfn: dict, where: str, factions, seed: int):
    """One bare 2-player game with the battle hex and one card per Champion."""
    g = scenario(rules, 2, 0, factions=factions, log=False)
    g.rng = random.Random(seed)
    s = g.s
    if where == "capital":
        h = s.players[1].capital
    else:
        h = hex_of_kind(g, where, avoid=set(s.capital_of))
    iids = {p: [new_card(g, cid) for cid in side["champions"]]
            for p, side in ((0, att), (1, dfn))}
    return g, h, iids


def _reset(g, h: int, sides: dict, iids: dict) -> None:
    """Put exactly the given units on hex h (defender first, as if it was there first)."""
    s = g.s
    for ch in list(s.champs_at[h]):
        g.unplace_champion(ch)
    for pl in s.players:
        pl.burn.clear()
        pl.gold = 0
    for p in list(s.forces[h]):
        s.remove_forces(p, h, s.forces[h][p])
    for p in (1, 0):
        s.add_forces(p, h, sides[p]["forces"])
        for iid in iids[p]:
            g.place_champion(p, iid, h)
    g.dirty.clear()


def battle_odds(rules, attacker: dict, defender: dict, where: str = "plain",
                trials: int = 10000, seed: int = 0, factions=(None, None)) -> dict:
    """Probabilities of each outcome and expected survivors over `trials` battles."""
    for side in (attacker, defender):
        for cid in side["champions"]:
            if cid not in rules.by_id or rules.by_id[cid].type != "champion":
                import difflib

                ids = sorted(k for k, c in rules.by_id.items() if c.type == "champion")
                close = difflib.get_close_matches(cid, ids, n=3, cutoff=0.4)
                raise ValueError(f"no Champion card {cid!r} ("
                                 + (f"did you mean {', '.join(close)}? " if close else "")
                                 + "Champion ids: " + ", ".join(ids) + ")")
    facs = [f or "_none" for f in factions]
    for f in factions:
        if f is not None and f not in rules.factions:
            raise ValueError(f"unknown faction {f!r} (known: {', '.join(sorted(rules.factions))})")
    got = native.battle_odds(rules, attacker, defender, where, trials, seed, facs)
    if got is not None:  # the same battles, played by the native engine (engine/native)
        tally = {k: got[k] for k in ("attacker", "defender", "none")}
        surv, rounds = got["surv"], got["rounds"]
    else:
        tally, surv, rounds = _battles(rules, attacker, defender, where, trials, seed, facs)
    n = max(trials, 1)
    return {"attacker_wins": tally["attacker"] / n, "defender_wins": tally["defender"] / n,
            "both_destroyed": tally["none"] / n,
            "attacker_survivors": {"forces": surv[0][0] / n, "champion_hp": surv[0][1] / n},
            "defender_survivors": {"forces": surv[1][0] / n, "champion_hp": surv[1][1] / n},
            "average_combat_rounds": rounds / n, "trials": trials, "where": where,
            "seed": seed}
