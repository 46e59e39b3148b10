"""The Action Phase (§12): simultaneous choices, initiative order, locked targets, fizzle.

Each Action Step is one joint action: every active player declares (a card with its
locked targets, a basic action, an activated ability, or Done) without seeing the others'
choices; then cards resolve by initiative and basic actions by seat order from the Lead.
"""

from __future__ import annotations

from .core import Ctx, Fizzle, NoTarget

MAX_ACTION_STEPS = 60
BASIC = {"bridge": "build_bridge", "march": "march", "reinforce": "capital_reinforce"}


def seat_order(g) -> list[int]:
    """Seats starting from the Lead, clockwise."""
    n = len(g.s.players)
    return [(g.s.lead + i) % n for i in range(n)]


def card_cost(g, p: int, inst, peek: bool = True):
    """(mana, gold, override) to play a card now (§20.2 Nth Champion gold, cost_override)."""
    defn, over = inst.defn, inst.over
    mana, gold = (over.get("mana", defn.mana), over.get("gold", defn.gold)) if over else (
        defn.mana, defn.gold)
    if inst.defn.type == "champion":
        gold += g.champion_gold(p, inst.defn)
    if not g.hooks.mods.get("cost_override"):
        return mana, gold, None
    for act in g.hooks.of("cost_override"):
        if act.owner != p or (act.uses is not None and act.uses <= 0):
            continue
        f = act.mod.params["applies_to"]
        if "type" in f and f["type"] != inst.defn.type:
            continue
        if "mana" in f and f["mana"] != inst.defn.mana:
            continue
        if "deck" in f and f["deck"] != inst.defn.deck:
            continue
        params = act.mod.params
        return params.get("mana", mana), params.get("gold", gold), act
    return mana, gold, None


def declare_card(g, p: int, inst, dry: bool) -> dict | None:
    """Walk the effect's leading targets and lock them (§12.4); None if no legal target."""
    locks: dict = {}
    ctx = Ctx(g, p, inst, locks=locks, declaring=True, dry=dry)
    try:
        _lock_prefix(ctx, inst.defn.effect)
    except NoTarget:
        return None
    return {"locks": locks, "refs": dict(ctx.refs)}


def _lock_prefix(ctx, steps) -> None:
    """choose_target steps and the first targeted step are locked at declaration."""
    for idx, st in enumerate(steps):
        if st.kind == "choose_target":
            if st.options is not None:
                _lock_target(ctx, st, steps[idx + 1:])
            else:
                st.apply(ctx, st.select(ctx))
            continue
        if st.kind == "choose_one":
            subs = dict(st.params["_compiled"])
            viable = [lab for lab in subs if _viable(ctx, subs[lab])]
            label = ctx.choose(st, "option", lambda viable=viable: viable)
            _lock_prefix(ctx, subs[label])
            return
        if st.select is not None:
            st.select(ctx)
        return


def _lock_target(ctx, st, rest) -> None:
    """Offer only targets with which the rest of the declaration is still possible."""
    name = st.params["as"]

    def works(v) -> bool:
        probe = Ctx(ctx.g, ctx.p, ctx.inst, locks={}, declaring=True, dry=True)
        probe.refs = {**ctx.refs, name: v}
        try:
            _lock_prefix(probe, rest)
        except NoTarget:
            return False
        return True

    def options():
        cands = st.options(ctx)
        if ctx.dry:
            return next(([v] for v in cands if works(v)), [])
        return [v for v in cands if works(v)]
    kind = next((k for k in ("hex", "champion", "bridge") if k in st.params), "player")
    ctx.refs[name] = ctx.choose(st, kind, options)


def _viable(ctx, steps) -> bool:
    """Would this option's leading targets have a legal choice (a dry walk)."""
    probe = Ctx(ctx.g, ctx.p, ctx.inst, locks={}, declaring=True, dry=True)
    probe.refs = dict(ctx.refs)
    try:
        _lock_prefix(probe, steps)
    except NoTarget:
        return False
    return True


def playable(g, p: int, iid: int) -> bool:
    """Can seat p play this card now (costs, requirement, Champion limit, a legal target)."""
    if not affordable(g, p, iid):
        return False
    if g.opt.target_lock == "resolve":
        return True
    return declare_card(g, p, g.s.cards[iid], dry=True) is not None


