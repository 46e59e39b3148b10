"""The state API (engine/state_api.py): a game that waits for an action gives the same game
as the rules calling the agents, clones are exact, ids are stable."""

from __future__ import annotations

import random

import pytest

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.play import run
from tether_build.engine.setup import new_game
from tether_build.engine.state_api import NUM_ACTIONS, TERMINAL, new_state, play


def _old_loop(rules, players, seed, agents):
    """The rules calling the agents (the engine before the state API)."""
    g = new_game(rules, players, seed, agents, None, None, [])
    run(g)
    return g


@pytest.mark.parametrize("players,seed,kind", [(2, 5, "heuristic"), (3, 8, "random"),
                                               (4, 11, "random")])
def test_the_state_api_plays_the_same_game_as_the_old_loop(rules, players, seed, kind):
    make = HeuristicAgent if kind == "heuristic" else RandomAgent
    old = _old_loop(rules, players, seed, [make() for _ in range(players)])
    st = new_state(rules, players, seed, whole_plays=[kind == "heuristic"] * players, log=True)
    winners = play(st, [make() for _ in range(players)])
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert winners == old.s.winner
    assert st.events() == old.events
    assert st.game.s.digest() == old.s.digest()


def _walk(st, rng, steps):
    for _ in range(steps):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))


def test_clone_is_exact_and_independent(rules):
    rng = random.Random(1)
    st = new_state(rules, 3, 21, log=True)
    _walk(st, rng, 300)
    assert st.game.s.round >= 2   # past a round start: the clone re-runs from a snapshot
    c = st.clone()
    assert c.history() == st.history() and c.events() == st.events()
    assert c.legal_actions() == st.legal_actions()
    for p in range(3):
        assert c.information_state_string(p) == st.information_state_string(p)
    seq = random.Random(2)
    a, b = random.Random(3), random.Random(3)
    _walk(st, a, 150)
    _walk(c, b, 150)
    assert c.events() == st.events() and c.game.s.digest() == st.game.s.digest()
    d = new_state(rules, 3, 21, log=True)   # a fresh re-run of the same answers
    for x in st.history():
        d.apply_index(x)
    assert d.events() == st.events()
    assert seq  # (unused stream kept for readability of the two walks)


def test_actions_are_stable_ids_and_the_pending_decision_is_in_words(rules):
    st = new_state(rules, 2, 4)
    rng = random.Random(0)
    kinds = set()
    while not st.is_terminal() and len(kinds) < 4:
        ids = st.legal_actions()
        assert ids == sorted(set(ids)) and all(0 <= a < NUM_ACTIONS for a in ids)
        pend = st.pending()
        assert pend["seat"] == st.current_player()
        assert sorted(o["id"] for o in pend["options"]) == ids
        assert all(o["label"] and isinstance(o["label"], str) for o in pend["options"])
        assert st.clone().legal_actions() == ids     # the same ids in a copy
        kinds.add(pend["kind"])
        if pend["kind"] == "action":
            assert pend["secret"]
            assert any(o["label"] == "done for this round" for o in pend["options"])
        st.apply_action(rng.choice(ids))
    assert {"capital", "start_bridge"} <= kinds
    with pytest.raises(ValueError):
        st.apply_action(NUM_ACTIONS + 1)


def test_returns_and_observations(rules):
    st = new_state(rules, 2, 9)
    assert not st.is_chance_node() and st.chance_outcomes() == []
    assert st.returns() == [0.0, 0.0]
    p = st.current_player()
    assert '"decision"' in st.observation_string(p)
    assert '"decision"' not in st.observation_string(1 - p)
    play(st, [RandomAgent(), RandomAgent()])
    r = st.returns()
    assert sum(r) == pytest.approx(1.0) and max(r) > 0
    assert st.legal_actions() == [] and st.pending() is None
