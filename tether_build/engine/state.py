"""Game state: players, card instances and their zones, units on the board, Bridges.

Every physical card is one `CardInst` with an integer id (iid) and lives in exactly one
zone at a time: a supply deck, a player's hand / draw pile / discard pile / burn pile /
scrapped pile / played area, a Champion on the board, or the revealed row. Draw piles and
decks keep their top at the END of the list.
"""

from __future__ import annotations

import hashlib
import json
from types import MappingProxyType

from .topo import Topology, edge_ends

NO_OVERRIDES = MappingProxyType({})  # shared by every card without overrides (read-only)


class CardInst:
    """One physical card: its definition, owner, counter and per-instance overrides
    (`over` is replaced, never changed in place: most cards share NO_OVERRIDES)."""

    __slots__ = ("counter", "defn", "iid", "over")

    def __init__(self, iid: int, defn):
        self.iid, self.defn, self.counter, self.over = iid, defn, 0, NO_OVERRIDES

    def __deepcopy__(self, memo):
        """A copy sharing the definition and the (never mutated) overrides mapping."""
        c = CardInst(self.iid, self.defn)
        c.counter, c.over = self.counter, self.over
        memo[id(self)] = c
        return c

    def get(self, key: str):
        """A cost/initiative/burn value, honouring overrides (e.g. gained with burn)."""
        return self.over.get(key, getattr(self.defn, key))


class Bridges(set):
    """The Bridges on the board, as edge keys (a plain set for `in`, ==, iteration), that
    also keeps each hex's bridged neighbours: `at[h]`, a tuple of (neighbour, edge key) in
    neighbour order. Every way of changing the set keeps `at` in step."""

    __slots__ = ("at", "removals")

    def __init__(self, n: int, edges=()):
        super().__init__()
        self.at: list[tuple] = [()] * n
        self.removals = 0  # Bridges removed so far: while it stands, the set only grew
        self.update(edges)

    def __reduce__(self):
        """Copy and pickle as (board size, edges) + the removal count (a set subclass with
        its own __init__ cannot use set's reduction)."""
        return (Bridges, (len(self.at), sorted(self)), {"removals": self.removals})

    def __setstate__(self, state: dict) -> None:
        self.removals = state["removals"]

    def add(self, e: int) -> None:
        """Build the Bridge with edge key e."""
        if e not in self:
            super().add(e)
            a, b = e >> 8, e & 255
            self.at[a] = _with(self.at[a], b, e)
            self.at[b] = _with(self.at[b], a, e)

    def discard(self, e: int) -> None:
        """Remove the Bridge with edge key e, if there is one."""
        if e in self:
            super().discard(e)
            self.removals += 1
            a, b = e >> 8, e & 255
            self.at[a] = tuple(x for x in self.at[a] if x[1] != e)
            self.at[b] = tuple(x for x in self.at[b] if x[1] != e)

    def remove(self, e: int) -> None:
        """Remove the Bridge with edge key e (KeyError if there is none)."""
        if e not in self:
            raise KeyError(e)
        self.discard(e)

    def pop(self) -> int:
        """Remove and return any Bridge."""
        e = next(iter(self))
        self.discard(e)
        return e

    def clear(self) -> None:
        """Remove every Bridge."""
        self.removals += 1
        super().clear()
        self.at = [()] * len(self.at)

    def update(self, *others) -> None:
        """Build every Bridge of the iterables (many at once: each hex's row sorted once)."""
        for it in others:
            new = [e for e in dict.fromkeys(it) if e not in self]
            if len(new) < 8:
                for e in new:
                    self.add(e)
                continue
            super().update(new)
            rows: dict[int, list] = {}
            for e in new:
                a, b = e >> 8, e & 255
                rows.setdefault(a, []).append((b, e))
                rows.setdefault(b, []).append((a, e))
            at = self.at
            for h, pairs in rows.items():  # a row is sorted by neighbour, as `_with` keeps it
                at[h] = tuple(sorted([*at[h], *pairs]))

    def difference_update(self, *others) -> None:
        """Remove every Bridge of the iterables."""
        for it in others:
            for e in list(it):
                self.discard(e)

    def intersection_update(self, *others) -> None:
        """Keep only the Bridges in every iterable."""
        keep = set(self).intersection(*others)
        self.difference_update([e for e in self if e not in keep])

    def symmetric_difference_update(self, other) -> None:
        """Toggle every Bridge of the iterable."""
        for e in set(other):
            if e in self:
                self.discard(e)
            else:
                self.add(e)

    def __ior__(self, other):
        self.update(other)
        return self

    def __isub__(self, other):
        self.difference_update(other)
        return self

    def __iand__(self, other):
        self.intersection_update(other)
        return self

    def __ixor__(self, other):
        self.symmetric_difference_update(other)
        return self


