"""Fast paths are earned: the 1-hex move fast path must offer exactly the moves the long
way does, wherever the engine takes it (a disagreement once hid Flight for a Champion that
had Cohorts on its hex)."""

from __future__ import annotations

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.play import run
from tether_build.engine.setup import new_game


class _Compare(RandomAgent):
    """A random agent that, at every Action Step, compares the fast and the long 1-hex moves."""

    sees = "game"  # a test harness: it calls the engine's move generators

    def __init__(self, seen: list, inner=None):
        self.seen, self.inner = seen, inner

    def seed(self, value):
        super().seed(value)
        if self.inner is not None:
            self.inner.seed(value)

    def choose(self, g, p, kind, options, ctx=None):
        if kind == "action":
            for unit in ("stack", "force"):
                if g._plain_steps(p, unit):
                    fast = sorted(g._fast_steps(p, (), unit), key=repr)
                    slow = sorted(g._move_options(p, unit, 1, False, False, (), plain=True),
                                  key=repr)
                    assert fast == slow, (g.s.round, p, unit)
                    self.seen.append(len(fast))
        if self.inner is not None:
            return self.inner.choose(g, p, kind, options, ctx)
        return super().choose(g, p, kind, options, ctx)


def test_fast_one_hex_moves_equal_the_long_way(rules):
    seen: list = []
    factions = sorted(rules.factions)
    for seed in range(12):
        n = 2 + seed % 3
        facs = [factions[(seed + i) % len(factions)] for i in range(n)]
        agents = [_Compare(seen, HeuristicAgent() if (seed + i) % 2 else None)
                  for i in range(n)]
        run(new_game(rules, n, 300 + seed, agents, facs))
    assert len(seen) > 200 and sum(seen) > 1000  # many states, with real moves to compare
