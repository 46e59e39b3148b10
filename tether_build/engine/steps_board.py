"""Step handlers: the board (deploy, Champions, moves, Bridges, damage, Mines, scatter)."""

from __future__ import annotations

from .core import NONE, Fizzle, NoTarget, Step, handler
from .select import BridgeSel, ChampSel, HexSel, amount
from .state import CardInst


def pick(ctx, key, kind: str, sel, optional: bool = False) -> list:
    """Targets of a selector by its pick mode: all, one at random, or one chosen (lockable).
    An optional step may be skipped: a None choice (the player is asked 'may' first when
    the targets are not chosen). While a card is declared no random pick is drawn."""
    if sel.pick != "choose":
        if optional and ctx.choose(key, "may", lambda: [True], optional=True) is None:
            return []
        c = sel.candidates(ctx)
        if sel.pick == "all" or not c or ctx.declaring:
            return c
        return [ctx.g.rng.choice(c)]
    v = ctx.choose(key, kind, lambda: sel.candidates(ctx), optional=optional)
    return [] if v is NONE or v is None else [v]


def _targeted(kind: str, d: dict, sel, apply_one, tkind: str) -> Step:
    """A step that picks targets with one selector, then applies to each."""
    st = Step(kind, d, None)
    optional = d.get("optional", False)
    st.select = lambda ctx: pick(ctx, st, tkind, sel, optional)
    if sel.pick == "choose":
        st.targets = sel.candidates
    st.may_fail = not optional and sel.pick == "choose" and not getattr(sel, "never_empty", False)
    if st.may_fail:
        st.exists = sel.exists

    def apply(ctx, targets):
        for t in targets:
            apply_one(ctx, t)
    st.apply = apply
    return st


@handler("deploy")
def deploy(d, comp):
    """Deploy Forces into a hex."""
    amt = amount(d["count"])
    return _targeted("deploy", d, HexSel(d["where"], deploy=True),
                     lambda ctx, h: ctx.g.deploy(ctx.p, h, amt(ctx)), "hex")


@handler("deploy_champion")
def deploy_champion(d, comp):
    """Deploy this Champion card into a hex (§20.1)."""
    def one(ctx, h):
        ch = ctx.g.place_champion(ctx.p, ctx.inst.iid, h)
        if ch is not None:
            ctx.champ = ch
    return _targeted("deploy_champion", d, HexSel(d["where"], deploy=True), one, "hex")


def card_filter(f: dict):
    def ok(ctx, defn) -> bool:
        if "type" in f and defn.type != f["type"]:
            return False
        if "mana" in f and defn.mana != f["mana"]:
            return False
        if "deck" in f and defn.deck != f["deck"]:
            return False
        return not (f.get("exclude_this") and ctx.inst is not None and defn is ctx.inst.defn)
    return ok


@handler("summon_champion")
def summon_champion(d, comp):
    """Deploy, for free, a Champion chosen from every Champion card of the game matching
    the pool filter (Archive, Power and faction Champions): the supply deck's copy if one is
    there, else a new copy of the card joins the game."""
    ok, where, mode = card_filter(d["pool"]), HexSel(d["where"], deploy=True), d["pick"]
    st = Step("summon_champion", d, None)
    st.select = lambda ctx: pick(ctx, st, "hex", where)
    st.may_fail = not where.never_empty

    def apply(ctx, hexes):
        g, p = ctx.g, ctx.p
        pool = [c.id for c in g.rules.cards if c.is_champion and ok(ctx, c)]
        if not pool or not hexes or not g.can_field_champion(p):
            return
        if g.blocked(p, hexes[0]):
            g.log("deploy_fail", p=p, hex=g.s.topo.name(hexes[0]))
            return
        card = g.rng.choice(pool) if mode == "random" else g.decide(p, "summon", pool, ctx)
        g.place_champion(p, _summoned_card(g, card), hexes[0])
    st.apply = apply
    return st


