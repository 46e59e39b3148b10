"""How strong and how fast the search agent (engine/search.py) is, in seeded matches.

    python3 benchmarks/bench_search.py                       # the default sizes
    python3 benchmarks/bench_search.py --heuristic 40 --bot 10 --four 12 --iterations 24

Prints, each with its 95 % Wilson interval and the machine's load average before and after:
- search against the heuristic, 2 players, seats swapped (game k: the search sits at seat
  k % 2; bar >= 65 %);
- search against OpenSpiel's ISMCTSBot (random-rollout evaluator, `tether_build.openspiel`),
  2 players, seats swapped, at the same CPU time per move: the bot's simulations per move
  are set, move by move, to the search's CPU-s per searched decision (measured in the first
  match) over the bot's mean CPU-s per simulation so far (at least 2 simulations: its first
  only expands the root);
- one search seat against three heuristic seats, 4 players, the search seat rotating (a
  fair share is 25 %);
- the search's CPU-s per searched decision, its iterations and the tree's depth.
A shared win counts 1/k for each of the k winners.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.play import play_game
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.search import Params, SearchAgent
from tether_build.engine.simulate import wilson


def load() -> str:
    """The load average, as printed."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Tally:
    """Wins of the search seat and the search's cost over a match."""

    def __init__(self, name: str):
        self.name, self.games, self.wins = name, 0, 0.0
        self.cpu = self.searches = self.iterations = self.depth = 0
        self.t0 = time.perf_counter()

    def add(self, winners, seat: int, agent: SearchAgent) -> None:
        """One finished game."""
        self.games += 1
        self.wins += (seat in winners) / len(winners) if winners else 0.0
        st = agent.stats
        self.cpu += st["cpu"]
        self.searches += st["searches"]
        self.iterations += st["iterations"]
        self.depth = max(self.depth, st["depth"])

    def per_decision(self) -> float:
        """CPU-s per searched decision."""
        return self.cpu / max(self.searches, 1)

    def line(self, bar: float | None = None) -> str:
        """The match's figures in one line."""
        lo, hi = wilson(self.wins, self.games)
        share = self.wins / max(self.games, 1)
        miss = "" if bar is None else f"  (bar >= {bar:.0%}{' MISSED' if share < bar else ''})"
        return (f"{self.name}, {self.games} games: {share:.1%} [{lo:.1%}, {hi:.1%}]{miss}; "
                f"{self.per_decision():.3f} CPU-s per searched decision "
                f"({self.searches} searches, {self.iterations / max(self.searches, 1):.0f} "
                f"iterations each, tree depth up to {self.depth}); "
                f"{time.perf_counter() - self.t0:.0f} s wall; load {load()}")


def versus_heuristic(rules, games: int, prm: Params, players: int = 2,
                     base: int = 30_000, first: int = 0) -> Tally:
    """Search at seat k % players of game k (k from `first`), the heuristic at the others."""
    t = Tally(f"search vs heuristic, {players} players")
    for k in range(first, first + games):
        seat = k % players
        s = SearchAgent(params=prm)
        agents = [HeuristicAgent() for _ in range(players)]
        agents[seat] = s
        g = play_game(rules, players, base + k // players, agents)
        t.add(g.s.winner or [], seat, s)
        print(f"  game {k}: seat {seat} {'won' if seat in (g.s.winner or []) else 'lost'}, "
              f"winners {g.s.winner}, round {g.s.round}, {s.stats['searches']} searches, "
              f"{s.stats['cpu']:.1f} CPU-s searching", flush=True)
    return t


def versus_bot(rules, games: int, prm: Params, per_decision: float,
               base: int = 40_000) -> tuple[Tally, int, float]:
    """Search against OpenSpiel's ISMCTSBot, seats swapped, the bot's simulations per move
    set for the search's CPU-s per searched decision."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from tether_build import openspiel

    openspiel.use_rules(rules)
    t = Tally("search vs OpenSpiel ISMCTSBot, 2 players")
    sims = 2   # (at least 2: the first simulation only expands the root)
    bot_cpu = bot_moves = bot_sims = 0.0
    for k in range(games):
        seat = k % 2
        game = pyspiel.load_game("tether", {"players": 2, "seed": base + k // 2})
        rng = np.random.RandomState(k)
        s = SearchAgent(params=prm)
        state = game.new_initial_state()
        inner = state.inner
        s.seed(inner.agent_seeds[seat])
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            if p == seat:
                _q, kind, options, ctx = inner.asked()
                i = inner.game.ask(s, p, kind, options, ctx)
                state.apply_action(inner.action_ids()[i])
            elif len(legal) == 1:
                state.apply_action(legal[0])
            else:
                bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                                       max_simulations=sims, random_state=rng)
                c0 = time.process_time()
                state.apply_action(bot.step(state))
                spent = time.process_time() - c0
                bot_cpu += spent
                bot_moves += 1
                bot_sims += sims
                # the same CPU time per move: the bot's mean CPU-s per simulation so far
                sims = max(2, round(per_decision / (bot_cpu / bot_sims)))
        t.add([q for q, r in enumerate(state.returns()) if r > 0], seat, s)
        print(f"  game {k}: search at seat {seat}, returns {state.returns()}, "
              f"{s.stats['searches']} searches, {s.stats['cpu']:.1f} CPU-s searching; bot "
              f"{bot_moves:.0f} moves, {bot_cpu:.1f} CPU-s, {bot_sims:.0f} simulations so far",
              flush=True)
    openspiel.use_rules(None)
    return t, bot_sims / max(bot_moves, 1), bot_cpu / max(bot_moves, 1)


def main() -> None:
    """Parse arguments, load the content, run the matches, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heuristic", type=int, default=40, help="2-player games vs heuristic")
    ap.add_argument("--bot", type=int, default=10, help="2-player games vs ISMCTSBot")
    ap.add_argument("--four", type=int, default=12, help="4-player games, one search seat")
    ap.add_argument("--first", type=int, default=0,
                    help="the first game number of the matches (to split a match over "
                         "processes: game k is the same game in every run)")
    ap.add_argument("--iterations", type=int, default=Params.iterations)
    ap.add_argument("--per-decision", type=float, default=0.3,
                    help="the bot's CPU-s per move when the first match is not run")
    ap.add_argument("--content", default=str(ROOT / "content"))
    a = ap.parse_args()
    content = load_content(Path(a.content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    prm = Params(iterations=a.iterations)
    print(f"search parameters: {prm}")
    print(f"load average before: {load()}; CPUs: {os.cpu_count()}", flush=True)
    lines = []
    per = a.per_decision
    if a.heuristic:
        t = versus_heuristic(rules, a.heuristic, prm, first=a.first)
        per = t.per_decision()
        lines.append(t.line(0.65))
        print(lines[-1], flush=True)
    if a.bot:
        t, sims, bot = versus_bot(rules, a.bot, prm, per)
        lines.append(t.line() + f"; ISMCTSBot {sims:.1f} simulations, {bot:.3f} CPU-s a move")
        print(lines[-1], flush=True)
    if a.four:
        t = versus_heuristic(rules, a.four, prm, players=4, first=a.first)
        lines.append(t.line(0.25).replace("bar >=", "fair share"))
        print(lines[-1], flush=True)
    print("\n".join(["", "summary:"] + lines))


if __name__ == "__main__":
    main()
