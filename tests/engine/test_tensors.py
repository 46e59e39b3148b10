"""Observation and information-state tensors (engine/tensors.py) on the state API and in
the OpenSpiel registration."""

from __future__ import annotations

import random

import pytest

from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.state_api import new_state
from tether_build.engine.tensors import information_state_size, observation_size


def _walk(rules, players, seed, decisions):
    """A heuristic game's state after `decisions` decisions (or at its end)."""
    st = new_state(rules, players, seed)
    agents = [HeuristicAgent() for _ in range(players)]
    for a, s in zip(agents, st.agent_seeds):
        a.seed(s)
    for _ in range(decisions):
        if st.is_terminal():
            break
        p, kind, options, ctx = st.asked()
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    return st


@pytest.mark.parametrize("players", [2, 4])
def test_tensors_have_the_declared_size_all_game_long(rules, players):
    size, info = observation_size(rules, players), information_state_size(rules, players)
    assert info > size > 0
    for n in (0, 40, 200):
        st = _walk(rules, players, 5, n)
        for p in range(players):
            obs, inf = st.observation_tensor(p), st.information_state_tensor(p)
            assert len(obs) == size and len(inf) == info
            assert inf[:size] == obs
            assert all(isinstance(x, float) for x in obs)


def test_tensors_differ_when_the_public_state_differs_not_when_hidden_things_do(rules):
    st = _walk(rules, 2, 3, 60)
    p = st.current_player()
    base = st.observation_tensor(p)
    hidden = st.clone()
    hidden.game.resample(p, random.Random(7))   # other hand, draw orders, decks, dice
    assert hidden.game.s.players[1 - p].hand != st.game.s.players[1 - p].hand or (
        hidden.game.s.players[1 - p].draw != st.game.s.players[1 - p].draw)
    assert hidden.observation_tensor(p) == base
    other = st.clone()
    g = other.game
    h = g.s.players[1 - p].capital
    g.s.add_forces(1 - p, h, 1)                 # one more Force in public view
    assert other.observation_tensor(p) != base
    gold = st.clone()
    gold.game.s.players[1 - p].gold += 3        # Gold is public
    assert gold.observation_tensor(p) != base
    later = _walk(rules, 2, 3, 61)
    assert later.information_state_tensor(p) != st.information_state_tensor(p) or (
        later.observation_tensor(p) != base)


def test_the_openspiel_game_declares_and_fills_the_tensors(rules):
    pyspiel = pytest.importorskip("pyspiel")
    from tether_build import openspiel

    openspiel.use_rules(rules)
    try:
        game = pyspiel.load_game("tether", {"players": 2, "seed": 4})
        assert game.get_type().provides_observation_tensor
        assert game.get_type().provides_information_state_tensor
        assert game.observation_tensor_shape() == [observation_size(rules, 2)]
        assert game.information_state_tensor_shape() == [information_state_size(rules, 2)]
        state = game.new_initial_state()
        for _ in range(30):
            state.apply_action(state.legal_actions()[0])
        p = state.current_player()
        assert list(state.observation_tensor(p)) == pytest.approx(
            state.inner.observation_tensor(p))
        assert list(state.information_state_tensor(1 - p)) == pytest.approx(
            state.inner.information_state_tensor(1 - p))
    finally:
        openspiel.use_rules(None)
