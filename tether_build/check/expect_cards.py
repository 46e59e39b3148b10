"""Step expectations for cards: drawing, hand choices, looking, drafting, gaining."""

from __future__ import annotations

from .expect import EXPECT, amount, expect
from .instrument import Outcome


# ---- cards in hand and piles -----------------------------------------------------------------
def _draw_plan(g, q: int, n: int) -> tuple[int, int]:
    """(cards drawn, of them into the hand) for seat q drawing n now (§2.5)."""
    pl, limit = g.s.players[q], g.rules.game["hand"]["limit"]
    drawn = min(n, len(pl.draw) + len(pl.discard))
    room = max(0, limit - len(pl.hand))
    if g.opt.hand_limit_draw == "stop":
        drawn = min(drawn, room)
    return drawn, min(drawn, room)


@expect("draw")
def _draw(ctx, info, target, rec):
    g, n = ctx.g, amount(info.params["count"], ctx)
    seats = [q for q in range(len(g.s.players)) if q != ctx.p] if (
        info.params["player"] == "others") else [ctx.p]
    plan = {q: _draw_plan(g, q, n) for q in seats}
    before = {q: set(g.s.players[q].hand) for q in seats}
    pool = {q: set(g.s.players[q].draw) | set(g.s.players[q].discard) for q in seats}
    yield
    probs = []
    for q in seats:
        new = set(g.s.players[q].hand) - before[q]
        if len(new) != plan[q][1]:
            probs.append(f"seat {q} drew {len(new)} card(s) into the hand, expected "
                         f"{plan[q][1]} (draw {n})")
        if not new <= pool[q]:
            probs.append(f"seat {q} got cards that were not in its draw or discard pile")
    if seats == [ctx.p] and ctx.last_count != plan[ctx.p][0]:
        probs.append(f"remembered count {ctx.last_count}, expected {plan[ctx.p][0]}")
    return Outcome(probs, any(d > 0 for d, _ in plan.values()))


def _hand_choice(dest: str):
    def fn(ctx, info, target, rec):
        n = amount(info.params["count"], ctx)
        pl = ctx.s.players[ctx.p]
        hand = list(pl.hand)
        yield
        gone = set(hand) - set(pl.hand)
        k, most = len(gone), min(n, len(hand))
        probs = []
        if k > most or (not info.params["up_to"] and k != most):
            probs.append(f"{k} card(s) left the hand, expected "
                         f"{'up to ' if info.params['up_to'] else ''}{most}")
        pile = pl.draw[len(pl.draw) - k:] if dest == "draw" else getattr(pl, dest)
        if not gone <= set(pile):
            probs.append(f"the chosen cards are not on the {dest} pile")
        if ctx.last_count != k:
            probs.append(f"remembered count {ctx.last_count}, expected {k}")
        return Outcome(probs, k > 0, {"took" if k else "none"})
    return fn


EXPECT["discard"] = _hand_choice("discard")
EXPECT["scrap"] = _hand_choice("scrapped")
EXPECT["put_on_top"] = _hand_choice("draw")


@expect("look")
def _look(ctx, info, target, rec):
    d, g = info.params, ctx.g
    pl = ctx.s.players[ctx.p]
    draw, hand, reshuffle = list(pl.draw), set(pl.hand), not pl.draw and bool(pl.discard)
    pool = list(pl.discard) if reshuffle else draw
    extra = g.pick_extra(ctx.p) if d["take"] else 0
    seen = min(d["count"] + extra, len(pool))
    yield
    taken = set(pl.hand) - hand
    probs = []
    if len(taken) != min(d["take"], seen):
        probs.append(f"took {len(taken)} card(s) into the hand, expected "
                     f"{min(d['take'], seen)} of {seen} looked at")
    if not reshuffle:
        top, below = draw[len(draw) - seen:], draw[:len(draw) - seen]
        rest = [x for x in top if x not in taken]
        if not taken <= set(top):
            probs.append("took a card that was not among the top cards")
        want = {"discard": below, "top": below + rest, "bottom": None,
                "choose_bottom": None}[d["rest"]]
        if want is not None and pl.draw != want:
            probs.append(f"draw pile after 'rest: {d['rest']}' is not as declared")
        if d["rest"] == "discard" and not set(rest) <= set(pl.discard):
            probs.append("the rest did not go to the discard pile")
        if d["rest"] in ("bottom", "choose_bottom") and sorted(pl.draw) != sorted(
                below + rest):
            probs.append(f"draw pile after 'rest: {d['rest']}' lost or gained cards")
        if d["rest"] == "bottom" and set(pl.draw[:len(rest)]) != set(rest):
            probs.append("the rest is not at the bottom of the draw pile")
    if ctx.last_count != len(taken):
        probs.append(f"remembered count {ctx.last_count}, expected {len(taken)}")
    return Outcome(probs, seen > 0)


