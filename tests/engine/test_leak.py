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


def _world(g, p=0):
    """A dealt world as seat p's opponents' hands and draw piles, their Permanent VP, p's
    draw order and the supply decks, by card (what a copy is, not which copy)."""
    s = g.s
    ids = [[s.cards[i].defn.id for i in z] for pl in s.players if pl.seat != p
           for z in (pl.hand, pl.draw)]
    return (ids, [pl.pvp for pl in s.players if pl.seat != p],
            [s.cards[i].defn.id for i in s.players[p].draw],
            {k: [s.cards[i].defn.id for i in v] for k, v in sorted(s.decks.items())},
            sorted((q, d, s.cards[i].defn.id) for i, (q, d) in g.unseen.items()))


def _two_unseen_gains(rules):
    from tether_build.engine.core import Ctx
    from tether_build.engine.setup import new_game

    g = new_game(rules, 2, 7, [RandomAgent(), RandomAgent()])
    card = next(c for c in g.s.cards if c.defn.id == "black_market_pull")
    g.run_steps(card.defn.effect, Ctx(g, 1, card, locks={}))   # 2 random cards, unseen
    return g


def test_which_cards_another_seat_gained_unseen_does_not_show_in_the_dealt_world(rules):
    """Seat 1 gained two cards of one deck unseen; in the other game one of them is another
    card of that deck (its Permanent VP with it). Seat 0's dealt world is the same, card for
    card: the gains are dealt again together from the deck and all of them (dealt one at a
    time, the second gain's candidates lacked the first's true card, which differed)."""
    g = _two_unseen_gains(rules)
    gained = sorted(i for i, (q, _d) in g.unseen.items() if q == 1)
    for old in gained:   # either of the two is another card in the other game
        h = g.clone()
        s = h.s
        deck = s.decks[h.unseen[old][1]]
        new = next(i for i in deck if s.cards[i].defn.id not in
                   {s.cards[x].defn.id for x in gained})
        deck[deck.index(new)] = old
        pl = s.players[1]
        pl.hand[pl.hand.index(old)] = new
        pl.pvp += s.cards[new].defn.vp - s.cards[old].defn.vp
        h.unseen[new] = h.unseen.pop(old)
        assert g.observation(0) == h.observation(0) and _world(g) != _world(h)
        for seed in range(6):
            a, b = g.clone(), h.clone()
            a.resample(0, random.Random(seed))
            b.resample(0, random.Random(seed))
            assert _world(a) == _world(b), (old, seed)


def test_which_copy_of_a_card_another_seat_holds_does_not_show_in_the_dealt_world(rules):
    """Seat 1's draw pile and seat 0's own hold copies of one card (each seat's starter
    deck its own block of instance numbers); in the other game they trade places. Seat 0
    knows its draw pile by card, so it cannot tell; its dealt world is the same, card for
    card: the deal sorts hidden cards by card id first (by instance number the copy from
    the other block landed elsewhere before the shuffle)."""
    from tether_build.engine.setup import new_game

    g = new_game(rules, 2, 7, [RandomAgent(), RandomAgent()])
    s = g.s
    mine, theirs = s.players[0].draw, s.players[1].draw
    x, y = next((x, y) for x in theirs for y in mine
                if s.cards[x].defn.id == s.cards[y].defn.id)
    h = g.clone()
    a, b = h.s.players[1].draw, h.s.players[0].draw
    a[a.index(x)], b[b.index(y)] = y, x
    assert g.observation(0) == h.observation(0) and x != y
    for seed in range(6):
        u, v = g.clone(), h.clone()
        u.resample(0, random.Random(seed))
        v.resample(0, random.Random(seed))
        assert _world(u) == _world(v), seed


def _zones(g, where):
    """Seat 0's hidden places by name: seat 1's hand or draw pile, seat 0's own draw pile,
    or every supply deck (by name)."""
    s = g.s
    return {"hand": [s.players[1].hand], "draw": [s.players[1].draw],
            "mine": [s.players[0].draw],
            "deck": [s.decks[k] for k in sorted(s.decks)]}[where]


