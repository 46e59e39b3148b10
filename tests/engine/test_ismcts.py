"""The search agent (engine/search.py): SO-ISMCTS on the state API, with tiny budgets."""

from __future__ import annotations

import random

from tether_build.engine import search
from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.play import play_game
from tether_build.engine.search import NoisyHeuristic, Params, SearchAgent, softmax
from tether_build.engine.seatview import SeatView, ask_view
from tether_build.engine.state_api import new_state, option_ids


def _at(rules, seed, stop, players=2):
    """A heuristic game (state API) stopped at the first decision `stop(state)` accepts."""
    st = new_state(rules, players, seed)
    agents = [HeuristicAgent() for _ in range(players)]
    for a, s in zip(agents, st.agent_seeds):
        a.seed(s)
    while not stop(st):
        p, kind, options, ctx = st.asked()
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    return st


def _second_chooser(st):
    """Seat 0's Action Step choice of round 2 (it chooses after seat 1 there)."""
    p, kind, options, _ctx = st.asked()
    return p == 0 and kind == "action" and st.game.s.round == 2 and len(options) > 2


def _ask(st, agent):
    p, kind, options, ctx = st.asked()
    return agent.choose(st.game.seat_view(p).refresh(kind, options), p, kind, options,
                        ask_view(ctx))


def _agent(seed, **kw):
    a = SearchAgent(**kw)
    a.seed(seed)
    return a


def _dump(node):
    return (node.n, round(node.w, 9), sorted(node.avail.items()),
            sorted((a, _dump(c)) for a, c in node.children.items()))


def test_same_seed_same_tree_and_choice_and_the_tree_grows_below_the_root(rules):
    st = _at(rules, 3, _second_chooser)
    runs = []
    for seed in (11, 11, 12):
        a = _agent(seed, iterations=24)
        i = _ask(st, a)
        runs.append((i, _dump(a.root)))
        assert a.root.n == 24 and a.stats["searches"] == 1
        assert a.root.visits_at(2) > 0      # more than one level: visits at depth 2
        assert a.root.depth() >= 3
        assert len(a.root.children) > 1
        ids = option_ids("action", st.asked()[2])
        assert ids[i] in a.root.children   # the answer was searched
        why = a.why("action", st.asked()[2])
        assert why[0][1] == i and sum(v for v, _ in why) == 24
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[2][1]   # another seed deals other worlds


def test_parameters_live_in_one_place():
    a = SearchAgent(iterations=5, explore=0.3, noise=0.0)
    assert a.params == Params(iterations=5, explore=0.3, noise=0.0)
    assert SearchAgent(params=Params(horizon=2), iterations=3).params.horizon == 2
    assert softmax([1.0, 1.0], 2.0) == [0.5, 0.5]
    assert softmax([0.0, 10.0], 1.0)[1] > 0.99


def test_bids_and_other_kinds_are_searched_and_games_are_deterministic(rules):
    def one():
        s = SearchAgent(iterations=3)
        g = play_game(rules, 2, 3, [s, HeuristicAgent()], log=True)
        return g, s

    (g1, s1), (g2, _) = one(), one()
    assert g1.events == g2.events   # same seed, same game, whatever the clock
    assert s1.stats["iterations"] == 3 * s1.stats["searches"]
    assert {"action", "bid"} <= set(s1.stats["kinds"])
    assert g1.s.winner


def test_a_time_cap_and_a_forced_choice(rules):
    st = _at(rules, 3, _second_chooser)
    b = _agent(1, iterations=7, time_cap=0.0)
    assert 0 <= _ask(st, b) < len(st.asked()[2])
    assert b.stats["capped"] == 1 and b.stats["iterations"] == 0
    p, kind, options, _ctx = st.asked()
    h = _agent(1, iterations=7)
    assert h.choose(st.game.seat_view(p).refresh(kind, options[:1]), p, kind,
                    options[:1]) == 0
    assert h.stats["searches"] == 0   # a forced choice is not searched


def test_worlds_are_dealt_and_the_others_choose_from_their_dealt_hands(rules):
    """At seat 0's choice, seat 1 chose first from its true hand; every world deals seat 1
    again before the step starts, and seat 1's options there are cards of its dealt hand
    (never its true choice replayed)."""
    st = _at(rules, 3, _second_chooser)
    g = st.game
    def ids(game, iids):   # by card: a dealt world renumbers the hidden instances
        return tuple(sorted(game.s.cards[i].defn.id for i in iids))
    true_hand = ids(g, g.s.players[1].hand)
    pool = ids(g, g.s.players[1].hand + g.s.players[1].draw)
    hands = set()
    for seed in range(6):
        def policy(w):
            q, _kind, options, _ctx = w.asked()
            hand = w.game.s.players[q].hand
            assert all(o[1] in hand for o in options if o[0] == "card")
            hands.add(ids(w.game, hand))
            assert ids(w.game, hand + w.game.s.players[q].draw) == pool
            return 0
        w = g.seat_view(0).deal(random.Random(seed).random, policy)
        assert w.observation_string(0) == st.observation_string(0)
        assert w.legal_actions() == st.legal_actions()
    assert hands - {true_hand}   # some world deals seat 1 another hand


def test_the_search_never_reads_the_true_hidden_state(rules, monkeypatch):
    """Every agent inside the search (the opponent model, the rollout, the prior) is shown
    its seat's SeatView of a dealt world, never a Game; and the choice is the same in two
    games that differ only in what the seat cannot see."""
    seen = []
    choose, action = HeuristicAgent.choose, HeuristicAgent._action

    def watch(self, g, p, kind, options, ctx=None):
        seen.append((type(g), g.seat == p))
        return choose(self, g, p, kind, options, ctx)

    def watch_action(self, g, p, opt, ctx):
        seen.append((type(g), g.seat == p))
        return action(self, g, p, opt, ctx)

    st = _at(rules, 3, _second_chooser)
    hidden = st.clone()
    hidden.game.resample(0, random.Random(99))   # other hand, draw orders, decks, dice
    assert st.observation_string(0) == hidden.observation_string(0)
    monkeypatch.setattr(HeuristicAgent, "choose", watch)
    monkeypatch.setattr(HeuristicAgent, "_action", watch_action)
    picks = [_ask(x, _agent(5, iterations=6)) for x in (st, hidden)]
    assert seen and set(seen) == {(SeatView, True)}
    assert picks[0] == picks[1]


def test_the_opponent_model_is_noisy_and_seeded(rules):
    st = _at(rules, 3, lambda s: s.asked()[0] == 1 and s.asked()[1] == "action"
             and len(s.asked()[2]) > 3)
    p, kind, options, ctx = st.asked()
    view = st.game.seat_view(p).refresh(kind, options)

    def picks(seed, noise):
        m = NoisyHeuristic(noise)
        m.seed(seed)
        return [m.choose(view, p, kind, options, ask_view(ctx)) for _ in range(30)]

    greedy = picks(1, 0.0)
    assert len(set(greedy)) == 1               # no noise: the heuristic's choice
    assert len(set(picks(1, 0.5))) > 1         # noise: other options too
    assert picks(2, 0.5) == picks(2, 0.5)      # seeded
    assert search.KINDS[0] == "action"
