"""The native search agent (nsearch) against OpenSpiel's ISMCTSBot, 2- and 4-player matches.

    python3 benchmarks/bench_nsearch_openspiel.py --two 20 --four 12      # the defaults
    python3 benchmarks/bench_nsearch_openspiel.py --two 20 --four 0 --bot-sims 3
    python3 benchmarks/bench_nsearch_openspiel.py --sims 144 --bot-sims 2  # equal CPU, higher
    python3 benchmarks/bench_nsearch_openspiel.py --jobs 2                 # 2 processes

The game is OpenSpiel's `tether_native` (`import tether_build.openspiel`: the native
engine's state, the default factions and rules options), set up from a seed. 2-player
games: seeds `--base`, `--base`+1, ..., each played twice with the seats swapped (nsearch
at seat 0, then at seat 1). 4-player games: one nsearch seat (seat k % 4 in game k, seeds
`--base4`+k) and three ISMCTSBot seats (an equal seat wins 25 %).

At each decision of the nsearch seat with two options or more, the native engine plays the
same seeded game again from its setup by the answers so far (the state's history, every
seat's; the search's `replay`) and answers that decision as nsearch does in a native game
(a search at an Action Step choice and at a bid, the heuristic elsewhere), stopping there.
The search in it reads only its seat's information (it deals every world again). Its CPU a
move is measured two ways: the search alone (the engine's clock around each search) and the
whole answer with the replay (process CPU around the call; the replay is this benchmark's
way in, not part of the agent).

ISMCTSBot is OpenSpiel's (random-rollout evaluator, one rollout, uct_c 2, max-visit final
policy), a fresh bot each move, seeded from the game's number: it gets `--bot-sims`
simulations a move (2 at least: with 1 its final policy has no visits). Its CPU a move is
process CPU around `bot.step`. The budget is a fixed number (not the clock), so a run is
deterministic: the same flags give the same games. Choose `--bot-sims` so the two CPU
figures per move are equal (the script prints both and the ratio); at its minimum of 2 the
bot already spends more CPU a move than nsearch at its default budget (it then has the
advantage of time). Prints each game, the win rates with 95 % Wilson intervals, the CPU
a move on each side and the machine's load.
"""

from __future__ import annotations

import argparse
import multiprocessing
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

_W: dict = {}   # this process's rules and native engine


def _setup(content: str) -> None:
    """Load the content, its native engine, and hand the rules to the OpenSpiel game."""
    if _W:
        return
    from tether_build import openspiel

    c = load_content(Path(content))
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(c), c))
    twin = native.for_rules(rules)
    if twin is None:
        sys.exit("the native engine is not built: python3 -m tether_build.engine.native")
    openspiel.use_rules(rules)
    _W.update(rules=rules, twin=twin)


def nsearch_answer(players: int, seed: int, seat: int, history: list, search: dict) -> dict:
    """nsearch's answer at the decision the game waits at after `history` (native replay)."""
    rules, twin = _W["rules"], _W["twin"]
    agents = ["heuristic"] * players
    agents[seat] = "nsearch"
    facs = [rules.default_faction] * players
    declined: list = []
    got = twin.play(players, [(seed, facs, agents)], Options().to_dict(),
                    search={**search, "replay": history}, declined=declined)[0]
    if got is None or got["search"].get("answer", -1) < 0:
        raise RuntimeError(f"the native replay did not reach the decision: {declined}")
    return got["search"]


