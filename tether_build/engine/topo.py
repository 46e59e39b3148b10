"""Integer-indexed hex topology of a board radius: coordinates, neighbours, distances, edges.

Hexes are numbered 0..N-1 in board order (`board.all_hexes`); a Bridge (an edge) is the
integer key `a * 256 + b` with a < b. Built once per radius and cached.
"""

from __future__ import annotations

from functools import cache

from . import board as geo
from .core import shared


def edge_key(a: int, b: int) -> int:
    """The integer key of the edge between hexes a and b (order-free)."""
    return a * 256 + b if a < b else b * 256 + a


def edge_ends(key: int) -> tuple[int, int]:
    """The two hex indices of an edge key."""
    return key >> 8, key & 255


@shared
class Topology:
    """Coordinates, neighbours and the distance table of a hexagonal board."""

    def __init__(self, radius: int):
        self.radius = radius
        self.coords = list(geo.all_hexes(radius))
        self.index = {c: i for i, c in enumerate(self.coords)}
        self.n = len(self.coords)
        self.center = self.index[(0, 0)]
        self.nbrs = [tuple(self.index[h] for h in geo.neighbors(c, radius))
                     for c in self.coords]
        self.dist = [[geo.distance(a, b) for b in self.coords] for a in self.coords]
        self.edges = sorted({edge_key(a, b) for a in range(self.n) for b in self.nbrs[a]})
        self._balls: dict[int, tuple[int, ...]] = {}
        self.edges_of = [tuple(edge_key(a, b) for b in self.nbrs[a]) for a in range(self.n)]
        self.names = [f"({q},{r})" for q, r in self.coords]
        self.edges_sorted = [tuple(sorted(e)) for e in self.edges_of]
        # (neighbour, edge key) pairs sorted by neighbour: the move generators' inner loop
        self.adj = [tuple(sorted((b, edge_key(a, b)) for b in self.nbrs[a]))
                    for a in range(self.n)]
        # per hex, neighbour -> the 1-hex move option (unit, from, cid, forces, path) of a
        # whole stack and of a single Force, built once
        self.unit_steps = {
            unit: [{b: (unit, a, 0, nf, (b,)) for b, _ in self.adj[a]} for a in range(self.n)]
            for unit, nf in (("stack", None), ("force", 1))}

    def ball(self, h: int, d: int) -> tuple[int, ...]:
        """Hexes at distance <= d of h (cached)."""
        key = h * 64 + d
        got = self._balls.get(key)
        if got is None:
            row = self.dist[h]
            got = self._balls[key] = tuple(x for x in range(self.n) if row[x] <= d)
        return got

    def within(self, sources, d: int) -> set[int]:
        """Every hex at distance <= d of any source hex."""
        out: set[int] = set()
        for s in sources:
            out.update(self.ball(s, d))
        return out

    def name(self, h: int) -> str:
        """Readable '(q,r)' for logs."""
        return self.names[h]


@cache
def topology(radius: int) -> Topology:
    """The cached topology for a board radius."""
    return Topology(radius)
