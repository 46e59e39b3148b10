"""The forks of engine/fork.py (`SeatView.fork`); the search agent is tested in
test_ismcts.py."""

from __future__ import annotations

import pytest

from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.fork import Fork, Forker, Horizon, option_key
from tether_build.engine.play import play_game, run


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


def test_forks_deal_again_what_the_seat_cannot_see(rules):
    """In every fork the other seat's hand is dealt again from its hand and draw pile, and
    its choice this step (made from its real hand) is not replayed: the fork starts the
    step again. The seat's own hand, and so its options, are the real ones."""
    def fn(g, p, options):
        q = 1 - p
        assert g.pending  # the other seat has chosen a card this step, still hidden
        def ids(game, iids):   # by card: a dealt world renumbers the hidden instances
            return tuple(sorted(game.s.cards[i].defn.id for i in iids))
        real = ids(g, g.s.players[q].hand)
        pool = ids(g, g.s.players[q].hand + g.s.players[q].draw)
        forker = Forker()
        deal = forker.step(g)
        hands = set()
        for seed in range(6):
            seen: dict = {}

            def policy(f, who, kind, opts, ctx, seen=seen):
                if not seen.get("first"):
                    seen["first"] = True
                    assert not f.pending  # nobody has chosen yet in the dealt world
                    hands.add(ids(f, f.s.players[q].hand))
                    assert ids(f, f.s.players[q].hand + f.s.players[q].draw) == pool
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
        assert hands - {real}  # some fork deals the other seat another hand

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
