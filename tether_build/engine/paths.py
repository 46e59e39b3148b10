"""Where units may go: the legal moves of a group (§4.2, §12.2, §12.5, §12.6, passives
Tailwind / Deep Tunnels, Flight, wormholes), the Build Bridge choices, and the quick
existence checks a card's look-ahead uses. Pure queries: movement.py carries moves out.

A move option is a tuple (unit, from_hex, cid, n_forces, path): unit is 'stack', 'force' or
'champion'; cid the Champion moved alone (0 otherwise); n_forces the Forces that go (None =
all of them); path the hexes entered, in order. While a player declares, answers are
memoised in `game.index.memo` (the state cannot change until the costs are paid).
"""

from __future__ import annotations

from itertools import repeat

from .mods import owned

# modifiers that change where a stack may go (the fast 1-hex path is off while any is active)
GLOBAL_BLOCKERS = ("link_hexes", "block_bridge")
# a player's own modifiers that may change a plain 1-hex stack move (then look closer)
MOVE_MODS = ("extra_move", "mines_connected", "ignore_bridges")
NO_LINKS: dict[int, set[int]] = {}
NO_EDGES: frozenset[int] = frozenset()


# A stack move's group (the option's cid field): a Champion's cid moves it alone (unit
# champion); 0 moves every unit of the stack (n_forces 0: its Champions alone);
# ALONE_FORCES moves its Forces and leaves its Champions (§2.1 "any number of your units").
ALONE_FORCES = -1

