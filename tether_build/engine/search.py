"""The search agent: determinized Monte Carlo over its action choices.

At each Action Step decision the agent keeps the heuristic's best few options and shares an
iteration budget between them by UCB1. One iteration:

1. re-runs the game from its setup to this very decision (setup seed + every decision made
   so far: `Game.origin` and `Game.trace`; the engine asks its questions from inside its
   rules, so a game is forked by re-running it, which is exact);
2. at the decision, resamples everything the seat cannot know (`Game.resample`, the rule of `determinize`,
   applied in place: other seats' hands and draw piles dealt again from their pool, its own
   draw order, the supply decks, the dice), and takes the option under test;
3. plays on with heuristic agents to the end of the next round (or the end of the game);
4. scores the result for the seat: a win 1, a loss 0, else 0.5 plus its lead in Permanence
   over the best other seat, scaled.

Every other decision is the heuristic's. One leak is left: a card another seat chose earlier
in the same Action Step stays in that seat's hand in the fork (it is revealed a moment later;
resampling it would mean asking that seat again). The agent sees only what its seat may know: the
forks are built from the public setup and the decisions, with the hidden parts resampled.
It is deterministic for a seed: iterations, not the clock, set the work; a time cap (off by
default) stops early and is recorded in `stats`.
"""

from __future__ import annotations

import math
import random
import time

from .agents import Agent, HeuristicAgent

ITERATIONS = 48  # default budget per action decision
WIDTH = 5        # options kept from the heuristic's ranking
HORIZON = 1      # rounds played on after the current one


class Horizon(Exception):
    """A fork reached the end of its look-ahead."""


class _Fork:
    """The agents of one forked game: replay the trace, branch once, then roll out."""

    def __init__(self, trace, branch: int, seat: int, option: int, seed: int, horizon: int):
        self.trace, self.branch, self.seat, self.option = trace, branch, seat, option
        self.rng = random.Random(seed)
        self.horizon = horizon
        self.pos = 0
        self.rollout = None

    def agents(self, whole: list[bool]) -> list:
        """One facade per seat (setup seeds each facade), offered whole plays as the
        real game's agent of that seat is (so the trace means the same options)."""
        return [_Seat(self, p, w) for p, w in enumerate(whole)]

    def choose(self, g, p: int, kind: str, options: list, ctx) -> int:
        """The trace, then the tested option on a resampled world, then the heuristic."""
        pos = self.pos
        self.pos += 1
        if pos < self.branch:
            return self.trace[pos]
        if pos == self.branch:
            g.resample(self.seat, self.rng)
            self.rollout = [HeuristicAgent() for _ in g.s.players]
            for a in self.rollout:
                a.seed(self.rng.getrandbits(64))
            return self.option
        if g.s.round > self.horizon:
            raise Horizon
        return self.rollout[p].choose(g, p, kind, options, ctx)


class _Seat:
    name = "fork"

    def __init__(self, fork: _Fork, p: int, whole_plays: bool):
        self.fork, self.p, self.whole_plays = fork, p, whole_plays

    def seed(self, value: int) -> None:
        """Setup seeds agents; a fork's seats need no stream of their own."""

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Ask the fork."""
        return self.fork.choose(g, p, kind, options, ctx)


def _score(g, seat: int) -> float:
    """A fork's result for the seat, in [0, 1]."""
    s = g.s
    if s.winner:
        return 1.0 / len(s.winner) if seat in s.winner else 0.0
    from .phases import control_vp

    vp = [pl.pvp + control_vp(g, pl.seat) for pl in s.players]
    best_other = max(v for q, v in enumerate(vp) if q != seat)
    goal = g.rules.game["victory"]["vp_to_win"]
    return min(1.0, max(0.0, 0.5 + 0.5 * (vp[seat] - best_other) / goal))


class SearchAgent(Agent):
    """Determinized Monte Carlo at Action Step decisions; the heuristic elsewhere."""

    name = "search"
    whole_plays = True  # a card is searched together with its targets

    def __init__(self, iterations: int = ITERATIONS, width: int = WIDTH,
                 horizon: int = HORIZON, time_cap: float | None = None):
        self.iterations, self.width, self.horizon = iterations, width, horizon
        self.time_cap = time_cap
        self.heuristic = HeuristicAgent()
        self.stats = {"decisions": 0, "searches": 0, "iterations": 0, "seconds": 0.0,
                      "capped": 0}

    def seed(self, value: int) -> None:
        """Seed the agent and its heuristic."""
        super().seed(value)
        self.heuristic.seed(self.rng.getrandbits(64))

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Search the action choice; defer every other decision to the heuristic."""
        self.stats["decisions"] += 1
        if kind != "action" or len(options) < 2 or g.origin is None:
            return self.heuristic.choose(g, p, kind, options, ctx)
        t0 = time.perf_counter()
        ranked = self._ranked(g, p, options)
        pick = self._search(g, p, ranked, t0)
        self.stats["searches"] += 1
        self.stats["seconds"] += time.perf_counter() - t0
        return pick

    def _ranked(self, g, p, options) -> list[int]:
        h = self.heuristic
        score = h._action
        vals = [(score(g, p, o, None), -i) for i, o in enumerate(options)]
        return [-i for _, i in sorted(vals, reverse=True)[: self.width]]

    def _search(self, g, p, ranked: list[int], t0: float) -> int:
        n = [0] * len(ranked)
        w = [0.0] * len(ranked)
        for it in range(self.iterations):
            if self.time_cap is not None and time.perf_counter() - t0 > self.time_cap:
                self.stats["capped"] += 1
                break
            if it < len(ranked):
                k = it
            else:
                logn = math.log(it)
                k = max(range(len(ranked)),
                        key=lambda j: w[j] / n[j] + 0.7 * math.sqrt(logn / n[j]))
            w[k] += self._rollout(g, p, ranked[k])
            n[k] += 1
            self.stats["iterations"] += 1
        best = max(range(len(ranked)), key=lambda j: (w[j] / n[j] if n[j] else -1.0, -j))
        return ranked[best]

    def _rollout(self, g, p: int, option: int) -> float:
        from .play import run
        from .setup import new_game

        players, seed, factions, opts = g.origin
        fork = _Fork(g.trace, len(g.trace), p, option, self.rng.getrandbits(64),
                     g.s.round + self.horizon)
        whole = [getattr(a, "whole_plays", False) for a in g.agents]
        f = new_game(g.rules, players, seed, fork.agents(whole), factions, opts)
        try:
            run(f)
        except Horizon:
            pass
        return _score(f, p)
