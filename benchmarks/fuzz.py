"""The content fuzzers, long: the suite's seeded fuzz tests with more mutants.

    python3 benchmarks/fuzz.py                 # 400 mutants (the suite runs 100)
    python3 benchmarks/fuzz.py --mutants 1000

The suite runs tests/test_fuzz.py (every mutant a located error or valid: 100 mutants in
four seeded batches) and the native engine's fuzzed-content test (a fifth as many mutants,
each played by both engines) at a size that keeps CI short. The batches are seeded, so the
suite's mutants are the first ones of this run's: this run checks those and more.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/test_fuzz.py", "tests/engine/test_native.py::test_fuzzed_content_plays_the_same"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=400)
    args = parser.parse_args()
    env = dict(os.environ, TETHER_FUZZ_MUTANTS=str(args.mutants))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *TESTS], cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
