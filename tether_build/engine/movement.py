"""Movement along Bridges: connections, legal paths, multi-hex moves that stop on contact
(§4.2, §12.2, §12.5, §12.6, passives Tailwind / Deep Tunnels, Flight, wormholes).

A move option is a tuple (unit, from_hex, cid, n_forces, path): unit is 'stack', 'force' or
'champion'; cid the Champion moved alone (0 otherwise); n_forces the Forces that go (None =
all of them); path the hexes entered, in order.
"""

from __future__ import annotations

from .core import Fizzle

# modifiers that change where a stack may go (the fast 1-hex path is off while any is active)
GLOBAL_BLOCKERS = ("link_hexes", "block_bridge")


class MoveMixin:
    """Movement rules of the Game."""

    def links(self, p: int) -> dict[int, set[int]]:
        """Extra joined hex pairs for seat p: link_hexes and mines_connected."""
        out: dict[int, set[int]] = {}
        for act in self.hooks.of("link_hexes"):
            ctx = act.ctx(self)
            for a in act.mod.a.candidates(ctx)[:1]:
                for b in act.mod.b.candidates(ctx)[:1]:
                    if a != b:
                        out.setdefault(a, set()).add(b)
                        out.setdefault(b, set()).add(a)
        if any(a.owner == p for a in self.hooks.of("mines_connected")):
            mines = [h for h in self.s.occupied_by(p) if self.s.tile[h] == "mine"]
            for a in mines:
                out.setdefault(a, set()).update(m for m in mines if m != a)
        return out

    def blocked_edges(self) -> set[int]:
        """Bridges that cannot be crossed now (block_bridge)."""
        out: set[int] = set()
        for act in self.hooks.of("block_bridge"):
            out.update(act.mod.bridge.candidates(act.ctx(self)))
        return out

    def flies(self, p: int, champs, n_forces: int) -> bool:
        """May these units cross edges without Bridges (ignore_bridges modifiers)."""
        if n_forces or not champs or not self.hooks.mods.get("ignore_bridges"):
            return False
        mods = [a for a in self.hooks.of("ignore_bridges") if a.owner == p]
        return all(any(self.unit_matches(a, c, False) for a in mods) for c in champs)

    def step_ok(self, a: int, b: int, ignore: bool, links, blocked) -> bool:
        """Can units go from a to b (adjacent with a usable Bridge, or linked)."""
        if b in links.get(a, ()):
            return True
        if self.s.topo.dist[a][b] != 1:
            return False
        if ignore:
            return True
        key = a * 256 + b if a < b else b * 256 + a
        return key in self.s.bridges and key not in blocked

    def extra_move(self, p: int, champs, n_forces: int, commit: bool = False) -> int:
        """Extra hexes allowed by extra_move modifiers for this moving group."""
        extra = 0
        if not self.hooks.mods.get("extra_move"):
            return 0
        alone = n_forces == 0 and len(champs) == 1
        for act in self.hooks.of("extra_move"):
            if act.owner != p or (act.champ is not None and act.champ not in champs):
                continue
            info = {"moving_alone": alone and (act.champ is None or champs[0] is act.champ)}
            if act.limit_ok(self) and act.mod.when(act.ctx(self, event=info)):
                extra += act.mod.params["amount"]
                if commit:
                    act.mark_used(self)
        return extra

    def stops_at(self, p: int, h: int, stop_on_occupied: bool) -> bool:
        """Does a move end on entering h (contact, §12.5)."""
        occ = self.s.occupants(h)
        others = occ - {p}
        if not others:
            return False
        if stop_on_occupied or h not in self.s.capital_of:
            return True
        return self.opt.capital_stops_move

    def paths(self, p: int, src: int, dist: int, ignore: bool, stop_occ: bool,
              links=None, blocked=None) -> list[tuple]:
        """Every simple path of 1..dist hexes from src (ending early on contact)."""
        if links is None:
            links, blocked = self.links(p), self.blocked_edges()
        nbrs = self.s.topo.nbrs
        if dist == 1 and not links:
            return sorted((b,) for b in nbrs[src]
                          if self.step_ok(src, b, ignore, links, blocked)
                          and not self.blocked(p, b))
        out: list[tuple] = []

        def walk(at: int, path: tuple, seen: frozenset):
            for b in set(nbrs[at]) | links.get(at, set()):
                if b in seen or not self.step_ok(at, b, ignore, links, blocked):
                    continue
                if self.blocked(p, b):
                    continue
                np = path + (b,)
                out.append(np)
                if len(np) < dist and not self.stops_at(p, b, stop_occ):
                    walk(b, np, seen | {b})
        walk(src, (), frozenset((src,)))
        out.sort()
        return out

    def move_options(self, p: int, unit: str, dist: int, ignore: bool, stop_occ: bool,
                     exclude=()) -> list[tuple]:
        """Every legal move of one group of seat p's units."""
        s = self.s
        out = []
        mods = self.hooks.mods
        if (dist == 1 and unit == "stack" and not ignore and not self.opt.stack_split
                and not any(mods.get(k) for k in GLOBAL_BLOCKERS)
                and not self._movement_mods(p)):
            return self._fast_steps(p, exclude, stop_occ)
        links, blocked = self.links(p), self.blocked_edges()
        for h in s.occupied_by(p):
            if h in exclude:
                continue
            groups = self._groups(p, h, unit)
            for cid, n_forces in groups:
                champs = [s.champions[cid]] if cid else (
                    [] if unit == "force" else [c for c in s.champs_at[h] if c.owner == p])
                nf = s.forces[h].get(p, 0) if n_forces is None else n_forces
                d = dist + self.extra_move(p, champs, nf)
                fly = ignore or self.flies(p, champs, nf)
                out.extend((unit, h, cid, n_forces, path)
                           for path in self.paths(p, h, d, fly, stop_occ, links, blocked))
        return out

    def _movement_mods(self, p: int) -> bool:
        """Could one of p's own movement modifiers change a plain 1-hex stack move now."""
        mods, s = self.hooks.mods, self.s
        if any(a.owner == p and a.limit_ok(self) for a in mods.get("extra_move", ())):
            return True
        if (any(a.owner == p for a in mods.get("mines_connected", ()))
                and sum(1 for h in s.occupied_by(p) if s.tile[h] == "mine") >= 2):
            return True
        if any(a.owner == p for a in mods.get("ignore_bridges", ())):
            for cid in s.players[p].champions:  # a Champion alone on its hex may fly
                if p not in s.forces[s.champions[cid].hex]:
                    return True
        return False

    def _fast_steps(self, p: int, exclude, stop_occ: bool) -> list[tuple]:
        """move_options for the plain 1-hex stack move (no movement modifiers active)."""
        s = self.s
        bridges, nbrs, forces, champs_at = s.bridges, s.topo.nbrs, s.forces, s.champs_at
        out = []
        for h in s.occupied_by(p):
            if h in exclude:
                continue
            for b in nbrs[h]:
                if (h * 256 + b if h < b else b * 256 + h) not in bridges:
                    continue
                fb, cb = forces[b], champs_at[b]
                if len(fb) + len(cb) >= 2:  # maybe two other players there (§12.6)
                    occ = set(fb)
                    occ.update(c.owner for c in cb)
                    occ.discard(p)
                    if len(occ) >= 2:
                        continue
                out.append(("stack", h, 0, None, (b,)))
        out.sort(key=lambda o: (o[1], o[4]))
        return out

    def _groups(self, p: int, h: int, unit: str) -> list[tuple]:
        s = self.s
        forces = s.forces[h].get(p, 0)
        if unit == "champion":
            return [(c.cid, 0) for c in s.champs_at[h] if c.owner == p]
        if unit == "force":
            return [(0, 1)] if forces else []
        if not self.opt.stack_split or forces <= 1:
            return [(0, None)]
        return [(0, None)] + [(0, k) for k in range(1, forces)]

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
        extra = self.extra_move(p, champs, nf)
        fly = ignore or self.flies(p, champs, nf)
        links, blocked = self.links(p), self.blocked_edges()
        hops = list(zip((src,) + path, path))
        if len(path) > dist + extra or not all(
                self.step_ok(a, b, fly, links, blocked) for a, b in hops):
            raise Fizzle("path no longer legal")
        if len(path) > dist:
            self.extra_move(p, champs, nf, commit=True)
        at = src
        for a, b in hops:
            if self.blocked(p, b):
                if self.opt.blocked_move == "cancel":
                    at = self._relocate_group(p, at, src, champs, nf)
                break
            at = self._relocate_group(p, a, b, champs, nf)
            self._crossed(p, a, b)
            if self.stops_at(p, b, stop_occ):
                break
        s.players[p].moves_this_round += 1
        self.log("move", p=p, frm=s.topo.name(src), to=s.topo.name(at), unit=unit)
        if any(o != p for o in s.occupants(at)) and at not in s.capital_of:
            self.fire("battle_entered", {"mover": p, "hex": at})
        return at

    def _moving_champs(self, p: int, unit: str, src: int, cid: int) -> list:
        s = self.s
        if unit == "champion":
            ch = s.champions.get(cid)
            if ch is None or ch.hex != src or ch.owner != p:
                raise Fizzle("the Champion is gone")
            return [ch]
        if unit == "force":
            return []
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

    def _crossed(self, p: int, a: int, b: int) -> None:
        key = a * 256 + b if a < b else b * 256 + a
        info = {"mover": p, "edge": key, "hex": b}
        if self.hooks.trigs.get("enemy_crosses_bridge"):
            self.fire("enemy_crosses_bridge", info)
        owner = self.s.capital_of.get(b)
        if owner is not None and owner != p and self.hooks.trigs.get("enemy_enters_capital"):
            self.fire("enemy_enters_capital", {"mover": p, "hex": b, "owner": owner})

    def relocate_champion(self, ch, h: int) -> bool:
        """Move a Champion directly to a hex (no path); fails if two others are there."""
        if self.blocked(ch.owner, h):
            self.log("move_fail", p=ch.owner, card=ch.defn.id)
            return False
        self._relocate_group(ch.owner, ch.hex, h, [ch], 0)
        self.log("relocate", p=ch.owner, card=ch.defn.id, to=self.s.topo.name(h))
        return True
