"""Step expectations for the board: units, Champions, moves, Bridges, HP, Mines, scatter."""

from __future__ import annotations

import itertools

from .expect import EXPECT, amount, bridges, champs, expect, hexes, target_problems
from .instrument import Outcome


def _blocked(s, p: int, h: int) -> bool:
    """§12.6: a hex holding units of two other players cannot be entered."""
    return len(s.occupants(h) - {p}) >= 2


def _deploy_bonus(g, p: int, h: int) -> int:
    """Extra Forces the active deploy_bonus modifiers add to a deploy of seat p into h."""
    bonus = 0
    for act in g.hooks.of("deploy_bonus"):
        if act.owner == p:
            ctx = act.ctx(g)
            if h in act.mod.hexsel.candidates(ctx):
                bonus += act.mod.amount(ctx)
    return bonus


@expect("deploy")
def _deploy(ctx, info, target, rec):
    g, s, p, d = ctx.g, ctx.s, ctx.p, info.params
    n = amount(d["count"], ctx)
    targets = list(target or [])
    probs = target_problems(targets, hexes(d["where"], ctx, deploy=True),
                            d["where"].get("pick", "choose"), "hex", info.params.get("optional"))
    want = {}
    for h in targets:
        add = 0 if n <= 0 or _blocked(s, p, h) else n + _deploy_bonus(g, p, h)
        want[h] = want.get(h, s.forces[h].get(p, 0)) + add
    before = {h: s.forces[h].get(p, 0) for h in targets}
    yield
    for h, v in want.items():
        got = s.forces[h].get(p, 0)
        if got != v:
            probs.append(f"{s.topo.name(h)}: Forces {before[h]} -> {got}, expected {v} "
                         f"(deploy {n})")
    return Outcome(probs, any(want[h] > before[h] for h in want))


@expect("deploy_champion")
def _deploy_champion(ctx, info, target, rec):
    g, s, p = ctx.g, ctx.s, ctx.p
    targets = list(target or [])
    probs = target_problems(targets, hexes(info.params["where"], ctx, deploy=True),
                            "choose", "hex", info.params.get("optional"))
    can = bool(targets) and g.can_field_champion(p) and not _blocked(s, p, targets[0])
    yield
    placed = [c for c in s.champions.values() if c.iid == ctx.inst.iid]
    if can and not placed:
        probs.append("the Champion was not placed")
    for ch in placed:
        if ch.hex != targets[0] or ch.owner != p:
            probs.append(f"Champion placed on {s.topo.name(ch.hex)} for seat {ch.owner}, "
                         f"expected {s.topo.name(targets[0])} for seat {p}")
        if ch.max_hp != ch.defn.champion["hp"]:
            probs.append(f"Champion max HP {ch.max_hp}, card says {ch.defn.champion['hp']}")
    return Outcome(probs, bool(placed))


def _pool_ok(f: dict, ctx, defn) -> bool:
    if any(k in f and getattr(defn, k) != f[k] for k in ("type", "mana", "deck")):
        return False
    return not (f.get("exclude_this") and ctx.inst is not None and defn is ctx.inst.defn)


@expect("summon_champion")
def _summon(ctx, info, target, rec):
    g, s, p, d = ctx.g, ctx.s, ctx.p, info.params
    targets = list(target or [])
    pool = [c for c in g.rules.cards if c.type == "champion" and _pool_ok(d["pool"], ctx, c)]
    can = bool(pool and targets) and g.can_field_champion(p) and not _blocked(
        s, p, targets[0])
    before = set(s.champions)
    yield
    new = [s.champions[c] for c in s.champions if c not in before]
    probs = [] if len(new) == (1 if can else 0) else [
        f"{len(new)} Champion(s) summoned, expected {1 if can else 0}"]
    for ch in new:
        if ch.defn not in pool or ch.hex != targets[0] or ch.owner != p:
            probs.append(f"summoned {ch.defn.id} on {s.topo.name(ch.hex)}: not from the "
                         f"pool {d['pool']} or not on the chosen hex")
        if any(ch.iid in pile for pile in s.decks.values()):
            probs.append("the summoned Champion is still in its deck")
    return Outcome(probs, bool(new))


