"""The compact card reference: one table row per card (name, cost, initiative, type, text),
deck by deck, instead of pages of face thumbnails.

Every word is the card's own text through the glossary; the initiative is the number the
rules use (render.context.initiative_shown, the engine's `initiative` option), the one the
face prints large.

The reference is laid out apart from the book, one document a deck, and stamped into empty
page slots of the book (like the card faces, see stamp.py). A deck's first page is only as
tall as the space the deck before left, and is drawn below it on the same printed page
(pdfasm.stack), so the decks run on as in one document; a card text edit lays out its own
deck again, not the reference, nor the whole book.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from . import runon

SLOT = "rb-ref-{}"  # the book's slot for reference page n (never a card id: those are [a-z0-9_])


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


@dataclass
class RefPages:
    """The reference laid out on its own for one paper: the book's empty page slots (HTML)
    and the pages to draw into them (slot name -> pdfasm.Fragment)."""

    slots: list
    fragments: dict


def pages(env, book: dict, papers: tuple[str, ...], cache) -> dict[str, RefPages]:
    """The card reference of each paper, laid out as documents of its own, one a deck
    (cached by their HTML), and stamped into the book's empty page slots: a card text edit
    lays out that card's deck again, not the reference nor the book."""
    chains = runon.per_paper(papers, _chain, template=env.get_template("rulebook/refdoc.html"),
                             book=book, cache=cache)
    out = {}
    for paper in papers:
        laid = runon.slot_pages(paper, chains[paper], SLOT)
        out[paper] = RefPages(laid.slots, laid.fragments(paper, {}, cache))
    return out


MIN_START = 30.0  # mm: a deck starts on a fresh page when less is left below the one before


def _chain(paper: str, cached_only: bool = False):
    """The documents of one paper, deck after deck (runon.chain); cached_only: None as soon
    as a document is not in the cache (nothing is laid out)."""
    from .book import PAPERS

    template, book, cache = runon.JOB["template"], runon.JOB["book"], runon.JOB["cache"]
    decks = book["decks"]

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(book, paper=paper, page_size=PAPERS[paper],
                                      ref_slots=None, decks=[decks[k]], ref_intro=k == 0,
                                      **sizes))

    return runon.chain(paper, len(decks), render, "bookref", cache, book["base"], MIN_START,
                       cached_only=cached_only)
