"""The rules chapters of the PDF book, laid out apart from it: one document a chapter
(templates/rulebook/chapterdoc.html), each going on below the chapter before on the same
printed page (runon.py), drawn into empty page slots of the book.

Why: the chapters are most of the book's layout (about 4 s a paper). Laid out apart, an edit
to a chapter's text (or to a number it prints) lays that chapter out again, and the chapters
after it only when the space it leaves on its last page changes; the rest of the book is laid
out again only when its slots change: a chapter's page count, or the page a heading is on.

What the book needs of a chapter is kept with it: each heading's page and title. The book's
slot pages carry those titles with no height (as the card reference does), so the contents,
the running headers and the PDF bookmarks are the book's own: a bookmark opens the page its
chapter or section starts on (at the top of that page, not at the heading: a heading that
moves down a line must not lay the book out again).

The player aid (the book's last two pages, with page margins of its own) is laid out apart the
same way, so a number it prints lays out the aid, not the book.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup, escape

from . import runon

SLOT = "rb-rules-{}"  # the book's slot for rules page n (never a card id: those are [a-z0-9_])
MIN_START = 30.0      # mm: a chapter starts on a fresh page when less is left below the one before
TOP_MM = 0.5          # a heading this close to its page's top starts that page


@dataclass
class RulesPages:
    """Parts laid out for one paper: the book's slot pages (HTML, with the headings' marks)
    and what they draw (runon.Link per part, and which pages go on which slot)."""

    slots: list
    links: list
    printed: list
    slot: str = SLOT

    def fragments(self, paper: str, faces: dict, cache) -> dict:
        """slot name -> the slot's pdfasm.Fragment (faces: card id -> Fragment, stamped into
        the parts that show cards)."""
        frags = runon.fragments(paper, self.links, faces, cache)
        return {self.slot.format(n): frag
                for n, frag in enumerate(runon.stacked(self.printed, frags))}


def measure(document) -> dict:
    """Each chapter title's and section heading's page and title, in order (its first box)."""
    from ..render.pdf import PX_PER_MM
    from .stamp import _boxes

    marks, seen = [], set()
    for index, page in enumerate(document.pages):
        top = page._page_box.content_box_y()
        for box in _boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is None or element.tag not in ("h1", "h2") or id(element) in seen:
                continue
            if element.tag == "h1" and "rb-chapter-title" not in element.get("class", ""):
                continue
            seen.add(id(element))
            text = " ".join("".join(element.itertext()).split())
            marks.append([index, element.tag, round((box.position_y - top) / PX_PER_MM, 2),
                          text])
    return {"marks": marks}


_JOB: dict = {}   # the template, book and cache, set before the papers' workers fork


def _chain(paper: str, cached_only: bool = False):
    from .book import PAPERS

    template, book, cache = _JOB["template"], _JOB["book"], _JOB["cache"]
    chapters = book["chapters"]

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(book, paper=paper, page_size=PAPERS[paper],
                                      ch=chapters[k], **sizes))

    return runon.chain(paper, len(chapters), render, "bookch", cache, book["base"], MIN_START,
                       measure, cached_only)


def _aid_chain(paper: str, cached_only: bool = False):
    from .book import AID_MARGIN, PAPERS

    template, book, cache = _JOB["template"], _JOB["book"], _JOB["cache"]

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(book, paper=paper, page_size=PAPERS[paper], **sizes))

    return runon.chain(paper, 1, render, "bookaid", cache, book["base"], MIN_START, measure,
                       cached_only, AID_MARGIN)


def layout(env, book: dict, papers: tuple[str, ...], cache, card_face) -> dict[str, RulesPages]:
    """The chapters of each paper, from the cache or laid out (the papers side by side)."""
    _JOB.update(template=env.get_template("rulebook/chapterdoc.html"),
                book=dict(book, card_face=card_face), cache=cache)
    try:
        found = runon.per_paper(papers, _chain)
    finally:
        _JOB.clear()
    return {p: _pages(p, [ch.id for ch in book["chapters"]], found[p], SLOT)
            for p in papers}


AID_SLOT = "rb-aid-{}"
AID_ID = "player-aid"   # the anchor the contents link to (templates/rulebook/aid.html)


def layout_aid(env, book: dict, papers: tuple[str, ...], cache) -> dict[str, RulesPages]:
    """The player aid of each paper (the book's last two pages), laid out like a chapter:
    a number the aid prints (the round cap, the Mana limit...) lays the aid out again, not
    the book."""
    from .book import AID_MARGIN

    _JOB.update(template=env.get_template("rulebook/aiddoc.html"), book=book, cache=cache)
    try:
        found = runon.per_paper(papers, _aid_chain)
    finally:
        _JOB.clear()
    return {p: _pages(p, [AID_ID], found[p], AID_SLOT, AID_MARGIN) for p in papers}


def _pages(paper: str, anchors: list[str], links: list, slot: str,
           margin: tuple | None = None) -> RulesPages:
    """The slot pages of one paper, each with the marks of the headings that start on it
    (anchors: the id of each part's title, which the contents link to)."""
    width, height = runon.box(paper, margin)
    printed = runon.printed(links)
    slots = []
    for n, page in enumerate(printed):
        marks = []
        for k, i in page:
            for at, tag, y, text in links[k].meta["marks"]:
                if at != i:
                    continue
                top = y < TOP_MM and (i > 0 or links[k].fresh)
                if tag == "h1":
                    head = f'<h1 class="rb-chapter-title rb-ref-mark" id="{escape(anchors[k])}">'
                    marks.append((top, f"{head}{escape(text)}</h1>"))
                else:
                    marks.append((False, f'<h2 class="rb-ref-mark">{escape(text)}</h2>'))
        gap = "" if marks and marks[0][0] else '<div class="rb-mark-gap"></div>'
        slots.append(Markup(
            f'<div class="rb-ref-page" data-card-slot="{slot.format(n)}" '
            f'style="width:{width:.4f}mm;height:{height:.4f}mm">{gap}'
            + "".join(m for _, m in marks) + "</div>"))
    return RulesPages(slots, links, printed, slot)
