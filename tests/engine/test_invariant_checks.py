"""The invariant checker's quick form of the Bridge index check finds exactly what the plain
comparison finds (every row = the bridged neighbours of its hex), on random corruptions."""

from __future__ import annotations

import random

from tether_build.engine.invariants import _bridge_index_ok
from tether_build.engine.state import Player, State
from tether_build.engine.topo import topology


def _plain(s) -> bool:
    topo = s.topo
    return s.bridges.at == [tuple(x for x in topo.adj[h] if x[1] in s.bridges)
                            for h in range(topo.n)]


def _corrupt(s, rng, kind: int) -> None:
    at, topo = s.bridges.at, s.topo
    h = rng.randrange(topo.n)
    if kind == 1 and at[h]:
        at[h] = at[h][1:]  # a row misses a pair
    elif kind == 2 and len(at[h]) > 1:
        at[h] = tuple(reversed(at[h]))  # out of neighbour order
    elif kind == 3:
        set.add(s.bridges, rng.choice(topo.edges))  # a Bridge no row knows
    elif kind == 4 and at[h]:
        set.discard(s.bridges, at[h][0][1])  # rows still hold a removed Bridge
    elif kind == 5:
        at[h] = (*at[h], rng.choice(topo.adj[h]))  # a pair twice, or one never built


def test_quick_bridge_index_check_matches_the_plain_one():
    topo, rng = topology(5), random.Random(3)
    found = {True: 0, False: 0}
    for _ in range(800):
        s = State(topo, [Player(0, "x")])
        for e in rng.sample(topo.edges, rng.randrange(0, 40)):
            s.bridges.add(e)
        _corrupt(s, rng, rng.randrange(6))
        plain = _plain(s)
        assert _bridge_index_ok(s) == plain
        found[plain] += 1
    assert min(found.values()) > 200  # both outcomes seen many times
