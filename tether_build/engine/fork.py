"""Forks of a game for the search agent: the real game at the decision being searched, with
everything the searching seat cannot know dealt again.

The engine asks its questions from inside its rules, so a game cannot be copied at a
decision: a fork is the game re-run to it from its public setup and decisions
(`Game.origin`, `Game.trace`). To keep that cheap, a `Forker` re-runs the game once per round
to the start of the current round and keeps it as a snapshot; each fork is a copy of the
snapshot that re-runs only the current round's decisions. The snapshot is kept as bytes
(`Frozen`: pickled, sharing the immutable definitions as `Game.clone` does, and about four
times faster to copy than `Game.clone`'s deepcopy); a state that cannot be pickled falls back to
`Game.clone`.

A fork deals the hidden cards again (`Game.resample`: other seats' hands, draw piles and
Permanent VP, the seat's own draw order, the supply decks, the dice) as the searched Action
Step starts (`Game.on_step`), before any seat chooses: no choice made this step from a real
hand is replayed into the dealt world; every seat chooses the step again there, from
`policy`.
"""

from __future__ import annotations

import random

from . import seatview
from .frozen import Frozen, option_key  # noqa: F401  (re-exported)
from .rounds import play_round, run
from .setup import new_game


class Horizon(Exception):
    """A fork reached the end of its look-ahead."""


class _Reached(Exception):
    """A replay reached the decision being searched."""


class Fork:
    """The agents' side of one forked game: the real decisions until the searched Action
    Step starts (the `deal`-th step of the round since the snapshot; 0: never), then the
    hidden cards dealt again and every decision asked of `policy` up to the horizon."""

    def __init__(self, trace: list[int], pos: int, deal: int, seat: int, seed: int,
                 horizon: int, policy=None):
        self.trace, self.pos, self.deal, self.seat = trace, pos, deal, seat
        self.seed, self.horizon, self.policy = seed, horizon, policy
        self.steps = 0       # Action Steps started since the snapshot
        self.dealt = False

    def seats(self, whole: list[bool]) -> list:
        """One agent facade per seat, offered whole plays as the real game's seats are."""
        return [_Seat(self, p, w) for p, w in enumerate(whole)]

    def on_step(self, g) -> None:
        """An Action Step starts: deal the hidden cards again if it is the searched one."""
        self.steps += 1
        if self.steps == self.deal:
            g.resample(self.seat, random.Random(self.seed))
            self.dealt = True

    def choose(self, g, p: int, kind: str, options: list, ctx) -> int:
        """The real decision while replaying; after the deal, the policy's."""
        if not self.dealt:
            pos = self.pos
            if pos == len(self.trace):
                raise _Reached
            self.pos += 1
            return self.trace[pos]
        if g.s.round > self.horizon:
            raise Horizon
        return self.policy(g, p, kind, options, ctx)


class _Seat:
    name = "fork"
    sees = "game"  # it replays, inside the searcher's own fork, a game the searcher built

    def __init__(self, fork: Fork, p: int, whole_plays: bool):
        self.fork, self.p, self.whole_plays = fork, p, whole_plays

    def seed(self, value: int) -> None:
        """Setup seeds agents; a fork's seats need no stream of their own."""

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Ask the fork."""
        return self.fork.choose(g, p, kind, options, ctx)


class Forker:
    """Forks of one real game at its current decision (see the module docstring)."""

    def __init__(self):
        self.snap = None     # the real game re-run to the start of its current round
        self.key = None      # (id of the real game, its round)

    def snapshot(self, g) -> Frozen:
        """The real game re-run from its setup to the start of its current round (kept
        while the same game stays in the same round)."""
        key = (id(g), g.s.round)
        snap = self.snap
        if (snap is not None and key == self.key
                and g.trace[:len(snap.trace)] == snap.trace):
            return snap
        players, seed, factions, opts = g.origin
        replay = Fork(g.trace, 0, 0, -1, 0, 0)
        f = new_game(g.rules, players, seed, replay.seats(self.whole(g)), factions, opts)
        while f.s.round < g.s.round:
            if play_round(f):
                raise RuntimeError("the replayed game ended before the real one's round")
            f.advance_round()
        snap = self.snap = Frozen(f)
        self.key = key
        return snap

    @staticmethod
    def whole(g) -> list[bool]:
        """Which seats of the real game are offered whole card plays."""
        return g.whole_plays

    def step(self, g) -> int:
        """Which Action Step of the current round (from 1) the real game is deciding in."""
        snap = self.snapshot(g)
        probe = Fork(g.trace, len(snap.trace), 0, -1, 0, 0)
        k = snap.thaw(probe.seats(self.whole(g)))
        k.on_step = probe.on_step
        try:
            run(k)
        except _Reached:
            return probe.steps
        raise RuntimeError("the replayed game never reached the searched decision")

    def fork(self, g, seat: int, deal: int, seed: int, horizon: int, policy):
        """Play one fork: the real round to its `deal`-th Action Step, the hidden cards dealt
        again from `seed`, then `policy` to the end of round `horizon` (or of the game).
        Returns the forked game where it stopped."""
        snap = self.snapshot(g)
        fork = Fork(g.trace, len(snap.trace), deal, seat, seed, horizon, policy)
        k = snap.thaw(fork.seats(self.whole(g)))
        k.on_step = fork.on_step
        try:
            run(k)
        except Horizon:
            pass
        return k


seatview.FORKERS[:] = [Forker]   # SeatView.fork deals its worlds with it
