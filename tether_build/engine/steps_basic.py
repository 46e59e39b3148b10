"""Step handlers: resources and hand (gold, mana, Permanence, draw, discard, scrap, look)."""

from __future__ import annotations

from .core import Step, handler
from .select import amount, players


def _who(d: dict, key: str):
    """A select closure for a player parameter (chosen_opponent is a lockable target)."""
    who = players(d[key])
    holder: list[Step] = []
    return holder, (lambda ctx: who(ctx, holder[0]))


def _step(kind: str, d: dict, apply, select=None, holder=None) -> Step:
    st = Step(kind, d, apply, select)
    st.may_fail = False  # a player reference: 'chosen_opponent' always has a choice
    if holder is not None:
        holder.append(st)
    return st


@handler("noop")
def noop(d, comp):
    """Do nothing."""
    return Step("noop", d, lambda ctx, _: None)


@handler("gain_gold")
def gain_gold(d, comp):
    """A player gains gold."""
    amt = amount(d["amount"])
    holder, select = _who(d, "player")

    def apply(ctx, seats):
        n = amt(ctx)
        for q in seats:
            ctx.s.players[q].gold += n
            ctx.g.log("gold", p=q, n=n)
        ctx.last_count = n
    return _step("gain_gold", d, apply, select, holder)


@handler("lose_gold")
def lose_gold(d, comp):
    """A player loses up to this much gold."""
    amt = amount(d["amount"])
    holder, select = _who(d, "player")

    def apply(ctx, seats):
        total = 0
        for q in seats:
            pl = ctx.s.players[q]
            n = min(pl.gold, amt(ctx))
            pl.gold -= n
            total += n
            ctx.g.log("gold", p=q, n=-n)
        ctx.last_count = total
    return _step("lose_gold", d, apply, select, holder)


@handler("steal_gold")
def steal_gold(d, comp):
    """Take up to this much gold from another player."""
    amt = amount(d["amount"])
    holder, select = _who(d, "from")

    def apply(ctx, seats):
        me = ctx.s.players[ctx.p]
        total = 0
        for q in seats:
            if q == ctx.p:
                continue
            pl = ctx.s.players[q]
            n = min(pl.gold, amt(ctx))
            pl.gold -= n
            me.gold += n
            total += n
            ctx.g.log("steal", p=ctx.p, frm=q, n=n)
        ctx.last_count = total
    return _step("steal_gold", d, apply, select, holder)


@handler("gain_mana")
def gain_mana(d, comp):
    """Gain mana this round."""
    amt = amount(d["amount"])

    def apply(ctx, _):
        ctx.s.players[ctx.p].mana += amt(ctx)
    return Step("gain_mana", d, apply)


@handler("set_mana")
def set_mana(d, comp):
    """Set a player's mana."""
    amt = amount(d["amount"])
    holder, select = _who(d, "player")

    def apply(ctx, seats):
        for q in seats:
            ctx.s.players[q].mana = amt(ctx)
            ctx.g.log("mana", p=q, set=amt(ctx))
    return _step("set_mana", d, apply, select, holder)


@handler("gain_vp")
def gain_vp(d, comp):
    """Gain Permanent VP."""
    amt = amount(d["amount"])

    def apply(ctx, _):
        n = amt(ctx)
        ctx.s.players[ctx.p].pvp += n
        ctx.g.log("vp", p=ctx.p, n=n)
    return Step("gain_vp", d, apply)


@handler("draw")
def draw(d, comp):
    """Draw cards (self, or every other player)."""
    amt = amount(d["count"])
    others = d["player"] == "others"

    def apply(ctx, _):
        n = amt(ctx)
        if others:
            for q in range(len(ctx.s.players)):
                if q != ctx.p:
                    ctx.g.draw(q, n)
        else:
            ctx.last_count = ctx.g.draw(ctx.p, n)
    return Step("draw", d, apply)


def _hand_choice(kind: str, d: dict, act):
    amt = amount(d["count"])
    up_to = d["up_to"]

    def apply(ctx, _):
        hand = ctx.s.players[ctx.p].hand
        picks = ctx.g.choose_cards(ctx.p, kind, hand, min(amt(ctx), len(hand)), up_to, ctx)
        for iid in picks:
            act(ctx, iid)
        ctx.last_count = len(picks)
    return Step(kind, d, apply)


@handler("discard")
def discard(d, comp):
    """Discard chosen cards from hand; remembers how many."""
    return _hand_choice("discard", d, lambda ctx, iid: ctx.g.discard_card(ctx.p, iid))


@handler("scrap")
def scrap(d, comp):
    """Remove chosen cards in hand from the game."""
    return _hand_choice("scrap", d, lambda ctx, iid: ctx.g.scrap_card(ctx.p, iid))


def _to_top(ctx, iid):
    pl = ctx.s.players[ctx.p]
    pl.hand.remove(iid)
    pl.draw.append(iid)
    ctx.g.log("to_top", p=ctx.p)


@handler("put_on_top")
def put_on_top(d, comp):
    """Put chosen cards from hand on top of the draw pile."""
    return _hand_choice("put_on_top", d, _to_top)


@handler("look")
def look(d, comp):
    """Look at the top cards of the draw pile (fewer if it holds fewer: the discard pile is
    not shuffled in, as looking is not drawing); take some; the rest go to 'rest'."""
    count, take, rest = d["count"], d["take"], d["rest"]

    def apply(ctx, _):
        g, pl = ctx.g, ctx.s.players[ctx.p]  # only what is in the draw pile: no reshuffle
        extra = g.pick_extra(ctx.p) if take else 0  # Foresight: pick from n + 1
        seen = [pl.draw.pop() for _ in range(min(count + extra, len(pl.draw)))]
        taken = g.choose_cards(ctx.p, "look_take", seen, min(take, len(seen)), False, ctx)
        for iid in taken:
            seen.remove(iid)
            pl.hand.append(iid)
        if rest == "discard":
            pl.discard.extend(seen)
            for iid in seen:
                g.card_event(ctx.p, ctx.s.cards[iid], "card_discarded")
        elif rest == "bottom":
            pl.draw[:0] = seen
        elif rest == "choose_bottom":
            low = g.choose_cards(ctx.p, "look_bottom", seen, len(seen), True, ctx)
            pl.draw[:0] = low
            pl.draw.extend(reversed([i for i in seen if i not in low]))
        else:
            pl.draw.extend(reversed(seen))
        g.log("look", p=ctx.p, n=len(seen) + len(taken), took=len(taken))
        ctx.last_count = len(taken)
    return Step("look", d, apply)
