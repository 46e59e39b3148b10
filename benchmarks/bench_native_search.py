"""The native search agent (nsearch, engine/native/search.cpp): its speed and its strength.

    python3 benchmarks/bench_native_search.py                  # 100 duels' pairs, 200 4p games
    python3 benchmarks/bench_native_search.py --pairs 20 --four 40   # a quicker look
    python3 benchmarks/bench_native_search.py --sims 32 --horizon 3  # another budget

Prints, on the project's content (native engine only; CPU time, so other load on the
machine slows the clock less than it slows the wall):
- CPU seconds per searched decision (bar <= 0.05), from the engine's own clock around
  each search;
- search against the heuristic in 2-player games, seats swapped (bar >= 65 %), with the
  95 % Wilson interval;
- 4-player games with one search seat (rotating) and three heuristic seats: the search
  seat's win rate against the 25 % of an equal seat, and the CPU time of the whole batch
  with its time on 2 cores (bar: 200 games in under 5 minutes);
- the machine's load average at the start and the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.cards import normalized_cards
from tether_build.compile import compile_engine
from tether_build.content import load_content
from tether_build.engine import native
from tether_build.engine.options import Options
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.simulate import wilson


def games_of(twin, players: int, seeds: list[int], seat_of, facs: list[str], search: dict):
    """Each seed's game with nsearch at seat_of(seed) and the heuristic elsewhere."""
    out = []
    for s in seeds:
        agents = ["heuristic"] * players
        agents[seat_of(s)] = "nsearch"
        game = (s, [facs[(s + i) % len(facs)] for i in range(players)], agents)
        got = twin.play(players, [game], Options().to_dict(), search=search)[0]
        if got is None:
            raise RuntimeError(f"the native engine declined game {s}")
        out.append((seat_of(s), got))
    return out


def tally(results) -> tuple[float, int, int, int, float]:
    """(search wins, games, searched decisions, simulations, search CPU seconds)."""
    wins = searched = sims = 0
    cpu = 0.0
    for seat, got in results:
        if seat in got["winner"]:
            wins += 1 / len(got["winner"])
        searched += got["search"]["searched"]
        sims += got["search"]["simulations"]
        cpu += got["search"]["cpu"]
    return wins, len(results), searched, sims, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default=str(ROOT / "content"))
    ap.add_argument("--pairs", type=int, default=100, help="seat-swapped 2-player pairs")
    ap.add_argument("--four", type=int, default=200, help="4-player games")
    ap.add_argument("--seed", type=int, default=0)
    for k in ("sims", "width", "horizon"):
        ap.add_argument(f"--{k}", type=int, default=None)
    for k in ("explore", "noise"):
        ap.add_argument(f"--{k}", type=float, default=None)
    a = ap.parse_args()
    search = {k: getattr(a, k) for k in ("sims", "width", "horizon", "explore", "noise")
              if getattr(a, k) is not None}
    content = load_content(Path(a.content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    twin = native.for_rules(rules)
    if twin is None:
        sys.exit("the native engine is not built: python3 -m tether_build.engine.native")
    facs = sorted(rules.factions)
    load0 = os.getloadavg()
    print(f"load average at start: {load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f} "
          f"({os.cpu_count()} cores); search settings: {search or 'defaults'}")

    seeds = [a.seed + k for k in range(a.pairs)]
    if seeds:
        duels_of(twin, seeds, facs, search)
    seeds = [a.seed + 10_000 + k for k in range(a.four)]
    if seeds:
        four_of(twin, seeds, facs, search)
    load1 = os.getloadavg()
    print(f"load average at end: {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}")


def duels_of(twin, seeds: list[int], facs: list[str], search: dict) -> None:
    """Search against the heuristic in 2-player games, seats swapped."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    duels = (games_of(twin, 2, seeds, lambda s: 0, facs, search)
             + games_of(twin, 2, seeds, lambda s: 1, facs, search))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    wins, n, searched, sims, scpu = tally(duels)
    lo, hi = wilson(wins, n)
    print(f"2 players, search vs heuristic, seats swapped: {wins:g}/{n} = {wins / n:.1%} "
          f"[{lo:.1%}, {hi:.1%}] (bar >= 65 %)")
    print(f"  CPU per searched decision: {scpu / max(searched, 1):.4f} s (bar <= 0.05 s); "
          f"{searched} decisions, {sims / max(searched, 1):.0f} simulations each; "
          f"batch {cpu:.1f} CPU-s, {wall:.1f} s wall")


def four_of(twin, seeds: list[int], facs: list[str], search: dict) -> None:
    """One search seat (rotating) and three heuristic seats in 4-player games."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    four = games_of(twin, 4, seeds, lambda s: s % 4, facs, search)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    wins, n, searched, _sims, scpu = tally(four)
    lo, hi = wilson(wins, n)
    print(f"4 players, one search seat (rotating) and three heuristic: search won "
          f"{wins:g}/{n} = {wins / n:.1%} [{lo:.1%}, {hi:.1%}] (an equal seat: 25 %)")
    print(f"  CPU per searched decision: {scpu / max(searched, 1):.4f} s; {n} games took "
          f"{cpu:.1f} CPU-s ({wall:.1f} s wall, one process): {cpu / 2:.1f} s on 2 cores "
          f"(bar: 200 games < 300 s; scaled to 200 games: {cpu / n * 200 / 2:.1f} s)")


if __name__ == "__main__":
    main()
