"""Many seeded games: win rate per faction with confidence intervals, game lengths, how
games ended, most and least played cards."""

from __future__ import annotations

import math
import multiprocessing
import os
from collections import Counter
from concurrent.futures import as_completed

from ..forking import fork_pool
from . import native
from .agents import HeuristicAgent, RandomAgent
from .native import end_event
from .options import Options
from .play import play_game, write_log
from .search import SearchAgent


class NativeSearchAgent:
    """The native engine's search agent ("nsearch": engine/native/search.cpp). It plays in
    the native engine only; the Python search agent ("search") stays the reference."""

    name = "nsearch"

    def __init__(self):
        raise ValueError("the nsearch agent plays in the native engine only, and it is not "
                         "built or was declined here (python3 -m tether_build.engine.native)")


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "search": SearchAgent,
          "nsearch": NativeSearchAgent}


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


WORKERS: int | None = None  # processes for `simulate` (None: one per core)
CHUNK = 25                   # games a worker plays per task (the progress bar's step)
MIN_PER_WORKER = 20          # fewer games a worker are not worth a fork
_JOB: dict = {}              # the job the forked workers inherit (nothing is pickled in)


def simulate(rules, games: int, players: int, seed: int, factions=None, agents=None,
             options=None, progress=None, log_dir=None, workers: int | None = None) -> dict:
    """Play `games` games (seeds seed, seed+1, ...) and summarise them; with `log_dir`,
    write each game's JSON-lines event log there (game-<seed>.jsonl). The games are
    dealt over the cores (`workers`, default WORKERS or one per core); each game depends
    only on its number and the results are added up in game order, so the summary is
    the same whatever the number of workers."""
    names = list(agents or ["random"])
    for a in names:
        if a not in AGENTS:
            raise ValueError(f"unknown agent {a!r} (known: {', '.join(AGENTS)})")
    job = {"rules": rules, "players": players, "seed": seed, "factions": factions,
           "names": names, "options": options, "log_dir": log_dir}
    seats = Counter()
    wins: Counter = Counter()
    agent_seats: Counter = Counter()
    agent_wins: Counter = Counter()
    ends: Counter = Counter()
    played: Counter = Counter({c.id: 0 for c in rules.cards})
    rounds = 0
    # the native engine plays random and heuristic agents' games and every agent's battle
    # odds: loaded once here, the forked workers inherit it
    native.for_rules(rules)
    for facs, ag, winners, end, rnd, stats in _results(job, games, workers, progress):
        rounds += rnd
        ends[end] += 1
        seats.update(facs)
        for w in winners:
            wins[facs[w]] += 1 / len(winners)
            agent_wins[ag[w]] += 1 / len(winners)
        agent_seats.update(ag)
        played.update(stats)
    out = _summary(rules, games, players, seed, names, seats, wins, ends, played, rounds)
    out["agent_win_rate"] = {a: agent_wins[a] / agent_seats[a] for a in sorted(agent_seats)}
    return out


def _play_range(job: dict, ks) -> list[tuple]:
    """Play games numbered ks: per game (factions, agent names, winners, ending, rounds,
    cards played). Random and heuristic agents' games are played by the native engine when
    it is built (the same games, decisions and logs: engine/native), and every game with
    the native search agent (nsearch); any game it declines, and every game with the Python
    search agent, by the Python engine."""
    rules, players, names = job["rules"], job["players"], job["names"]
    log_dir = job["log_dir"]
    ks = list(ks)
    seats = [seat_factions(rules, players, k, job["factions"]) for k in ks]
    seated = [names[i % len(names)] for i in range(players)]   # each seat's agent
    out = []
    for k, facs, res in zip(ks, seats, _native(job, ks, seats, seated)):
        if res is not None:
            if log_dir is not None:
                write_log(res["events"] + [end_event(res)],
                          log_dir / f"game-{job['seed'] + k}.jsonl")
            out.append((facs, seated, res["winner"], res["end"], res["round"],
                        res["played"]))
            continue
        ag = [AGENTS[name]() for name in seated]
        g = play_game(rules, players, job["seed"] + k, ag, facs, job["options"],
                      log=log_dir is not None)
        if log_dir is not None:
            write_log(g.events, log_dir / f"game-{job['seed'] + k}.jsonl")
        out.append((facs, [a.name for a in ag], g.s.winner, g.s.end_reason, g.s.round,
                    g.stats["played"]))
    return out


def _native(job: dict, ks: list[int], seats: list[list[str]], seated: list[str]
            ) -> list[dict | None]:
    """The native engine's result of each game numbered ks, its factions `seats` and its
    agents `seated` (None: the Python engine plays it): games of random and heuristic
    agents and the native search agent (nsearch), not the Python search agent."""
    if any(a not in native.AGENTS for a in job["names"]):
        return [None] * len(ks)
    games = [(job["seed"] + k, facs, seated) for k, facs in zip(ks, seats)]
    return native.play_agents(job["rules"], job["players"], games, job["options"] or Options(),
                              log=job["log_dir"] is not None)


def _results(job: dict, games: int, workers: int | None, progress):
    """Every game's result, in game order: here, or in forked workers when it pays."""
    n = workers or WORKERS or os.cpu_count() or 1
    n = max(1, min(n, games // MIN_PER_WORKER))
    if n < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for k in range(games):
            yield from _play_range(job, (k,))
            if progress:
                progress(1)
        return
    chunks = [range(a, min(a + CHUNK, games)) for a in range(0, games, CHUNK)]
    _JOB.update(job)
    try:
        with fork_pool(n) as pool:
            futures = [pool.submit(_part, c.start, c.stop) for c in chunks]
            if progress:
                for f in as_completed(futures):
                    progress(len(f.result()))
            parts = [f.result() for f in futures]
    finally:
        _JOB.clear()
    for part in parts:
        yield from part


def _part(start: int, stop: int) -> list[tuple]:
    """A forked worker's task: games start..stop-1 of the inherited job."""
    return _play_range(_JOB, range(start, stop))


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
