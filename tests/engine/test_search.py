"""The search agent (engine/search.py) and its forks (engine/fork.py)."""

from __future__ import annotations

import pytest

from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.fork import Fork, Forker, Horizon, option_key
from tether_build.engine.play import play_game, run
from tether_build.engine.search import SearchAgent


class _Stop(Exception):
    pass


class _Catch(HeuristicAgent):
    """The heuristic until its seat's first Action Step choice of round `rnd` with more than
    two options; there it hands the real game to `fn` and stops the game."""

    sees = "game"  # a test harness: fn inspects the real game

    def __init__(self, rnd, fn):
        self.rnd, self.fn = rnd, fn

    def choose(self, g, p, kind, options, ctx=None):
        """Catch the decision, else play as the heuristic."""
        if kind == "action" and g.s.round == self.rnd and len(options) > 2:
            self.fn(g, p, options)
            raise _Stop
        return super().choose(g, p, kind, options, ctx)


def _at_decision(rules, fn, seed=3, rnd=2):
    """Run fn(game, seat, options) at seat 0's first real choice in round `rnd` (seat 0
    chooses second in round 2: the other seat has chosen this step already)."""
    with pytest.raises(_Stop):
        play_game(rules, 2, seed, [_Catch(rnd, fn), HeuristicAgent()])


def _dump(node):
    return (node.n, round(node.w, 9), node.avail,
            sorted((repr(k), _dump(c)) for k, c in node.children.items()))


def _agent(seed, **kw):
    a = SearchAgent(**kw)
    a.seed(seed)
    return a


def test_the_tree_is_deterministic_for_a_seed_and_grows_below_the_root(rules):
    trees = []

    def fn(g, p, options):
        for seed in (11, 11, 12):
            root = _agent(seed, iterations=40).search(g, p)
            trees.append(_dump(root))
            assert root.n == 40 and sum(c.n for c in root.children.values()) == 40
            assert root.depth() >= 3  # the seat's later choices have nodes of their own
            assert len(root.children) > 1

    _at_decision(rules, fn)
    assert trees[0] == trees[1]
    assert trees[0] != trees[2]  # another seed deals other worlds


def test_a_decision_respects_the_iteration_and_time_budgets(rules):
    def fn(g, p, options):
        a = _agent(1, iterations=7)
        i = a.choose(g, p, "action", options)
        assert 0 <= i < len(options)
        assert a.stats["searches"] == 1 and a.stats["iterations"] == 7 and a.root.n == 7
        assert option_key(options[i]) in a.root.children  # the answer was searched
        b = _agent(1, iterations=7, time_cap=0.0)
        assert 0 <= b.choose(g, p, "action", options) < len(options)
        assert b.stats["capped"] == 1 and b.stats["iterations"] == 0
        h = _agent(1, iterations=7)
        assert h.choose(g, p, "action", options[:1]) == 0
        assert h.stats["searches"] == 0  # a forced choice is not searched

    _at_decision(rules, fn)


def test_forks_deal_again_what_the_seat_cannot_see(rules):
    """In every fork the other seat's hand is dealt again from its hand and draw pile, and
    its choice this step (made from its real hand) is not replayed: the fork starts the
    step again. The seat's own hand, and so its options, are the real ones."""
    def fn(g, p, options):
        q = 1 - p
        assert g.pending  # the other seat has chosen a card this step, still hidden
        real = sorted(g.s.players[q].hand)
        pool = sorted(g.s.players[q].hand + g.s.players[q].draw)
        forker = Forker()
        deal = forker.step(g)
        hands = set()
        for seed in range(6):
            seen: dict = {}

            def policy(f, who, kind, opts, ctx, seen=seen):
                if not seen.get("first"):
                    seen["first"] = True
                    assert not f.pending  # nobody has chosen yet in the dealt world
                    hands.add(tuple(sorted(f.s.players[q].hand)))
                    assert sorted(f.s.players[q].hand + f.s.players[q].draw) == pool
                    assert f.s.players[p].hand == g.s.players[p].hand
                    other = f.s.players[q]  # its Permanent VP is hidden: what its cards give
                    assert other.pvp == sum(f.s.cards[i].defn.vp for z in other.zones()
                                            for i in z)
                if who == p and kind == "action":
                    seen["keys"] = [option_key(o) for o in opts]
                    raise Horizon
                return HeuristicAgent().choose(f, who, kind, opts, ctx)

            forker.fork(g, p, deal, seed, g.s.round + 1, policy)
            assert seen["keys"] == [option_key(o) for o in options]
        assert hands - {tuple(real)}  # some fork deals the other seat another hand

    _at_decision(rules, fn)


@pytest.mark.parametrize("players,seed", [(2, 6), (4, 2)])
def test_a_fork_from_the_round_snapshot_replays_the_real_game_exactly(rules, players, seed):
    g = play_game(rules, players, seed, [HeuristicAgent() for _ in range(players)])
    assert g.s.round > 2
    forker = Forker()
    snap = forker.snapshot(g)  # the game re-run to the start of its last round
    assert snap.data is not None  # kept as bytes, not by the deepcopy fallback
    assert snap.game.s.round == g.s.round and len(snap.trace) < len(g.trace)
    assert forker.snapshot(g) is snap  # kept while the round lasts
    for _ in range(2):  # each thaw is an independent copy with the same future
        replay = Fork(g.trace, len(snap.trace), 0, -1, 0, 0)
        k = snap.thaw(replay.seats(Forker.whole(g)))
        run(k)
        assert k.s.digest() == g.s.digest() and k.trace == g.trace
    assert snap.game.trace == snap.trace  # the snapshot itself is untouched


def test_the_search_agent_plays_whole_games_deterministically(rules):
    def one():
        s = SearchAgent(iterations=3, width=2)
        g = play_game(rules, 2, 3, [s, HeuristicAgent()], log=True)
        return g, s

    (g1, s1), (g2, _) = one(), one()
    assert g1.events == g2.events  # same seed, same game, whatever the clock
    assert s1.stats["searches"] > 10 and s1.stats["iterations"] == 3 * s1.stats["searches"]
    assert g1.s.winner


def test_every_agent_in_a_fork_sees_only_its_seats_view(rules, monkeypatch):
    """The rollout agents (and the heuristic ranking the tree's choices) play the dealt
    world through their seat's SeatView, as agents do in a real game: no seat's rollout
    reads another seat's dealt hand."""
    from tether_build.engine import search
    from tether_build.engine.seatview import SeatView

    seen = []

    class Watch(HeuristicAgent):
        def choose(self, g, p, kind, options, ctx=None):
            seen.append((type(g), g.seat == p))
            return super().choose(g, p, kind, options, ctx)

        def _action(self, g, p, opt, ctx):
            seen.append((type(g), g.seat == p))
            return super()._action(g, p, opt, ctx)

    monkeypatch.setattr(search, "HeuristicAgent", Watch)
    _at_decision(rules, lambda g, p, options: _agent(2, iterations=4).search(g, p))
    assert seen and set(seen) == {(SeatView, True)}
