"""Whom the heuristic's effects land on, and how often four-player games stall, read from the
logs of seeded games (the same games as `tether simulate --players 4 --agents heuristic`).

    python3 benchmarks/bench_aims.py                  # 400 games from seed 31
    python3 benchmarks/bench_aims.py --games 100 --seed 31

Prints every target an effect resolved on, by effect (harmful, helpful, either: read from
the compiled step, analysis/aims.py), step kind, whose it was and whether it was locked at
declaration; the misaimed ones (harm on the acting seat's own units, help on an enemy's;
bar 0 each); and the share of games that ended at the round cap with its 95 % Wilson
interval (bar < 15 %).
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

from tether_build.analysis.aims import Tally, report, tally
from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.simulate import simulate, wilson


def main() -> None:
    """Play the games with logs, tally them, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--content", default=str(ROOT / "content"))
    a = ap.parse_args()
    content = load_content(Path(a.content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        res = simulate(rules, a.games, 4, a.seed, agents=["heuristic"], log_dir=Path(tmp))
        total = Tally()
        for path in sorted(Path(tmp).glob("game-*.jsonl")):
            with path.open() as fh:
                total = total + tally([json.loads(line) for line in fh], rules, path.stem)
    print(f"{a.games} four-player heuristic games from seed {a.seed} in "
          f"{time.perf_counter() - t0:.1f} s")
    print(report(total, a.games))
    for why in ("harm on own", "help on enemy"):
        n = total.total(why)
        print(f"{why}: {n}  (bar 0{' MISSED' if n else ''})")
    cap = res["endings"].get("round_cap", 0)
    lo, hi = wilson(cap, a.games)
    print(f"ended at the round cap: {cap}/{a.games} = {cap / a.games:.1%} "
          f"[{lo:.1%}, {hi:.1%}]  (bar < 15 %{' MISSED' if cap / a.games >= 0.15 else ''})")


if __name__ == "__main__":
    main()