def _summoned_card(g, card_id: str) -> int:
    """The iid of a copy of this card: taken from the top of a supply deck if one is
    there, else a new card instance (e.g. a faction Champion)."""
    s = g.s
    for deck, pile in sorted(s.decks.items()):
        for k in range(len(pile) - 1, -1, -1):
            if s.cards[pile[k]].defn.id == card_id:
                g.log("summon", card=card_id, source=deck)
                return pile.pop(k)
    iid = len(s.cards)
    s.cards.append(CardInst(iid, g.rules.by_id[card_id]))
    g.log("summon", card=card_id, source="new copy")
    return iid


@handler("move")
def move(d, comp):
    """Move stacks (or one Force / Champion) along declared paths."""
    n, dist, unit = d["stacks"], d["distance"], d["unit"]
    ign, stop, name = d["ignore_bridges"], d["stop_on_occupied"], d.get("as")
    optional = d.get("optional", False)
    st = Step("move", d, None)
    st.may_fail = not optional
    # any first hex will do for a look-ahead, so a 1-hex move (shared with March's options)
    st.exists = lambda ctx: ctx.g.can_move(ctx.p, unit, ign)

    def select(ctx):
        if ctx.dry:  # a look-ahead: is there a move?
            if not optional and not st.exists(ctx):
                raise NoTarget("move")
            return []
        chosen = []
        for i in range(n):
            # each unit moves at most once per card: a later stack may not start where an
            # earlier one started or ends (it would carry the earlier stack again)
            used = {c[1] for c in chosen} | {c[4][-1] for c in chosen}

            def options(used=used, i=i):
                opts = ctx.g.move_options(ctx.p, unit, dist, ign, stop, used)
                return ([None] + opts) if (i > 0 and opts) else opts
            v = ctx.choose((st, i), "move", options, valid=lambda v: True,
                           optional=optional and i == 0, required=i == 0)
            if v is NONE or v is None:
                break
            chosen.append(v)
        return chosen

    def apply(ctx, chosen):
        for opt in chosen:
            at = ctx.g.do_move(ctx.p, opt, dist, ign, stop)
            if name:
                ctx.refs[name] = at
    st.select, st.apply = select, apply
    return st


@handler("relocate")
def relocate(d, comp):
    """Move a Champion directly to a hex."""
    csel, hsel = ChampSel(d["champion"]), HexSel(d["to"])
    optional = d.get("optional", False)
    st = Step("relocate", d, None)
    st.may_fail = not optional

    def select(ctx):
        champs = pick(ctx, (st, "c"), "champion", csel, optional)
        hexes = pick(ctx, (st, "h"), "hex", hsel) if champs else []
        return list(zip(champs, hexes))

    def apply(ctx, pairs):
        for ch, h in pairs:
            if ch.cid not in ctx.s.champions:
                raise Fizzle("Champion gone")
            ctx.g.relocate_champion(ch, h)
    st.select, st.apply = select, apply
    return st


def _bridges(kind: str, d: dict, build: bool):
    sel, count, temp = BridgeSel(d["where"], build), d["count"], d.get("temporary", False)
    optional = d.get("optional", False)
    st = Step(kind, d, None)
    st.may_fail = not optional
    st.exists = sel.exists

    def select(ctx):
        chosen = []
        for i in range(count):
            def options(chosen=chosen):
                return [e for e in sel.candidates(ctx) if e not in chosen]
            v = ctx.choose((st, i), "bridge", options, optional=optional, required=i == 0)
            if v is NONE or v is None:
                break
            chosen.append(v)
        return chosen

    def apply(ctx, edges):
        g = ctx.g
        for e in edges:
            if build and e not in g.s.bridges:
                g.s.bridges.add(e)
                if temp:
                    g.s.temp_bridges.add(e)
                g.log("bridge", p=ctx.p, edge=e, temporary=temp)
            elif not build and e in g.s.bridges:
                g.s.bridges.discard(e)
                g.s.temp_bridges.discard(e)
                g.log("unbridge", p=ctx.p, edge=e)
    st.select, st.apply = select, apply
    return st


