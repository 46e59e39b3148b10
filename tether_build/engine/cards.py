"""Card zones: drawing, discarding, scrapping, gaining, revealing (§2.5, §15)."""

from __future__ import annotations

from . import rand
from .core import Ctx


class CardsMixin:
    """Card-moving rules of the Game."""

    def inst(self, iid: int):
        """The CardInst of an iid."""
        return self.s.cards[iid]

    def reshuffle(self, p: int) -> None:
        """Shuffle the discard pile into the (empty) draw pile (§2.5)."""
        pl = self.s.players[p]
        rand.shuffle(self.rng, pl.discard)
        pl.draw, pl.discard = pl.discard + pl.draw, []
        self.log("reshuffle", p=p, n=len(pl.draw))

    def draw(self, p: int, n: int) -> int:
        """Draw n cards (§2.5: at HAND_LIMIT a drawn card goes to the discard pile)."""
        pl = self.s.players[p]
        cards, logging = self.s.cards, self.events is not None
        limit = self.rules.game["hand"]["limit"]
        stop = self.opt.hand_limit_draw == "stop"
        hand, got = pl.hand, 0
        for _ in range(n):
            if not pl.draw:
                if not pl.discard:
                    break
                self.reshuffle(p)
            full = len(hand) >= limit
            if full and stop:
                break
            iid = pl.draw.pop()
            inst = cards[iid]
            defn = inst.defn
            pl.last_drawn = defn.type
            got += 1
            if full:
                pl.discard.append(iid)
                if logging:
                    self.log("draw", p=p, card=defn.id, to="discard")
                if defn.triggers:
                    self.card_event(p, inst, "card_discarded")
            else:
                hand.append(iid)
                if logging:
                    self.log("draw", p=p, card=defn.id)
            if defn.triggers:
                self.card_event(p, inst, "card_drawn")
        return got

    def card_event(self, p: int, inst, event: str) -> None:
        """Run a card's own triggers for card_drawn / card_discarded."""
        for ab in inst.defn.triggers:
            if ab.event == event:
                ctx = Ctx(self, p, inst)
                if ab.cond(ctx):
                    self.log("trigger", ev=event, p=p, src=inst.defn.id)
                    self.run_steps(ab.steps, ctx)

    def discard_card(self, p: int, iid: int) -> None:
        """Move a card from hand to the discard pile."""
        pl = self.s.players[p]
        pl.hand.remove(iid)
        pl.discard.append(iid)
        inst = self.s.cards[iid]
        if self.events is not None:
            self.log("discard", p=p, card=inst.defn.id)
        if inst.defn.triggers:
            self.card_event(p, inst, "card_discarded")

    def scrap_card(self, p: int, iid: int) -> None:
        """Remove a card in hand from the game (Reforge)."""
        pl = self.s.players[p]
        pl.hand.remove(iid)
        pl.scrapped.append(iid)
        self.log("scrap", p=p, card=self.s.cards[iid].defn.id)

    def choose_cards(self, p: int, kind: str, pool: list[int], count: int, up_to: bool,
                     ctx=None) -> list[int]:
        """Let seat p pick up to `count` cards from `pool` one by one ('up to' may stop)."""
        chosen: list[int] = []
        pool = list(pool)
        for _ in range(count):
            if not pool:
                break
            options = sorted(pool, key=lambda i: (self.s.cards[i].defn.id, i))
            if up_to:
                options = [None] + options
            pick = options[0] if len(options) == 1 else self.decide(p, kind, options, ctx)
            if pick is None:
                break
            chosen.append(pick)
            pool.remove(pick)
        return chosen

    def gain_card(self, p: int, iid: int, to: str = "draw_pile") -> None:
        """Gain a card (§15.3 random insert into the draw pile) and its Permanence (§15.4)."""
        pl = self.s.players[p]
        inst = self.s.cards[iid]
        if to == "hand":
            pl.hand.append(iid)
        else:
            if not pl.draw and pl.discard:
                self.reshuffle(p)
            pl.draw.insert(rand.randint(self.rng, 0, len(pl.draw)), iid)
        if inst.defn.vp:
            pl.pvp += inst.defn.vp
        if self.events is not None:
            self.log("gain", p=p, card=inst.defn.id, to=to, vp=inst.defn.vp)

    def deck_for(self, source: str, age: str) -> str:
        """Deck id of the market or power deck of an age."""
        info = self.rules.age_info[age]
        return info["market_deck" if source == "market" else "power_deck"]

    def reveal(self, deck: str, n: int) -> list[int]:
        """Take up to n cards from the top of a supply deck into the revealed row."""
        pile = self.s.decks.get(deck, [])
        got = [pile.pop() for _ in range(min(n, len(pile)))]
        self.s.revealed.extend(got)
        return got

    def to_bottom(self, deck: str, iids: list[int]) -> None:
        """Return revealed cards to the bottom of their deck in random order."""
        iids = list(iids)
        rand.shuffle(self.rng, iids)
        for iid in iids:
            self.s.revealed.remove(iid)
        self.s.decks.setdefault(deck, [])[:0] = iids

    def take_revealed(self, iid: int) -> None:
        """A revealed card leaves the revealed row (it is being gained)."""
        self.s.revealed.remove(iid)

    def pick_extra(self, p: int) -> int:
        """Extra cards to reveal when seat p picks from n cards (pick_extra modifier)."""
        extra = 0
        for act in self.hooks.of("pick_extra"):
            if act.owner == p and act.mod.when(act.ctx(self)):
                extra += act.mod.params["amount"]
        return extra

    def draft(self, p: int, deck: str, reveal: int, kind: str, optional: bool = False,
              to: str = "draw_pile") -> int | None:
        """Reveal cards, seat p gains one (or none if optional), the rest go to the bottom."""
        shown = self.reveal(deck, reveal + self.pick_extra(p))
        if not shown:
            return None
        options = sorted(shown, key=lambda i: (self.s.cards[i].defn.id, i))
        if optional:
            options = [None] + options
        pick = options[0] if len(options) == 1 else self.decide(p, kind, options)
        if pick is not None:
            self.take_revealed(pick)
            self.gain_card(p, pick, to)
        self.to_bottom(deck, [i for i in shown if i != pick])
        return pick
