"""Step handlers: gaining cards (Forge Draft, gain_card, take_card) and card counters."""

from __future__ import annotations

from . import rand
from .core import Step, handler
from .steps_board import card_filter  # noqa: F401  (re-exported for tests)


def _age(ctx, age: str) -> str:
    return ctx.s.age if age == "current" else age


@handler("forge_draft")
def forge_draft(d, comp):
    """Reveal Archive cards, gain one, the rest to the bottom (§16.2)."""
    reveal, age = d["reveal"], d["age"]

    def apply(ctx, _):
        deck = ctx.g.deck_for("market", _age(ctx, age))
        got = ctx.g.draft(ctx.p, deck, reveal, "forge_draft")
        ctx.last_count = 0 if got is None else 1
    return Step("forge_draft", d, apply)


@handler("gain_card")
def gain_card(d, comp):
    """Gain cards from a supply deck into the hand or the draw pile."""
    source, age, count, mode, to = d["source"], d["age"], d["count"], d["pick"], d["to"]
    over = {k: v for k, v in (d.get("overrides") or {}).items()}

    def apply(ctx, _):
        g = ctx.g
        deck = g.deck_for(source, _age(ctx, age))
        pile = g.s.decks.get(deck, [])
        got = 0
        for _ in range(count):
            if not pile:
                break
            if mode == "random":
                iid = pile.pop(rand.below(g.rng, len(pile)))
            else:
                options = sorted(set(pile), key=lambda i: (g.s.cards[i].defn.id, i))
                iid = options[0] if len(options) == 1 else g.decide(ctx.p, "gain_card",
                                                                    options, ctx)
                pile.remove(iid)
            inst = g.s.cards[iid]
            inst.over = {**inst.over, **over}
            g.gain_card(ctx.p, iid, to)
            g.unseen[iid] = (ctx.p, deck)  # the other seats do not see which card it is
            got += 1
        ctx.last_count = got
    return Step("gain_card", d, apply)


@handler("card_counter")
def card_counter(d, comp):
    """Change this card's own counter."""
    add, cap = d["add"], d.get("max")

    def apply(ctx, _):
        inst = ctx.inst
        if inst is None:
            return
        v = inst.counter + add
        inst.counter = v if cap is None else min(cap, v)
        ctx.g.log("counter", card=inst.defn.id, value=inst.counter)
    return Step("card_counter", d, apply)


def _find(pl, iid) -> list | None:
    for zone in (pl.burn, pl.discard, pl.draw, pl.hand):
        if iid in zone:
            return zone
    return None


@handler("take_card")
def take_card(d, comp):
    """Take another player's card (killed Champion's card, or their faction spell)."""
    what, src, to = d["card"], d["from"], d["to"]

    def apply(ctx, _):
        g, ev = ctx.g, ctx.event or {}
        q = ev.get({"victim": "victim", "killer": "killer",
                    "battle_enemy": "battle_enemy"}.get(src, "victim"))
        if q is None or q == ctx.p:
            return
        pl = g.s.players[q]
        if what == "killed_champion":
            ch = ev.get("champ")
            iid = ch.iid if ch is not None else None
        else:
            spell = g.rules.factions[pl.faction].spell
            iid = next((i for zone in (pl.burn, pl.discard, pl.draw, pl.hand) for i in zone
                        if g.s.cards[i].defn.id == spell), None)
        zone = _find(pl, iid) if iid is not None else None
        if zone is None:
            return
        zone.remove(iid)
        g.gain_card(ctx.p, iid, to)
        ctx.last_count = 1
    return Step("take_card", d, apply)
