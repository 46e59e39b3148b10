"""The Python search as the native one's reference, over whole games.

    python3 benchmarks/bench_search_reference.py                 # 2 and 4 players, 2 seeds
    python3 benchmarks/bench_search_reference.py --players 2 --seeds 3 4 --sims 16
    python3 benchmarks/bench_search_reference.py --players 2 --seeds 0 --single

At every decision nsearch searches (a seat's Action Step choice and its bids, two options
or more) of seeded heuristic games on the fixture content, the Python SearchAgent and
nsearch answer from the same observation with the same stream
(tests/engine/test_search_reference.py `compare`, which the test runs on parts of games):
prints, per game, the decisions compared, those with the same choice and those with the
same root (every option's visits and summed results), and the CPU seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.engine.test_search_reference import compare
from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
from tether_build.engine.ruleset import Ruleset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default=str(ROOT / "tests" / "fixtures" / "content"))
    ap.add_argument("--players", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--seeds", type=int, nargs="+", default=[3, 5])
    ap.add_argument("--sims", type=int, default=8)
    ap.add_argument("--single", action="store_true", help="every seat offered one decision "
                    "at a time (no whole plays: a declaration can fail, and a seat's later "
                    "choice of the step is compared too)")
    a = ap.parse_args()
    c = load_content(Path(a.content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(c), c))
    for players in a.players:
        for seed in a.seeds:
            c0 = time.process_time()
            rows = compare(rules, players, seed, a.sims, single=a.single)
            same = sum(r[2] == r[4] for r in rows)
            roots = sum(r[3] == r[5] for r in rows)
            print(f"{players} players, seed {seed}, {a.sims} worlds: {len(rows)} searched "
                  f"decisions ({sum(r[0] == 'bid' for r in rows)} bids, "
                  f"{sum(r[7] for r in rows)} later choices of a step), the same choice "
                  f"{same}, the same root {roots}; {time.process_time() - c0:.1f} CPU-s",
                  flush=True)


if __name__ == "__main__":
    main()
