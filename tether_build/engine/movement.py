"""Carrying out moves along Bridges: declared paths re-checked at resolution, multi-hex moves
that stop on contact or before a full hex (§12.2, §12.5, §12.6), Champions relocated.
The choices themselves (which moves are legal) are in paths.py.
"""

from __future__ import annotations

from .core import Fizzle
from .paths import GLOBAL_BLOCKERS, MOVE_MODS, NO_EDGES, NO_LINKS, PathsMixin

__all__ = ["GLOBAL_BLOCKERS", "MOVE_MODS", "NO_EDGES", "NO_LINKS", "MoveMixin"]


class MoveMixin(PathsMixin):
    """Movement rules of the Game."""

    def do_move(self, p: int, opt: tuple, dist: int, ignore: bool, stop_occ: bool) -> int:
        """Carry out a declared move; returns the final hex. Fizzles if the path broke."""
        unit, src, cid, n_forces, path = opt
        s = self.s
        champs = self._moving_champs(p, unit, src, cid)
        nf = 0 if unit == "champion" else (1 if unit == "force" else s.forces[src].get(p, 0))
        if n_forces is not None and unit == "stack":
            nf = min(n_forces, nf)
        if not champs and nf == 0:
            raise Fizzle("the stack is gone")
        hops = list(zip((src,) + path, path))
        gate = self._gate()
        if ignore or gate[1] or p in gate[2]:
            extra = self.extra_move(p, champs, nf)
            if len(path) > dist + extra or not self._hops_ok(
                    p, hops, ignore or self.flies(p, champs, nf)):
                raise Fizzle("path no longer legal")
            if len(path) > dist:
                self.extra_move(p, champs, nf, commit=True)
        elif len(path) > dist or not self._bridged(hops):  # no modifier changes p's moves
            raise Fizzle("path no longer legal")
        at = src
        for a, b in hops:
            if self.blocked(p, b):
                if self.opt.blocked_move == "cancel":
                    at = self._relocate_group(p, at, src, champs, nf)
                break
            stop = self.stops_at(p, b, stop_occ)  # before the group itself stands there
            at = self._relocate_group(p, a, b, champs, nf)
            self._crossed(p, a, b, nf)
            if stop:
                break
        s.players[p].moves_this_round += 1
        if self.events is not None:
            self.log("move", p=p, frm=s.topo.name(src), to=s.topo.name(at), unit=unit)
        if (self.hooks.trigs.get("battle_entered") and at not in s.capital_of
                and any(o != p for o in s.occupants(at))):
            self.fire("battle_entered", {"mover": p, "hex": at})
        return at

    def _hops_ok(self, p: int, hops, fly: bool) -> bool:
        """Is every hop of a declared path still usable (Bridge, flight or link)."""
        links, blocked = self.links(p), self.blocked_edges()
        if links or blocked:
            return all(self.step_ok(a, b, fly, links, blocked) for a, b in hops)
        if fly:
            dist = self.s.topo.dist
            return all(dist[a][b] == 1 for a, b in hops)
        return self._bridged(hops)

    def _bridged(self, hops) -> bool:
        """Does a Bridge join every hop (a, b) of a path."""
        dist, bridges = self.s.topo.dist, self.s.bridges
        for a, b in hops:
            if dist[a][b] != 1 or (a * 256 + b if a < b else b * 256 + a) not in bridges:
                return False
        return True

    def _moving_champs(self, p: int, unit: str, src: int, cid: int) -> list:
        s = self.s
        if unit == "champion":
            ch = s.champions.get(cid)
            if ch is None or ch.hex != src or ch.owner != p:
                raise Fizzle("the Champion is gone")
            return [ch]
        if unit == "force" or cid < 0 or not s.champs_at[src]:
            return []  # a Force, or the Forces of a stack without its Champions
        return [c for c in s.champs_at[src] if c.owner == p]

    def _relocate_group(self, p: int, a: int, b: int, champs, nf: int) -> int:
        s = self.s
        if a == b:
            return a
        moved = s.remove_forces(p, a, nf)
        s.add_forces(p, b, moved)
        for ch in champs:
            if ch.cid in s.champions:
                s.take_champ(ch)
                s.put_champ(ch, b)
        self.dirty[b] = p
        return b

    def _crossed(self, p: int, a: int, b: int, nf: int = 0) -> None:
        """Fire the crossing triggers; `nf`: Forces in the crossing group (side: mover)."""
        trigs = self.hooks.trigs
        if trigs.get("enemy_crosses_bridge"):
            key = a * 256 + b if a < b else b * 256 + a
            self.fire("enemy_crosses_bridge", {"mover": p, "edge": key, "hex": b,
                                               "moving_forces": nf})
        owner = self.s.capital_of.get(b)
        if owner is not None and owner != p and trigs.get("enemy_enters_capital"):
            self.fire("enemy_enters_capital", {"mover": p, "hex": b, "owner": owner,
                                               "moving_forces": nf})

    def relocate_champion(self, ch, h: int) -> bool:
        """Move a Champion directly to a hex (no path); fails if two others are there."""
        if self.blocked(ch.owner, h):
            self.log("move_fail", p=ch.owner, card=ch.defn.id)
            return False
        self._relocate_group(ch.owner, ch.hex, h, [ch], 0)
        self.log("relocate", p=ch.owner, card=ch.defn.id, to=self.s.topo.name(h))
        return True