def affordable(g, p: int, iid: int) -> bool:
    """The cheap part of `playable`: costs, requirement and the Champion limit."""
    inst = g.s.cards[iid]
    pl = g.s.players[p]
    mana, gold, _ = card_cost(g, p, inst)
    if pl.mana < 1 or pl.mana < mana or pl.gold < gold:
        return False
    if inst.defn.type == "champion" and not g.can_field_champion(p):
        return False
    return inst.defn.requires is None or bool(inst.defn.requires(Ctx(g, p, inst)))


def legal_actions(g, p: int, exact: bool = True) -> list[tuple]:
    """Every action seat p may declare this Action Step (§12.1-12.2).

    exact=False skips the target look-ahead of cards (the game loop then re-asks if a
    chosen card turns out to have no legal target: rejection sampling, same choice set)."""
    s = g.s
    pl = s.players[p]
    out: list[tuple] = [("done",)]
    check = playable if exact else affordable
    seen: dict = {}
    for iid in sorted(pl.hand):
        inst = s.cards[iid]
        key = (inst.defn.idx, tuple(sorted(inst.over.items()))) if inst.over else inst.defn.idx
        if key not in seen:
            seen[key] = check(g, p, iid)
        if seen[key]:
            out.append(("card", iid))
    ba = g.rules.game["basic_actions"]
    if pl.mana >= ba["build_bridge"]["mana"]:
        out += [("bridge", e) for e in _bridge_options(g, p)]
    march = ba["march"]
    if pl.mana >= march["mana"]:
        out += [("march", m) for m in g.move_options(p, "stack", march["distance"], False,
                                                     False)]
    rf = ba["capital_reinforce"]
    if pl.gold >= rf["gold"] and pl.mana >= rf["mana"]:
        out += [("reinforce", h) for h in g.deploy_anchors(p)]
    out += _ability_options(g, p)
    return out


def _bridge_options(g, p: int) -> list[int]:
    s = g.s
    return sorted({e for h in s.occupied_by(p) for e in s.topo.edges_of[h]
                   if e not in s.bridges})


def _ability_options(g, p: int) -> list[tuple]:
    if g.s.players[p].mana < max(1, g.opt.activation_mana):
        return []
    out = []
    for act in g.hooks.trigs.get("activated", ()):
        if act.owner == p and act.limit_ok(g) and act.cond(act.ctx(g)):
            out.append(("ability", act.champ.cid if act.champ else 0, act.ability.name))
    return out


def declare(g, p: int) -> dict:
    """Ask seat p for this step's action; pay costs now (§15.1). Returns the plan."""
    s = g.s
    pl = s.players[p]
    options = legal_actions(g, p, exact=False)
    while True:
        choice = g.decide(p, "action", options)
        locks = None
        if choice[0] == "card" and g.opt.target_lock == "declare":
            locks = declare_card(g, p, s.cards[choice[1]], dry=False)
            if locks is None:  # no legal target (or a dead end): not playable, choose again
                options = [o for o in options if o[0] != "card" or
                           s.cards[o[1]].defn is not s.cards[choice[1]].defn]
                continue
        break
    plan = {"p": p, "kind": choice[0], "choice": choice}
    if choice[0] == "done":
        pl.done = True
    elif choice[0] == "card":
        inst = s.cards[choice[1]]
        locks = locks or {"locks": {}, "refs": {}}
        mana, gold, over = card_cost(g, p, inst)
        pl.mana -= mana
        pl.gold -= gold
        if over is not None and over.uses is not None:
            over.uses -= 1
        pl.hand.remove(inst.iid)
        pl.played.append(inst.iid)
        pl.played_count += 1
        plan.update(inst=inst, locks=locks["locks"], refs=locks["refs"],
                    init=_initiative(g, inst))
        g.stats["played"][inst.defn.id] = g.stats["played"].get(inst.defn.id, 0) + 1
        g.log("play", p=p, card=inst.defn.id, mana=mana, gold=gold)
    elif choice[0] == "ability":
        pl.mana -= g.opt.activation_mana
    else:
        cost = g.rules.game["basic_actions"][BASIC[choice[0]]]
        pl.mana -= cost["mana"]
        pl.gold -= cost.get("gold", 0)
    return plan