def _deck_of(g, source: str, age: str) -> str:
    info = g.rules.age_info[g.s.age if age == "current" else age]
    return info["market_deck" if source == "market" else "power_deck"]


def _zones(pl) -> set[int]:
    return {i for z in pl.zones() for i in z}


@expect("forge_draft")
def _forge_draft(ctx, info, target, rec):
    g, d = ctx.g, info.params
    deck = _deck_of(g, "market", d["age"])
    pile, pl = list(g.s.decks.get(deck, [])), g.s.players[ctx.p]
    shown = min(d["reveal"] + g.pick_extra(ctx.p), len(pile))
    mine, asked = _zones(pl), len(getattr(g.agents[ctx.p], "asked", []))
    yield
    new = _zones(pl) - mine
    probs = []
    if len(new) != (1 if pile else 0) or not new <= set(pile):
        probs.append(f"gained {len(new)} card(s) from deck {deck}, expected 1")
    if not new <= set(pl.draw):
        probs.append("the gained card is not in the draw pile")
    if len(g.s.decks.get(deck, [])) != len(pile) - len(new):
        probs.append("the revealed cards did not all go back to the deck")
    picks = [n for k, n in getattr(g.agents[ctx.p], "asked", [])[asked:] if k == "forge_draft"]
    if shown >= 2 and picks and picks[0] != shown:
        probs.append(f"revealed {picks[0]} cards to pick from, expected {shown}")
    return Outcome(probs, bool(new))


@expect("gain_card")
def _gain_card(ctx, info, target, rec):
    g, d = ctx.g, info.params
    deck = _deck_of(g, d["source"], d["age"])
    pile, pl = list(g.s.decks.get(deck, [])), g.s.players[ctx.p]
    mine, pvp = _zones(pl), pl.pvp
    yield
    new = _zones(pl) - mine
    want = min(d["count"], len(pile))
    zone = pl.hand if d["to"] == "hand" else pl.draw
    probs = []
    if len(new) != want or not new <= set(pile):
        probs.append(f"gained {len(new)} card(s) from deck {deck}, expected {want}")
    if not new <= set(zone):
        probs.append(f"gained cards are not in the {d['to']}")
    over = d.get("overrides") or {}
    if any(any(g.s.cards[i].over.get(k) != v for k, v in over.items()) for i in new):
        probs.append(f"gained cards lack the overrides {over}")
    vp = sum(g.s.cards[i].defn.vp for i in new)
    if pl.pvp != pvp + vp:
        probs.append(f"Permanent VP {pvp} -> {pl.pvp}, expected +{vp} from gained cards")
    return Outcome(probs, len(new) == d["count"])


@expect("take_card")
def _take_card(ctx, info, target, rec):
    pl = ctx.s.players[ctx.p]
    mine = _zones(pl)
    yield
    new = _zones(pl) - mine
    zone = pl.hand if info.params["to"] == "hand" else pl.draw
    probs = [] if new <= set(zone) and len(new) <= 1 else [
        f"took {len(new)} card(s); expected at most 1 into the {info.params['to']}"]
    return Outcome(probs, len(new) == 1)


@expect("card_counter")
def _card_counter(ctx, info, target, rec):
    inst, d = ctx.inst, info.params
    before = inst.counter if inst is not None else None
    yield
    if inst is None:
        return Outcome([], False)
    want = before + d["add"]
    if d.get("max") is not None:
        want = min(want, d["max"])
    probs = [] if inst.counter == want else [(f"counter {before} -> {inst.counter}, "
                                             f"expected {want}")]
    return Outcome(probs)
