"""The compact card reference: one table row per card (name, cost, initiative, type, text),
deck by deck, instead of pages of face thumbnails.

Every word is the card's own text through the glossary; the initiative is the number the
rules use (render.context.initiative_shown, the engine's `initiative` option), the one the
face prints large.
"""

from __future__ import annotations

from markupsafe import Markup, escape


def _cost(card: dict, words) -> Markup:
    parts = [f"{card['mana']}{words.icon_html('mana')}"]
    if card["gold"]:
        parts.append(f"{card['gold']}{words.icon_html('gold')}")
    return Markup(" ".join(parts))


def _champion(card: dict, words) -> Markup:
    """HP, dice and hit range, Bounty and the Nth-Champion Gold, in one line."""
    ch = card["champion"]
    hit = f"1–{ch['hit']}" if ch["hit"] > 1 else "1"
    gold = "/".join(str(g) for g in ch["gold"])
    return words.html(f"[hp] {ch['hp']} · {ch['dice']} [die:pl] hit {hit} · [bounty] "
                      f"{ch['bounty']} · {{gold}} by [champion]: {gold}")


def _row(card: dict, words, category) -> dict:
    from ..render.context import initiative_shown

    text = words.html(card["text_source"]) if card.get("text_source") else Markup("")
    extra = []
    if card["champion"]:
        extra.append(_champion(card, words))
    if card["burn"] and "burn" not in (card.get("text_source") or ""):
        extra.append(words.html("[burn]"))
    if card["vp"]:
        extra.append(words.html(f"{card['vp']} [permanent_vp]"))
    type_name = escape(card["type_name"])
    if card.get("category") and card["category"] != card["type"]:
        type_name = Markup(f"{type_name} <span class='rb-ref-cat'>· "
                           f"{escape(category(card['category']))}</span>")
    return {"id": card["id"], "name": card["name"], "cost": _cost(card, words),
            "initiative": initiative_shown(card["initiative"])["main"], "type": type_name,
            "text": text, "extra": extra, "copies": card["copies"]}


def reference(words, faces) -> list[dict]:
    """Every card as a table row, grouped by deck in ages.yaml order."""
    return [{"id": d["id"], "name": words.html(d["name_source"]),
             "count": len(d["cards"]), "copies": d["copies"],
             "rows": [_row(c, words, faces.pages.renderer.category) for c in d["cards"]]}
            for d in faces.decks()]
