"""The Action Phase (§12): simultaneous choices, initiative order, locked targets, fizzle.

Each Action Step is one joint action: every active player declares (a card with its
locked targets, a basic action, an activated ability, or Done) without seeing the others'
choices; then cards resolve by initiative and basic actions by seat order from the Lead.
"""

from __future__ import annotations

from itertools import repeat

from .core import Ctx, Fizzle
from .declare import (
    Preset,
    affordable,
    card_cost,
    card_options,
    declare_card,
    playable,
    whole_plays,
)

__all__ = ["action_phase", "affordable", "card_cost", "declare", "declare_card",
           "legal_actions", "playable", "resolve_basic", "resolve_card", "resolve_step"]

MAX_ACTION_STEPS = 60
DONE = ("done",)
BASIC = {"bridge": "build_bridge", "march": "march", "reinforce": "capital_reinforce"}


def seat_order(g) -> list[int]:
    """Seats starting from the Lead, clockwise (do not mutate)."""
    return _seats(g)[1]


def _seats(g) -> tuple:
    """(Lead, seat order from the Lead, {seat: its place in that order}), kept per Lead."""
    lead = g.s.lead
    got = g.index.seats
    if got is None or got[0] != lead:
        n = len(g.s.players)
        order = [(lead + i) % n for i in range(n)]
        got = g.index.seats = (lead, order, {p: i for i, p in enumerate(order)})
    return got


def legal_actions(g, p: int, exact: bool = True) -> list[tuple]:
    """Every action seat p may declare this Action Step (§12.1-12.2).

    Cards are offered only with a legal target for each choice locked at declaration;
    exact=False skips the costly look-aheads (a choose_target tried against later steps):
    if such a chosen card has none, the game loop asks again without it."""
    s, rules = g.s, g.rules
    pl = s.players[p]
    mana = pl.mana
    # the basic actions first: a card's look-ahead may reuse their (memoised) choices
    bridges = g.bridge_options(p) if mana >= rules.bridge_mana else ()
    marches = g.move_options(p, "stack", rules.march_distance, False, False) if (
        mana >= rules.march_mana) else ()
    out: list[tuple] = [DONE]
    if pl.hand:
        out += card_options(g, p, exact)
    if bridges:  # (zip builds the option tuples without a Python-level loop)
        out += zip(repeat("bridge"), bridges)
    if marches:
        out += zip(repeat("march"), marches)
    if pl.gold >= rules.reinforce_gold and mana >= rules.reinforce_mana:
        if g.hooks.mods.get("deploy_anchor"):
            out += zip(repeat("reinforce"), g.deploy_anchors(p))
        else:  # no deploy anchor in play: the Capital alone
            out.append(("reinforce", pl.capital))
    if g.hooks.trigs.get("activated"):
        out += _ability_options(g, p)
    return out


def _ability_options(g, p: int) -> list[tuple]:
    if g.s.players[p].mana < max(1, g.opt.activation_mana):
        return []
    out = []
    for act in g.hooks.trigs.get("activated", ()):
        if act.owner == p and act.limit_ok(g) and act.cond(act.ctx(g)):
            out.append(("ability", act.champ.cid if act.champ else 0, act.ability.name))
    return out


def expand_plays(g, p: int, options: list[tuple]) -> list[tuple]:
    """Each ('card', card) option as ('card', card, play) for every whole play of it (a
    card with no legal play is left out); the other options as they are."""
    out = []
    for o in options:
        if o[0] == "card":
            out += [("card", o[1], play) for play in whole_plays(g, p, o[1])]
        else:
            out.append(o)
    return out


def declare(g, p: int) -> dict:
    """Ask seat p for this step's action and pay its costs now (one seat alone: tests,
    probes). The Action Phase declares every seat first and pays at the reveal (§12.1)."""
    return reveal(g, choose(g, p))


def choose(g, p: int) -> dict:
    """§12.1: seat p secretly chooses its action; nothing is paid or moved yet, so the
    seats after it choose from the state as it was at the start of the Action Step."""
    g.index.memo = {}  # nothing changes until the costs are paid: queries may be memoised
    try:
        choice, locks = _choose_action(g, p)
    finally:
        g.index.memo = None
    if choice[0] == "card":
        g.pending.add(choice[1])  # chosen, still in hand until the reveal
    return {"p": p, "kind": choice[0], "choice": choice, "declared": locks}


def reveal(g, plan: dict) -> dict:
    """§12.1 reveal: pay the chosen action's costs (§15.1); returns the plan."""
    p, kind, choice = plan["p"], plan["kind"], plan["choice"]
    locks = plan.pop("declared", None)
    pl = g.s.players[p]
    if kind == "done":
        pl.done = True
    elif kind == "card":
        g.pending.discard(choice[1])
        _pay_card(g, p, plan, g.s.cards[choice[1]], locks or {"locks": {}, "refs": {}})
    elif kind == "ability":
        pl.mana -= g.opt.activation_mana
    else:
        cost = g.rules.game["basic_actions"][BASIC[kind]]
        pl.mana -= cost["mana"]
        pl.gold -= cost.get("gold", 0)
    return plan


