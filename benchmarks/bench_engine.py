"""Engine speed: full games per second on one core, random agents, 2 / 4 / 6 players.

Usage: python benchmarks/bench_engine.py [--games N] [--players 2,4,6] [--repeat R] [--json]
                                         [--engine native|python|both]
       python benchmarks/bench_engine.py --bytecodes N [--players 4] [--within]
Reports games/s, rounds/s and decisions/s (CPU time of this process, so other load on
the machine disturbs the figures less; wall-clock figures are printed too). Each player
count is measured R times (the same seeds) and the fastest run is kept: on a shared
machine the slower runs measure the neighbours.

Both engines are measured by default: the native engine (engine/native, what `tether
simulate` plays random agents' games with; N x NATIVE_GAMES games, in batches as simulate
asks for them) and the Python engine, the reference (N games).

`--bytecodes N` counts instead the Python bytecodes the engine executes per game over N
games (sys.settrace opcode events, about 100x slower): a measure of the engine's work that
no other load on the machine changes, with the functions that execute the most of them
(`--within`: also with their callees, to see where a whole piece of work goes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_rules():
    """Compile the shipped content and load the engine ruleset (not timed)."""
    from tether_build.content.cards import normalized_cards
    from tether_build.content.load import load_content
    from tether_build.effects.compile import compile_engine
    from tether_build.engine.ruleset import Ruleset

    content = load_content(ROOT / "content")
    return Ruleset.from_compiled(compile_engine(normalized_cards(content), content))


NATIVE_GAMES = 10  # the native engine plays this many times the games (a steadier clock)
BATCH = 25          # games per call into the native engine (simulate's chunk)


def bench_native(rules, players: int, games: int, seed: int = 0) -> dict | None:
    """Play `games` random-agent games in the native engine; the rates, or None if it is
    not built."""
    from tether_build.engine import native
    from tether_build.engine.options import Options

    twin = native.for_rules(rules)
    if twin is None:
        return None
    facs = sorted(rules.factions)
    opts = Options().to_dict()
    rounds = decisions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for start in range(0, games, BATCH):
        ks = range(start, min(start + BATCH, games))
        for r in twin.play(players, [(seed + k, [facs[(k + i) % len(facs)]
                                                 for i in range(players)]) for k in ks], opts):
            if r is None:
                raise RuntimeError("the native engine declined a benchmark game")
            rounds += r["round"]
            decisions += r["decisions"]
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return _rates("native", players, games, rounds, decisions, cpu, wall)


def _rates(engine: str, players: int, games: int, rounds: int, decisions: int, cpu: float,
           wall: float) -> dict:
    return {"engine": engine, "players": players, "games": games, "cpu_s": round(cpu, 3),
            "wall_s": round(wall, 3), "games_per_s": round(games / cpu, 1),
            "rounds_per_s": round(rounds / cpu, 1),
            "decisions_per_s": round(decisions / cpu, 1),
            "wall_games_per_s": round(games / wall, 1),
            "avg_rounds": round(rounds / games, 2),
            "avg_decisions": round(decisions / games, 1)}


def bench(rules, players: int, games: int, seed: int = 0) -> dict:
    """Play `games` random-agent games in the Python engine; return the rates."""
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
    return _rates("python", players, games, rounds, decisions, cpu, wall)


def bytecodes(rules, players: int, games: int, top: int = 15, within: bool = False) -> dict:
    """Python bytecodes executed per game (self, per function) over `games` games; with
    `within`, also per function the bytecodes run while it is on the stack (its callees
    included, counted once under recursion): where a whole piece of work goes."""
    count: Counter = Counter()  # code object -> its own bytecodes
    inside: Counter = Counter()  # code object -> bytecodes while it runs (with `within`)
    stack: list = []  # [code, bytecodes so far] of the running frames (with `within`)

    def tracer(frame, event, arg):
        if event == "opcode":
            count[frame.f_code] += 1
            if within:
                stack[-1][1] += 1
        elif event == "call":
            frame.f_trace_opcodes, frame.f_trace_lines = True, False
            if within:
                stack.append([frame.f_code, 0])
        elif event == "return" and within and stack:
            code, n = stack.pop()
            if all(code is not c for c, _ in stack):
                inside[code] += n
            if stack:
                stack[-1][1] += n
        return tracer
    bench(rules, players, 2)  # warm-up: caches filled outside the count
    sys.settrace(tracer)
    try:
        bench(rules, players, games)
    finally:
        sys.settrace(None)
    total = sum(count.values())

    def most(counter: Counter) -> list:
        named: Counter = Counter()
        for code, n in counter.items():
            named[f"{Path(code.co_filename).name}:{code.co_firstlineno} {code.co_name}"] += n
        return [(name, round(n / total * 100, 1)) for name, n in named.most_common(top)]
    out = {"players": players, "games": games, "bytecodes_per_game": total // games,
           "top": most(count)}
    if within:
        out["within"] = most(inside)
    return out


def main() -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", default="2,4,6")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--bytecodes", type=int, metavar="N",
                    help="count the bytecodes executed per game over N games instead")
    ap.add_argument("--within", action="store_true",
                    help="with --bytecodes: also list each function with its callees")
    ap.add_argument("--engine", choices=("native", "python", "both"), default="both")
    args = ap.parse_args()
    rules = load_rules()
    if args.bytecodes:
        got = [bytecodes(rules, int(p), args.bytecodes, within=args.within)
               for p in args.players.split(",")]
        if args.json:
            print(json.dumps(got, indent=2))
            return
        for r in got:
            print(f"{r['players']} players: {r['bytecodes_per_game']:,} bytecodes per game "
                  f"({r['games']} games); the most, per function:")
            for name, pct in r["top"]:
                print(f"  {pct:5.1f} %  {name}")
            if "within" in r:
                print("the most while a function runs (its callees included):")
                for name, pct in r["within"]:
                    print(f"  {pct:5.1f} %  {name}")
        return
    runs = []
    if args.engine in ("native", "both"):
        if bench_native(rules, 4, 5) is None:  # warm-up (loads the rules), or not built
            print("the native engine is not built (scripts/setup.sh builds it)",
                  file=sys.stderr)
        else:
            runs.append(lambda p: bench_native(rules, p, args.games * NATIVE_GAMES))
    if args.engine in ("python", "both"):
        bench(rules, 4, 5)  # warm-up (caches, imports)
        runs.append(lambda p: bench(rules, p, args.games))
    rows = [min((run(int(p)) for _ in range(max(1, args.repeat))), key=lambda r: r["cpu_s"])
            for run in runs for p in args.players.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'engine':>7} {'players':>7} {'games/s':>8} {'rounds/s':>9} {'decisions/s':>11} "
          f"{'wall games/s':>12} {'avg rounds':>10}")
    for r in rows:
        print(f"{r['engine']:>7} {r['players']:>7} {r['games_per_s']:>8} "
              f"{r['rounds_per_s']:>9} {r['decisions_per_s']:>11} {r['wall_games_per_s']:>12} "
              f"{r['avg_rounds']:>10}")


if __name__ == "__main__":
    main()