@handler("build_bridge")
def build_bridge(d, comp):
    """Build Bridges."""
    return _bridges("build_bridge", d, True)


@handler("destroy_bridge")
def destroy_bridge(d, comp):
    """Destroy Bridges."""
    return _bridges("destroy_bridge", d, False)


@handler("heal")
def heal(d, comp):
    """Heal Champions."""
    amt = amount(d["amount"])
    return _targeted("heal", d, ChampSel(d["champion"]),
                     lambda ctx, ch: ctx.g.heal(ch, amt(ctx)), "champion")


@handler("damage")
def damage(d, comp):
    """Deal damage to Champions."""
    amt = amount(d["amount"])
    return _targeted("damage", d, ChampSel(d["champion"]),
                     lambda ctx, ch: ctx.g.damage(ch, amt(ctx), ctx.p, None, ctx.battle),
                     "champion")


@handler("destroy_forces")
def destroy_forces(d, comp):
    """Destroy Forces in a hex (enemy, friendly or any side, or, in a crossing trigger, the
    Forces of the group that just crossed: side 'mover')."""
    amt, side = amount(d["count"]), d["side"]

    def one(ctx, h):
        g, s = ctx.g, ctx.s
        want = left = amt(ctx)
        if side == "mover":
            ev = ctx.event or {}
            q = ev.get("mover")
            left = min(left, ev.get("moving_forces", 0))
            owners = [q] if q is not None and q in s.forces[h] and left > 0 else []
            want = left
        else:
            owners = [q for q in sorted(s.forces[h]) if side == "any" or
                      (side == "enemy") == (q != ctx.p)]
        while left > 0:
            pool = [q for q in owners for _ in range(s.forces[h].get(q, 0))]
            if not pool:
                break
            q = g.rng.choice(pool) if len(owners) > 1 else pool[0]
            k = 1 if len(owners) > 1 else left
            left -= g.destroy_forces(q, h, k)
        ctx.last_count = want - max(left, 0)
    return _targeted("destroy_forces", d, HexSel(d["hex"]), one, "hex")


@handler("remove_champion")
def remove_champion(d, comp):
    """Take Champions off the board to the burn pile or to the hand."""
    to = d["to"]
    return _targeted("remove_champion", d, ChampSel(d["champion"]),
                     lambda ctx, ch: ctx.g.unplace_champion(ch, to), "champion")


@handler("multiply_hp")
def multiply_hp(d, comp):
    """Multiply a Champion's HP, raising max HP if needed."""
    factor = d["factor"]

    def one(ctx, ch):
        ch.hp *= factor
        ch.max_hp = max(ch.max_hp, ch.hp)
        ctx.g.log("hp", card=ch.defn.id, hp=ch.hp)
    return _targeted("multiply_hp", d, ChampSel(d["champion"]), one, "champion")


@handler("mine_value")
def mine_value(d, comp):
    """Raise a Mine's value up to a maximum."""
    n, cap = d["amount"], d["max"]

    def one(ctx, h):
        s = ctx.s
        if s.tile[h] == "mine":
            s.mine_value[h] = max(0, min(cap, s.mine_value[h] + n))
            ctx.g.log("mine_value", hex=s.topo.name(h), value=s.mine_value[h])
    return _targeted("mine_value", d, HexSel(d["hex"]), one, "hex")


@handler("scatter")
def scatter(d, comp):
    """The hex actually hit: the target with center_chance, else a random neighbour."""
    sel, chance, name = HexSel(d["hex"]), d["center_chance"], d["as"]
    st = Step("scatter", d, None)
    st.select = lambda ctx: pick(ctx, st, "hex", sel)
    st.may_fail = sel.pick == "choose" and not sel.never_empty

    def apply(ctx, hexes):
        for h in hexes:
            g = ctx.g
            hit = h if g.rng.random() < chance else g.rng.choice(g.s.topo.nbrs[h])
            ctx.refs[name] = hit
            g.log("scatter", aim=g.s.topo.name(h), hit=g.s.topo.name(hit))
    st.apply = apply
    return st