def _choose_action(g, p: int) -> tuple[tuple, dict | None]:
    """The agent's action, with the locked targets of a card (re-asked on a dead end).
    An agent with `whole_plays` is offered each card once per way to target it,
    ('card', card, play), and chooses card and targets in this one decision."""
    cards = g.s.cards
    options = legal_actions(g, p, exact=False)
    whole = g.opt.target_lock == "declare" and getattr(g.agents[p], "whole_plays", False)
    if whole:
        options = expand_plays(g, p, options)
    while True:
        choice = g.decide(p, "action", options)
        if choice[0] == "card" and g.opt.target_lock == "declare":
            preset = Preset(values=[aim[1] for aim in choice[2]]) if whole else None
            locks = declare_card(g, p, cards[choice[1]], dry=False, quick=True,
                                 preset=preset)
            if locks is None:  # no legal target (or a dead end): not playable, choose again
                defn = cards[choice[1]].defn
                options = [o for o in options if o[0] != "card" or cards[o[1]].defn is not defn]
                continue
            return choice, locks
        return choice, None


def _pay_card(g, p: int, plan: dict, inst, locks: dict) -> None:
    """Pay a declared card's costs and move it to the played area (§15.1)."""
    pl = g.s.players[p]
    mana, gold, over = card_cost(g, p, inst)
    pl.mana -= mana
    pl.gold -= gold
    if over is not None and over.uses is not None:
        over.uses -= 1
    pl.hand.remove(inst.iid)
    pl.played.append(inst.iid)
    pl.played_count += 1
    plan.update(inst=inst, locks=locks["locks"], refs=locks["refs"], init=_initiative(g, inst))
    played = g.stats["played"]
    played[inst.defn.id] = played.get(inst.defn.id, 0) + 1
    if g.events is not None:
        g.log("play", p=p, card=inst.defn.id, mana=mana, gold=gold)


INITIATIVE = {"first": lambda a, b: a, "second": lambda a, b: b, "lower": min, "higher": max}


def _initiative(g, inst) -> int:
    if "initiative" in inst.over:
        return inst.over["initiative"]
    return INITIATIVE[g.opt.initiative](*inst.defn.initiative)


def resolve_step(g, plans: list[dict]) -> None:
    """§12.3: cards by ascending initiative, then basic actions in seat order from Lead."""
    rank = _seats(g)[2]
    cards, basics = [], []
    for x in plans:
        kind = x["kind"]
        if kind == "card":
            cards.append(x)
        elif kind != "done":
            basics.append(x)
    if g.opt.initiative_ties == "die":
        tie = {x["p"]: g.rng.random() for x in cards}
        cards.sort(key=lambda x: (x["init"], tie[x["p"]]))
    elif len(cards) > 1:
        cards.sort(key=lambda x: (x["init"], rank[x["p"]]))
    for plan in cards:
        resolve_card(g, plan)
    if len(basics) > 1:
        basics.sort(key=lambda x: rank[x["p"]])
    for plan in basics:
        resolve_basic(g, plan)


def resolve_card(g, plan: dict) -> None:
    """Resolve one played card at its initiative; it fizzles if a locked target broke."""
    p, inst = plan["p"], plan["inst"]
    ctx = Ctx(g, p, inst, locks=plan["locks"])
    ctx.refs.update(plan["refs"])
    defn = inst.defn
    ok = g.run_steps(defn.effect, ctx)
    tally = g.stats["resolved" if ok else "fizzled"]
    tally[defn.id] = tally.get(defn.id, 0) + 1
    if g.events is not None:
        g.log("resolved" if ok else "fizzled", p=p, card=defn.id)
    pl = g.s.players[p]
    pl.played.remove(inst.iid)
    # only a Champion card can be on the board (as the Champion it deployed)
    on_board = defn.is_champion and any(c.iid == inst.iid for c in g.s.champions.values())
    if not on_board:
        if defn.is_champion or inst.get("burn"):
            pl.burn.append(inst.iid)
        else:
            pl.discard.append(inst.iid)
    g.resolve_contacts(p)
    if g.check is not None:
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
            if g.events is not None:
                g.log("bridge", p=p, edge=e, basic=True)
        elif kind == "march":
            g.do_move(p, choice[1], g.rules.march_distance, False, False)
        elif kind == "reinforce":
            if choice[1] not in g.deploy_anchors(p):
                raise Fizzle("reinforce hex no longer legal")
            g.deploy(p, choice[1], g.rules.reinforce_forces)
        elif kind == "ability":
            _activate(g, p, choice)
    except Fizzle as exc:
        g.log("fizzle", p=p, action=kind, why=str(exc))
    g.resolve_contacts(p)
    if g.check is not None:
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
    players = s.players
    for step in range(MAX_ACTION_STEPS):
        if g.on_step is not None:  # a search fork deals its hidden cards here (engine/fork)
            g.on_step(g)
        # §12.1: every seat chooses from the state at the start of the step, then all reveal
        plans = [choose(g, p) for p in seat_order(g)
                 if not players[p].done and players[p].mana >= 1]
        if not plans:
            return
        for plan in plans:
            reveal(g, plan)
        if g.check is not None:
            g.checkpoint("declare")
        resolve_step(g, plans)
    g.log("action_cap", steps=MAX_ACTION_STEPS)
