"""How fast `tether balance` reports, and whether the worker count changes the report.

    python3 benchmarks/bench_balance.py                # 10,000 four-player games, 2 workers
    python3 benchmarks/bench_balance.py --games 2000   # a quicker look

Runs the same seeded games with 1 worker and with every core (whole report: games, figures,
plots), prints both times, the speed-up, and whether the two reports are identical. Bars:
10,000 heuristic 4-player games under 5 minutes on 2 cores; speed-up from 1 to 2 workers at
least 1.8x. (The Dask cluster's identical result is checked by the test suite.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.analysis import html, plots, runner, stats
from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine


def once(compiled, spec, ids, workers: int) -> tuple[float, str]:
    """Seconds for one whole report, and the report as canonical JSON."""
    t = time.perf_counter()
    rep = stats.report(runner.run(compiled, spec, workers=workers, meanwhile=plots.warm), spec,
                       ids)
    with tempfile.TemporaryDirectory() as d:
        html.write(rep, Path(d), workers=workers)
    return time.perf_counter() - t, json.dumps(rep, sort_keys=True)


def main() -> None:
    """Parse arguments and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--skip-serial", action="store_true",
                    help="only the every-core run (no speed-up figure)")
    a = ap.parse_args()
    content = load_content(ROOT / "content")
    compiled = compile_engine(normalized_cards(content), content)
    ids = [c.id for c in runner.rules_of(compiled).cards]
    spec = {"games": a.games, "players": a.players, "seed": 0, "agents": ["heuristic"],
            "factions": None, "options": None}
    cores = os.cpu_count() or 1
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {cores} cores")
    t_all, rep_all = once(compiled, spec, ids, cores)
    bar = " MISSED" if a.games >= 10_000 and t_all > 300 else ""
    print(f"{a.games} heuristic {a.players}-player games, {cores} workers: {t_all:.1f} s "
          f"({a.games / t_all:.0f} games/s)" + (f"  (bar < 300 s{bar})"
                                              if a.games >= 10_000 else ""))
    if not a.skip_serial:
        t_one, rep_one = once(compiled, spec, ids, 1)
        up = t_one / t_all
        print(f"1 worker: {t_one:.1f} s; speed-up {up:.2f}x  (bar >= 1.8x"
              f"{' MISSED' if up < 1.8 else ''})")
        print(f"reports identical for 1 and {cores} workers: {rep_one == rep_all}")


if __name__ == "__main__":
    main()