def _walk(g, p: int, src: int, path, stop_occ: bool) -> int:
    """Where a group following `path` ends (§12.5 contact, §12.6 blocked hexes)."""
    at = src
    for b in path:
        if g.blocked(p, b):
            return src if g.opt.blocked_move == "cancel" else at
        at = b
        if g.stops_at(p, b, stop_occ):
            break
    return at


def _simulate(g, p: int, chosen, stop_occ: bool):
    """Forces per hex and Champion hexes of seat p after the chosen moves, one by one."""
    s = g.s
    forces = {h: f[p] for h, f in enumerate(s.forces) if p in f}
    where = {c.cid: c.hex for c in s.champions.values() if c.owner == p}
    travel = []
    for unit, src, cid, n_forces, path in chosen:
        if unit == "champion":
            movers, nf = [cid] if where.get(cid) == src else [], 0
        else:
            movers = [] if unit == "force" or cid < 0 else [
                c for c, h in where.items() if h == src]
            nf = min(1, forces.get(src, 0)) if unit == "force" else forces.get(src, 0)
            if n_forces is not None and unit == "stack":
                nf = min(n_forces, nf)
        end = _walk(g, p, src, path, stop_occ)
        travel.append(list(path).index(end) + 1 if end in path else 0)
        forces[src] = forces.get(src, 0) - nf
        forces[end] = forces.get(end, 0) + nf
        for c in movers:
            where[c] = end
    return {h: n for h, n in forces.items() if n}, where, travel


def _group(s, p: int, opt) -> tuple[list, int]:
    """(Champions, Forces) a move option carries now (§2.1)."""
    unit, src, cid, n_forces, _ = opt
    if unit == "champion":
        return [s.champions[cid]], 0
    if unit == "force":
        return [], 1
    nf = s.forces[src].get(p, 0)
    return [c for c in s.champs_at[src] if c.owner == p and cid == 0], (
        nf if n_forces is None else min(n_forces, nf))


@expect("move")
def _move(ctx, info, target, rec):
    g, s, p, d = ctx.g, ctx.s, ctx.p, info.params
    chosen = list(target or [])
    probs = [] if len(chosen) <= d["stacks"] else [(f"moved {len(chosen)} groups, "
                                                   f"declared {d['stacks']}")]
    links, blocked = g.links(p), g.blocked_edges()
    for opt in chosen:
        champs_, nf = _group(s, p, opt)
        limit = d["distance"] + g.extra_move(p, champs_, nf)
        path = (opt[1],) + tuple(opt[4])
        if len(opt[4]) > limit:
            probs.append(f"path of {len(opt[4])} hexes, distance allows {limit}")
        fly = d["ignore_bridges"] or g.flies(p, champs_, nf)
        for a, b in itertools.pairwise(path):
            key = a * 256 + b if a < b else b * 256 + a
            if b not in links.get(a, ()) and (s.topo.dist[a][b] != 1 or (
                    not fly and (key not in s.bridges or key in blocked))):
                probs.append(f"step {s.topo.name(a)}->{s.topo.name(b)} is not along a "
                             "usable Bridge")
    want_forces, want_where, travel = _simulate(g, p, chosen, d["stop_on_occupied"])
    yield
    forces = {h: f[p] for h, f in enumerate(s.forces) if p in f}
    where = {c.cid: c.hex for c in s.champions.values() if c.owner == p}
    if forces != want_forces:
        probs.append(f"Forces after the move {_names(s, forces)}, expected "
                     f"{_names(s, want_forces)}")
    if where != want_where:
        probs.append(f"Champions after the move {_names(s, where, True)}, expected "
                     f"{_names(s, want_where, True)}")
    name = d.get("as")
    if name and chosen and ctx.refs.get(name) not in {h for o in chosen for h in
                                                       (o[1],) + tuple(o[4])}:
        probs.append(f"ref {name!r} is not a hex of the move")
    full = len(chosen) == d["stacks"] and max(travel, default=0) >= d["distance"]
    return Outcome(probs, full)


