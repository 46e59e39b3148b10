"""The balance lab's speed: games per second per agent, and the time to a verdict.

    python3 benchmarks/bench_lab.py                 # every agent, the default question
    python3 benchmarks/bench_lab.py --search-games 4 --card "Quick March"

Prints, on the designer's content (4 players, every core): games/s of random, heuristic
and search agents (search plays in Python at the ladder's budget, --search-iterations, a
few games only), and for the default question ("is any faction more than 5 points from
fair?") the games and seconds until it is answered, and until every faction's verdict is
settled (or the 4,000-game budget is spent); with --card, the same for "is CARD above the
curve?" (`tether balance --card`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.analysis import lab, runner, verdicts
from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine


def rate(compiled, agent: str, games: int, workers: int, iterations: int) -> float:
    """Games per second of `agent` on every seat."""
    spec = {"games": games, "players": 4, "seed": 0, "agents": [agent], "factions": None,
            "options": None, "search_iterations": iterations}
    t = time.perf_counter()
    runner.run(compiled, spec, workers=workers)
    return games / (time.perf_counter() - t)


def main() -> None:
    """Parse arguments and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per fast agent")
    ap.add_argument("--search-games", type=int, default=2)
    ap.add_argument("--budget", type=int, default=4000)
    ap.add_argument("--search-iterations", type=int, default=8)
    ap.add_argument("--card", help="also time the card question for this card")
    a = ap.parse_args()
    content = load_content(ROOT / "content")
    compiled = compile_engine(normalized_cards(content), content)
    rules = runner.rules_of(compiled)
    names = {f: fac.name for f, fac in rules.factions.items()}
    cores = os.cpu_count() or 1
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {cores} cores")
    for agent, n in (("random", a.games), ("heuristic", a.games),
                     ("search", a.search_games)):
        if n:
            it = f", {a.search_iterations} iterations" if agent == "search" else ""
            print(f"{agent}: {rate(compiled, agent, n, cores, a.search_iterations):.3g} "
                  f"games/s ({n} four-player games, {cores} workers{it})")
    spec = {"games": 0, "players": 4, "seed": 0, "agents": ["heuristic"], "factions": None,
            "options": None}

    def play(start, n):
        return runner.run(compiled, dict(spec, games=n), workers=cores, start=start)

    t = time.perf_counter()
    first: list = []

    def settled(r) -> bool:
        v = verdicts.factions(r["this"], 4, names)
        if v["answer"] != "not settled" and not first:
            first.append((time.perf_counter() - t, len(r["this"]), v["answer"]))
        return v["settled"]

    recs, _trace = lab.sequential({"this": play}, a.budget, settled)
    took = time.perf_counter() - t
    v = verdicts.factions(recs["this"], 4, names)
    if first:
        print(f"time to the answer of the default question: {first[0][0]:.1f} s, "
              f"{first[0][1]} games (answer: {first[0][2]})")
    print(f"time to every faction's verdict (budget {a.budget}): {took:.1f} s, "
          f"{len(recs['this'])} games, every faction settled: {v['settled']}")
    for s in v["sentences"]:
        print("  " + s)
    if a.card:
        card(compiled, rules, a.card, play, a.budget)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def card(compiled, rules, name: str, play, budget: int) -> None:
    """Time 'is NAME above the curve?' to its verdict (or the budget)."""
    from tether_build.analysis import cardquestion
    from tether_build.cli.balance import card_meta

    meta = card_meta(rules)
    cid = cardquestion.find(name, meta["names"], meta["names"])
    q = cardquestion.CardQuestion(cid, set(meta["power"]), meta["names"], meta["ages"])
    t = time.perf_counter()
    lab.sequential({"this": play}, budget, lambda r: q.look(r["this"])["verdict"]
                   != "not settled")
    ans = q.answer(budget)
    print(f"time to the card question ({ans['name']}): {time.perf_counter() - t:.1f} s, "
          f"{ans['games']} games ({ans['ended']}): {ans['sentence']}")

if __name__ == "__main__":
    main()
