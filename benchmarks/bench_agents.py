"""How sensibly the agents play, read from the game logs of seeded games.

    python3 benchmarks/bench_agents.py                 # 200 four-player games, 200 duels
    python3 benchmarks/bench_agents.py --games 40      # a quicker look

Prints, for the heuristic agent on the project's content:
- absurd plays over the 4-player games (bar 0): harm on one's own units where the card
  allowed another target, help (heals, buffs) on enemies, Victory buy bids that leave the
  bidder less Gold than the dearest card in its hand asks this round (no plan left);
- the share of 4-player games that end at the round cap (bar < 20 %), battles and cards
  played per game;
- heuristic against random in 2-player games, seats swapped (bar >= 90 %), with the 95 %
  Wilson interval;
- search (default budget) against heuristic in 2-player games, seats swapped (bar >= 65 %),
  and the search agent's seconds per searched decision (bar < 0.5 s).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.analysis.aims import tally
from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.play import play_game
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.search import SearchAgent
from tether_build.engine.simulate import wilson


def absurd(events: list[dict], rules) -> dict:
    """Count the absurd plays of one game's log (the targets: analysis/aims.py, every
    target an effect resolved on, forced ones too)."""
    aims = tally(events, rules)
    out = {"harm aimed at own units": aims.total("harm on own"),
           "help aimed at enemies": aims.total("help on enemy"),
           "Victory bids leaving no Gold for the hand": 0}
    for e in events:
        if e["e"] == "bids" and rules.by_id[e["card"]].vp:
            for p, (kind, x) in e["bids"].items():
                if kind == "buy" and e["gold"][p] - x < e["need"][p]:
                    out["Victory bids leaving no Gold for the hand"] += 1
    return out


def four_player(rules, games: int) -> None:
    """Absurd plays, round-cap share, battles and cards per game."""
    total = {}
    cap = battles = played = 0
    t = time.perf_counter()
    for seed in range(games):
        g = play_game(rules, 4, seed, [HeuristicAgent() for _ in range(4)], log=True)
        for k, v in absurd(g.events, rules).items():
            total[k] = total.get(k, 0) + v
        cap += g.s.end_reason == "round_cap"
        battles += sum(e["e"] == "battle" for e in g.events)
        played += sum(e["e"] == "play" for e in g.events)
    lo, hi = wilson(cap, games)
    print(f"4-player heuristic games: {games} in {time.perf_counter() - t:.1f} s")
    for k, v in total.items():
        print(f"  absurd: {k}: {v}  (bar 0{' MISSED' if v else ''})")
    print(f"  ended at the round cap: {cap / games:.0%} [{lo:.0%}, {hi:.0%}]  (bar < 20 %"
          f"{' MISSED' if cap / games >= 0.2 else ''})")
    print(f"  battles per game: {battles / games:.2f}; cards played per game: "
          f"{played / games:.1f}")


def duel(rules, games: int) -> None:
    """Heuristic against random, 2 players, seats swapped every other game."""
    wins = 0
    for seed in range(games):
        h = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[h] = HeuristicAgent()
        g = play_game(rules, 2, 10_000 + seed, agents)
        wins += (h in g.s.winner) / len(g.s.winner)
    lo, hi = wilson(wins, games)
    print(f"heuristic vs random, 2 players, {games} games: {wins / games:.0%} "
          f"[{lo:.0%}, {hi:.0%}]  (bar >= 90 %{' MISSED' if wins / games < 0.9 else ''})")


def search_duel(rules, games: int) -> None:
    """Search (default budget) against heuristic, 2 players, seats swapped."""
    wins = secs = searches = 0
    for seed in range(games):
        s = SearchAgent()
        agents = [HeuristicAgent(), HeuristicAgent()]
        agents[seed % 2] = s
        g = play_game(rules, 2, 20_000 + seed, agents)
        wins += (seed % 2 in g.s.winner) / len(g.s.winner)
        secs += s.stats["seconds"]
        searches += s.stats["searches"]
    lo, hi = wilson(wins, games)
    per = secs / max(searches, 1)
    print(f"search vs heuristic, 2 players, {games} games: {wins / games:.0%} "
          f"[{lo:.0%}, {hi:.0%}]  (bar >= 65 %{' MISSED' if wins / games < 0.65 else ''})")
    print(f"  search seconds per searched decision: {per:.3f}  (bar < 0.5"
          f"{' MISSED' if per >= 0.5 else ''})")


def main() -> None:
    """Parse arguments, load the content, print every figure."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--search-games", type=int, default=40)
    ap.add_argument("--content", default=str(ROOT / "content"))
    a = ap.parse_args()
    content = load_content(Path(a.content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    four_player(rules, a.games)
    duel(rules, a.games)
    search_duel(rules, a.search_games)


if __name__ == "__main__":
    main()
