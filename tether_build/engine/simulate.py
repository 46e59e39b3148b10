"""Many seeded games: win rate per faction with confidence intervals, game lengths, how
games ended, most and least played cards."""

from __future__ import annotations

import math
from collections import Counter

from .agents import HeuristicAgent, RandomAgent
from .play import play_game, write_log
from .search import SearchAgent

AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "search": SearchAgent}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval for a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def seat_factions(rules, players: int, game_no: int, factions: list[str] | None) -> list[str]:
    """Factions of one game: the given list (cycled), else every faction in rotation."""
    pool = factions or sorted(rules.factions)
    if factions:
        return [pool[i % len(pool)] for i in range(players)]
    return [pool[(game_no + i) % len(pool)] for i in range(players)]


def simulate(rules, games: int, players: int, seed: int, factions=None, agents=None,
             options=None, progress=None, log_dir=None) -> dict:
    """Play `games` games (seeds seed, seed+1, ...) and summarise them; with `log_dir`,
    write each game's JSON-lines event log there (game-<seed>.jsonl)."""
    names = list(agents or ["random"])
    for a in names:
        if a not in AGENTS:
            raise ValueError(f"unknown agent {a!r} (known: {', '.join(AGENTS)})")
    seats = Counter()
    wins: Counter = Counter()
    agent_seats: Counter = Counter()
    agent_wins: Counter = Counter()
    ends: Counter = Counter()
    played: Counter = Counter({c.id: 0 for c in rules.cards})
    rounds = 0
    for k in range(games):
        facs = seat_factions(rules, players, k, factions)
        ag = [AGENTS[names[i % len(names)]]() for i in range(players)]
        g = play_game(rules, players, seed + k, ag, facs, options, log=log_dir is not None)
        if log_dir is not None:
            write_log(g.events, log_dir / f"game-{seed + k}.jsonl")
        rounds += g.s.round
        ends[g.s.end_reason] += 1
        seats.update(facs)
        for w in g.s.winner:
            wins[facs[w]] += 1 / len(g.s.winner)
            agent_wins[ag[w].name] += 1 / len(g.s.winner)
        agent_seats.update(a.name for a in ag)
        played.update(g.stats["played"])
        if progress:
            progress(1)
    out = _summary(rules, games, players, seed, names, seats, wins, ends, played, rounds)
    out["agent_win_rate"] = {a: agent_wins[a] / agent_seats[a] for a in sorted(agent_seats)}
    return out


def _summary(rules, games, players, seed, names, seats, wins, ends, played, rounds) -> dict:
    per = {}
    for f in sorted(seats):
        lo, hi = wilson(wins[f], seats[f])
        per[f] = {"seats": seats[f], "wins": round(wins[f], 3),
                  "win_rate": wins[f] / seats[f], "ci95": [lo, hi]}
    ranked = sorted(played.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"games": games, "players": players, "seed": seed, "agents": names,
            "factions": per, "average_rounds": rounds / games if games else 0.0,
            "endings": dict(ends), "most_played": ranked[:10],
            "least_played": sorted(played.items(), key=lambda kv: (kv[1], kv[0]))[:10],
            "never_played": sorted(c for c, n in played.items() if n == 0)}
