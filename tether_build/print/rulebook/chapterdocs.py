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
same way, so a number it prints lays out the aid, not the book; so is the print-and-assemble
guide, which prints the book's own page count (render_rulebook finds it) and counts the
components: a constant such as the round cap (a token a round) lays out the guide, not the book.
"""

from __future__ import annotations

from . import runon

SLOT = "rb-rules-{}"  # the book's slot for rules page n (never a card id: those are [a-z0-9_])
MIN_START = 30.0      # mm: a chapter starts on a fresh page when less is left below the one before


def _chain(paper: str, cached_only: bool = False):
    template, book, cache = runon.JOB["template"], runon.JOB["book"], runon.JOB["cache"]
    chapters = book["chapters"]

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(book, paper=paper, ch=chapters[k], **sizes))

    return runon.chain(len(chapters), render, "bookch", cache, book["base"], MIN_START,
                       runon.headings, cached_only)


AID_SIDES = ("front", "back")   # the aid's parts: one side each (templates/rulebook/aid.html)


def _aid_chain(paper: str, cached_only: bool = False):
    from .pagebase import AID_MARGIN

    template, book, cache = runon.JOB["template"], runon.JOB["book"], runon.JOB["cache"]

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(book, paper=paper, side=AID_SIDES[k], **sizes))

    # the back starts a page of its own, as it does in one document (.rb-aid-back)
    return runon.chain(len(AID_SIDES), render, "bookaid", cache, book["base"],
                       lambda k: MIN_START if k == 0 else float("inf"), runon.headings,
                       cached_only, AID_MARGIN)


def layout(env, book: dict, papers: tuple[str, ...], cache, card_face
           ) -> dict[str, runon.SlotPages]:
    """The chapters of each paper, from the cache or laid out (once for every paper)."""
    found = runon.per_paper(papers, _chain, template=env.get_template("rulebook/chapterdoc.html"),
                            book=dict(book, card_face=card_face), cache=cache)
    return {p: runon.slot_pages(found[p], SLOT, [ch.id for ch in book["chapters"]])
            for p in papers}


def cached(env, book: dict, papers: tuple[str, ...], cache, card_face
           ) -> dict[str, runon.SlotPages] | None:
    """layout()'s answer when every paper's chapters are in the cache (an edit that no
    chapter prints: a card's text), else None; nothing is laid out."""
    found = runon.all_cached(papers, _chain,
                             template=env.get_template("rulebook/chapterdoc.html"),
                             book=dict(book, card_face=card_face), cache=cache)
    if found is None:
        return None
    return {p: runon.slot_pages(found[p], SLOT, [ch.id for ch in book["chapters"]])
            for p in papers}


def ahead(env, book: dict, papers: tuple[str, ...], cache, card_face) -> int:
    """Lay out the chapters the last build laid out, last first, at the places it laid them
    out, while another process lays the chapters out in order (book._ahead; runon.ahead):
    an edit that moves no chapter (a number in a sentence) has them shared by two processes.
    Returns how many were laid out here."""
    chapters = book["chapters"]
    template = env.get_template("rulebook/chapterdoc.html")
    context = dict(book, card_face=card_face, paper=papers[0])

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(context, ch=chapters[k], **sizes))

    return runon.ahead(len(chapters), render, "bookch", cache, book["base"], runon.headings)


AID_SLOT = "rb-aid-{}"
AID_ID = "player-aid"   # the anchor the contents link to (templates/rulebook/aid.html)


def layout_aid(env, book: dict, papers: tuple[str, ...], cache
               ) -> dict[str, runon.SlotPages]:
    """The player aid of each paper (the book's last two pages), laid out like a chapter,
    each side apart: a number the aid prints (the round cap, the Mana limit...) lays out
    again the side that prints it, not the book."""
    from .pagebase import AID_MARGIN

    found = runon.per_paper(papers, _aid_chain, template=env.get_template("rulebook/aiddoc.html"),
                            book=book, cache=cache)
    return {p: runon.slot_pages(found[p], AID_SLOT, [AID_ID] * len(AID_SIDES), AID_MARGIN)
            for p in papers}


GUIDE_SLOT = "rb-guide-{}"
GUIDE_ID = "print-and-assemble"   # the anchor the contents link to (templates/rulebook/guide.html)


GUIDE_PARTS = 5   # the guide's parts, one below the other (templates/rulebook/guide.html)


def _guide_chain(paper: str, cached_only: bool = False):
    template, book, cache = runon.JOB["template"], runon.JOB["book"], runon.JOB["cache"]
    guide = runon.JOB["guide"]

    def render(k: int, sizes: dict) -> str:
        return template.render(**dict(book, paper=paper, guide=guide,
                                      part=k if GUIDE_PARTS > 1 else None, **sizes))

    return runon.chain(GUIDE_PARTS, render, "bookguide", cache, book["base"], MIN_START,
                       runon.headings, cached_only)


def layout_guide(env, book: dict, papers: tuple[str, ...], cache, pages: dict[str, int]
                 ) -> dict[str, runon.SlotPages]:
    """The print-and-assemble guide, laid out like a chapter, printing `pages` (paper ->
    count) as the page count of each paper's book: every paper's book has the same guide,
    laid out once, in parts one below the other (GUIDE_PARTS: the files table, the scale
    check, the cards, the hexes and tokens, the map), so a number one part prints (the token
    count) lays out that part."""
    from .printguide import with_book_pages

    guide = with_book_pages(book["guide"], pages)
    found = runon.per_paper(papers, _guide_chain,
                            template=env.get_template("rulebook/guidedoc.html"), book=book,
                            cache=cache, guide=guide)
    return {p: runon.slot_pages(found[p], GUIDE_SLOT, [GUIDE_ID] * GUIDE_PARTS)
            for p in papers}