def _trade(g, a: str, b: str) -> bool:
    """The first card of places `a` with another copy of it (the same overrides and
    counter) in places `b` trade places: which copy is where, nothing else."""
    cards = g.s.cards
    for za in _zones(g, a):
        for i, x in enumerate(za):
            for zb in _zones(g, b):
                for j, y in enumerate(zb):
                    u, v = cards[x], cards[y]
                    if (x != y and u.defn is v.defn and u.over == v.over
                            and u.counter == v.counter):
                        za[i], zb[j] = y, x
                        return True
    return False


def _by_instance(g, p=0):
    """What a dealt world holds where p cannot see, instance for instance: every other
    seat's hand and draw pile, p's draw pile, every supply deck, each card with its data,
    the unseen gains and the other seats' Permanent VP."""
    s = g.s

    def z(ids):
        return [(i, s.cards[i].iid, s.cards[i].defn.id, sorted(s.cards[i].over.items()),
                 s.cards[i].counter) for i in ids]
    return ([(z(pl.hand), z(pl.draw), pl.pvp) for pl in s.players if pl.seat != p],
            z(s.players[p].draw), [(k, z(v)) for k, v in sorted(s.decks.items())],
            list(g.unseen.items()))


TRADES = [("hand", "mine"), ("draw", "mine"), ("hand", "deck"), ("mine", "deck")]


@pytest.mark.parametrize("seed", [0, 4])
def test_which_copy_is_where_does_not_show_in_the_dealt_world_by_instance(rules, monkeypatch,
                                                                          seed):
    """Two games that differ only in which copy of a card is in which hidden place (seat
    1's hand or draw pile, seat 0's own draw pile, a supply deck): seat 0's dealt world is
    the same instance for instance, each card with its data, since the deal gives the
    hidden cards' instance numbers out again in a canonical order
    (`Game._renumber_hidden`). Without it the copies keep their numbers: the worlds are
    the same card for card but differ by instance (the test can fail)."""
    g = _at_action(rules, seed, 3).game.clone([])
    plain = {}
    for a, b in TRADES:   # (seed 0: all but a hand's with a deck; seed 4: all but p's own)
        h = g.clone([])
        if not _trade(h, a, b):
            continue
        assert g.observation(0) == h.observation(0) and _by_instance(g) != _by_instance(h)
        for deal in range(4):
            u, v = g.clone([]), h.clone([])
            u.resample(0, random.Random(deal))
            v.resample(0, random.Random(deal))
            assert _by_instance(u) == _by_instance(v), (a, b, deal)
        plain[a, b] = h
    assert len(plain) == 3
    monkeypatch.setattr(type(g), "_renumber_hidden", lambda self, p: None)
    for (a, b), h in plain.items():
        u, v = g.clone([]), h.clone([])
        u.resample(0, random.Random(0))
        v.resample(0, random.Random(0))
        assert _world(u) == _world(v) and _by_instance(u) != _by_instance(v), (a, b)


def _traded_twin(rules, base, seed, a, b):
    """The game `base` (a 2-player state from `seed`, waiting at seat 0's Action Step)
    played again by the same answers, with copies traded between places `a` and `b` (see
    `_trade`) at the decision just before that Action Step began: a resample step of the
    state whose seed names the trade (the test's `TetherState._resample`), so every world
    re-run from an earlier point carries it. None where no such copies are, or where the
    trade changes that decision's options."""
    hist, n = base.history(), base._step_at
    st = new_state(rules, 2, seed)
    for x in hist[:n - 1]:
        st.apply_index(x)
    before = st.action_ids()
    if not _trade(st.game.clone([]), a, b):
        return None
    st.resample(0, -1 - TRADES.index((a, b)))
    if st.action_ids() != before:
        return None
    for x in hist[n - 1:]:
        st.apply_index(x)
    return st


@pytest.mark.parametrize("which,seed,rnd", [("fixture", 0, 3), ("fixture", 6, 3),
                                            ("sink", 1, 2)])
