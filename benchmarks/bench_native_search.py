"""The native search agent (nsearch, engine/native/search.cpp): its speed and its strength.

    python3 benchmarks/bench_native_search.py                  # 100 duels' pairs, 200 4p games
    python3 benchmarks/bench_native_search.py --pairs 20 --four 40   # a quicker look
    python3 benchmarks/bench_native_search.py --sims 32 --horizon 3  # another budget
    python3 benchmarks/bench_native_search.py --jobs 2         # games in 2 processes

Prints, on the project's content (native engine only; CPU time, so other load on the
machine slows the clock less than it slows the wall):
- CPU seconds per searched decision (bar <= 0.05), from the engine's own clock around
  each search;
- search against the heuristic in 2-player games, seats swapped (bar >= 65 %), with the
  95 % Wilson interval;
- 4-player games with one search seat (rotating) and three heuristic seats: the search
  seat's win rate against the 25 % of an equal seat, and the whole batch timed: its CPU
  seconds (every process's) and its wall time in `--jobs` processes (bar: 200 games in
  under 5 minutes on 2 cores);
- the machine's load average at the start and the end.

`--out FILE` adds one JSON line per game (players, seed, seat, winner, the search's counts,
the game's CPU), so two settings run on the same seeds can be compared game by game.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
from tether_build.engine import native
from tether_build.engine.options import Options
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.simulate import wilson

_TWIN: list = []  # the worker process's native engine (jobs > 1)


def _twin_of(content: str):
    """The content's native engine and its factions."""
    c = load_content(Path(content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(c), c))
    return native.for_rules(rules), sorted(rules.factions)


def _one(job):
    """One game in a worker: (seat, result, CPU seconds of the game)."""
    content, players, seed, seat, search = job
    if not _TWIN:
        _TWIN.append(_twin_of(content))
    twin, facs = _TWIN[0]
    c0 = time.process_time()
    agents = ["heuristic"] * players
    agents[seat] = "nsearch"
    game = (seed, [facs[(seed + i) % len(facs)] for i in range(players)], agents)
    got = twin.play(players, [game], Options().to_dict(), search=search)[0]
    if got is None:
        raise RuntimeError(f"the native engine declined game {seed}")
    return seat, got, time.process_time() - c0


def games_of(run, players: int, jobs: list[tuple[int, int]], search: dict):
    """Each (seed, seat)'s game with nsearch at that seat and the heuristic elsewhere, by
    `run` (map over jobs, in order): [(seat, result)] and the games' CPU seconds. With
    `--out`, each game is added to the file as it ends (a stopped run keeps what it played)."""
    got = []
    out = open(OUT[0], "a") if OUT else None  # noqa: SIM115 (written to game by game)
    for (s, _seat), (seat, res, c) in zip(jobs, run(
            _one, [(CONTENT[0], players, s, seat, search) for s, seat in jobs])):
        got.append((seat, res, c))
        if out:
            out.write(json.dumps({"players": players, "seed": s, "seat": seat,
                                  "winner": res["winner"], "round": res.get("round"),
                                  "search": {k: v for k, v in res["search"].items()
                                             if k != "trace"},
                                  "cpu": round(c, 4)}) + "\n")
            out.flush()
    if out:
        out.close()
    return [(seat, res) for seat, res, _c in got], sum(c for _s, _r, c in got)


CONTENT: list[str] = []
OUT: list[str] = []  # --out: a file each game's result is added to, one JSON line a game