def _with(row: tuple, h: int, e: int) -> tuple:
    """row (sorted by neighbour) with (h, e) inserted in its place."""
    i = 0
    while i < len(row) and row[i][0] < h:
        i += 1
    return (*row[:i], (h, e), *row[i:])


class Champion:
    """A Champion on the board."""

    __slots__ = ("ability_used", "cid", "defn", "hex", "hp", "iid", "max_hp", "owner")

    def __init__(self, cid: int, iid: int, owner: int, hex_: int, defn):
        self.cid, self.iid, self.owner, self.hex, self.defn = cid, iid, owner, hex_, defn
        self.hp = self.max_hp = defn.champion["hp"]
        self.ability_used: set[int] = set()

    def __repr__(self) -> str:  # the same in a clone or a fork (a play names its targets)
        return f"<champion {self.defn.id}#{self.cid} of seat {self.owner}>"


class Player:
    """One player's resources, card zones and per-round flags."""

    __slots__ = (
        "burn",
        "capital",
        "champions",
        "cvp",
        "discard",
        "done",
        "draw",
        "faction",
        "gold",
        "hand",
        "last_drawn",
        "mana",
        "market_won",
        "moves_this_round",
        "played",
        "played_count",
        "pvp",
        "scrapped",
        "seat",
        "slot",
        "won_battle",
    )

    def __init__(self, seat: int, faction: str):
        self.seat, self.faction = seat, faction
        self.gold = self.mana = self.pvp = self.cvp = 0
        self.hand: list[int] = []
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.burn: list[int] = []
        self.scrapped: list[int] = []
        self.played: list[int] = []
        self.capital = -1
        self.slot = ""
        self.champions: list[int] = []
        self.last_drawn = None
        self.new_round()

    def new_round(self) -> None:
        """Clear the per-round flags."""
        self.done = False
        self.played_count = 0
        self.won_battle = False
        self.moves_this_round = 0
        self.market_won = False

    def zones(self) -> tuple[list[int], ...]:
        """Every card zone of this player."""
        return (self.hand, self.draw, self.discard, self.burn, self.scrapped, self.played)