def _names(s, m: dict, values: bool = False) -> dict:
    if values:
        return {k: s.topo.name(v) for k, v in sorted(m.items())}
    return {s.topo.name(h): n for h, n in sorted(m.items())}


@expect("relocate")
def _relocate(ctx, info, target, rec):
    s = ctx.s
    pairs = list(target or [])
    cands = hexes(info.params["to"], ctx)
    probs = target_problems([h for _, h in pairs], cands, "choose", "hex",
                            info.params.get("optional"))
    want = {ch.cid: (ch.hex if _blocked(s, ch.owner, h) else h) for ch, h in pairs}
    was = {ch.cid: ch.hex for ch, _ in pairs}
    yield
    for ch, _ in pairs:
        if ch.hex != want[ch.cid]:
            probs.append(f"{ch.defn.id} is on {s.topo.name(ch.hex)}, expected "
                         f"{s.topo.name(want[ch.cid])}")
    return Outcome(probs, any(was[c] != want[c] for c in want))


def _bridge_step(build: bool):
    def fn(ctx, info, target, rec):
        s, d = ctx.s, info.params
        edges = list(target or [])
        cands = bridges(d["where"], ctx, build)
        probs = target_problems(edges, cands, "choose", "Bridge", info.params.get("optional"))
        skipped = d.get("optional") and not edges
        if len(set(edges)) != min(d["count"], len(cands)) and not skipped:
            probs.append(f"{len(set(edges))} Bridge(s) chosen, expected "
                         f"{min(d['count'], len(cands))} of {len(cands)} possible")
        yield
        for e in edges:
            if (e in s.bridges) != build:
                probs.append(f"Bridge {e >> 8}-{e & 255} was not "
                             f"{'built' if build else 'destroyed'}")
            if build and d.get("temporary") and e not in s.temp_bridges:
                probs.append("a temporary Bridge is not marked to go at Cleanup")
        if build and d.get("temporary") and edges:
            rec.after_cleanup.append((info.uid, lambda g: [
                f"temporary Bridge {e >> 8}-{e & 255} still stands after Cleanup"
                for e in edges if e in g.s.bridges]))
        return Outcome(probs, len(set(edges)) == d["count"])
    return fn


EXPECT["build_bridge"] = _bridge_step(True)
EXPECT["destroy_bridge"] = _bridge_step(False)


def _hp_step(new_hp, what: str):
    def fn(ctx, info, target, rec):
        s, d = ctx.s, info.params
        targets = list(target or [])
        probs = target_problems(targets, champs(d["champion"], ctx),
                                d["champion"].get("pick", "choose"), "Champion",
                                d.get("optional"))
        n = amount(d.get("amount", 0), ctx) if "amount" in d else d.get("factor")
        before = {c.cid: (c.hp, c.max_hp) for c in targets}
        events = ctx.g.events
        mark = len(events) if events is not None else 0
        yield
        prevented = sum(1 for e in (events or [])[mark:] if e["e"] == "prevent")
        changed = False
        for ch in targets:
            hp, top = before[ch.cid]
            want = new_hp(hp, top, n, prevented)
            got = ch.hp if ch.cid in s.champions else 0
            changed |= got != hp
            if got != want:
                probs.append(f"{ch.defn.id} HP {hp} -> {got}, expected {want} ({what} {n})")
            if ch.cid in s.champions and ch.hp > ch.max_hp:
                probs.append(f"{ch.defn.id} HP {ch.hp} above its max {ch.max_hp}")
        return Outcome(probs, changed)
    return fn


