"""The Action Phase (§12): simultaneous choices, initiative order, locked targets, fizzle.

Each Action Step is one joint action: every active player declares (a card with its
locked targets, a basic action, an activated ability, or Done) without seeing the others'
choices; then cards resolve by initiative and basic actions by seat order from the Lead.
"""

from __future__ import annotations

from itertools import repeat

from .core import Ctx, Fizzle
from .declare import Preset

MAX_ACTION_STEPS = 60
DONE = ("done",)
BASIC = {"bridge": "build_bridge", "march": "march", "reinforce": "capital_reinforce"}
INITIATIVE = {"first": lambda a, b: a, "second": lambda a, b: b, "lower": min, "higher": max}


class ActionsMixin:
    """The Action Phase of the Game (§12)."""

    def seat_order(self) -> list[int]:
        """Seats starting from the Lead, clockwise (do not mutate)."""
        return self._seats()[1]

    def _seats(self) -> tuple:
        """(Lead, seat order from the Lead, {seat: its place in that order}), kept per Lead."""
        lead = self.s.lead
        got = self.index.seats
        if got is None or got[0] != lead:
            n = len(self.s.players)
            order = [(lead + i) % n for i in range(n)]
            got = self.index.seats = (lead, order, {p: i for i, p in enumerate(order)})
        return got

    def legal_actions(self, p: int, exact: bool = True) -> list[tuple]:
        """Every action seat p may declare this Action Step (§12.1-12.2).

        Cards are offered only with a legal target for each choice locked at declaration;
        exact=False skips the costly look-aheads (a choose_target tried against later steps):
        if such a chosen card has none, the game loop asks again without it."""
        s, rules = self.s, self.rules
        pl = s.players[p]
        mana = pl.mana
        # the basic actions first: a card's look-ahead may reuse their (memoised) choices
        bridges = self.bridge_options(p) if mana >= rules.bridge_mana else ()
        marches = self.move_options(p, "stack", rules.march_distance, False, False) if (
            mana >= rules.march_mana) else ()
        out: list[tuple] = [DONE]
        if pl.hand:
            out += self.card_options(p, exact)
        if bridges:  # (zip builds the option tuples without a Python-level loop)
            out += zip(repeat("bridge"), bridges)
        if marches:
            out += zip(repeat("march"), marches)
        if pl.gold >= rules.reinforce_gold and mana >= rules.reinforce_mana:
            if self.hooks.mods.get("deploy_anchor"):
                out += zip(repeat("reinforce"), self.deploy_anchors(p))
            else:  # no deploy anchor in play: the Capital alone
                out.append(("reinforce", pl.capital))
        if self.hooks.trigs.get("activated"):
            out += self._ability_options(p)
        return out

    def _ability_options(self, p: int) -> list[tuple]:
        if self.s.players[p].mana < max(1, self.opt.activation_mana):
            return []
        out = []
        for act in self.hooks.trigs.get("activated", ()):
            if act.owner == p and act.limit_ok(self) and act.cond(act.ctx(self)):
                out.append(("ability", act.champ.cid if act.champ else 0, act.ability.name))
        return out

    def expand_plays(self, p: int, options: list[tuple]) -> list[tuple]:
        """Each ('card', card) option as ('card', card, play) for every whole play of it (a
        card with no legal play is left out); the other options as they are."""
        out = []
        for o in options:
            if o[0] == "card":
                out += [("card", o[1], play) for play in self.card_plays(p, o[1])]
            else:
                out.append(o)
        return out

    def declare(self, p: int) -> dict:
        """Ask seat p for this step's action and pay its costs now (one seat alone: tests,
        probes). The Action Phase declares every seat first and pays at the reveal (§12.1)."""
        return self.reveal_action(self.choose_action(p))

    def choose_action(self, p: int) -> dict:
        """§12.1: seat p secretly chooses its action; nothing is paid or moved yet, so the
        seats after it choose from the state as it was at the start of the Action Step."""
        self.index.memo = {}  # nothing changes until the costs are paid: queries may be memoised
        try:
            choice, locks = self._ask_action(p)
        finally:
            self.index.memo = None
        if choice[0] == "card":
            self.pending.add(choice[1])  # chosen, still in hand until the reveal
        return {"p": p, "kind": choice[0], "choice": choice, "declared": locks}

    def reveal_action(self, plan: dict) -> dict:
        """§12.1 reveal: pay the chosen action's costs (§15.1); returns the plan."""
        p, kind, choice = plan["p"], plan["kind"], plan["choice"]
        locks = plan.pop("declared", None)
        pl = self.s.players[p]
        if kind == "done":
            pl.done = True
        elif kind == "card":
            self.pending.discard(choice[1])
            self._pay_card(p, plan, self.s.cards[choice[1]], locks or {"locks": {}, "refs": {}})
        elif kind == "ability":
            pl.mana -= self.opt.activation_mana
        else:
            cost = self.rules.game["basic_actions"][BASIC[kind]]
            pl.mana -= cost["mana"]
            pl.gold -= cost.get("gold", 0)
        return plan

    def _ask_action(self, p: int) -> tuple[tuple, dict | None]:
        """The agent's action, with the locked targets of a card (re-asked on a dead end).
        An agent with `whole_plays` is offered each card once per way to target it,
        ('card', card, play), and chooses card and targets in this one decision."""
        cards = self.s.cards
        options = self.legal_actions(p, exact=False)
        whole = self.opt.target_lock == "declare" and getattr(self.agents[p], "whole_plays", False)
        if whole:
            options = self.expand_plays(p, options)
        while True:
            choice = self.decide(p, "action", options)
            if choice[0] == "card" and self.opt.target_lock == "declare":
                preset = Preset(values=[aim[1] for aim in choice[2]]) if whole else None
                locks = self.declare_card(p, cards[choice[1]], dry=False, quick=True,
                                          preset=preset)
                if locks is None:  # no legal target (or a dead end): not playable, choose again
                    defn = cards[choice[1]].defn
                    options = [o for o in options if o[0] != "card" or cards[o[1]].defn is not defn]
                    continue
                return choice, locks
            return choice, None

    def _pay_card(self, p: int, plan: dict, inst, locks: dict) -> None:
        """Pay a declared card's costs and move it to the played area (§15.1)."""
        pl = self.s.players[p]
        mana, gold, over = self.card_cost(p, inst)
        pl.mana -= mana
        pl.gold -= gold
        if over is not None and over.uses is not None:
            over.uses -= 1
        pl.hand.remove(inst.iid)
        pl.played.append(inst.iid)
        pl.played_count += 1
        plan.update(inst=inst, locks=locks["locks"], refs=locks["refs"],
                    init=self._initiative(inst))
        played = self.stats["played"]
        played[inst.defn.id] = played.get(inst.defn.id, 0) + 1
        if self.events is not None:
            self.log("play", p=p, card=inst.defn.id, mana=mana, gold=gold)

    def _initiative(self, inst) -> int:
        if "initiative" in inst.over:
            return inst.over["initiative"]
        return INITIATIVE[self.opt.initiative](*inst.defn.initiative)

    def resolve_step(self, plans: list[dict]) -> None:
        """§12.3: cards by ascending initiative, then basic actions in seat order from Lead."""
        rank = self._seats()[2]
        cards, basics = [], []
        for x in plans:
            kind = x["kind"]
            if kind == "card":
                cards.append(x)
            elif kind != "done":
                basics.append(x)
        if self.opt.initiative_ties == "die":
            tie = {x["p"]: self.rng.random() for x in cards}
            cards.sort(key=lambda x: (x["init"], tie[x["p"]]))
        elif len(cards) > 1:
            cards.sort(key=lambda x: (x["init"], rank[x["p"]]))
        for plan in cards:
            self.resolve_card(plan)
        if len(basics) > 1:
            basics.sort(key=lambda x: rank[x["p"]])
        for plan in basics:
            self.resolve_basic(plan)

    def resolve_card(self, plan: dict) -> None:
        """Resolve one played card at its initiative; it fizzles if a locked target broke."""
        p, inst = plan["p"], plan["inst"]
        ctx = Ctx(self, p, inst, locks=plan["locks"])
        ctx.refs.update(plan["refs"])
        defn = inst.defn
        ok = self.run_steps(defn.effect, ctx)
        tally = self.stats["resolved" if ok else "fizzled"]
        tally[defn.id] = tally.get(defn.id, 0) + 1
        if self.events is not None:
            self.log("resolved" if ok else "fizzled", p=p, card=defn.id)
        pl = self.s.players[p]
        pl.played.remove(inst.iid)
        # only a Champion card can be on the board (as the Champion it deployed)
        on_board = defn.is_champion and any(c.iid == inst.iid for c in self.s.champions.values())
        if not on_board:
            if defn.is_champion or inst.get("burn"):
                pl.burn.append(inst.iid)
            else:
                pl.discard.append(inst.iid)
        self.resolve_contacts(p)
        if self.check is not None:
            self.checkpoint("card")

    def resolve_basic(self, plan: dict) -> None:
        """Resolve one basic action (§12.2) or an activated ability; locked targets fizzle."""
        p, choice = plan["p"], plan["choice"]
        s = self.s
        kind = choice[0]
        try:
            if kind == "bridge":
                e = choice[1]
                a, b = e >> 8, e & 255
                if e in s.bridges or not (s.occupies(p, a) or s.occupies(p, b)):
                    raise Fizzle("bridge no longer legal")
                s.bridges.add(e)
                if self.events is not None:
                    self.log("bridge", p=p, edge=e, basic=True)
            elif kind == "march":
                self.do_move(p, choice[1], self.rules.march_distance, False, False)
            elif kind == "reinforce":
                if choice[1] not in self.deploy_anchors(p):
                    raise Fizzle("reinforce hex no longer legal")
                self.deploy(p, choice[1], self.rules.reinforce_forces)
            elif kind == "ability":
                self._activate(p, choice)
        except Fizzle as exc:
            self.log("fizzle", p=p, action=kind, why=str(exc))
        self.resolve_contacts(p)
        if self.check is not None:
            self.checkpoint("basic")

    def _activate(self, p: int, choice: tuple) -> None:
        for act in self.hooks.trigs.get("activated", ()):
            cid = act.champ.cid if act.champ else 0
            if act.owner == p and cid == choice[1] and act.ability.name == choice[2]:
                if act.champ is not None and act.champ.cid not in self.s.champions:
                    raise Fizzle("Champion gone")
                if not act.limit_ok(self):
                    raise Fizzle("already used")
                act.mark_used(self)
                self.log("activate", p=p, ability=choice[2])
                self.run_steps(act.steps, act.ctx(self))
                return
        raise Fizzle("ability gone")

    def action_phase(self) -> None:
        """Repeat Action Steps until every player is Done or out of mana."""
        s = self.s
        players = s.players
        for step in range(MAX_ACTION_STEPS):
            if self.on_step is not None:  # a search fork deals its hidden cards here (engine/fork)
                self.on_step(self)
            # §12.1: every seat chooses from the state at the start of the step, then all reveal
            plans = [self.choose_action(p) for p in self.seat_order()
                     if not players[p].done and players[p].mana >= 1]
            if not plans:
                return
            for plan in plans:
                self.reveal_action(plan)
            if self.check is not None:
                self.checkpoint("declare")
            self.resolve_step(plans)
        self.log("action_cap", steps=MAX_ACTION_STEPS)
