"""Every figure of the README's table and of docs/performance.md, measured the way a newcomer
gets them.

    python3 benchmarks/run_all.py            # every figure, 3 rounds each (about 10 minutes)
    python3 benchmarks/run_all.py --quick    # one round each, fewer games (about 3 minutes)
    python3 benchmarks/run_all.py --tests    # also time the whole test suite
    TETHER_STOCK_LAYOUT=1 python3 benchmarks/run_all.py   # the same with no library patched

Each figure is the median of its rounds, run as whole processes on a copy of this checkout
(builds) or on it (commands), with the machine's load average printed before and after. Beside
a wall-clock figure, the median CPU seconds of the process and its workers: on a shared
machine the wall clock also measures the neighbours, the CPU much less, so it tells a slower
machine from slower code. The bars are the project's targets (issue 19); a figure that misses
its bar says MISSED.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_build  # a sibling module of this folder

ROOT = Path(__file__).resolve().parents[1]
TETHER = [sys.executable, "-c", "from tether_build.cli import run; run()"]
# a constant that no card prints: the round cap. Three rules chapters, the player aid and
# the print guide print it, the round track has a token per round, and the check plays
# its games again (the rule changes them)
CONSTANT_EDIT = ("game.yaml", "round_cap: 10", "round_cap: 9")
# a sentence of a rules chapter: the rulebook's text alone
RULES_EDIT = ("rules/04-round.md", "always in this order:", "always in the same order:")

BARS = {  # figure -> (bar, "<" for upper bounds or ">" for lower bounds, unit)
    "clean build": (20.0, "<", "s"), "nothing changed": (0.3, "<", "s"),
    "one card's text edited": (1.5, "<", "s"), "one card's effect edited": (None, "<", "s"),
    "one card's text edited, --watch running": (1.5, "<", "s"),
    "one constant no card prints": (1.5, "<", "s"), "tether check": (2.0, "<", "s"),
    "tether validate": (None, "<", "s"), "tether check, after a build": (None, "<", "s"),
    "tether validate, after a build": (0.4, "<", "s"), "card faces, both papers": (5.0, "<", "s"),
    "engine 2 players": (None, ">", "games/s/core"),
    "engine 4 players": (1000.0, ">", "games/s/core"),
    "engine 6 players": (None, ">", "games/s/core"),
    **{f"engine {n} players, Python reference": (None, ">", "games/s/core") for n in (2, 4, 6)},
    "simulate 2000 4p games (whole process)": (1500.0, ">", "games/s"),
    "test suite": (300.0, "<", "s"),
}


CPU: dict[str, list[float]] = {}  # figure -> CPU seconds of each round (whole processes)


def _seconds(cmd: list[str], cwd: Path = ROOT, figure: str | None = None) -> float:
    """Wall-clock seconds of one command in a new process; its CPU seconds (with those of
    the workers it waited for) go to CPU[figure]."""
    cpu = bench_build.cpu_of_children()
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False,
                          env=dict(os.environ, PYTHONPATH=str(cwd)))
    wall = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        sys.exit(f"failed: {' '.join(cmd[2:])}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    if figure is not None:
        CPU.setdefault(figure, []).append(bench_build.cpu_of_children() - cpu)
    return wall


def builds(rounds: int) -> dict[str, list[float]]:
    """Clean build, nothing changed, text / effect / constant edit (bench_build's copy)."""
    edits = bench_build.EDITS_EXTRA
    edits.clear()
    edits.append(("one_constant", CONSTANT_EDIT))
    edits.append(("one_rule", RULES_EDIT))
    names = {"clean": "clean build", "nothing": "nothing changed",
             "one_card": "one card's text edited", "one_effect": "one card's effect edited",
             "one_constant": "one constant no card prints",
             "one_rule": "one sentence of a rules chapter edited",
             "one_card_watched": "one card's text edited, --watch running"}
    out: dict[str, list[float]] = {v: [] for v in names.values()}
    for _ in range(rounds):
        for key, run in bench_build.run_round([]).items():
            out[names[key]].append(run["wall"])
            if run["cpu"] is not None:
                CPU.setdefault(names[key], []).append(run["cpu"])
    return out


def commands(rounds: int) -> dict[str, list[float]]:
    """tether check and tether validate, whole processes on the shipped content, in a copy
    of the project: first with no build folder (nothing remembered), then after a build
    (validate and check reuse what the build's cache holds for unchanged files)."""
    with tempfile.TemporaryDirectory(prefix="tether-bench-") as tmp:
        tmp = Path(tmp)
        bench_build.copy_project(ROOT, tmp)
        out = {}
        for name, cmd in (("tether check", ["check"]),
                          ("tether validate", ["validate", "--quiet"])):
            out[name] = [_seconds(TETHER + cmd, tmp, name) for _ in range(rounds)]
        _seconds(TETHER + ["build", "--quiet"], tmp)
        _seconds(TETHER + ["validate", "--quiet"], tmp)  # keeps the rules check's verdict
        for name, cmd in (("tether check, after a build", ["check"]),
                          ("tether validate, after a build", ["validate", "--quiet"])):
            out[name] = [_seconds(TETHER + cmd, tmp, name) for _ in range(rounds)]
    return out


def faces(rounds: int) -> dict[str, list[float]]:
    """Card faces and backs on A4 and Letter, no cache (bench_cards' measure)."""
    import bench_cards

    runs = [bench_cards.run_once(ROOT / "content", everything=False) for _ in range(rounds)]
    CPU["card faces, both papers"] = [r["cpu"] for r in runs]
    return {"card faces, both papers": [r["wall"] for r in runs]}


def engine(games: int) -> dict[str, list[float]]:
    """Random-agent games per CPU second on one core, 2/4/6 players (bench_engine): the
    native engine's (what simulate plays them with), and the Python reference's."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_engine.py"),
                           "--games", str(games), "--json"], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    rows = json.loads(done.stdout)
    if not any(r["engine"] == "native" for r in rows):
        print("the native engine is not built (scripts/setup.sh): no engine figure",
              file=sys.stderr)
    return {f"engine {r['players']} players"
            + ("" if r["engine"] == "native" else ", Python reference"): [r["games_per_s"]]
            for r in rows}


def simulate(games: int) -> dict[str, list[float]]:
    name = f"simulate {games} 4p games (whole process)"
    wall = _seconds(TETHER + ["simulate", "--games", str(games), "--players", "4",
                              "--seed", "1", "--quiet"], figure=name)
    return {name: [games / wall]}


def tests() -> dict[str, list[float]]:
    return {"test suite": [_seconds([sys.executable, "-m", "pytest", "-q", "-x"],
                                    figure="test suite")]}


def report(figures: dict[str, list[float]], loads: list[float]) -> None:
    stock = os.environ.get("TETHER_STOCK_LAYOUT", "").strip() == "1"
    print("layout: " + ("the stock libraries, no patch (TETHER_STOCK_LAYOUT=1)" if stock else
                        "with the patches of print/layout/patches.py (the default)"))
    print(f"{os.cpu_count()} cores; 1-minute load average before and after: "
          f"{loads[0]:.2f} / {loads[1]:.2f}. CPU: the median CPU seconds (user + system) of "
          "the whole process and the workers it started, which other load on the machine "
          "changes less than the wall clock")
    for name, values in figures.items():
        med = statistics.median(values)
        bar, way, unit = BARS.get(name.replace("simulate 400", "simulate 2000"),
                                  (None, "<", "s"))
        shown = f"{med:.2f} {unit}" if unit == "s" else f"{med:,.0f} {unit}"
        if bar is None:
            verdict = ""
        else:
            met = med < bar if way == "<" else med >= bar
            verdict = f"bar {way} {bar:g}: {'met' if met else 'MISSED'}"
        runs = ", ".join(f"{v:.2f}" for v in values) if len(values) > 1 else ""
        cpu = f"CPU {statistics.median(CPU[name]):.2f} s" if name in CPU else ""
        print(f"  {name:<42} {shown:>16}  {cpu:>12}  {verdict}"
              + (f"  (runs: {runs})" if runs else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one round, fewer games")
    ap.add_argument("--tests", action="store_true", help="also time the test suite")
    args = ap.parse_args()
    rounds = 1 if args.quick else 3
    loads = [os.getloadavg()[0]]
    figures: dict[str, list[float]] = {}
    figures.update(builds(rounds))
    figures.update(commands(rounds))
    figures.update(faces(rounds))
    figures.update(engine(60 if args.quick else 300))
    figures.update(simulate(400 if args.quick else 2000))
    if args.tests:
        figures.update(tests())
    loads.append(os.getloadavg()[0])
    report(figures, loads)


if __name__ == "__main__":
    main()
