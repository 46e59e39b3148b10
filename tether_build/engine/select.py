"""Selectors: pure queries over the state (hexes, Champions, Bridges, players, amounts).

Each selector dict of the effect language compiles once into a small object whose
`candidates(ctx)` lists the legal choices now. Steps decide what to do with them.
"""

from __future__ import annotations

from .core import ALL, shared

# the selector keys this module understands; an unknown key is a load error
HEX_KEYS = frozenset({"ref", "this", "own_capital", "enemy_capital", "not_capital", "anywhere",
                      "kind", "occupied_by", "contains", "within", "adjacent_to_capital",
                      "pick", "any_of", "event_hex"})
CHAMPION_KEYS = frozenset({"ref", "this", "side", "within", "in", "pick", "exclude_this"})
BRIDGE_KEYS = frozenset({"ref", "touching", "anywhere"})
WITHIN_OF = frozenset({"your_capital", "your_champion", "your_units", "your_forces", "this",
                       "ref"})
PLAYER_REFS = frozenset({"self", "chosen_opponent", "each_opponent", "owner", "killer",
                         "battle_enemy", "victim"})


def _known(spec: dict, keys: frozenset, what: str) -> None:
    unknown = set(spec) - keys
    if unknown:
        raise ValueError(f"unknown {what} selector key(s): {sorted(unknown)}")


# ---- "within" sources -------------------------------------------------------------------
def _within_sources(ctx, of: str, ref: str | None) -> list[int]:
    s, p = ctx.s, ctx.p
    if of == "your_capital":
        return [s.players[p].capital]
    if of == "your_champion":
        return [s.champions[c].hex for c in s.players[p].champions]
    if of == "your_units":
        return s.occupied_by(p)
    if of == "your_forces":
        return [h for h, f in enumerate(s.forces) if p in f]
    if of == "this":
        ch = ctx.champ
        return [ch.hex] if ch is not None and ch.cid in s.champions else []
    return [h for h in [ref_hex(ctx, ref)] if h is not None]


def ref_hex(ctx, name: str | None):
    """The hex a ref names: a hex, a Champion's hex, or None."""
    v = ctx.refs.get(name)
    if v is None:
        return None
    if isinstance(v, int):
        return v
    if hasattr(v, "cid"):
        return v.hex if v.cid in ctx.s.champions else None
    return None


@shared
class Within:
    """A compiled 'within' area: called, the set of hexes within `d` of its sources."""

    __slots__ = ("d", "lo", "of", "ref")

    def __init__(self, spec: dict):
        self.d, self.of, self.ref = spec["distance"], spec["of"], spec.get("ref")
        self.lo = spec.get("min_distance") or 0  # 1: adjacent hexes, not the source's own

    def __call__(self, ctx) -> set[int]:
        if not self.lo:
            return ctx.s.topo.within(self.sources(ctx), self.d)
        dist, lo, d = ctx.s.topo.dist, self.lo, self.d
        return {x for s in self.sources(ctx) for x, k in enumerate(dist[s]) if lo <= k <= d}

    def reaches(self, row, sources) -> bool:
        """Is the hex whose distance row this is in the area of these sources."""
        lo, d = self.lo, self.d
        for x in sources:
            if lo <= row[x] <= d:
                return True
        return False

    def sources(self, ctx) -> list[int]:
        """The hexes the area is measured from, now."""
        return _within_sources(ctx, self.of, self.ref)


# ---- hexes ---------------------------------------------------------------------------------
_OCC = {
    "you": lambda s, p, h: s.occupies(p, h),
    "enemy": lambda s, p, h: any(o != p for o in s.occupants(h)),
    "nobody": lambda s, p, h: not s.occupants(h),
    "anyone": lambda s, p, h: bool(s.occupants(h)),
    "not_you": lambda s, p, h: not s.occupies(p, h),
}
_CONTAINS = {
    "friendly_champion": lambda s, p, h: any(c.owner == p for c in s.champs_at[h]),
    "enemy_champion": lambda s, p, h: any(c.owner != p for c in s.champs_at[h]),
    "champion": lambda s, p, h: bool(s.champs_at[h]),
    "friendly_forces": lambda s, p, h: p in s.forces[h],
}


