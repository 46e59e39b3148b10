"""Fast paths are earned: the 1-hex move fast path must offer exactly the moves the long
way does, wherever the engine takes it (a disagreement once hid Flight for a Champion that
had Cohorts on its hex)."""

from __future__ import annotations

from tether_build.engine import appraise as A
from tether_build.engine import weights as W
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


class _FullScore(HeuristicAgent):
    """The heuristic scoring every option in full, battle odds included, in option order:
    what HeuristicAgent.choose must pick while it skips the odds of hopeless fights."""

    def __init__(self, asked: list):
        self.asked = asked

    def choose(self, g, p, kind, options, ctx=None):
        score = getattr(self, "_" + kind, None) or self._default
        skip = W.SKIP if kind in ("hex", "champion", "bridge", "may") else None
        best, pick = None, 0
        for i, opt in enumerate(options):
            v = (skip if opt is None and skip is not None else score(g, p, opt, ctx)
                 ) + self.rng.random() * 0.01
            if best is None or v > best:
                best, pick = v, i
        self.asked.append(pick)
        return pick


class _Bounded(HeuristicAgent):
    def __init__(self, asked: list):
        self.asked = asked

    def choose(self, g, p, kind, options, ctx=None):
        pick = super().choose(g, p, kind, options, ctx)
        self.asked.append(pick)
        return pick


def test_the_heuristic_skips_odds_only_where_they_cannot_change_its_pick(rules, monkeypatch):
    """HeuristicAgent scores a move into a battle at its best case first and works out the
    battle odds only where that case could win: every pick equals scoring every option in
    full, the random tie-breaks drawn alike, over whole games with many fights, and fewer
    odds are worked out."""
    from tether_build.engine import odds

    runs = {"full": 0, "bounded": 0}
    real = odds.battle_odds
    which = ["full"]

    def counted(*a, **k):
        runs[which[0]] += 1
        return real(*a, **k)

    monkeypatch.setattr(odds, "battle_odds", counted)
    factions = sorted(rules.factions)
    picks: dict = {"full": [], "bounded": []}
    for agent, name in ((_FullScore, "full"), (_Bounded, "bounded")):
        A._odds.cache_clear()
        which[0] = name
        for seed in range(6):
            n = 3 + seed % 3
            facs = [factions[(seed + i) % len(factions)] for i in range(n)]
            run(new_game(rules, n, 700 + seed, [agent(picks[name]) for _ in range(n)], facs))
    A._odds.cache_clear()
    assert picks["bounded"] == picks["full"] and len(picks["full"]) > 1000
    assert 0 < runs["bounded"] < runs["full"], runs


class _NearChecked(HeuristicAgent):
    """The heuristic, checking each hex potential it reads against the formula worked out
    afresh from the state of that moment."""

    def __init__(self, seen: list):
        self.seen = seen

    def _near_objective(self, g, p, h):
        got = super()._near_objective(g, p, h)
        s = g.s
        row = s.topo.dist[h]
        fresh = max([-9.0] + [worth - 1.2 * row[t] for t, worth in self._objectives(g, p)
                              if not s.occupies(p, t)])
        assert got == fresh, (s.round, p, h)
        self.seen.append(len(self._near_tables[1]))
        return got


def test_hex_potentials_kept_across_decisions_are_those_of_the_moment(rules):
    """The heuristic keeps a hex's potential for as long as the objectives its seat does
    not hold stay the same, over many decisions: every potential it reads over whole games
    equals the one worked out from the state of the moment, and the kept tables are far
    fewer than the reads."""
    seen: list = []
    factions = sorted(rules.factions)
    for seed in range(4):
        n = 2 + seed
        facs = [factions[(seed + i) % len(factions)] for i in range(n)]
        run(new_game(rules, n, 900 + seed, [_NearChecked(seen) for _ in range(n)], facs))
    assert len(seen) > 2000 and max(seen) < len(seen) / 20