def tally(results) -> tuple[float, int, int, int, float, int]:
    """(search wins, games, searched decisions, simulations, search CPU seconds, bids)."""
    wins = searched = sims = bids = 0
    cpu = 0.0
    for seat, got in results:
        if seat in got["winner"]:
            wins += 1 / len(got["winner"])
        searched += got["search"]["searched"]
        bids += got["search"].get("bids", 0)
        sims += got["search"]["simulations"]
        cpu += got["search"]["cpu"]
    return wins, len(results), searched, sims, cpu, bids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default=str(ROOT / "content"))
    ap.add_argument("--pairs", type=int, default=100, help="seat-swapped 2-player pairs")
    ap.add_argument("--four", type=int, default=200, help="4-player games")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    ap.add_argument("--no-bids", action="store_true", help="search Action Steps only")
    ap.add_argument("--same-worlds", action="store_true",
                    help="the same worlds for every root option (search.cpp same_worlds)")
    ap.add_argument("--nested", action="store_true",
                    help="targets, moves, modes and hits searched at a root of their own")
    for k in ("sims", "width", "horizon", "tree_depth"):
        ap.add_argument(f"--{k}", type=int, default=None)
    for k in ("explore", "prior_temp", "noise", "gain"):
        ap.add_argument(f"--{k}", type=float, default=None)
    ap.add_argument("--out", default=None,
                    help="add each game's result to this file (JSON lines: seed, seat, "
                         "winner, search counts), for paired comparisons of two settings")
    a = ap.parse_args()
    if a.out:
        OUT.append(a.out)
    search = {k: getattr(a, k) for k in ("sims", "width", "horizon", "tree_depth", "explore",
                                           "prior_temp",
                                           "noise", "gain")
              if getattr(a, k) is not None}
    if a.no_bids:
        search["bids"] = False
    if a.same_worlds:
        search["same_worlds"] = True
    if a.nested:
        search["nested"] = True
    CONTENT.append(a.content)
    _TWIN.append(_twin_of(a.content))  # (the pool's processes are forks: they inherit it)
    if _TWIN[0][0] is None:
        sys.exit("the native engine is not built: python3 -m tether_build.engine.native")
    load0 = os.getloadavg()
    print(f"load average at start: {load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f} "
          f"({os.cpu_count()} cores); search settings: {search or 'defaults'}; "
          f"{a.jobs} process(es)")
    pool = multiprocessing.Pool(a.jobs) if a.jobs > 1 else None
    run = pool.imap if pool else map
    seeds = [a.seed + k for k in range(a.pairs)]
    if seeds:
        duels_of(run, seeds, search)
    seeds = [a.seed + 10_000 + k for k in range(a.four)]
    if seeds:
        four_of(run, seeds, search, a.jobs)
    if pool:
        pool.close()
    load1 = os.getloadavg()
    print(f"load average at end: {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}")


def duels_of(run, seeds: list[int], search: dict) -> None:
    """Search against the heuristic in 2-player games, seats swapped."""
    wall0 = time.perf_counter()
    duels, cpu = games_of(run, 2, [(s, seat) for s in seeds for seat in (0, 1)], search)
    wall = time.perf_counter() - wall0
    wins, n, searched, sims, scpu, bids = tally(duels)
    lo, hi = wilson(wins, n)
    print(f"2 players, search vs heuristic, seats swapped: {wins:g}/{n} = {wins / n:.1%} "
          f"[{lo:.1%}, {hi:.1%}] (bar >= 65 %)")
    print(f"  CPU per searched decision: {scpu / max(searched, 1):.4f} s (bar <= 0.05 s); "
          f"{searched} decisions ({bids} bids), {sims / max(searched, 1):.0f} simulations "
          f"each; the games {cpu:.1f} CPU-s, {wall:.1f} s wall")


def four_of(run, seeds: list[int], search: dict, jobs: int) -> None:
    """One search seat (rotating) and three heuristic seats in 4-player games, timed whole."""
    wall0 = time.perf_counter()
    four, cpu = games_of(run, 4, [(s, s % 4) for s in seeds], search)
    wall = time.perf_counter() - wall0
    wins, n, searched, _sims, scpu, bids = tally(four)
    lo, hi = wilson(wins, n)
    print(f"4 players, one search seat (rotating) and three heuristic: search won "
          f"{wins:g}/{n} = {wins / n:.1%} [{lo:.1%}, {hi:.1%}] (an equal seat: 25 %)")
    print(f"  CPU per searched decision: {scpu / max(searched, 1):.4f} s ({searched} "
          f"decisions, {bids} bids); {n} games timed whole: {cpu:.1f} CPU-s in all "
          f"({cpu / 2:.1f} s if spread on 2 cores), {wall:.1f} s wall in {jobs} "
          f"process(es) (bar: 200 games < 300 s on 2 cores)")


if __name__ == "__main__":
    main()
