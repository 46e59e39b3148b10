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

import os
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
    """The card reference of each paper, laid out as documents of its own, one a deck
    (cached by their HTML), and stamped into the book's empty page slots: a card text edit
    lays out that card's deck again, not the reference nor the book."""
    from ..render.pdfasm import fragments, stack

    _JOB.update(template=env.get_template("rulebook/refdoc.html"), book=book, cache=cache)
    try:
        chains = _chains(papers)
    finally:
        _JOB.clear()
    out = {}
    for paper in papers:
        width, height = _box(paper)
        links = chains[paper]
        frags = fragments([(pdf, [f"{paper}-{k}-{i}" for i in range(count)])
                           for k, (pdf, count, _) in enumerate(links)], cache)
        printed: list[list] = []
        for k, (_, count, fresh) in enumerate(links):
            for i in range(count):
                frag = frags[f"{paper}-{k}-{i}"]
                if i == 0 and not fresh:
                    printed[-1].append(frag)  # below the deck before, on its last page
                else:
                    printed.append([frag])
        box = printed[0][0].mediabox
        names = [SLOT.format(i) for i in range(len(printed))]
        out[paper] = RefPages(
            [Markup(f'<div class="rb-ref-page" data-card-slot="{n}" '
                    f'style="width:{width:.4f}mm;height:{height:.4f}mm"></div>') for n in names],
            {n: stack(parts, box) for n, parts in zip(names, printed)})
    return out


MIN_START = 30.0  # mm: a deck starts on a fresh page when less is left below the one before
_JOB: dict = {}   # the template, book and cache, set before the papers' workers fork


def _chains(papers: tuple[str, ...]) -> dict[str, list[tuple[bytes, int, bool]]]:
    """paper -> its reference documents in order: (PDF, pages, starts a fresh page). The
    papers are laid out side by side (fork) when a document of theirs is not in the cache."""
    found = {p: _chain(p, cached_only=True) for p in papers}
    todo = [p for p in papers if found[p] is None]
    if len(todo) < 2 or (os.cpu_count() or 1) < 2:
        found.update((p, _chain(p)) for p in todo)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(len(todo), mp_context=multiprocessing.get_context("fork")) as pool:
            found.update(zip(todo, pool.map(_chain, todo)))
    return found


def _chain(paper: str, cached_only: bool = False):
    """The documents of one paper, deck after deck: each deck's first page is as tall as the
    space the deck before left on its last page (MIN_START or more), else a fresh page.
    cached_only: None as soon as a document is not in the cache (nothing is laid out)."""
    from ..render.cache import pack, unpack
    from ..render.geometry import ART_BLEED
    from ..render.pdf import Layout
    from .book import PAPERS, layout_key

    template, book, cache = _JOB["template"], _JOB["book"], _JOB["cache"]
    width, height = _box(paper)
    links, used = [], None   # mm used on the last printed page so far
    for k, deck in enumerate(book["decks"]):
        fresh = used is None or height - used < MIN_START
        first = height if fresh else height - used
        html = template.render(**dict(
            book, paper=paper, page_size=PAPERS[paper], bleed=f"{ART_BLEED:.4f}mm",
            ref_slots=None, decks=[deck], ref_intro=k == 0,
            size=f"{width + 2 * ART_BLEED:.4f}mm {height + 2 * ART_BLEED:.4f}mm",
            first_size=None if fresh else
            f"{width + 2 * ART_BLEED:.4f}mm {first + 2 * ART_BLEED:.4f}mm"))
        key = layout_key(html, book["base"])
        entry = unpack(cache.get("bookref", key))
        if entry is not None and not {"pages", "used"} <= entry[0].keys():
            entry = None  # not an entry this code wrote: lay the deck out again
        if entry is None:
            if cached_only:
                return None
            document = Layout(book["base"]).render(html)
            meta = {"pages": len(document.pages), "used": _used(document.pages[-1])}
            entry = (meta, Layout.write(document.pages, document))
            cache.put("bookref", key, pack(meta, entry[1]))
        meta, pdf = entry
        links.append((pdf, meta["pages"], fresh))
        used = meta["used"] + (0 if fresh or meta["pages"] > 1 else used)
    return links


def _used(page) -> float:
    """mm of the page's height that its content takes, from the top of its content area."""
    from ..render.pdf import PX_PER_MM

    box = page._page_box
    root = box.children[0]
    return (root.position_y + root.margin_height() - box.content_box_y()) / PX_PER_MM
