"""The game's words for a table: decisions, options and events as the glossary names them.

Every player-facing word comes from the glossary (`content/terms.yaml`, passed as `terms`):
after a rename, the Play page and `tether play` say the new word. Nothing here reads a hidden
card for a seat that may not see it: event lines are written for one seat (`event_line`),
and another seat's draw is "draws a card".
"""

from __future__ import annotations

import copy

from ..engine.topo import edge_ends


class Words:
    """Glossary words over one game's rules."""

    def __init__(self, terms: dict, rules):
        self.terms, self.rules = terms, rules
        self.me: int | None = None  # the seat these words speak to ("your Capital")

    def for_seat(self, me: int | None) -> Words:
        """The same words spoken to seat `me`."""
        out = copy.copy(self)
        out.me = me
        return out

    def t(self, tid: str, plural: bool = False) -> str:
        entry = self.terms.get(tid)
        if entry is None:
            return tid.replace("_", " ")
        return entry["plural" if plural else "singular"]

    def n(self, count: int, tid: str) -> str:
        return f"{count} {self.t(tid, count != 1)}"

    def card(self, card_id: str) -> str:
        d = self.rules.by_id.get(card_id)
        return d.name if d is not None else card_id

    # ---- the board -------------------------------------------------------------------------
    def seat(self, g, p: int) -> str:
        f = self.rules.factions.get(g.s.players[p].faction)
        return f"Seat {p + 1} ({f.name if f else g.s.players[p].faction})"

    def hex(self, g, h: int) -> str:
        """A hex as a player reads the board: "your Capital", "Seat 2's Capital", the Axis
        Mundi, or its tile and the coordinates the printed map writes on it ("the Mine at
        1,-3 (Mine Value 2)", "the Plain at 0,2")."""
        s = g.s
        q, r = s.topo.coords[h]
        tile = s.tile[h]
        owner = next((pl.seat for pl in s.players if pl.capital == h), None)
        if owner is not None:
            return (f"your {self.t('capital')}" if owner == self.me
                    else f"Seat {owner + 1}'s {self.t('capital')}")
        if tile == "center":
            return f"the {self.t('center')}"
        where = f"the {self.t(tile if tile in self.terms else 'plain')} at {q},{r}"
        if tile == "mine":
            return f"{where} ({self.t('mine_value')} {s.mine_value[h]})"
        return where

    def slot_hex(self, g, slot) -> tuple[int, int] | None:
        """The (q, r) of a Capital slot (the Capital draft names slots, the board hexes)."""
        from ..engine.board import capital_slots
        try:
            return capital_slots(len(g.s.players), self.rules.game).get(slot)
        except (KeyError, ValueError, TypeError):
            return None

    def edge(self, g, e: int) -> str:
        """A Bridge's two hexes, the one nearer the speaker's Capital first: "from your
        Capital to the Mine at 1,-3 (Mine Value 2)"."""
        a, b = edge_ends(e)
        if self.me is not None and 0 <= self.me < len(g.s.players):
            home = g.s.players[self.me].capital
            if home >= 0 and g.s.topo.dist[home][b] < g.s.topo.dist[home][a]:
                a, b = b, a
        return f"from {self.hex(g, a)} to {self.hex(g, b)}"

    def group(self, g, opt) -> str:
        """Which units a move carries, and where to."""
        unit, src, cid, nf, path = opt
        s = g.s
        if unit == "champion" and cid in s.champions:
            who = s.champions[cid].defn.name
        elif unit == "stack" and cid < 0:
            who = f"the {self.t('force', True)} alone"
        elif unit == "stack" and nf == 0:
            who = f"the {self.t('champion', True)} alone"
        elif unit == "stack" and nf is not None:
            who = f"{self.n(nf, 'force')} and the {self.t('champion', True)}"
        elif unit == "stack":
            who = f"the whole {self.t('stack')}"
        else:
            who = f"1 {self.t('force')}"
        via = f" via {len(path) - 1} {self.t('hex', len(path) != 2)}" if len(path) > 1 else ""
        return f"{who} from {self.hex(g, src)} to {self.hex(g, path[-1])}{via}"

    # ---- decisions ---------------------------------------------------------------------------
    def option(self, g, kind: str, opt) -> str:
        """One legal option, in words."""
        t = self.t
        if opt is None:
            return "Stop moving" if kind == "move" else "Skip"
        if kind == "move":
            return "Move " + self.group(g, opt)
        if isinstance(opt, tuple) and opt and isinstance(opt[0], str):
            head = opt[0]
            if head == "done":
                return f"{t('done')} (no more actions this {t('round')})"
            if head == "card":
                text = f"Play {self.card(g.s.cards[opt[1]].defn.id)}"
                if len(opt) > 2 and opt[2]:
                    text += " → " + ", ".join(self.target(g, k, v) for k, v, *_ in opt[2])
                return text
            if head == "march":
                return f"{t('march')}: " + self.group(g, opt[1])
            if head == "bridge":
                return f"{t('build_bridge')} {self.edge(g, opt[1])}"
            if head == "reinforce":
                return f"{t('capital_reinforce')} at {self.hex(g, opt[1])}"
            if head == "ability":
                ch = g.s.champions.get(opt[1])
                return f"Use {ch.defn.name + ': ' if ch else ''}{opt[2]}"
            if head == "pass":
                return f"{t('pass_bid')} {self.n(opt[1], 'gold')}"
            if head == "buy":
                return f"{t('buy_bid')} {self.n(opt[1], 'gold')}"
            if head == "gold":
                return f"Take {self.n(opt[1], 'gold')}"
            if head == "draft":
                return t("forge_draft") if kind == "forge" else t("mine_draft")
            if head == "reforge":
                return t("reforge")
            if head == "force":
                return f"a {t('force')}"
            if head == "champion":
                ch = g.s.champions.get(opt[1])
                return ch.defn.name if ch else t("champion")
            return " ".join(str(x) for x in opt)
        if kind == "start_bridge" and isinstance(opt, int):
            return f"{t('bridge')} {self.edge(g, opt)}"
        return self.target(g, kind, opt)

    def target(self, g, kind: str, value) -> str:
        """A target of a card (a hex, Bridge, Champion, seat, mode, card) in words."""
        s = g.s
        if value is None:
            return "none"
        if kind == "move":
            return "move " + self.group(g, value)
        if kind in ("hex", "capital_hex") and isinstance(value, int):
            return self.hex(g, value)
        if kind in ("bridge", "start_bridge") and isinstance(value, int):
            return f"the {self.t('bridge')} {self.edge(g, value)}"
        if hasattr(value, "cid"):
            return (f"{value.defn.name} (Seat {value.owner + 1}, {value.hp} {self.t('hp')}, "
                    f"{self.hex(g, value.hex)})")
        if kind == "champion" and isinstance(value, int) and value in s.champions:
            return self.target(g, kind, s.champions[value])
        if kind == "player" and isinstance(value, int):
            return self.seat(g, value)
        if kind == "capital":  # a Capital slot, by the hex the board shows
            where = self.slot_hex(g, value)
            if where is None:
                return f"{self.t('capital')} {value}"
            return f"the {self.t('capital')} slot at {where[0]},{where[1]}"
        if kind == "may":
            return "Yes"
        if isinstance(value, int) and 0 <= value < len(s.cards):
            return self.card(s.cards[value].defn.id)
        return str(value).replace("_", " ")

    def prompt(self, g, kind: str, ctx) -> str:
        """What the rules ask, in a sentence."""
        t = self.t
        card = None
        inst = getattr(ctx, "inst", None)
        if inst is not None:
            card = self.card(inst.defn.id)
        if isinstance(ctx, dict) and "card" in ctx:
            name = self.card(g.s.cards[ctx["card"]].defn.id)
            return (f"{t('bid_draft')}: {name} is up. Choose a {t('buy_bid')} or a "
                    f"{t('pass_bid')} (bids are secret until all have bid).")
        of = f" ({card})" if card else ""
        fixed = {
            "action": f"{t('action_step')}: choose your action for this step (all seats "
                      "choose at once; the choices are revealed together).",
            "mine": f"{t('collection')} at a {t('mine')}: take its {t('gold')} or make a "
                    f"{t('mine_draft')}.",
            "forge": f"{t('collection')} at a {t('forge')}: a {t('forge_draft')} or a "
                     f"{t('reforge')}.",
            "capital": f"Setup: choose where your {t('capital')} goes.",
            "start_bridge": f"Setup: build a starting {t('bridge')}.",
            "move": f"Move{of}: choose a {t('stack')} or {t('unit')} to move.",
            "hex": f"Choose a {t('hex')}{of}.",
            "bridge": f"Choose a {t('bridge')}{of}.",
            "champion": f"Choose a {t('champion')}{of}.",
            "player": f"Choose a player{of}.",
            "option": f"Choose one{of}.",
            "may": f"You may{of}: do it?",
            "assign_hit": f"{t('battle')}: choose which of your {t('unit', True)} takes "
                          "the hit.",
            "summon": f"Choose the {t('champion')} to summon{of}.",
            "gain_card": f"Choose the card to gain{of}.",
            "discard": f"Choose a card to discard{of}.",
            "scrap": f"Choose a card to {t('scrap').lower()}{of}.",
            "put_on_top": f"Choose a card to put on top of your {t('draw_pile')}{of}.",
            "look_take": f"Choose a card to take{of}.",
            "look_bottom": f"Choose a card to put at the bottom{of}.",
            "mine_draft": f"{t('mine_draft')}: choose a card.",
            "forge_draft": f"{t('forge_draft')}: choose a card.",
            "power_pick": f"{t('power_pick')}: choose a card from the {t('power_deck')}.",
            "free_card": "Setup: choose your free starting card.",
        }
        return fixed.get(kind, f"Choose{of}: {kind.replace('_', ' ')}.")

    # ---- events --------------------------------------------------------------------------
    def event(self, g, ev: dict, viewer: int | None) -> str | None:
        """One logged event as seat `viewer` may read it (None: nothing to show).

        Another seat's drawn card and bids §11 keeps secret are never named."""
        t = self.t
        e = ev["e"]

        def who(key="p"):
            p = ev.get(key)
            if p is None:
                return "Nobody"
            return "You" if p == viewer else f"Seat {int(p) + 1}"

        card = self.card(ev["card"]) if isinstance(ev.get("card"), str) else "a card"
        mine = ev.get("p") == viewer
        ev = self._placed(g, ev, viewer)
        if e == "draw":
            if ev.get("to") == "discard":
                return f"{who()} drew {card} at the {t('hand')} limit: it goes to the " \
                       f"{t('discard_pile')}."
            return f"You draw {card}." if mine else f"{who()} draws a card."
        if e == "play":
            return f"{who()} played {card} ({ev.get('mana', 0)} {t('mana')}" \
                   f"{', ' + self.n(ev['gold'], 'gold') if ev.get('gold') else ''})."
        if e == "market":
            cards = ", ".join(self.card(c) for c in ev["cards"])
            return f"{t('round')} {ev['round']}: {t('market')} reveals {cards}."
        if e == "bids":
            bids = ev["bids"]
            name = self.card(ev["card"])
            if any(b[0] == "buy" for b in bids.values()):
                return f"{t('bid_draft')} for {name}: a {t('buy_bid')} was placed."
            shown = ", ".join(f"{who_of(p, viewer)} {b[1]}" for p, b in sorted(bids.items()))
            return f"{t('bid_draft')} for {name}: nobody bought; {t('pass_bid', True)}: {shown}."
        if e == "buy":
            return f"{who()} won the card with a {t('buy_bid')} of {self.n(ev['gold'], 'gold')}."
        if e == "pass_pot":
            return f"{who()} received the card and the {t('pass_pot')} of " \
                   f"{self.n(ev['pot'], 'gold')}."
        if e == "rolloff":
            rolls = ", ".join(f"{who_of(p, viewer)} rolled {v}"
                              for p, v in sorted(ev["rolls"].items()))
            return f"Tie: a {t('die')} roll-off ({rolls}); the lowest wins."
        if e == "gain":  # a Market card won is public; a draft's pick is its taker's
            shown = mine or ev.get("public")
            return f"{who()} gained {card if shown else 'a card'}."
        if e == "battle":
            kind = t("siege") if ev.get("siege") else t("battle")
            return f"{kind} at {ev['hex']}: Seat {ev['att'] + 1} ({t('attacker')}) against " \
                   f"Seat {ev['dfn'] + 1} ({t('defender')})."
        if e == "round":
            dice = ev.get("dice") or {}
            hits = "; ".join(f"{who_of(p, viewer)} rolled {faces(dice.get(p))}: "
                             f"{h} hit{'s' * (h != 1)}" for p, h in sorted(ev["hits"].items()))
            return f"  {t('combat_round')} {ev['n']} at {ev['hex']}: {hits}."
        if e == "battle_end":
            won = "nobody won" if ev.get("winner") is None else \
                f"{who_of(str(ev['winner']), viewer)} won"
            return f"{t('battle')} at {ev['hex']} ends after {ev['rounds']} " \
                   f"{t('combat_round', ev['rounds'] != 1)}: {won}."
        if e == "destroy":
            return f"  {who()} lost {self.n(ev['n'], 'force')} at {ev['hex']}."
        if e == "damage":
            return f"  {card} (Seat {ev['p'] + 1}) took {ev['n']} damage ({ev['hp']} " \
                   f"{t('hp')} left)."
        if e == "champion_off":
            return f"  {card} (Seat {ev['p'] + 1}) left the board ({ev.get('to')})."
        if e == "bounty":
            return f"  {who()} collected a {t('bounty')} of {self.n(ev['gold'], 'gold')}."
        if e == "heal":
            return f"{card} healed {ev['n']} {t('hp')}."
        if e == "move":
            unit = ev.get("unit", "")
            unit = self.t(unit) if unit in self.terms else unit
            return f"{who()} moved a {unit} from {ev['frm']} to {ev['to']}."
        if e == "bridge":
            return f"{who()} built a {t('bridge')} {self.for_seat(viewer).edge(g, ev['edge'])}."
        if e == "unbridge":
            return f"The {t('bridge')} {self.for_seat(viewer).edge(g, ev['edge'])} is gone."
        if e == "deploy":
            return f"{who()} deployed {self.n(ev['n'], 'force')} at {ev['hex']}."
        if e == "champion":
            return f"{who()} deployed {card} at {ev['hex']} ({ev['hp']} {t('hp')})."
        if e == "collect":
            return f"{who()} collected {self.n(ev['gold'], 'gold')} at a {t('mine')}."
        if e == "score":
            parts = []
            for p, (pvp, cvp) in sorted(ev["vp"].items()):
                own = f", {t('permanent_vp')} {pvp}" if int(p) == viewer else ""
                parts.append(f"{who_of(p, viewer)}: {t('control_vp')} {cvp}{own}")
            return f"{t('scoring')}: " + "; ".join(parts) + "."
        if e == "gold":
            n = ev["n"]
            return f"{who()} {'gained' if n >= 0 else 'lost'} {self.n(abs(n), 'gold')}."
        if e == "steal":
            return f"{who()} took {self.n(ev['n'], 'gold')} from Seat {ev['frm'] + 1}."
        if e == "discard":
            return f"{who()} discarded {card}."
        if e == "scrap":
            return f"{who()} {t('scrap').lower()}ped {card}."
        if e == "capital":
            where = self.slot_hex(g, ev["slot"])
            at = f"{where[0]},{where[1]}" if where else f"slot {ev['slot']}"
            return f"{who()} placed the {t('capital')} at {at}."
        if e == "fizzled":
            return f"{card} ({who()}) fizzled: nothing happened."
        if e == "reshuffle":
            return f"{who()} shuffled the {t('discard_pile')} into the {t('draw_pile')}."
        if e == "end":
            win = ", ".join(who_of(str(w), viewer) for w in ev["winners"])
            why = "the round cap" if ev["reason"] == "round_cap" else t("vp")
            return f"Game over in {t('round')} {ev['round']} ({why}): winner {win}."
        if e == "mine_value":
            return f"The {t('mine_value')} of {ev['hex']} is now {ev['value']}."
        if e == "summon":
            return f"{card} was summoned."
        if e == "relocate":
            return f"{card} moved to {ev['to']}."
        return None


    def _placed(self, g, ev: dict, viewer: int | None) -> dict:
        """The event with its hexes ("(q,r)" in the log) named as a player reads the board."""
        keys = [k for k in ("hex", "frm", "to") if isinstance(ev.get(k), str)]
        if not keys:
            return ev
        if ev["e"] == "mine_value":  # (not "the Mine Value of the Mine ... (Mine Value 2)")
            return {**ev, "hex": f"the {self.t('mine')} at {ev['hex'].strip('()')}"}
        index = {name: h for h, name in enumerate(g.s.topo.names)}
        spoken = self.for_seat(viewer)
        return {**ev, **{k: spoken.hex(g, index[ev[k]]) for k in keys if ev[k] in index}}


DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def faces(tally) -> str:
    """Dice rolled, from a count per face: ⚀⚀⚃, or ⚀×12 ⚃×3 for many."""
    if not tally:
        return "no dice"
    if sum(tally) <= 8:
        return "".join(DIE_FACES[k] * n for k, n in enumerate(tally))
    return " ".join(f"{DIE_FACES[k]}×{n}" for k, n in enumerate(tally) if n)


def who_of(p, viewer) -> str:
    """A seat number (as logged, a string key) for a reader."""
    return "You" if int(p) == viewer else f"Seat {int(p) + 1}"