@shared
class HexSel:
    """A compiled hex selector. `deploy` widens own_capital with deploy anchors."""

    __slots__ = ("base", "never_empty", "pick", "preds", "raw", "subs")

    def __init__(self, spec: dict, deploy: bool = False):
        _known(spec, HEX_KEYS, "hex")
        if "within" in spec and spec["within"]["of"] not in WITHIN_OF:
            raise ValueError(f"unknown within.of {spec['within']['of']!r}")
        self.raw = spec
        self.pick = spec.get("pick", "choose")
        self.subs = [HexSel(x, deploy) for x in spec.get("any_of", [])]
        self.base, used = _hex_base(spec, deploy)
        if self.subs:  # any_of matches are filtered by every other key: keep them all
            used = None
        self.preds = _hex_preds({k: v for k, v in spec.items() if k != used})
        keys = set(spec) - {"pick"}  # your Capital (or a deploy anchor) always exists
        self.never_empty = (keys == {"own_capital"} and bool(spec["own_capital"])) or (
            keys == {"any_of"} and any(sub.never_empty for sub in self.subs))

    def candidates(self, ctx) -> list[int]:
        """Every hex matching the selector now, in index order."""
        base = range(ctx.s.topo.n) if self.base is None else self.base(ctx)
        preds = []
        for make in self.preds:
            preds.append(make(ctx))
        if not preds:
            out = list(base)
        elif len(preds) == 1:
            f = preds[0]
            out = [h for h in base if f(h)]
        else:
            out = [h for h in base if all(f(h) for f in preds)]
        if self.subs:
            seen = set(out)
            for sub in self.subs:
                seen.update(h for h in sub.candidates(ctx) if all(f(h) for f in preds))
            out = sorted(seen)
        return out

    def exists(self, ctx) -> bool:
        """Does any hex match now (`bool(candidates)`, stopping at the first)."""
        if self.subs:
            return bool(self.candidates(ctx))
        base = range(ctx.s.topo.n) if self.base is None else self.base(ctx)
        preds = [make(ctx) for make in self.preds]
        if not preds:
            return bool(base)
        if len(preds) == 1:
            return any(map(preds[0], base))
        return any(all(f(h) for f in preds) for h in base)


def _hex_base(spec: dict, deploy: bool):
    """(fn(ctx) -> the hexes to filter, the key that base already enforces) or (None, None)
    for every hex. The enforcing key needs no predicate of its own."""
    if "ref" in spec:
        name = spec["ref"]
        return (lambda ctx: [h for h in [ref_hex(ctx, name)] if h is not None]), None
    if spec.get("this"):
        return (lambda ctx: _within_sources(ctx, "this", None)), "this"
    if spec.get("event_hex"):
        return (lambda ctx: [ctx.event["hex"]] if ctx.event and "hex" in ctx.event else []
                ), "event_hex"
    if spec.get("own_capital"):
        if deploy:
            return (lambda ctx: ctx.g.deploy_anchors(ctx.p)), None
        return (lambda ctx: [ctx.s.players[ctx.p].capital]), None
    if spec.get("enemy_capital"):
        return (lambda ctx: sorted(h for h, o in ctx.s.capital_of.items() if o != ctx.p)), None
    if spec.get("occupied_by") == "you":
        return (lambda ctx: ctx.s.occupied_by(ctx.p)), "occupied_by"
    if spec.get("occupied_by") in ("enemy", "anyone"):  # the union of the players' hexes
        mine = spec["occupied_by"] == "anyone"
        return (lambda ctx: sorted({h for q, pl in enumerate(ctx.s.players)
                                    if mine or q != ctx.p for h in ctx.s.occupied_by(q)})
                ), "occupied_by"
    if spec.get("any_of"):
        return (lambda ctx: []), None
    if "kind" in spec:
        kinds = frozenset(spec["kind"])
        return (lambda ctx: ctx.s.hexes_of(kinds)), "kind"
    if "within" in spec:  # the area itself, in index order
        w = Within(spec["within"])
        return (lambda ctx: sorted(w(ctx))), "within"
    if spec.get("contains") in ("friendly_forces", "friendly_champion"):
        return (lambda ctx: ctx.s.occupied_by(ctx.p)), None  # a superset: filtered below
    return None, None


