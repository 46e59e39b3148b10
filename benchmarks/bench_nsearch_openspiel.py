"""The native search agent (nsearch) against OpenSpiel's ISMCTSBot, seats swapped.

    python3 benchmarks/bench_nsearch_openspiel.py --games 6        # 3 seeds, both seats
    python3 benchmarks/bench_nsearch_openspiel.py --games 2 --base 40002   # other seeds

The game is OpenSpiel's (`tether_build.openspiel`, the Python engine's state API, 2
players, the default factions and rules options). At each decision of the nsearch seat
with more than one option, the native engine plays the same seeded game again from its
setup by the answers so far (the state's history: the search's `replay`, every seat's
answers, the engines agree answer for answer) and answers that decision as nsearch does
(a search at an Action Step choice and at a bid, the heuristic elsewhere), stopping there.
The search in it reads only its seat's information (it deals every world again, as in a
whole native game). ISMCTSBot (OpenSpiel's, random-rollout evaluator, uct_c 2) gets as
many simulations a move as the CPU seconds the native answers take a move (at least 2),
adapted as the match goes. Prints each game, the win rate with its 95 % Wilson interval,
the CPU seconds a move on each side and the load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
from tether_build.engine import native
from tether_build.engine.options import Options
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.simulate import wilson


def nsearch_answer(twin, rules, seed: int, seat: int, history: list, search: dict) -> dict:
    """nsearch's answer at the decision the game waits at after `history` (native)."""
    players = 2
    agents = ["heuristic"] * players
    agents[seat] = "nsearch"
    facs = [rules.default_faction] * players
    declined: list = []
    got = twin.play(players, [(seed, facs, agents)], Options().to_dict(),
                    search={**search, "replay": history}, declined=declined)[0]
    if got is None or got["search"].get("answer", -1) < 0:
        raise RuntimeError(f"the native replay did not reach the decision: {declined}")
    return got["search"]


def play(twin, rules, seed: int, seat: int, k: int, search: dict, per_move: list) -> tuple:
    """One game: nsearch at `seat`, ISMCTSBot at the other. (returns, nsearch CPU-s and
    moves, bot CPU-s, moves and simulations)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("tether", {"players": 2, "seed": seed})
    rng = np.random.RandomState(k)
    state = game.new_initial_state()
    inner = state.inner
    ns_cpu = ns_moves = bot_cpu = bot_moves = bot_sims = 0.0
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
        elif p == seat:
            hist = inner.history()
            if any(not isinstance(x, int) for x in hist):
                raise RuntimeError("a resample in the played game's history")
            c0 = time.process_time()
            got = nsearch_answer(twin, rules, seed, seat, hist, search)
            ns_cpu += time.process_time() - c0
            ns_moves += 1
            kind, n = inner.asked()[1], len(inner.asked()[2])
            if (got["kind"], got["n"]) != (kind, n):
                raise RuntimeError(f"the native replay waits at {got['kind']}/{got['n']}, "
                                   f"the game at {kind}/{n}")
            state.apply_action(inner.action_ids()[got["answer"]])
        else:
            sims = max(2, round(per_move[0] / per_move[1])) if per_move[1] else 2
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                                   max_simulations=sims, random_state=rng)
            c0 = time.process_time()
            state.apply_action(bot.step(state))
            spent = time.process_time() - c0
            bot_cpu += spent
            bot_moves += 1
            bot_sims += sims
            per_move[1] = (per_move[1] * per_move[2] + spent / sims) / (per_move[2] + 1)
            per_move[2] += 1
        if ns_moves:
            per_move[0] = ns_cpu / ns_moves
    return state.returns(), ns_cpu, ns_moves, bot_cpu, bot_moves, bot_sims


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default=str(ROOT / "content"))
    ap.add_argument("--games", type=int, default=6, help="games (seats swapped by pairs)")
    ap.add_argument("--base", type=int, default=40_000, help="the first setup seed")
    a = ap.parse_args()
    from tether_build import openspiel

    content = load_content(Path(a.content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    twin = native.for_rules(rules)
    if twin is None:
        sys.exit("the native engine is not built: python3 -m tether_build.engine.native")
    openspiel.use_rules(rules)
    load0 = os.getloadavg()
    print(f"load average at start: {load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f}", flush=True)
    per_move = [0.05, 0.0, 0]  # nsearch CPU-s a move; the bot's CPU-s a simulation, moves
    wins = 0.0
    tot = [0.0] * 5
    for k in range(a.games):
        seat, seed = k % 2, a.base + k // 2
        got = play(twin, rules, seed, seat, k, {}, per_move)
        ret = got[0]
        if ret[seat] > 0:
            wins += ret[seat]
        tot = [x + y for x, y in zip(tot, got[1:])]
        print(f"  game {k} (seed {seed}): nsearch at seat {seat}, returns {ret}; nsearch "
              f"{got[1]:.1f} CPU-s over {got[2]:.0f} moves, bot {got[3]:.1f} CPU-s over "
              f"{got[4]:.0f} moves ({got[5]:.0f} simulations)", flush=True)
    lo, hi = wilson(wins, a.games)
    print(f"nsearch vs OpenSpiel ISMCTSBot, 2 players, seats swapped: {wins:g}/{a.games} = "
          f"{wins / a.games:.1%} [{lo:.1%}, {hi:.1%}]")
    print(f"  CPU a move: nsearch {tot[0] / max(tot[1], 1):.3f} s (the native replay "
          f"included), ISMCTSBot {tot[2] / max(tot[3], 1):.3f} s "
          f"({tot[4] / max(tot[3], 1):.1f} simulations a move)")
    load1 = os.getloadavg()
    print(f"load average at end: {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}")
    openspiel.use_rules(None)


if __name__ == "__main__":
    main()