def play(job) -> dict:
    """One game: nsearch at `seat`, ISMCTSBot at every other seat. Its returns and the CPU
    seconds and moves of each side."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    content, players, seed, seat, k, search, bot_sims = job
    _setup(content)
    game = pyspiel.load_game("tether_native", {"players": players, "seed": seed})
    rng = np.random.RandomState(1000 * players + k)
    state = game.new_initial_state()
    inner = state.inner
    out = {"seed": seed, "seat": seat, "players": players, "ns_cpu": 0.0, "ns_search": 0.0,
           "ns_moves": 0, "ns_searched": 0, "bot_cpu": 0.0, "bot_moves": 0}
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
        elif p == seat:
            c0 = time.process_time()
            got = nsearch_answer(players, seed, seat, inner.history(), search)
            out["ns_cpu"] += time.process_time() - c0
            out["ns_search"] += got["cpu"]
            out["ns_searched"] += got["searched"]
            out["ns_moves"] += 1
            _q, kind, reprs = inner.asked()
            if (got["kind"], got["n"]) != (kind, len(reprs)):
                raise RuntimeError(f"the native replay waits at {got['kind']}/{got['n']}, "
                                   f"the game at {kind}/{len(reprs)}")
            state.apply_action(inner.action_ids()[got["answer"]])
        else:
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                                   max_simulations=bot_sims, random_state=rng)
            c0 = time.process_time()
            action = bot.step(state)
            out["bot_cpu"] += time.process_time() - c0
            out["bot_moves"] += 1
            state.apply_action(action)
    out["returns"] = state.returns()
    return out


def report(rows: list, players: int, bot_sims: int) -> None:
    """Win rate with its interval and the CPU a move of both sides."""
    if not rows:
        return
    wins = sum(r["returns"][r["seat"]] for r in rows)
    n = len(rows)
    lo, hi = wilson(wins, n)
    fair = 1 / players
    ns_moves = max(sum(r["ns_moves"] for r in rows), 1)
    bot_moves = max(sum(r["bot_moves"] for r in rows), 1)
    ns = sum(r["ns_search"] for r in rows) / ns_moves
    ns_all = sum(r["ns_cpu"] for r in rows) / ns_moves
    bot = sum(r["bot_cpu"] for r in rows) / bot_moves
    searched = sum(r["ns_searched"] for r in rows)
    how = "seats swapped" if players == 2 else "one nsearch seat (rotating), three ISMCTSBot"
    print(f"{players} players, nsearch vs OpenSpiel ISMCTSBot, {how}: nsearch won {wins:g}/{n}"
          f" = {wins / n:.1%} [{lo:.1%}, {hi:.1%}] (an equal seat: {fair:.0%})")
    print(f"  CPU a move: nsearch {ns:.4f} s searching ({ns_moves} moves with a choice, "
          f"{searched} searched; {ns_all:.4f} s with this benchmark's native replay), "
          f"ISMCTSBot {bot:.4f} s ({bot_sims} simulations a move, {bot_moves} moves): the "
          f"bot's CPU a move is {bot / max(ns, 1e-9):.1f}x nsearch's search, "
          f"{bot / max(ns_all, 1e-9):.1f}x its whole answer", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default=str(ROOT / "content"))
    ap.add_argument("--two", type=int, default=20, help="2-player games (seats swapped by pairs)")
    ap.add_argument("--four", type=int, default=12, help="4-player games")
    ap.add_argument("--base", type=int, default=40_000, help="the first 2-player setup seed")
    ap.add_argument("--base4", type=int, default=41_000, help="the first 4-player setup seed")
    ap.add_argument("--bot-sims", type=int, default=2, help="ISMCTSBot's simulations a move")
    ap.add_argument("--sims", type=int, default=None, help="nsearch's simulations (default: "
                    "its own default)")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing the games")
    a = ap.parse_args()
    if a.bot_sims < 2:
        sys.exit("--bot-sims: ISMCTSBot needs 2 simulations at least")
    search = {} if a.sims is None else {"sims": a.sims}
    _setup(a.content)  # (the pool's processes are forks: they inherit it)
    load0 = os.getloadavg()
    print(f"load average at start: {load0[0]:.1f} {load0[1]:.1f} {load0[2]:.1f} "
          f"({os.cpu_count()} cores); nsearch settings: {search or 'defaults'}; ISMCTSBot "
          f"{a.bot_sims} simulations a move; {a.jobs} process(es)", flush=True)
    jobs = [(a.content, 2, a.base + k // 2, k % 2, k, search, a.bot_sims) for k in range(a.two)]
    jobs += [(a.content, 4, a.base4 + k, k % 4, k, search, a.bot_sims) for k in range(a.four)]
    pool = multiprocessing.Pool(a.jobs) if a.jobs > 1 else None
    run = pool.imap if pool else map
    c0 = time.process_time()
    rows: list = []
    for r in run(play, jobs):
        rows.append(r)
        print(f"  {r['players']}p seed {r['seed']}: nsearch at seat {r['seat']}, returns "
              f"{[round(x, 2) for x in r['returns']]}; nsearch {r['ns_search']:.2f} CPU-s "
              f"searching ({r['ns_cpu']:.2f} with the replay) over {r['ns_moves']} moves, bot "
              f"{r['bot_cpu']:.2f} CPU-s over {r['bot_moves']} moves", flush=True)
    if pool:
        pool.close()
    for players in (2, 4):
        report([r for r in rows if r["players"] == players], players, a.bot_sims)
    load1 = os.getloadavg()
    print(f"load average at end: {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}; this "
          f"process's CPU {time.process_time() - c0:.1f} s (the workers' not included)")


if __name__ == "__main__":
    main()