def _initiative(g, inst) -> int:
    a, b = inst.defn.initiative
    if "initiative" in inst.over:
        return inst.over["initiative"]
    return {"first": a, "second": b, "lower": min(a, b), "higher": max(a, b)}[g.opt.initiative]


def resolve_step(g, plans: list[dict]) -> None:
    """§12.3: cards by ascending initiative, then basic actions in seat order from Lead."""
    order = seat_order(g)
    rank = {p: i for i, p in enumerate(order)}
    cards = [x for x in plans if x["kind"] == "card"]
    if g.opt.initiative_ties == "die":
        tie = {x["p"]: g.rng.random() for x in cards}
        cards.sort(key=lambda x: (x["init"], tie[x["p"]]))
    else:
        cards.sort(key=lambda x: (x["init"], rank[x["p"]]))
    for plan in cards:
        resolve_card(g, plan)
    basics = sorted((x for x in plans if x["kind"] not in ("card", "done")),
                    key=lambda x: rank[x["p"]])
    for plan in basics:
        resolve_basic(g, plan)


def resolve_card(g, plan: dict) -> None:
    """Resolve one played card at its initiative; it fizzles if a locked target broke."""
    p, inst = plan["p"], plan["inst"]
    ctx = Ctx(g, p, inst, locks=plan["locks"])
    ctx.refs.update(plan["refs"])
    ok = g.run_steps(inst.defn.effect, ctx)
    key = "resolved" if ok else "fizzled"
    g.stats[key][inst.defn.id] = g.stats[key].get(inst.defn.id, 0) + 1
    g.log("resolved" if ok else "fizzled", p=p, card=inst.defn.id)
    pl = g.s.players[p]
    pl.played.remove(inst.iid)
    on_board = any(c.iid == inst.iid for c in g.s.champions.values())
    if not on_board:
        if inst.get("burn") or inst.defn.type == "champion":
            pl.burn.append(inst.iid)
        else:
            pl.discard.append(inst.iid)
    g.resolve_contacts(p)
    g.checkpoint("card")


def resolve_basic(g, plan: dict) -> None:
    """Resolve one basic action (§12.2) or an activated ability; locked targets fizzle."""
    p, choice = plan["p"], plan["choice"]
    s = g.s
    kind = choice[0]
    try:
        if kind == "bridge":
            e = choice[1]
            a, b = e >> 8, e & 255
            if e in s.bridges or not (s.occupies(p, a) or s.occupies(p, b)):
                raise Fizzle("bridge no longer legal")
            s.bridges.add(e)
            g.log("bridge", p=p, edge=e, basic=True)
        elif kind == "march":
            g.do_move(p, choice[1], g.rules.game["basic_actions"]["march"]["distance"],
                      False, False)
        elif kind == "reinforce":
            if choice[1] not in g.deploy_anchors(p):
                raise Fizzle("reinforce hex no longer legal")
            g.deploy(p, choice[1], g.rules.game["basic_actions"]["capital_reinforce"]["forces"])
        elif kind == "ability":
            _activate(g, p, choice)
    except Fizzle as exc:
        g.log("fizzle", p=p, action=kind, why=str(exc))
    g.resolve_contacts(p)
    g.checkpoint("basic")


def _activate(g, p: int, choice: tuple) -> None:
    for act in g.hooks.trigs.get("activated", ()):
        cid = act.champ.cid if act.champ else 0
        if act.owner == p and cid == choice[1] and act.ability.name == choice[2]:
            if act.champ is not None and act.champ.cid not in g.s.champions:
                raise Fizzle("Champion gone")
            if not act.limit_ok(g):
                raise Fizzle("already used")
            act.mark_used(g)
            g.log("activate", p=p, ability=choice[2])
            g.run_steps(act.steps, act.ctx(g))
            return
    raise Fizzle("ability gone")


def action_phase(g) -> None:
    """Repeat Action Steps until every player is Done or out of mana."""
    s = g.s
    for step in range(MAX_ACTION_STEPS):
        active = [p for p in seat_order(g) if not s.players[p].done and s.players[p].mana >= 1]
        if not active:
            return
        plans = [declare(g, p) for p in active]
        g.checkpoint("declare")
        resolve_step(g, plans)
    g.log("action_cap", steps=MAX_ACTION_STEPS)
