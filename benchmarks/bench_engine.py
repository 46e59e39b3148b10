"""Engine speed: full games per second on one core, random agents, 2 / 4 / 6 players.

Usage: python benchmarks/bench_engine.py [--games N] [--players 2,4,6] [--repeat R] [--json]
Reports games/s, rounds/s and decisions/s (CPU time of this process, so other load on
the machine disturbs the figures less; wall-clock figures are printed too). Each player
count is measured R times (the same seeds) and the fastest run is kept: on a shared
machine the slower runs measure the neighbours.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_rules():
    """Compile the shipped content and load the engine ruleset (not timed)."""
    from tether_build.cards import normalized_cards
    from tether_build.compile import compile_engine
    from tether_build.content import load_content
    from tether_build.engine.ruleset import Ruleset

    content = load_content(ROOT / "content")
    return Ruleset.from_compiled(compile_engine(normalized_cards(content), content))


def bench(rules, players: int, games: int, seed: int = 0) -> dict:
    """Play `games` random-agent games; return the rates."""
    from tether_build.engine.agents import RandomAgent
    from tether_build.engine.play import play_game

    facs = sorted(rules.factions)
    rounds = decisions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for k in range(games):
        g = play_game(rules, players, seed + k, [RandomAgent() for _ in range(players)],
                      [facs[(k + i) % len(facs)] for i in range(players)])
        rounds += g.s.round
        decisions += g.decisions
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"players": players, "games": games, "cpu_s": round(cpu, 3),
            "wall_s": round(wall, 3), "games_per_s": round(games / cpu, 1),
            "rounds_per_s": round(rounds / cpu, 1),
            "decisions_per_s": round(decisions / cpu, 1),
            "wall_games_per_s": round(games / wall, 1),
            "avg_rounds": round(rounds / games, 2),
            "avg_decisions": round(decisions / games, 1)}


def main() -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", default="2,4,6")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rules = load_rules()
    bench(rules, 4, 5)  # warm-up (caches, imports)
    rows = [min((bench(rules, int(p), args.games) for _ in range(max(1, args.repeat))),
                key=lambda r: r["cpu_s"]) for p in args.players.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'players':>7} {'games/s':>8} {'rounds/s':>9} {'decisions/s':>11} "
          f"{'wall games/s':>12} {'avg rounds':>10}")
    for r in rows:
        print(f"{r['players']:>7} {r['games_per_s']:>8} {r['rounds_per_s']:>9} "
              f"{r['decisions_per_s']:>11} {r['wall_games_per_s']:>12} {r['avg_rounds']:>10}")


if __name__ == "__main__":
    main()
