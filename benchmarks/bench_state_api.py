"""What the state API (engine/state_api.py) and the OpenSpiel game cost, in CPU seconds.

    python3 benchmarks/bench_state_api.py              # 20 games a row, the project's content
    python3 benchmarks/bench_state_api.py --games 5

Prints, for random-agent games (4 players; Python engine):
- a game played with the rules calling the agents (the old loop) and through the state
  API (`state_api.play`), and the difference per decision;
- `clone()` of a state in its 4th round (run when first used: the time includes that run),
  and `resample_from_infostate`;
- OpenSpiel's `random_sim_test` (1 simulation, 2/4/6 players), if pyspiel is installed.
CPU seconds (process time): the figures hold on a loaded machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.cards import normalized_cards
from tether_build.compile import compile_engine
from tether_build.content import load_content
from tether_build.engine.agents import RandomAgent
from tether_build.engine.play import run
from tether_build.engine.ruleset import Ruleset
from tether_build.engine.setup import new_game
from tether_build.engine.state_api import new_state, play


def _cpu(fn, n: int = 1) -> float:
    t = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - t) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    args = ap.parse_args()
    content = load_content(args.content)
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    n, decisions = args.games, 0
    t_old = _cpu(lambda: [run(new_game(rules, 4, s, [RandomAgent() for _ in range(4)]))
                          for s in range(n)])
    states = []

    def api():
        for s in range(n):
            st = new_state(rules, 4, s, whole_plays=[False] * 4, snapshots=False)
            play(st, [RandomAgent() for _ in range(4)])
            states.append(len(st.history()))
    t_api = _cpu(api)
    decisions = sum(states)
    print(f"random 4-player game, old loop: {t_old / n * 1000:.1f} ms; state API: "
          f"{t_api / n * 1000:.1f} ms ({(t_api - t_old) / decisions * 1e6:.1f} us more a "
          f"decision, {decisions / n:.0f} decisions a game)")
    st = new_state(rules, 4, 1)
    st.clone()   # a state once cloned keeps a snapshot as each round starts
    rng = random.Random(0)
    while not st.is_terminal() and st.game.s.round < 4:
        st.apply_action(rng.choice(st.legal_actions()))
    t_clone = _cpu(lambda: st.clone().legal_actions(), 20)
    t_res = _cpu(lambda: st.resample_from_infostate(st.current_player(), rng.random), 20)
    print(f"clone in round {st.game.s.round} (run on first use): {t_clone * 1000:.1f} ms; "
          f"resample_from_infostate: {t_res * 1000:.1f} ms")
    try:
        import pyspiel

        from tether_build import openspiel
    except ImportError:
        print("pyspiel not installed: pip install -e .[openspiel]")
        return
    openspiel.use_rules(rules)
    for p in (2, 4, 6):
        game = pyspiel.load_game("tether", {"players": p})
        t = _cpu(lambda game=game: pyspiel.random_sim_test(game, 1, False, False))
        print(f"pyspiel.random_sim_test, {p} players, 1 simulation: {t:.1f} s")


if __name__ == "__main__":
    main()
