"""The build's differential test, long: incremental build = clean build after every edit.

    python3 benchmarks/differential.py                  # seed 1, 20 edits (about 10 minutes)
    python3 benchmarks/differential.py --seed 7 --steps 50 --keep /tmp/diff

A copy of the tool and a cut-down fixture project are made in a temporary folder (or --keep
DIR); a seeded series of designer edits (glossary renames with and without --names,
constants, card text and effect, cards added and removed, rules sentences, templates, style
sheets and icons, card art) is applied one by one, and after each `tether build --verify`
builds incrementally, then from nothing, and compares every output byte for byte. The suite
runs a short series (tests/test_build_differential.py); the edits are in tests/build_edits.py.
Exit 1 on the first difference, with the files that differ and the edits that led there.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from build_edits import Project, apply, sequence


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--keep", type=Path, help="make the project here and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tether-differential-") as tmp:
        root = args.keep or Path(tmp) / "project"
        project = Project.make(root)
        start = time.perf_counter()
        project.build()
        rng = random.Random(args.seed)
        kinds = sequence(rng, args.steps)
        done_so_far = []
        for n, (done, proc) in enumerate(apply(project, kinds, rng), 1):
            done_so_far.append(done)
            ok = proc.returncode == 0
            print(f"{n:3d}. {done:<60} {'identical' if ok else 'DIFFERS'}", flush=True)
            if not ok:
                print(proc.stderr, file=sys.stderr)
                print("edits so far (seed {}):\n  {}".format(args.seed,
                      "\n  ".join(done_so_far)), file=sys.stderr)
                return 1
        print(f"{args.steps} edits, every incremental build byte-identical to a clean build "
              f"(seed {args.seed}, {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