EXPECT["heal"] = _hp_step(lambda hp, top, n, _: min(top, hp + n), "heal")
EXPECT["damage"] = _hp_step(lambda hp, top, n, prev: max(0, hp - max(0, n - prev)),
                            "damage")
EXPECT["multiply_hp"] = _hp_step(lambda hp, top, n, _: hp * n, "multiply by")


@expect("destroy_forces")
def _destroy_forces(ctx, info, target, rec):
    s, p, d = ctx.s, ctx.p, info.params
    targets = list(dict.fromkeys(target or []))
    probs = target_problems(targets, hexes(d["hex"], ctx), d["hex"].get("pick", "choose"),
                            "hex", info.params.get("optional"))
    n = amount(d["count"], ctx)
    if d["side"] == "mover":  # only the crossing group's Forces, at most as many as crossed
        ev = ctx.event or {}
        mover = ev.get("mover")
        n = min(n, ev.get("moving_forces", 0))

        def side(q):
            return q == mover
    else:
        def side(q):
            return d["side"] == "any" or (d["side"] == "enemy") == (q != p)
    before = {h: dict(s.forces[h]) for h in targets}
    yield
    hit = 0
    for h in targets:
        mine = sum(v for q, v in before[h].items() if side(q))
        want = mine - min(n, mine)
        got = sum(v for q, v in s.forces[h].items() if side(q))
        hit += mine - got
        if got != want:
            probs.append(f"{s.topo.name(h)}: {d['side']} Forces {mine} -> {got}, "
                         f"expected {want} (destroy {d['count']})")
        if any(s.forces[h].get(q, 0) != v for q, v in before[h].items() if not side(q)):
            probs.append(f"{s.topo.name(h)}: Forces of the other side were destroyed")
    return Outcome(probs, hit > 0)


@expect("remove_champion")
def _remove_champion(ctx, info, target, rec):
    s, d = ctx.s, info.params
    targets = list(target or [])
    probs = target_problems(targets, champs(d["champion"], ctx),
                            d["champion"].get("pick", "choose"), "Champion",
                            d.get("optional"))
    yield
    for ch in targets:
        zone = s.players[ch.owner].hand if d["to"] == "hand" else s.players[ch.owner].burn
        if ch.cid in s.champions or ch.iid not in zone:
            probs.append(f"{ch.defn.id} was not taken off the board to the {d['to']}")
    return Outcome(probs, bool(targets))


@expect("mine_value")
def _mine_value(ctx, info, target, rec):
    s, d = ctx.s, info.params
    targets = list(target or [])
    probs = target_problems(targets, hexes(d["hex"], ctx), d["hex"].get("pick", "choose"),
                            "hex", info.params.get("optional"))
    before = {h: s.mine_value[h] for h in targets}
    yield
    for h in targets:
        v = before[h]
        want = max(0, min(d["max"], v + d["amount"])) if s.tile[h] == "mine" else v
        if s.mine_value[h] != want:
            probs.append(f"{s.topo.name(h)}: Mine Value {v} -> {s.mine_value[h]}, "
                         f"expected {want}")
    return Outcome(probs, any(s.mine_value[h] != before[h] for h in targets))


@expect("scatter")
def _scatter(ctx, info, target, rec):
    s, d = ctx.s, info.params
    targets = list(target or [])
    probs = target_problems(targets, hexes(d["hex"], ctx), d["hex"].get("pick", "choose"),
                            "hex", info.params.get("optional"))
    yield
    tags = set()
    for h in targets:
        hit = ctx.refs.get(d["as"])
        if hit != h and hit not in s.topo.nbrs[h]:
            probs.append(f"scatter hit {hit}, neither the target nor a neighbour")
        tags.add("centre" if hit == h else "scattered")
    return Outcome(probs, bool(targets), tags)
