"""The components manifest: every card, tile and token of the game with its count.

`components(content)` returns plain data (for the rulebook); `manifest_text(data)` is the
build/print/components.txt file. Cards come from the normalized cards: the starter deck is
per player, so its copies are multiplied by the largest player count; every other deck is
printed once.
"""

from __future__ import annotations

from collections import OrderedDict

from . import common
from .tiles import tile_set
from .tokens import token_set


def _card_rows(content, cards: list[dict]) -> list[dict]:
    players = int(content.game["players"]["max"])
    order = list(content.ages["decks"])
    decks: OrderedDict[str, dict] = OrderedDict()
    for card in sorted(cards, key=lambda c: order.index(c["deck"]) if c["deck"] in order
                       else len(order)):
        per_player = card["deck_kind"] == "starter"
        deck = decks.setdefault(card["deck"], {
            "deck": card["deck"], "name": card["deck_name"], "per_player": per_player,
            "sets": players if per_player else 1, "cards": [], "count": 0})
        count = card["copies"] * deck["sets"]
        deck["cards"].append({"id": card["id"], "name": card["name"], "type": card["type"],
                              "type_name": card["type_name"],
                              "faction": _faction_name(content, card["faction"]),
                              "copies": card["copies"], "count": count})
        deck["count"] += count
    return list(decks.values())


def _faction_name(content, fid: str | None) -> str | None:
    return common.plain(content, content.factions[fid]["name"]) if fid else None


def _token_rows(tokens) -> list[dict]:
    rows: OrderedDict[tuple, dict] = OrderedDict()
    for token in tokens:
        key = (token.group, token.name)
        row = rows.setdefault(key, {"group": key[0], "name": token.name, "each": token.count,
                                    "factions": [], "count": 0, "size_mm": (token.w, token.h),
                                    "shape": token.shape, "reason": token.reason})
        if token.faction and token.faction not in row["factions"]:
            row["factions"].append(token.faction)
        row["count"] += token.count
    for row in rows.values():
        row["each"] = row["count"] // max(1, len(row["factions"]))
    return list(rows.values())


def dice_count(cards: list[dict]) -> int:
    """Dice the game needs: the most any one Champion rolls (the attack dice on its card;
    a Force rolls one, so this covers them, one roll after another)."""
    return max((int(c["champion"].get("dice", 1)) for c in cards if c.get("champion")),
               default=1)


def _marker_rows(content, cards: list[dict]) -> list[dict]:
    """One pile marker per Archive and Power draw pile, as the card sheets print them
    (render.build.pile_markers: the same list, so the count is never typed twice)."""
    from ..cards.build import PrintOptions, pile_markers
    from ..cards.context import MARKER

    printed = {c["deck"] for c in cards}
    decks = [d for d in content.ages["decks"] if d in printed]
    return [{"deck": m[len(MARKER):],
             "name": common.plain(content, content.ages["decks"][m[len(MARKER):]]["name"]),
             "count": 1} for m in pile_markers(content, decks, PrintOptions())]


def components(content, cards: list[dict] | None = None,
               flat: float = common.DEFAULT_TILE_MM) -> dict:
    """Every printed component with its count, as plain data."""
    from ...content.cards import normalized_cards

    cards = normalized_cards(content) if cards is None else cards
    decks = _card_rows(content, cards)
    tiles = [{"kind": s.kind, "name": s.name, "faction": s.sub or None, "count": s.count,
              "reason": s.reason} for s in tile_set(content)]
    tokens = _token_rows(token_set(content, cards))
    markers = _marker_rows(content, cards)
    return {
        "title": common.plain(content, content.game["title"]),
        "players": int(content.game["players"]["max"]),
        "decks": decks, "tiles": tiles, "tokens": tokens, "markers": markers,
        "dice": {"count": dice_count(cards), "sides": int(content.game["combat"]["die_sides"]),
                 "name": common.term(content, "die", plural=True)},
        "tile_mm": {"flat": flat, "point": round(2 * common.hex_radius(flat), 2)},
        "totals": {"cards": sum(d["count"] for d in decks),
                   "tiles": sum(t["count"] for t in tiles),
                   "tokens": sum(t["count"] for t in tokens),
                   "markers": len(markers)},
    }


def manifest_text(data: dict) -> str:
    """components.txt: the manifest as aligned plain text."""
    t = data["totals"]
    lines = [f"{data['title']}: components for up to {data['players']} players",
             "(generated from content/ by `tether print-tiles`; do not edit)", "",
             f"CARDS  {t['cards']}"]
    for deck in data["decks"]:
        note = f"  ({deck['sets']} sets, one per player)" if deck["per_player"] else ""
        lines.append(f"  {deck['count']:>4}  {deck['name']}{note}")
        for card in deck["cards"]:
            mult = f"{card['copies']} x {deck['sets']}" if deck["per_player"] else (
                f"{card['copies']}" if card["copies"] > 1 else "")
            extra = f"  [{card['faction']}]" if card["faction"] else ""
            lines.append(f"        {card['count']:>3}  {card['name']}"
                         f"{'  (' + mult + ')' if mult else ''}{extra}")
    size = data["tile_mm"]
    lines += ["", (f"TILES  {t['tiles']}  ({size['flat']:g} mm across the flats, "
                  f"{size['point']:g} mm point to point)")]
    for tile in data["tiles"]:
        who = f" {tile['faction']}" if tile["faction"] else ""
        lines.append(f"  {tile['count']:>4}  {tile['name']}{who}  ({tile['reason']})")
    if data["markers"]:
        lines += ["", (f"PILE MARKERS  {t['markers']}  (printed with the cards, one per "
                       "draw pile)")]
        lines += [f"  {m['count']:>4}  {m['name']}" for m in data["markers"]]
    dice = data["dice"]
    lines += ["", f"DICE  {dice['count']}  ({dice['sides']}-sided, not printed)"]
    lines += ["", f"TOKENS  {t['tokens']}"]
    for row in data["tokens"]:
        w, h = row["size_mm"]
        size_txt = f"{w:g} mm" if row["shape"] == "circle" else f"{w:g} x {h:g} mm"
        per = (f"{row['each']} x {len(row['factions'])} colours"
               if row["factions"] else "")
        detail = "; ".join(x for x in (per, size_txt, row["reason"]) if x)
        lines.append(f"  {row['count']:>4}  {row['name']}  ({detail})")
    return "\n".join(lines) + "\n"