def _hex_preds(spec: dict) -> list:
    """Predicate makers: make(ctx) -> pred(h), so per-call work (areas) is done once."""
    preds = []
    if spec.get("this"):
        preds.append(lambda ctx: set(_within_sources(ctx, "this", None)).__contains__)
    if spec.get("event_hex"):
        preds.append(lambda ctx: lambda h: bool(ctx.event) and ctx.event.get("hex") == h)
    if spec.get("not_capital"):
        preds.append(lambda ctx: lambda h: h not in ctx.s.capital_of)
    if "kind" in spec:
        kinds = frozenset(spec["kind"])
        preds.append(lambda ctx: lambda h: ctx.s.tile[h] in kinds)
    if "occupied_by" in spec:
        f = _OCC[spec["occupied_by"]]
        preds.append(lambda ctx: lambda h: f(ctx.s, ctx.p, h))
    if "contains" in spec:
        f2 = _CONTAINS[spec["contains"]]
        preds.append(lambda ctx: lambda h: f2(ctx.s, ctx.p, h))
    if "within" in spec:
        w = Within(spec["within"])
        preds.append(lambda ctx: w(ctx).__contains__)
    if spec.get("adjacent_to_capital"):
        def adj(ctx):
            s = ctx.s
            return lambda h: any(s.topo.dist[h][c] == 1 for c in s.capital_of)
        preds.append(adj)
    return preds


# ---- champions ---------------------------------------------------------------------------
@shared
class ChampSel:
    """A compiled Champion selector (its keys read once, here, not on every call)."""

    __slots__ = ("exclude_this", "hexsel", "pick", "pool_of", "side", "within")

    def __init__(self, spec: dict):
        _known(spec, CHAMPION_KEYS, "champion")
        self.pick = spec.get("pick", "choose")
        self.hexsel = HexSel(spec["in"]) if "in" in spec else None
        self.within = Within(spec["within"]) if "within" in spec else None
        self.side = {"friendly": 1, "enemy": 2}.get(spec.get("side", "any"), 0)
        self.exclude_this = bool(spec.get("exclude_this"))
        if "ref" in spec:
            name = spec["ref"]

            def pool_of(ctx):
                v = ctx.refs.get(name)
                return [v] if hasattr(v, "cid") and v.cid in ctx.s.champions else []
        elif spec.get("this"):
            def pool_of(ctx):
                ch = ctx.champ
                return [ch] if ch is not None and ch.cid in ctx.s.champions else []
        else:
            pool_of = None  # every Champion on the board
        self.pool_of = pool_of

    def candidates(self, ctx) -> list:
        """Champions on the board matching now (untargetable ones excluded)."""
        s, p = ctx.s, ctx.p
        if not s.champions:
            return []
        if self.pool_of is not None:
            pool = self.pool_of(ctx)
        else:
            pool = sorted(s.champions.values(), key=_cid)
        side = self.side
        if side == 1:
            pool = [c for c in pool if c.owner == p]
        elif side == 2:
            pool = [c for c in pool if c.owner != p]
        if self.exclude_this and ctx.champ is not None:
            pool = [c for c in pool if c is not ctx.champ]
        if self.within is not None:
            area = self.within(ctx)
            pool = [c for c in pool if c.hex in area]
        if self.hexsel is not None:
            hexes = set(self.hexsel.candidates(ctx))
            pool = [c for c in pool if c.hex in hexes]
        if not ctx.g.hooks.mods.get("untargetable"):
            return pool
        return [c for c in pool if not ctx.g.untargetable(c, ctx)]

    def exists(self, ctx) -> bool:
        """Does any Champion match now (`bool(candidates)`, stopping at the first)."""
        s, p = ctx.s, ctx.p
        if not s.champions:
            return False
        if self.pool_of is not None or self.hexsel is not None:
            return bool(self.candidates(ctx))
        side = self.side
        skip = ctx.champ if self.exclude_this else None
        within = self.within
        if within is not None:
            sources = within.sources(ctx)
            if not sources:
                return False
            dist = s.topo.dist
        guarded = ctx.g.hooks.mods.get("untargetable")
        for c in s.champions.values():
            if (side == 1 and c.owner != p) or (side == 2 and c.owner == p):
                continue
            if skip is not None and c is skip:
                continue
            if within is not None and not within.reaches(dist[c.hex], sources):
                continue  # not within reach of any source
            if not guarded or not ctx.g.untargetable(c, ctx):
                return True
        return False