class State:
    """The whole board and every player; no rules here, only data and queries."""

    def __init__(self, topo: Topology, players: list[Player]):
        self.topo = topo
        n = topo.n
        self.tile = ["plain"] * n
        self.mine_value = [0] * n
        self.capital_of: dict[int, int] = {}      # hex -> owning seat
        self.forces: list[dict[int, int]] = [{} for _ in range(n)]
        self.champs_at: list[list[Champion]] = [[] for _ in range(n)]
        self.champions: dict[int, Champion] = {}
        self.next_cid = 1
        self.bridges = Bridges(n)
        self.temp_bridges: set[int] = set()
        self.players = players
        self.cards: list[CardInst] = []
        self.decks: dict[str, list[int]] = {}
        self.revealed: list[int] = []
        self.round = 0
        self.age = "I"
        self.lead = 0
        self.mods: list = []
        self.triggers: list = []
        self.winner: list[int] | None = None
        self.end_reason = ""
        self.ver = 0                    # bumped on every unit change
        self.occ: list[list[int]] = [[] for _ in players]  # seat -> its hexes, sorted
        # per seat: bumped when the set of hexes it occupies changes (occupancy caches)
        self.pver = [0] * len(players)
        self._kinds: dict[frozenset, list[int]] = {}
        self.ucount: list[dict[int, int]] = [{} for _ in players]  # seat -> hex -> units
        self.nocc = [0] * n  # hex -> how many seats have units there

    # ---- occupancy -------------------------------------------------------------------
    def occupants(self, h: int) -> set[int]:
        """Seats with at least one unit in hex h (§4.3)."""
        occ = set(self.forces[h])
        for c in self.champs_at[h]:
            occ.add(c.owner)
        return occ

    def occupies(self, p: int, h: int) -> bool:
        """Does seat p occupy hex h."""
        return h in self.ucount[p]

    def occupied_by(self, p: int) -> list[int]:
        """Hexes seat p occupies, in index order (`occ[p]`: do not mutate; a new list
        replaces it whenever the set changes, so a list in hand stays as it was)."""
        return self.occ[p]

    def units_of(self, p: int, h: int) -> int:
        """Number of seat p's units (Forces + Champions) in hex h."""
        return self.forces[h].get(p, 0) + sum(1 for c in self.champs_at[h] if c.owner == p)

    def add_forces(self, p: int, h: int, n: int) -> None:
        """Put n Forces of seat p into hex h (no rules checks)."""
        if n > 0:
            self.forces[h][p] = self.forces[h].get(p, 0) + n
            self._count(p, h, n)

    def remove_forces(self, p: int, h: int, n: int) -> int:
        """Remove up to n Forces; returns how many were removed."""
        have = self.forces[h].get(p, 0)
        n = min(n, have)
        if n == have:
            self.forces[h].pop(p, None)
        else:
            self.forces[h][p] = have - n
        if n:
            self._count(p, h, -n)
        return n

    def _count(self, p: int, h: int, n: int) -> None:
        """Keep the per-seat unit count per hex (occupancy index) and bump the version."""
        c = self.ucount[p]
        old = c.get(h, 0)
        v = old + n
        if v:
            c[h] = v
            if not old:
                self.nocc[h] += 1
                self.pver[p] += 1
                self.occ[p] = sorted(c)
        else:
            del c[h]
            self.nocc[h] -= 1
            self.pver[p] += 1
            self.occ[p] = sorted(c)
        self.ver += 1

    def hexes_of(self, kinds: frozenset) -> list[int]:
        """Hexes whose tile is one of `kinds` (tiles never change during a game)."""
        got = self._kinds.get(kinds)
        if got is None:
            got = self._kinds[kinds] = [h for h, t in enumerate(self.tile) if t in kinds]
        return got

    def put_champ(self, ch, h: int) -> None:
        """Place a Champion object on hex h (index it)."""
        ch.hex = h
        self.champs_at[h].append(ch)
        self._count(ch.owner, h, 1)

    def take_champ(self, ch) -> None:
        """Lift a Champion object off its hex (still indexed in `champions`)."""
        self.champs_at[ch.hex].remove(ch)
        self._count(ch.owner, ch.hex, -1)

    def connected(self, a: int, b: int) -> bool:
        """Is there a Bridge between adjacent hexes a and b."""
        return (a * 256 + b if a < b else b * 256 + a) in self.bridges

    # ---- cards -----------------------------------------------------------------------
    def all_card_ids(self) -> list[int]:
        """Every iid found in any zone (for the conservation invariant)."""
        out = list(self.revealed)
        for deck in self.decks.values():
            out.extend(deck)
        for pl in self.players:
            for z in pl.zones():
                out.extend(z)
        out.extend(c.iid for c in self.champions.values())
        return out

    def snapshot(self) -> dict:
        """A canonical, JSON-safe picture of the state (for replay checks and digests)."""
        topo = self.topo
        return {
            "round": self.round, "age": self.age, "winner": self.winner,
            "end": self.end_reason,
            "players": [{"gold": p.gold, "pvp": p.pvp, "cvp": p.cvp, "mana": p.mana,
                         "hand": sorted(p.hand), "draw": list(p.draw),
                         "discard": sorted(p.discard), "burn": sorted(p.burn),
                         "scrapped": sorted(p.scrapped)} for p in self.players],
            "forces": {topo.name(h): sorted(f.items()) for h, f in enumerate(self.forces) if f},
            "champions": sorted([c.iid, c.owner, topo.name(c.hex), c.hp, c.max_hp]
                                for c in self.champions.values()),
            "bridges": sorted("-".join(topo.name(x) for x in edge_ends(e))
                              for e in self.bridges),
            "mines": {topo.name(h): v for h, v in enumerate(self.mine_value) if v},
            "decks": {k: list(v) for k, v in sorted(self.decks.items())},
        }

    def digest(self) -> str:
        """SHA-256 of the canonical snapshot."""
        blob = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()