class PathsMixin:
    """Move and Bridge choices of the Game."""

    def links(self, p: int) -> dict[int, set[int]]:
        """Extra joined hex pairs for seat p: link_hexes and mines_connected."""
        mods = self.hooks.mods
        if not mods.get("link_hexes") and p not in self.mod_owners(("mines_connected",)):
            return NO_LINKS
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
        if not self.hooks.mods.get("block_bridge"):
            return NO_EDGES
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
        """Does a move end on entering h (contact, §12.5). With `stop_on_occupied` (Column
        Advance) any occupied hex stops it, the mover's own other units included; occupied
        means holding units (§4.3), so an empty enemy Capital does not stop it. Asked
        before the moving units enter h."""
        s = self.s
        if stop_on_occupied:
            return bool(s.nocc[h])
        others = s.nocc[h] - (h in s.ucount[p])  # players other than p with units there
        if not others:
            return False
        if h not in self.s.capital_of:
            return True
        return self.opt.capital_stops_move

    def paths(self, p: int, src: int, dist: int, ignore: bool, stop_occ: bool,
              links=None, blocked=None, steps=None) -> list[tuple]:
        """Every simple path of 1..dist hexes from src (ending early on contact);
        `steps` is the _stepper for these arguments, when the caller has one."""
        if links is None:
            links, blocked = self.links(p), self.blocked_edges()
        if not links and not ignore:
            return self._bridge_paths(p, src, dist, stop_occ, blocked)
        if steps is None:
            steps = self._stepper(p, ignore, links, blocked)
        if dist == 1:  # steps are in index order unless links add far hexes
            first = [(b,) for b in steps(src)]
            return sorted(first) if links else first
        out: list[tuple] = []
        stops_at, forces, champs_at = self.stops_at, self.s.forces, self.s.champs_at
        frontier: list[tuple] = [(src, ())]
        for depth in range(1, dist + 1):  # breadth first; the result is sorted anyway
            grow = []
            for at, path in frontier:
                for b in steps(at):
                    if b == src or b in path:
                        continue
                    np = path + (b,)
                    out.append(np)
                    if depth < dist and not ((stop_occ or forces[b] or champs_at[b])
                                             and stops_at(p, b, stop_occ)):
                        grow.append((b, np))
            frontier = grow
        out.sort()
        return out

    def _bridge_paths(self, p: int, src: int, dist: int, stop_occ: bool, blocked) -> list:
        """`paths` along plain Bridges (no links, no flight): the common case, written out
        (the same walk as `paths`, without a stepper call per hex: one shared walk costs
        about 1 % of a game's time, measured)."""
        s = self.s
        at, nocc, mine = s.bridges.at, s.nocc, s.ucount[p]
        out: list[tuple] = []
        if dist == 1:  # in index order, as Bridges.at keeps them
            for b, key in at[src]:
                n = nocc[b]
                if key not in blocked and (n < 2 or (n == 2 and b in mine)):
                    out.append((b,))
            return out
        stops_at, forces, champs_at = self.stops_at, s.forces, s.champs_at
        frontier: list[tuple] = [(src, ())]
        for depth in range(1, dist + 1):  # breadth first; the result is sorted anyway
            grow = []
            for here, path in frontier:
                for b, key in at[here]:
                    if b == src or b in path or key in blocked:
                        continue
                    n = nocc[b]
                    if n >= 2 and (n >= 3 or b not in mine):
                        continue  # two other players there (§12.6)
                    np = path + (b,)
                    out.append(np)
                    if depth < dist and not ((stop_occ or forces[b] or champs_at[b])
                                             and stops_at(p, b, stop_occ)):
                        grow.append((b, np))
            frontier = grow
        out.sort()
        return out

    def _stepper(self, p: int, ignore: bool, links, blocked):
        """fn(hex) -> the hexes one step away (Bridge, flight or link) that seat p may
        enter (not holding two other players), in index order for plain Bridges."""
        s = self.s
        adj, bridges, nocc = s.topo.adj, s.bridges, s.nocc
        bridged = bridges.at
        is_blocked = self.blocked

        def free(b: int) -> bool:
            return nocc[b] < 2 or not is_blocked(p, b)
        if not links:  # the common case, with `free` written out
            if ignore:
                return lambda at: [b for b, _ in adj[at] if nocc[b] < 2 or not is_blocked(p, b)]
            return lambda at: [b for b, key in bridged[at] if key not in blocked
                               and (nocc[b] < 2 or not is_blocked(p, b))]

        def steps(at: int) -> list[int]:
            linked = links.get(at, ())
            out = [b for b, key in adj[at] if (b in linked or ignore or (
                key in bridges and key not in blocked)) and free(b)]
            nbrs = s.topo.nbrs[at]
            out += [b for b in linked if b not in nbrs and free(b)]
            return out
        return steps

    def move_options(self, p: int, unit: str, dist: int, ignore: bool, stop_occ: bool,
                     exclude=()) -> list[tuple]:
        """Every legal move of one group of seat p's units (do not mutate the list:
        while a player declares, the answer is memoised, as the state cannot change)."""
        memo = self.index.memo
        if memo is not None:
            key = (p, unit, dist, ignore, stop_occ, frozenset(exclude)) if exclude else (
                p, unit, dist, ignore, stop_occ)
            got = memo.get(key)
            if got is not None:
                return got
        if dist == 1 and not ignore and self._plain_steps(p, unit):
            got = self._fast_steps(p, exclude, unit)
        else:
            got = self._move_options(p, unit, dist, ignore, stop_occ, exclude)
        if memo is not None:
            memo[key] = got
        return got

    def _move_options(self, p: int, unit: str, dist: int, ignore: bool, stop_occ: bool,
                      exclude, plain: bool = False) -> list[tuple]:
        """move_options the long way: every group, path by path, with every modifier
        (`plain`: never the 1-hex fast path; tests check that both give the same moves)."""
        if not plain and dist == 1 and not ignore and self._plain_steps(p, unit):
            return self._fast_steps(p, exclude, unit)
        links, blocked = self.links(p), self.blocked_edges()
        reach: dict = {}  # (Champions, no Forces?) -> (distance, stepper): same for like groups
        steppers: dict = {}  # flies? -> stepper
        out = []
        for h, cid, n_forces, champs, nf in self._move_groups(p, unit, exclude):
            key = (tuple([c.cid for c in champs]) if champs else (), nf == 0)
            got = reach.get(key)
            if got is None:
                fly = ignore or self.flies(p, champs, nf)
                if fly not in steppers:  # (plain Bridge steps need none: see paths)
                    steppers[fly] = self._stepper(p, fly, links, blocked) if (
                        fly or links) else None
                got = reach[key] = (dist + self.extra_move(p, champs, nf), fly, steppers[fly])
            paths = self.paths(p, h, got[0], got[1], stop_occ, links, blocked, got[2])
            if paths:  # (zip builds the option tuples without a Python-level loop)
                out += zip(repeat(unit), repeat(h), repeat(cid), repeat(n_forces), paths)
        return out

    def bridge_options(self, p: int) -> list[int]:
        """Free edges touching a hex seat p occupies: the Build Bridge action's choices
        (§12.2), in edge order (do not mutate). Kept per seat while the hexes it occupies
        stay the same and no Bridge is removed: then the free edges can only have been
        built on since, so the kept list, less the new Bridges, is the answer."""
        s = self.s
        bridges = s.bridges
        ver = (s.pver[p], bridges.removals)
        cache = self.index.bridges
        kept = cache.get(p)
        if kept is not None and kept[0] == ver and kept[3] is bridges:
            got = kept[1]
            if len(bridges) != kept[2]:  # Bridges built since: drop them
                got = [e for e in got if e not in bridges]
                cache[p] = (ver, got, len(bridges), bridges)
            return got
        occupied = s.occ[p]
        if len(occupied) == 1:  # no edge counted twice
            got = [e for e in s.topo.edges_sorted[occupied[0]] if e not in bridges]
        else:
            edges_of = s.topo.edges_of
            got = sorted({e for h in occupied for e in edges_of[h] if e not in bridges})
        cache[p] = (ver, got, len(bridges), bridges)
        return got

    def can_move(self, p: int, unit: str, ignore: bool) -> bool:
        """Has seat p a move of this kind now (a move step's look-ahead: any first hex will
        do, so 1-hex moves, shared with March's options; stops at the first group)."""
        if not ignore and unit != "champion":  # March's options (memoised) answer it: a
            stacks = self.move_options(p, "stack", 1, False, False)  # Force goes wherever
            if unit == "stack":  # its stack could (a stack with Forces never flies)
                return bool(stacks)
            forces = self.s.forces
            for o in stacks:
                if p in forces[o[1]]:
                    return True
            return False
        links, blocked = self.links(p), self.blocked_edges()
        steppers: dict = {}  # flies? -> stepper
        for h, _, _, champs, nf in self._move_groups(p, unit, ()):
            fly = ignore or self.flies(p, champs, nf)
            if fly not in steppers:
                steppers[fly] = self._stepper(p, fly, links, blocked)
            if self.paths(p, h, 1, fly, False, links, blocked, steppers[fly]):
                return True
        return False

    def _gate(self) -> tuple:
        """(hooks version, does anyone block or link hexes, owners of MOVE_MODS): who may
        move other than by plain Bridge steps (cached per version of the hooks)."""
        hooks = self.hooks
        gate = self.index.move_gate
        if gate[0] != hooks.ver:
            gate = self.index.move_gate = (hooks.ver, bool(self.mod_owners(GLOBAL_BLOCKERS)),
                                           self.mod_owners(MOVE_MODS))
        return gate

    def _plain_steps(self, p: int, unit: str) -> bool:
        """Are seat p's 1-hex moves of this unit the plain Bridge steps (the fast path)."""
        if not (unit == "force" or unit == "stack" and not self.opt.stack_split):
            return False
        index = self.index
        gate = index.move_gate
        if gate[0] != self.hooks.ver:
            gate = self._gate()
        if gate[1]:
            return False
        if p not in gate[2]:
            return True
        memo = index.memo  # p's own modifiers: is one of them in play now?
        plain = None if memo is None else memo.get(("plain", p))
        if plain is not None:
            return plain
        plain = not self._movement_mods(p)
        if memo is not None:
            memo["plain", p] = plain
        return plain

    def _move_groups(self, p: int, unit: str, exclude):
        """(hex, cid, n_forces, Champions, Forces moving) of every group seat p may move."""
        s = self.s
        out = []
        for h in s.occ[p]:
            if h in exclude:
                continue
            for cid, n_forces in self._groups(p, h, unit):
                champs = [s.champions[cid]] if cid > 0 else (
                    [c for c in s.champs_at[h] if c.owner == p]
                    if unit != "force" and s.champs_at[h] and cid == 0 else [])
                out.append((h, cid, n_forces, champs,
                            s.forces[h].get(p, 0) if n_forces is None else n_forces))
        return out

    def _movement_mods(self, p: int) -> bool:
        """Could one of p's own movement modifiers change a plain 1-hex stack move now."""
        mods, s = self.hooks.mods, self.s
        for act in mods.get("extra_move", ()):
            if act.owner != p or not act.limit_ok(self):
                continue
            if act.champ is not None:  # a Champion's own: it may be in the moving stack
                return True
            for alone in (False, True) if act.mod.reads_alone else (False,):  # as extra_move
                if act.mod.when(act.ctx(self, event={"moving_alone": alone})):
                    return True
        if (owned(mods.get("mines_connected", ()), p)
                and sum(1 for h in s.occupied_by(p) if s.tile[h] == "mine") >= 2):
            return True
        if owned(mods.get("ignore_bridges", ()), p):
            # a flying Champion may leave its hex alone (§2.1), Cohorts beside it or not
            for cid in s.players[p].champions:
                if self.flies(p, [s.champions[cid]], 0):
                    return True
        return False

    def _fast_steps(self, p: int, exclude, unit: str = "stack") -> list[tuple]:
        """move_options for the plain 1-hex move of a stack or a Force (no movement
        modifiers active); in (from hex, to hex) order, as occupied_by and topo.adj are."""
        s = self.s
        bridged, forces, nocc = s.bridges.at, s.forces, s.nocc
        steps = s.topo.unit_steps[unit]
        only_forces = unit == "force"
        champs_at = s.champs_at
        out = []
        for h in s.occ[p]:
            if h in exclude or (only_forces and p not in forces[h]):
                continue
            opts = steps[h]
            split = (not only_forces and champs_at[h] and p in forces[h]
                     and any(c.owner == p for c in champs_at[h]))
            for b, _ in bridged[h]:
                if nocc[b] >= 2 and self.blocked(p, b):
                    continue  # two other players there (§12.6)
                out.append(opts[b])
                if split:  # §2.1: the Champions alone, or the Forces alone, may go too
                    out.append(("stack", h, 0, 0, (b,)))
                    out.append(("stack", h, ALONE_FORCES, None, (b,)))
        return out

    def _groups(self, p: int, h: int, unit: str) -> list[tuple]:
        s = self.s
        forces = s.forces[h].get(p, 0)
        if unit == "champion":
            return [(c.cid, 0) for c in s.champs_at[h] if c.owner == p]
        if unit == "force":
            return [(0, 1)] if forces else []
        out = [(0, None)]
        if self.opt.stack_split and forces > 1:
            out += [(0, k) for k in range(1, forces)]
        if forces and any(c.owner == p for c in s.champs_at[h]):
            out += [(0, 0), (ALONE_FORCES, None)]  # the Champions alone, the Forces alone
        return out
