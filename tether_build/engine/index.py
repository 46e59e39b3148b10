"""Every cache of facts derived from a game's state, in one object (shared/design.md).

Each entry is checked against what it was derived from before it is used, so a stale entry
is never read:
- `memo`: query answers while one seat chooses its action (the state cannot change until
  the costs are paid): set and cleared around each choice by `Game.choose_action`;
- `seats`: the seat order from the Lead, kept while the Lead stays the same;
- `move_gate`: whether a movement modifier may change a plain 1-hex move, kept per version
  of the active modifiers;
- `owners`: per tuple of modifier kinds, the seats owning an active one, kept per version
  of the active modifiers (`Game.mod_owners`);
- `bridges`: per seat, the free edges it may bridge, kept per version of the hexes it
  occupies and of Bridge removals;
- `probe`: one dry declaration context, reused for look-aheads.
A determinized copy of a game starts with an empty index.
"""

from __future__ import annotations


class Index:
    """The derived-fact caches of one Game (see the module docstring)."""

    __slots__ = ("bridges", "memo", "move_gate", "owners", "probe", "seats")

    def __init__(self):
        self.memo: dict | None = None
        self.seats: tuple | None = None  # (Lead, seat order, rank)
        self.move_gate: tuple = (-1, False, frozenset())  # (hooks version, blocked, owners)
        self.owners: dict[tuple, tuple[int, frozenset]] = {}  # kinds -> (hooks version, seats)
        self.bridges: dict[int, tuple] = {}  # seat -> (version, edges, count, Bridges)
        self.probe = None
