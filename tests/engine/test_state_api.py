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
    _walk(st, rng, 20)
    st.clone()                    # a state once cloned keeps a snapshot as each round starts
    _walk(st, rng, 100)
    assert st.game.s.round >= 3 and st._snap is not None and st._snap[0] > 20
    c = st.clone()
    assert c.history() == st.history() and c.events() == st.events()
    assert c.legal_actions() == st.legal_actions()
    for p in range(3):
        assert c.information_state_string(p) == st.information_state_string(p)
    a, b = random.Random(3), random.Random(3)
    _walk(st, a, 150)
    _walk(c, b, 150)
    assert st.is_terminal() and c.is_terminal()
    assert c.events() == st.events() and c.game.s.digest() == st.game.s.digest()
    d = new_state(rules, 3, 21, log=True)   # a fresh re-run of the same answers
    for x in st.history():
        d.apply_index(x)
    assert d.events() == st.events()


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


def test_play_stops_at_a_person_s_decision_and_goes_on(rules):
    ref = new_state(rules, 2, 13, whole_plays=[True, True], log=True)
    play(ref, [HeuristicAgent(), HeuristicAgent()])
    # seat 1 is a person who answers as the reference game's seat 1 did
    answers = iter(e["i"] for e in ref.events() if e["e"] == "decide" and e["p"] == 1)
    st = new_state(rules, 2, 13, whole_plays=[True, True], log=True)
    agents = [HeuristicAgent(), None]
    stops = 0
    while play(st, agents) is None:
        assert st.current_player() == 1 and st.pending()["seat"] == 1
        st.apply_index(next(answers))
        stops += 1
    assert stops > 10 and st.events() == ref.events()


def test_resample_at_an_action_step_deals_the_step_again(rules):
    # seat 0 chooses after seat 1 in round 2 (the Lead rotates): seat 1's choice is secret
    st = new_state(rules, 2, 3)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for a, s in zip(agents, st.agent_seeds):
        a.seed(s)
    while True:
        p, kind, options, ctx = st.asked()
        if p == 0 and kind == "action" and st.game.s.round == 2 and st.game.pending:
            break
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    true_pending = set(st.game.pending)
    rng = random.Random(4)
    others = []
    for _ in range(6):
        w = st.resample_from_infostate(0, rng.random)
        assert w.current_player() == 0 and w.legal_actions() == st.legal_actions()
        assert w.information_state_string(0) == st.information_state_string(0)
        assert w.game.s.players[0].hand == st.game.s.players[0].hand
        others.append(set(w.game.pending))
    assert any(o != true_pending for o in others)  # seat 1's secret card is not kept


def test_a_state_can_be_answered_from_another_thread(rules):
    import threading

    st = new_state(rules, 2, 6, log=True)
    ref = new_state(rules, 2, 6, log=True)
    rng = random.Random(2)
    for k in range(40):
        a = rng.choice(st.legal_actions())
        ref.apply_action(a)
        if k % 7 == 3:   # as a threaded web server would: each answer in a new thread
            t = threading.Thread(target=st.apply_action, args=(a,))
            t.start()
            t.join()
        else:
            st.apply_action(a)
    assert st.history() == ref.history() and st.events() == ref.events()
    assert st.legal_actions() == ref.legal_actions()


def test_labels_use_the_glossary_words_when_given(rules):
    from pathlib import Path

    from tether_build.content.load import load_content
    from tether_build.engine.state_api import glossary_words, label

    root = Path(__file__).resolve().parents[1] / "fixtures" / "content"
    words = glossary_words(load_content(root).terms)
    st = new_state(rules, 2, 4)
    rng = random.Random(0)
    while "center" not in st.game.s.tile:   # the tiles are laid after the Capital draft
        st.apply_action(rng.choice(st.legal_actions()))
    g = st.game
    center = g.s.tile.index("center")
    name = g.s.topo.name(center)
    assert label(g, "hex", center) == f"{name} center"       # the engine's own word
    assert label(g, "hex", center, words) == f"{name} {words['center'][0]}"
    assert label(g, "bid", ("buy", 3), words) == f"buy bid 3 {words['gold'][0]}"
    st.words = words
    assert all(o["label"] for o in st.pending()["options"])
