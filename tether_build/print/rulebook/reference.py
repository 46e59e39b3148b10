"""The compact card reference: one table row per card (name, cost, initiative, type, text),
deck by deck, instead of pages of face thumbnails.

Every word is the card's own text through the glossary; the initiative is the number the
rules use (render.context.initiative_shown, the engine's `initiative` option), the one the
face prints large.

The reference is laid out apart from the book, in documents of at most ROWS rows of one deck,
and stamped into empty page slots of the book (like the card faces, see stamp.py). A
document's first page is only as tall as the space the one before left, and is drawn below it
on the same printed page (pdfasm.stack), so the rows run on as in one document; a card text
edit lays out its own run of rows again (and the runs after it, when its height changed), not
its deck, the reference, nor the whole book.

Runs of one deck line up as one table would: their columns have the widths that one table of
every row gives (measured once, `_probe`: a table of every row without its text, cached by
its HTML, so a text edit does not measure again), and a run that goes on below the run before
is laid out with its header (repeated on every page it takes, as a table's header is) on a
first page that is taller by the header's height, whose top is not drawn (runon.chain
`hidden`). The header's text stays in that page's content, unseen: a PDF reader's search or
copy finds it there. Such a run's page holds an empty block before its table, so a first row
that does not fit below the run before goes to the next page whole, as one table's would
(WeasyPrint puts a row on a page that holds nothing else, fit or not), and a run that is not
its deck's last has no space below its table: every word is where one table of the deck would
print it (a test compares them letter by letter, with runs of 1, 2 and 3 rows).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from ..layout.patches import page_root
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
    from ..cards.context import initiative_shown

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
        laid = runon.slot_pages(chains[paper], SLOT)
        out[paper] = RefPages(laid.slots, laid.fragments(paper, {}, cache))
    return out


MIN_START = 30.0  # mm: a deck starts on a fresh page when less is left below the one before
ROWS = 16         # rows of a deck laid out together at most (a part of the run-on chain)


def parts(decks: list[dict]) -> list[tuple[int, int, int]]:
    """(deck, first row, end row) of each part: every deck in runs of at most ROWS rows, as
    even as they go (a text edit lays out its own run again, not its whole deck)."""
    out = []
    for d, deck in enumerate(decks):
        n = len(deck["rows"])
        size = -(-n // -(-n // ROWS)) if n else 1
        out += [(d, start, min(n, start + size)) for start in range(0, max(n, 1), size)]
    return out


def _probe(paper: str, template, book: dict, cache, cached_only: bool):
    """The widths of the reference's first four columns (CSS lengths), its header's height
    (mm) and each row's height with no text (mm, every deck's rows in order) on this paper:
    one table of every row with no text, laid out (cached by its HTML) as the rows would lay
    it out, so every run of rows gets the same columns. None when cached_only and not
    cached."""
    from ...forking import collector_paused
    from ..cache import digest, pack, unpack
    from .pagebase import layout_key

    html = template.render(**dict(book, paper=paper, ref_slots=None,
                                  ref_intro=False, ref_probe=True,
                                  **runon.page_sizes(True, None)))
    key = digest(layout_key(html, book["base"]), Path(__file__).read_bytes())  # measured here
    entry = unpack(cache.get("refprobe", key))
    if entry is not None:
        return json.loads(entry[1])
    if cached_only:
        return None
    with collector_paused():   # (the document lives to the end: as runon._lay_out's)
        found = _probed(html, book["base"])
    cache.put("refprobe", key, pack({}, json.dumps(found).encode()))
    return found


def _probed(html: str, base: str) -> dict:
    """_probe's measure of its table, laid out."""
    from ..layout.boxes import first as _first
    from ..layout.boxes import walk as _walk
    from ..layout.pdf import PX_PER_MM

    document = runon.layout(base).render(html)
    table = _first(page_root(document.pages[0]), "rb-ref", "TableBox")
    top = page_root(document.pages[0]).content_box_y()
    first = table.children[1].children[0]   # the first row after the header
    # A part's height ends below its last row's border (runon.used_height), while a row starts on
    # the line of the border above it (collapsed borders): the next part's first row goes up
    # by what lies below the line, measured here at the table's end.
    page = document.pages[-1]
    last = [b for b in _walk(page_root(page)) if type(b).__name__ == "TableRowBox"][-1]
    below = runon.used_height(page) - (last.position_y + last.height
                                 - page_root(page).content_box_y()) / PX_PER_MM
    rows = [row.height / PX_PER_MM for page in document.pages
            for table in _walk(page_root(page)) if type(table).__name__ == "TableBox"
            for group in table.children if not (group.is_header or group.is_footer)
            for row in group.children]
    return {"cols": [f"{w:.4f}px" for w in table.column_widths[:4]],
            "header": (first.position_y - top) / PX_PER_MM + below, "rows": rows}


def _chain(paper: str, cached_only: bool = False):
    """The documents of one paper, run after run of rows (runon.chain); cached_only: None as
    soon as a document is not in the cache (nothing is laid out)."""

    template, book, cache = runon.JOB["template"], runon.JOB["book"], runon.JOB["cache"]
    decks = book["decks"]
    if any(d["rows"] for d in decks):
        probe = _probe(paper, template, book, cache, cached_only)
        if probe is None:
            return None
    else:
        probe = {"cols": None, "header": 0.0, "rows": []}   # no rows: no columns to measure
    runs = parts(decks)
    # where each deck's rows start in the probe's rows; a row with its text is at least as
    # tall as without it, so a run needs at least the sum of its rows' heights there
    firsts = [sum(len(d["rows"]) for d in decks[:n]) for n in range(len(decks))]
    heights = probe["rows"] if len(probe["rows"]) == sum(len(d["rows"]) for d in decks) \
        else None   # (a row split over two pages: no bound)

    def may_fit(k: int, room: float) -> bool:
        d, start, end = runs[k]
        return heights is None or sum(heights[firsts[d] + start:firsts[d] + end]) <= room

    def render(k: int, sizes: dict) -> str:
        d, start, end = runs[k]
        deck = dict(decks[d], rows=decks[d]["rows"][start:end])
        return template.render(**dict(book, paper=paper,
                                      ref_slots=None, decks=[deck], ref_intro=k == 0,
                                      ref_cont=start > 0, ref_more=end < len(decks[d]["rows"]),
                                      ref_cols=probe["cols"], **sizes))

    # a deck's next rows go on below the rows before however little room is left, as one
    # table's would: a row that does not fit goes to the next page, with the header
    return runon.chain(len(runs), render, "bookref", cache, book["base"],
                       lambda k: 0.0 if runs[k][1] else MIN_START, cached_only=cached_only,
                       hidden=lambda k: probe["header"] if runs[k][1] else 0.0,
                       whole_first=may_fit)
