"""Speed of `tether check` on the shipped content: the whole command, and its phases.

Usage: python benchmarks/bench_check.py [--games N] [--repeat R] [--json]
Prints the wall-clock seconds of `tether check` run as a user runs it (a fresh process:
imports, validation, scenarios, sweep, drift) and the CPU seconds it and its sweep workers
used (on a busy machine the wall clock measures the neighbours too; the CPU time much
less), then the phases measured in-process. The bar (the speed issue, as in run_all.py) is
2 s on the development machine; the first check's budget was 10 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGET_S = 2.0


def command_seconds(games: int | None) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of it and its workers) of one `tether check` in a
    fresh process."""
    args = [sys.executable, "-c", "from tether_build.cli import run; run()", "check",
            "--content", str(ROOT / "content")]
    if games is not None:
        args += ["--games", str(games)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(args, check=False, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def phases(games: int | None) -> dict:
    """Seconds of each phase, in-process (validation, normalizing, check)."""
    from tether_build.check import DEFAULT_GAMES, run_check
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate

    t0 = time.perf_counter()
    content = validate(ROOT / "content")
    t1 = time.perf_counter()
    cards = normalized_cards(content)
    t2 = time.perf_counter()
    report = run_check(content, cards, games=DEFAULT_GAMES if games is None else games)
    return {"validate_s": round(t1 - t0, 3), "normalize_s": round(t2 - t1, 3),
            **{f"{k}_s": v for k, v in report.seconds.items()},
            "scenarios": report.scenarios, "games": report.sweep.get("games", 0),
            "cards": f"{report.resolved}/{report.total}", "ok": report.ok}


def main() -> None:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=None, help="sweep size (default: tuned)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    measured = [command_seconds(args.games) for _ in range(args.repeat)]
    runs, cpus = [w for w, _ in measured], [c for _, c in measured]
    out = {"command_s": {"median": round(statistics.median(runs), 3),
                         "min": round(min(runs), 3), "max": round(max(runs), 3)},
           "command_cpu_s": {"median": round(statistics.median(cpus), 3),
                             "min": round(min(cpus), 3), "max": round(max(cpus), 3)},
           "budget_s": BUDGET_S, "within_budget": max(runs) < BUDGET_S,
           "phases": phases(args.games)}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    c = out["command_s"]
    u = out["command_cpu_s"]
    print(f"tether check: median {c['median']} s (min {c['min']}, max {c['max']}) over "
          f"{args.repeat} runs; budget {BUDGET_S} s")
    print(f"  CPU (the command and its sweep workers): median {u['median']} s "
          f"(min {u['min']}, max {u['max']})")
    for k, v in out["phases"].items():
        print(f"  {k:<14} {v}")


if __name__ == "__main__":
    main()
