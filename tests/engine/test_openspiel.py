"""The Last Tether as a registered OpenSpiel game (tether_build/openspiel/__init__.py): OpenSpiel's
own random simulation test and its information-set MCTS bot play it."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from tether_build import openspiel


@pytest.fixture
def spiel(rules):
    openspiel.use_rules(rules)
    yield pyspiel
    openspiel.use_rules(None)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_sim_test_passes(spiel, players):
    game = spiel.load_game("tether", {"players": players})
    assert game.get_type().dynamics == spiel.GameType.Dynamics.SEQUENTIAL
    assert game.num_players() == players
    spiel.random_sim_test(game, num_sims=1, serialize=players == 2, verbose=False)


def test_the_game_is_registered_with_its_parameters(spiel):
    assert "tether" in spiel.registered_names()
    game = spiel.load_game("tether", {"players": 3, "seed": 12,
                                      "options": "initiative:second;lead:fixed"})
    state = game.new_initial_state()
    assert not state.is_chance_node() and state.current_player() in (0, 1, 2)
    assert game.opts.initiative == "second" and game.opts.lead == "fixed"
    chance = spiel.load_game("tether", {"players": 2}).new_initial_state()
    assert chance.is_chance_node() and len(chance.chance_outcomes()) == openspiel.SEEDS
    with pytest.raises(ValueError):
        openspiel.parse_options("initiative")


def test_ismcts_bot_plays_a_complete_game(spiel):
    game = spiel.load_game("tether", {"players": 2, "seed": 5})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2,
                           random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        action = bot.step(state) if p == 0 else rng.choice(state.legal_actions())
        state.apply_action(action)
        moves += 1
    assert moves > 50 and sum(state.returns()) == pytest.approx(1.0)


def test_resample_keeps_the_seat_s_information_state(spiel):
    game = spiel.load_game("tether", {"players": 3, "seed": 8})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.inner.game.s.round < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    other = state.resample_from_infostate(p, rng.uniform)
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.legal_actions() == state.legal_actions()
    hands = [pl.hand for pl in state.inner.game.s.players]
    dealt = [pl.hand for pl in other.inner.game.s.players]
    assert hands[p] == dealt[p] and hands != dealt


@pytest.fixture
def native_spiel(spiel, native_built):
    if "tether_native" not in spiel.registered_names():   # (built after the import)
        openspiel._register_native()
    return spiel


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_sim_test_passes_on_the_native_state(native_spiel, players):
    spiel = native_spiel
    game = spiel.load_game("tether_native", {"players": players})
    assert game.get_type().dynamics == spiel.GameType.Dynamics.SEQUENTIAL
    assert game.get_type().provides_information_state_string
    assert game.get_type().provides_observation_tensor
    spiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    if players == 6:
        return
    seeded = spiel.load_game("tether_native", {"players": players, "seed": 5})
    py = spiel.load_game("tether", {"players": players, "seed": 5})
    a, b = seeded.new_initial_state(), py.new_initial_state()
    rng = np.random.default_rng(5)
    while not b.is_terminal():   # the same ids, move for move, in pyspiel's wrapper too
        assert a.legal_actions() == b.legal_actions()
        act = int(rng.choice(b.legal_actions()))
        a.apply_action(act)
        b.apply_action(act)
    assert a.is_terminal() and a.returns() == b.returns()


def test_ismcts_bot_plays_a_complete_native_game(native_spiel):
    """OpenSpiel's ISMCTSBot on `tether_native`: its information states, worlds dealt by
    the native engine (resample_from_infostate) and the native state's clones."""
    spiel = native_spiel
    game = spiel.load_game("tether_native", {"players": 2, "seed": 5})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2,
                           random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        action = bot.step(state) if p == 0 else rng.choice(state.legal_actions())
        state.apply_action(action)
        moves += 1
    assert moves > 50 and sum(state.returns()) == pytest.approx(1.0)


def test_the_native_game_s_observations_are_the_python_game_s(native_spiel):
    spiel = native_spiel
    nat = spiel.load_game("tether_native", {"players": 3, "seed": 8}).new_initial_state()
    py = spiel.load_game("tether", {"players": 3, "seed": 8}).new_initial_state()
    rng = np.random.default_rng(8)
    for _ in range(60):
        for p in range(3):
            assert nat.information_state_string(p) == py.information_state_string(p)
            assert nat.observation_string(p) == py.observation_string(p)
            assert list(nat.information_state_tensor(p)) == list(
                py.information_state_tensor(p))
        act = int(rng.choice(py.legal_actions()))
        nat.apply_action(act)
        py.apply_action(act)
    p = nat.current_player()
    other = nat.resample_from_infostate(p, np.random.RandomState(3).uniform)
    assert other.information_state_string(p) == nat.information_state_string(p)
    assert other.legal_actions() == nat.legal_actions()
