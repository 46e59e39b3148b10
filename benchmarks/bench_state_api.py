"""What the state API (engine/state_api.py) and the OpenSpiel game cost, in CPU seconds.

    python3 benchmarks/bench_state_api.py              # 20 games a row, the project's content
    python3 benchmarks/bench_state_api.py --games 5

Prints, for random-agent games (4 players; Python engine):
- a game played with the rules calling the agents (the old loop) and through the state
  API (`state_api.play`), and the difference per decision;
- `clone()` of a state in its 4th round (run when first used: the time includes that run),
  and `resample_from_infostate`;
- OpenSpiel's `random_sim_test` (1 simulation, 2/4/6 players), if pyspiel is installed;
- with the native engine built, the native state (engine/native/nstate.py) beside the
  Python one: a random playout (2 and 4 players: the caller answering each decision with a
  random legal id, and the native engine's own playout), actions a second, and `clone()`
  in round 4 (`--native-only`: these rows alone).
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

from tether_build.content.cards import normalized_cards
from tether_build.content.load import load_content
from tether_build.effects.compile import compile_engine
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


def _walk(st, rng) -> int:
    n = 0
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
        n += 1
    return n


def native_rows(rules, games: int) -> None:
    """The native state against the Python state: playouts, actions a second, clones."""
    from tether_build.engine import native
    from tether_build.engine.native.nstate import new_native_state

    if not native.available():
        print("native engine not built: no native state rows")
        return
    make = {"python": new_state, "native": new_native_state}
    for players in (2, 4):
        for name, new in make.items():
            n = max(2, games // 4) if name == "python" else games
            steps = []
            t = _cpu(lambda new=new, n=n, steps=steps, players=players: steps.extend(
                _walk(new(rules, players, 100 + s), random.Random(s)) for s in range(n)))
            print(f"{players} players, {name} state, random playout answered from Python: "
                  f"{t / n * 1000:.1f} CPU-ms a game, {sum(steps) / t:,.0f} actions/s "
                  f"({sum(steps) / n:.0f} decisions a game)")
        steps = []
        t = _cpu(lambda steps=steps, players=players: steps.extend(
            new_native_state(rules, players, 100 + s).playout(s) for s in range(games)))
        print(f"{players} players, native state, the engine's own random playout: "
              f"{t / games * 1000:.2f} CPU-ms a game, {sum(steps) / t:,.0f} actions/s")
    for name, new in make.items():
        st = new(rules, 4, 1)
        st.clone()   # (the Python state keeps snapshots once cloned; the native one always)
        rng = random.Random(0)
        while not st.is_terminal() and (st.game.s.round if name == "python"
                                        else st.info()["round"]) < 4:
            st.apply_action(rng.choice(st.legal_actions()))
        k = 20 if name == "python" else 500
        t_clone = _cpu(lambda st=st: st.clone().legal_actions(), k)
        print(f"{name} state, 4 players, clone() in round 4 and its first use: "
              f"{t_clone * 1000:.3f} CPU-ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    ap.add_argument("--native-only", action="store_true")
    args = ap.parse_args()
    content = load_content(args.content)
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    native_rows(rules, args.games)
    if args.native_only:
        return
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