def _cid(champ) -> int:
    return champ.cid


# ---- bridges -------------------------------------------------------------------------------
@shared
class BridgeSel:
    """A compiled Bridge selector; `build` lists free edges, else existing Bridges."""

    __slots__ = ("basic", "build", "pick", "spec", "touching")

    def __init__(self, spec: dict, build: bool):
        _known(spec, BRIDGE_KEYS, "bridge")
        self.spec, self.build, self.pick = spec, build, "choose"
        self.touching = HexSel(spec["touching"]) if "touching" in spec else None
        # a free edge touching a hex you occupy: what the Build Bridge action offers
        self.basic = build and spec == {"touching": {"occupied_by": "you"}}

    def candidates(self, ctx) -> list[int]:
        """Edge keys matching now (do not mutate)."""
        s = ctx.s
        if self.basic:
            return ctx.g.bridge_options(ctx.p)
        if "ref" in self.spec:
            v = ctx.refs.get(self.spec["ref"])
            pool = [v] if isinstance(v, int) else []
        elif self.touching is not None:
            pool = sorted({e for h in self.touching.candidates(ctx) for e in s.topo.edges_of[h]})
        else:
            pool = s.topo.edges
        if self.build:
            return [e for e in pool if e not in s.bridges]
        return [e for e in pool if e in s.bridges]

    def exists(self, ctx) -> bool:
        """Does any edge match now (stopping at the first)."""
        if "ref" in self.spec:
            return bool(self.candidates(ctx))
        if self.basic:  # the Build Bridge action's choices (memoised while declaring)
            return bool(ctx.g.bridge_options(ctx.p))
        s = ctx.s
        bridges, build = s.bridges, self.build
        if self.touching is None:
            return any((e in bridges) != build for e in s.topo.edges)
        edges_of = s.topo.edges_of
        for h in self.touching.candidates(ctx):
            for e in edges_of[h]:
                if (e in bridges) != build:
                    return True
        return False


# ---- amounts and players ---------------------------------------------------------------------
_AMOUNT_OF = {
    "cards_in_hand": lambda ctx: len(ctx.s.players[ctx.p].hand),
    "cards_played_this_round": lambda ctx: ctx.s.players[ctx.p].played_count,
    "last_count": lambda ctx: ctx.last_count,
    "card_counter": lambda ctx: ctx.inst.counter if ctx.inst is not None else 0,
    "champions_in_play": lambda ctx: len(ctx.s.players[ctx.p].champions),
}


def amount(spec):
    """Compile an amount (int, 'all', or {of, times, plus, max}) to fn(ctx) -> int."""
    if isinstance(spec, bool):
        raise TypeError(f"bad amount {spec!r}")
    if isinstance(spec, int):
        return lambda ctx: spec
    if spec == "all":
        return lambda ctx: ALL
    base = _AMOUNT_OF[spec["of"]]
    times, plus, cap = spec.get("times", 1), spec.get("plus", 0), spec.get("max")

    def fn(ctx) -> int:
        v = base(ctx) * times + plus
        return max(0, v if cap is None else min(v, cap))
    return fn


def players(spec: str):
    """Compile a player reference to fn(ctx, key) -> list of seats."""
    if spec == "self":
        return lambda ctx, key: [ctx.p]
    if spec == "each_opponent":
        return lambda ctx, key: [q for q in range(len(ctx.s.players)) if q != ctx.p]
    if spec == "owner":
        return lambda ctx, key: [ctx.champ.owner if ctx.champ is not None else ctx.p]
    if spec in ("killer", "victim", "battle_enemy"):
        return lambda ctx, key: [v for v in [(ctx.event or {}).get(spec)] if v is not None]
    if spec == "chosen_opponent":
        def chosen(ctx, key):
            opts = lambda: [q for q in range(len(ctx.s.players)) if q != ctx.p]
            v = ctx.choose(key, "player", opts)
            return [v] if isinstance(v, int) else []
        return chosen
    raise ValueError(f"unknown player {spec!r}")
