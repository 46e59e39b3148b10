"""The compact card reference: one table row per card (name, cost, initiative, type, text),
deck by deck, instead of pages of face thumbnails.

Every word is the card's own text through the glossary; the initiative is the number the
rules use (render.context.initiative_shown, the engine's `initiative` option), the one the
face prints large.

The reference is laid out as a document of its own, page by page, and stamped into empty
page slots of the book (like the card faces, see stamp.py), so a card text edit lays out
these few pages again instead of the whole book.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

SLOT = "rb-ref-{}"  # the book's slot for reference page n (never a card id: those are [a-z0-9_])
SLACK = 0.5         # mm the reference page is shorter than the book's text area


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


def _box(paper: str) -> tuple[float, float]:
    """Width and height (mm) of a reference page: the book page's text area, less a little
    height so that the slot never spills onto a page of its own."""
    from ..render.geometry import PAPERS
    from .book import MARGIN

    width, height = PAPERS[paper]
    return width - MARGIN[1] - MARGIN[3], height - MARGIN[0] - MARGIN[2] - SLACK


def pages(env, book: dict, papers: tuple[str, ...], cache) -> dict[str, RefPages]:
    """The card reference of each paper, laid out as a document of its own (cached by its
    HTML): a card text edit lays out these few pages again, not the whole book, whose HTML
    holds only as many empty page slots as the reference has pages."""
    from ..render.cache import pack, unpack
    from ..render.geometry import ART_BLEED
    from ..render.pdfasm import fragments
    from .book import PAPERS, layout_all, layout_key

    template = env.get_template("rulebook/refdoc.html")
    html, keys, found = {}, {}, {}
    for paper in papers:
        width, height = _box(paper)
        html[paper] = template.render(
            paper=paper, page_size=PAPERS[paper], bleed=f"{ART_BLEED:.4f}mm", ref_slots=None,
            size=f"{width + 2 * ART_BLEED:.4f}mm {height + 2 * ART_BLEED:.4f}mm", **book)
        keys[paper] = layout_key(html[paper], book["base"])
        entry = unpack(cache.get("bookref", keys[paper]))
        if entry is not None:
            found[paper] = entry[1]
    todo = tuple(p for p in papers if p not in found)
    for paper, pdf, _, _ in (layout_all(todo, html, book["base"], plain=True) if todo else ()):
        cache.put("bookref", keys[paper], pack({"paper": paper}, pdf))
        found[paper] = pdf
    out = {}
    for paper in papers:
        count = _count(found[paper])
        names = [SLOT.format(i) for i in range(count)]
        width, height = _box(paper)
        out[paper] = RefPages(
            [Markup(f'<div class="rb-ref-page" data-card-slot="{n}" '
                    f'style="width:{width:.4f}mm;height:{height:.4f}mm"></div>') for n in names],
            fragments([(found[paper], names)], cache))
    return out


def _count(pdf: bytes) -> int:
    """The page count of a PDF."""
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)
