"""The agent every decision goes through, and the random agent (which needs no judgement)."""

from __future__ import annotations

import random


class Agent:
    """Base agent: its own RNG stream, seeded from the game RNG at setup (until then, and
    for an agent used outside a game, a stream shared by unseeded agents)."""

    name = "agent"
    rng = random.Random(0)

    def seed(self, value: int) -> None:
        """Give this agent its private RNG (called once by setup)."""
        self.rng = random.Random(value)

    def choose(self, g, p: int, kind: str, options: list, ctx=None) -> int:
        """Index of the chosen option."""
        raise NotImplementedError


class RandomAgent(Agent):
    """Picks uniformly among the legal options."""

    name = "random"

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """A uniformly random legal option."""
        return int(self.rng.random() * len(options))
