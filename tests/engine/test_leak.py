"""Agents get an observation, nothing else: two games that differ only in what a seat
cannot see give that seat's seeded agent the same observation and the same choice, for
every agent; a seat's view shows neither the setup seed nor the decisions so far."""

from __future__ import annotations

import random

import pytest

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.search import SearchAgent
from tether_build.engine.seatview import ask_view
from tether_build.engine.state_api import new_state

AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent,
          "search": lambda: SearchAgent(iterations=6)}


def _at_action(rules, seed, rnd=2):
    """A 2-player heuristic game stopped at seat 0's first Action Step choice of round
    `rnd` with more than two options (state API: the game waits there)."""
    st = new_state(rules, 2, seed)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for a, s in zip(agents, st.agent_seeds):
        a.seed(s)
    while True:
        p, kind, options, ctx = st.asked()
        if p == 0 and kind == "action" and st.game.s.round == rnd and len(options) > 2:
            return st
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))


def _choice(st, make, seed):
    p, kind, options, ctx = st.asked()
    agent = make()
    agent.seed(seed)
    g = st.game
    return agent.choose(g.seat_view(p).refresh(kind, options), p, kind, options,
                        ask_view(ctx))


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_what_a_seat_cannot_see_does_not_change_its_choice(rules, name):
    base = _at_action(rules, 3)
    hidden = base.clone()
    hidden.game.resample(0, random.Random(99))  # other hand, draw orders, decks, dice
    g, h = base.game, hidden.game
    assert g.s.players[1].hand != h.s.players[1].hand or g.s.players[1].draw != h.s.players[
        1].draw
    assert g.observation(0) == h.observation(0)
    assert base.observation_string(0) == hidden.observation_string(0)
    assert _choice(base, AGENTS[name], 5) == _choice(hidden, AGENTS[name], 5)


def test_a_view_shows_no_setup_seed_and_no_decisions(rules):
    st = _at_action(rules, 3)
    view = st.game.seat_view(0)
    for name in ("origin", "trace"):
        with pytest.raises(AttributeError):
            getattr(view, name)
    assert view.can_deal   # worlds dealt for its seat, as states (SeatView.deal)
    world = view.deal(random.Random(1).random)
    assert world is not st and world.current_player() == 0
    assert world.observation_string(0) == st.observation_string(0)


def test_cards_gained_unseen_are_dealt_again_from_their_deck(rules):
    from tether_build.engine.core import Ctx
    from tether_build.engine.setup import new_game

    g = new_game(rules, 2, 7, [RandomAgent(), RandomAgent()])
    card = next(c for c in g.s.cards if c.defn.id == "black_market_pull")
    g.run_steps(card.defn.effect, Ctx(g, 1, card, locks={}))   # 2 random cards, unseen
    pl = g.s.players[1]
    gained = [i for i, (q, _deck) in g.unseen.items() if q == 1]
    assert len(gained) == 2 and all(i in pl.hand for i in gained)

    def pool(game):
        q = game.s.players[1]
        return q.hand + q.draw

    pools = set()
    for seed in range(10):
        w = g.clone()
        w.resample(0, random.Random(seed))
        q = w.s.players[1]
        pools.add(tuple(sorted(w.s.cards[i].defn.id for i in pool(w))))
        # Permanent VP follows the cards dealt in place of the unseen ones
        vp = sum(w.s.cards[i].defn.vp for i in pool(w)) - sum(
            g.s.cards[i].defn.vp for i in pool(g))
        assert q.pvp - pl.pvp == vp
        assert len(w.unseen) == 2 and all(i in pool(w) for i in w.unseen)
    assert len(pools) > 1   # seat 0 does not learn which cards seat 1 gained
    g.s.players[1].hand.remove(gained[0])  # shown (played, discarded): no longer unseen
    g.s.players[1].discard.append(gained[0])
    g.prune_unseen()
    assert list(g.unseen) == [gained[1]]
