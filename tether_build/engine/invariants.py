"""Invariants checked after every step of a game (tests pass `Checker()` as `check`)."""

from __future__ import annotations

from itertools import compress

# checkpoints where contact battles may still be pending elsewhere on the board
MID_RESOLUTION = {"battle", "declare"}
AFTER_SIEGES = {"collect", "cleanup", "reset", "market", "setup"}


class InvariantError(AssertionError):
    """A rules invariant broke."""


class Checker:
    """Callable invariant check; remembers Permanent VP to check it never decreases."""

    def __init__(self):
        self.calls = 0
        self.pvp: dict[int, int] = {}

    def __call__(self, g, where: str) -> None:
        """Check every invariant; raise InvariantError naming the first broken one."""
        self.calls += 1
        problems = list(problems_of(g, where))
        for p, pl in enumerate(g.s.players):
            if pl.pvp < self.pvp.get(p, 0):
                problems.append(f"seat {p} Permanent VP decreased")
            self.pvp[p] = pl.pvp
        if problems:
            raise InvariantError(f"round {g.s.round} after {where}: " + "; ".join(problems))


def problems_of(g, where: str):
    """Yield a message per broken invariant."""
    s = g.s
    ids = sorted(s.all_card_ids())
    if ids != list(range(len(s.cards))):
        yield f"cards created or lost: {len(ids)} in zones, {len(s.cards)} exist"
    limit = g.rules.game["champions"]["limit"]
    for p, pl in enumerate(s.players):
        if pl.gold < 0 or pl.mana < 0:
            yield f"seat {p} gold {pl.gold} mana {pl.mana}"
        if len(pl.champions) > limit:
            yield f"seat {p} has {len(pl.champions)} Champions (limit {limit})"
        for cid in pl.champions:
            if cid not in s.champions or s.champions[cid].owner != p:
                yield f"seat {p} lists Champion {cid} it does not own"
    yield from _board_problems(g, where)


def _board_problems(g, where: str):
    s = g.s
    n_seats = len(s.players)
    units: list[dict[int, int]] = [{} for _ in range(n_seats)]  # seat -> hex -> units, recounted
    n = s.topo.n
    nocc = [0] * n
    # only hexes with a Force entry or a Champion have anything to check
    for h in sorted({*compress(range(n), s.forces), *compress(range(n), s.champs_at)}):
        occ = s.occupants(h)
        nocc[h] = len(occ)
        if len(occ) > 2:
            yield f"hex {s.topo.name(h)} holds {len(occ)} players"
        if len(occ) == 2 and where not in MID_RESOLUTION:
            if h not in s.capital_of:
                yield f"unresolved battle in {s.topo.name(h)}"
            elif where in AFTER_SIEGES:
                yield f"unresolved siege in {s.topo.name(h)}"
        for p, n in s.forces[h].items():
            if n <= 0 or not 0 <= p < n_seats:
                yield f"bad Force entry {p}:{n} in {s.topo.name(h)}"
            if 0 <= p < n_seats:
                units[p][h] = n
        for ch in s.champs_at[h]:
            if ch.hex != h or s.champions.get(ch.cid) is not ch:
                yield f"Champion {ch.defn.id} misplaced"
            if not 1 <= ch.hp <= ch.max_hp:
                yield f"Champion {ch.defn.id} HP {ch.hp}/{ch.max_hp}"
            if 0 <= ch.owner < n_seats:
                units[ch.owner][h] = units[ch.owner].get(h, 0) + 1
    for p in range(n_seats):
        expect = {h: n for h, n in units[p].items() if n}
        if s.ucount[p] != expect or s.occ[p] != sorted(expect):
            yield f"occupancy index of seat {p} out of sync"
    if s.nocc != nocc:
        yield "occupant count index out of sync"
    if not _bridge_index_ok(s):
        yield "bridged-neighbour index out of sync"
    on_board = sum(map(len, s.champs_at))
    if on_board != len(s.champions):
        yield "Champion index out of sync"
    for e in s.bridges:
        a, b = e >> 8, e & 255
        if s.topo.dist[a][b] != 1:
            yield f"Bridge between non-adjacent hexes {a}-{b}"


def _bridge_index_ok(s) -> bool:
    """Is Bridges.at[h] exactly the (neighbour, edge) pairs of topo.adj[h] whose edge is a
    Bridge, for every hex h. Each row is checked to be such pairs, in neighbour order, and
    the rows to hold two pairs per Bridge between adjacent hexes: a row can then miss none
    (this walks the Bridges, not every edge of the board)."""
    bridges, adj, at = s.bridges, s.topo.adj, s.bridges.at
    total = 0
    for h in compress(range(len(at)), at):  # the rows that are not empty
        row = at[h]
        total += len(row)
        allowed, prev = adj[h], -1
        for x in row:
            if x[0] <= prev or x[1] not in bridges or x not in allowed:
                return False
            prev = x[0]
    dist = s.topo.dist
    return total == 2 * sum(1 for e in bridges if dist[e >> 8][e & 255] == 1)
