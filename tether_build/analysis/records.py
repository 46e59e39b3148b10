"""One compact record per game, read from its event log (what the report needs, no more)."""

from __future__ import annotations


def record(g, k: int, agents: list[str]) -> dict:
    """The record of a finished game `g` (played with a log), game number k."""
    s = g.s
    return record_of(g.events, k, agents, [pl.faction for pl in s.players], g.origin[1],
                     list(s.winner), s.end_reason, s.round)


def record_of(events: list[dict], k: int, agents: list[str], factions: list[str], seed: int,
              winners: list[int], end: str, rounds: int) -> dict:
    """The record of game number k from its event log and how it ended (a game the Python
    engine played, or one the native engine did)."""
    n = len(factions)
    seats = [{"faction": f, "agent": agents[i], "gained": [], "played": [],
              "bought": [], "drawn": [], "mines": 0} for i, f in enumerate(factions)]
    offered: list[str] = []
    vp_rounds: list[list[int]] = []   # per Scoring: each seat's total Permanence
    battles_round: list[int] = []     # per Scoring: battles since the previous one
    battles = loops = 0
    since = 0
    last_bids = None
    for e in events:
        kind = e["e"]
        if kind == "market":
            offered.extend(e["cards"])
        elif kind == "bids":
            last_bids = e["card"]
        elif kind == "buy":
            seats[e["p"]]["bought"].append([last_bids, e["gold"]])
        elif kind == "gain":
            seats[e["p"]]["gained"].append(e["card"])
            if e.get("to") == "hand":
                seats[e["p"]]["drawn"].append(e["card"])
        elif kind == "draw":
            seats[e["p"]]["drawn"].append(e["card"])
        elif kind == "play":
            seats[e["p"]]["played"].append(e["card"])
        elif kind == "battle":
            battles += 1
            since += 1
        elif kind == "collect" and e.get("tile") == "mine":
            seats[e["p"]]["mines"] += 1
        elif kind == "score":
            vp_rounds.append([sum(e["vp"][str(p)]) for p in range(n)])
            battles_round.append(since)
            since = 0
        elif kind == "action_cap":
            loops += 1
    for st in seats:   # (a card drawn twice counts once: the record stays small)
        st["drawn"] = sorted(set(st["drawn"]))
    return {"k": k, "seed": seed, "players": n, "winners": winners,
            "end": end, "rounds": rounds, "battles": battles, "loops": loops,
            "seats": seats, "offered": offered, "vp": vp_rounds,
            "battles_by_round": battles_round}
