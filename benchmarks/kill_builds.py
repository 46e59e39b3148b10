"""Kill `tether build` with SIGKILL at seeded random points, 20 times (issue 43).

    python3 benchmarks/kill_builds.py                   # full build, 20 kills, seed 1
    python3 benchmarks/kill_builds.py --kills 5 --only validate --only notes --slow 0.1
    python3 benchmarks/kill_builds.py --last --slow 0.02 --max-delay 2   # aim at the swap

A throw-away project (tool, templates, schemas and the cut-down fixture content of
tests/build_edits.Project) is built from the old content; the new content has one card's text
edited. Each kill puts the old build back, starts the new build, and kills its process
group after a random number of progress lines and a random delay (up to --max-delay s);
then the next command's first act (buildlock.output_lock: complete or roll back the swap,
remove dead writers' temporary files) runs, and the outputs must be all-old or all-new,
as the manifest says; last the new build runs to its end and must leave no temporary file,
staging folder or lock file. Prints one line per kill and the totals; exit 1 on any mix or
leftover. --slow adds seconds to each file of the swap (a slow disk), so more kills land
inside it. The suite runs 3 such kills (tests/test_build_kill.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from build_edits import _sub
from build_kills import Killer


def _edit(content: Path) -> None:
    _sub(content / "cards" / "starter.yaml", r'^(    text: "[^"\n]*?)\."$', r'\1. At once."')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--max-delay", type=float, default=3.0)
    parser.add_argument("--slow", type=float, default=0.0)
    parser.add_argument("--last", action="store_true",
                        help="kill after the last progress line (as the swap starts)")
    args = parser.parse_args()
    options = tuple(x for stage in args.only for x in ("--only", stage)) + ("--paper", "a4")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tether-kills-") as tmp:
        start = time.perf_counter()
        killer = Killer(Path(tmp) / "project", options, _edit, args.slow)
        print(f"set up in {time.perf_counter() - start:.0f} s: {killer.lines} progress "
              f"lines, {len(killer.old)} outputs, {len(killer.changed)} changed by the edit",
              flush=True)
        kills = []
        for n in range(1, args.kills + 1):
            kill = killer.trial(rng, args.max_delay, last=args.last)
            kills.append(kill)
            print(f"{n:3d}. after line {kill.line}/{killer.lines} + {kill.delay:.2f} s: "
                  f"{'ended before the kill' if kill.ended else 'killed'}"
                  f"{', in the swap (' + kill.in_swap + ')' if kill.in_swap else ''}; "
                  f"right after: {kill.raw}; next command: {kill.tidy or 'nothing to do'}; "
                  f"outputs {kill.verdict}; left after the next build: {kill.left or 'none'}"
                  f"{'; ' + ', '.join(kill.differs[:5]) if kill.differs else ''}", flush=True)
    verdicts = Counter(k.verdict for k in kills)
    swaps = Counter(k.in_swap for k in kills if k.in_swap)
    bad = [k for k in kills if k.verdict == "MIXED" or k.left or k.differs]
    print(f"{len(kills)} kills: {verdicts['old']} all-old, {verdicts['new']} all-new, "
          f"{verdicts['MIXED']} mixed; {sum(swaps.values())} inside the swap "
          f"({dict(swaps)}); {sum(1 for k in kills if k.raw == 'MIXED')} mixed right after "
          f"the kill (before the next command); {sum(1 for k in kills if k.left)} with "
          f"leftovers after the next build; {time.perf_counter() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