def test_which_copy_is_where_does_not_change_the_search(compiled, rules, monkeypatch, which,
                                                        seed, rnd):
    """Not only the dealt world: two games that differ only in which copy of a card seat 1
    holds (or which is in a draw pile or a supply deck), made just before the Action Step
    began, give seat 0's search the same root: visits and summed values, exactly, and the
    choice. Instance numbers steer tie-breaks inside a simulation (a seat's playable cards
    are listed by instance; an option's id names it): without the canonical renumbering the
    trade of a copy in seat 1's hand with one in seat 0's draw pile changes the root (the
    test can fail)."""
    from tether_build.engine.ruleset import Ruleset
    from tether_build.engine.state_api import TetherState
    from tether_build.engine.views import ViewsMixin

    from .native_cases import kitchen_sink

    real = TetherState._resample

    def resample(self, p, seed):
        if seed < 0:   # the test's trade, recorded as a step of the state
            assert _trade(self.game, *TRADES[-1 - seed])
            self._ids = self._labels = None
        else:
            real(self, p, seed)
    monkeypatch.setattr(TetherState, "_resample", resample)
    rs = rules if which == "fixture" else Ruleset.from_compiled(kitchen_sink(compiled))
    base = _at_action(rs, seed, rnd)
    twins = {t: _traded_twin(rs, base, seed, *t) for t in TRADES}
    twins = {t: h for t, h in twins.items() if h is not None}
    assert ("hand", "mine") in twins
    for h in twins.values():
        assert base.game.observation(0) == h.game.observation(0)
        assert base._seen[0] == h._seen[0] and base.action_ids() == h.action_ids()
        assert _by_instance(base.game) != _by_instance(h.game)
    root = _search_root(base, horizon=1, iterations=12)
    assert len(root[1]) >= 2
    for t, h in twins.items():
        assert _search_root(h, horizon=1, iterations=12) == root, t
    monkeypatch.setattr(ViewsMixin, "_renumber_hidden", lambda self, p: None)
    h = twins["hand", "mine"]
    assert (_search_root(base, horizon=1, iterations=12)
            != _search_root(h, horizon=1, iterations=12))


def _nested_root(rules, seed):
    """A 2-player heuristic game on the kitchen sink stopped at seat 0's first decision
    searched at a root of its own inside a resolution (search.KINDS other than the Action
    Step and the bid: targets, moves, modes...) while seat 1 holds a card gained unseen."""
    from tether_build.engine.search import KINDS

    st = new_state(rules, 2, seed)
    agents = [HeuristicAgent(), HeuristicAgent()]
    for a, s in zip(agents, st.agent_seeds):
        a.seed(s)
    while not st.is_terminal():
        p, kind, options, ctx = st.asked()
        if p == 0 and kind in KINDS and kind not in ("action", "bid") and len(options) > 1:
            st.game.prune_unseen()
            if any(q == 1 for q, _deck in st.game.unseen.values()):
                return st
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    raise AssertionError("no such decision")


def _search_root(st, stream=11, **params):
    p, kind, options, ctx = st.asked()
    a = SearchAgent(**{"iterations": 8, **params})
    a.rng = random.Random(stream)
    i = a.choose(st.game.seat_view(p).refresh(kind, options), p, kind, options,
                 ask_view(ctx))
    return i, sorted((c.n, c.w) for c in a.root.children.values())


def test_the_search_at_a_nested_root_does_not_read_what_its_seat_cannot_see(compiled,
                                                                          monkeypatch):
    """The Python search at a decision asked inside a resolution (a Forge's mode here),
    whose worlds re-run the round to the decision and deal there (as nsearch's nested
    roots): two games that differ only in what seat 0 cannot see (everything hidden dealt
    again, as a step recorded in the game, so every re-run carries it: seat 1's unseen gain,
    its hand and draw pile, every draw order, the decks, the dice) give the same root,
    visits and summed results exactly, and the same choice. Without the search's own deal
    they differ: the test can fail."""
    from tether_build.engine.ruleset import Ruleset
    from tether_build.engine.state_api import TetherState

    from .native_cases import kitchen_sink

    base = _nested_root(Ruleset.from_compiled(kitchen_sink(compiled)), 5)
    hidden = base.clone()
    hidden.resample(0, 99)
    g, h = base.game, hidden.game
    assert g.observation(0) == h.observation(0)
    assert base.observation_string(0) == hidden.observation_string(0)
    assert sorted(g.unseen) != sorted(h.unseen) or g.s.players[1].hand != h.s.players[1].hand
    assert len(_search_root(base)[1]) >= 2
    assert _search_root(base) == _search_root(hidden)
    monkeypatch.setattr(TetherState, "resample", lambda self, p, seed: None)  # no deal
    assert _search_root(base) != _search_root(hidden)
