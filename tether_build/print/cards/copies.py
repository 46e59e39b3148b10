"""A card's copies: its face laid out, painted and written once, each copy's number over it.

Copies 2..n of a card differ from copy 1 only in the footer's `n/N`. fit.py lays out the
face of a card printed more than once a single time, its number blank but kept at its
size (`N/N`: with the same number of digits on both sides of the slash it is the widest
the card prints, digits taking the same width, and the footer is measured with it as it
was with every copy). This module lays out the numbers alone in one small document (each
the face's own section, panel and footer, every box but the number hidden, so the number
lies where it lies on the face), checks each as fit.py checked a copy's footer, and writes
the card's PDF with our own writer (pdfparts): a page per copy drawing the face, then its
number, each a Form XObject. Numbers whose sections are the same HTML but for the card and
face they name (`data-card`, `data-face`: the same number, fit, type, deck and footer; "2/6"
on several Starter cards) are laid out once, and a run of them written once, unless a style
sheet of the faces names those attributes. The sheets, the PNGs and the TTS cells read that PDF as they
read one WeasyPrint wrote, page by page. A card printed once is laid out and written as
before.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

from ...errors import TetherError

COPY_WORK = 0.1   # a copy's share of a face's layout work (fit._split weighs chunks by it)


def composed(card: dict) -> bool:
    """Whether the card's copies are drawn from one face and their numbers."""
    return card["copies"] > 1


def first_copies(cards: list[dict]) -> dict[str, str]:
    """A card's copy's face key -> its first copy's, for every copy drawn over its face
    (raster.Raster draws a copy's image from its first copy's)."""
    return {f"{c['id']}-{n}": f"{c['id']}-1" for c in cards if composed(c)
            for n in range(2, c["copies"] + 1)}


def face_sections(pages, card: dict, fit: dict) -> list[str]:
    """The sections fit.py lays out for a card: its face once, number blank, when it has
    copies; else its one face."""
    if composed(card):
        return [pages.face(card, 1, dict(fit, blank=True))]
    return [pages.face(card, n, fit) for n in range(1, card["copies"] + 1)]


@dataclass
class Numbers:
    """The laid-out numbers of the cards with copies: a page per copy, in copy order."""

    doc: object = None
    pages: dict[str, list] = field(default_factory=dict)   # card id -> its numbers' pages
    problems: list = field(default_factory=list)
    written: dict[tuple, bytes] = field(default_factory=dict)   # pages (ids) -> their PDF

    def pdf(self, layout, card_id: str) -> bytes:
        """The PDF of a card's numbers, a page each; written once for cards whose numbers
        are the same pages (the same bytes: a PDF holds nothing of the HTML's attributes)."""
        run = self.pages[card_id]
        key = tuple(id(page) for page in run)
        if key not in self.written:
            self.written[key] = layout.write(run, self.doc)
        return self.written[key]


NAMING = re.compile(r' data-(?:card|face)="[^"]*"')   # what the same number's sections differ by


def named_in_styles(pages) -> bool:
    """Whether a style sheet a face may load names the `data-card` or `data-face` attribute
    (then a number may lie differently on each card: each is laid out on its own)."""
    from ..html import FACE_TEMPLATES

    return any(_NAMED.search(path.read_bytes())
               for folder in FACE_TEMPLATES
               for path in sorted((pages.templates / folder).rglob("*.css")))


_NAMED = re.compile(rb"data-(?:card|face)")   # named_in_styles: read each sheet once


def lay_out_numbers(pages, layout, cards: list[dict], fits: dict[str, dict]) -> Numbers:
    """The numbers of every copy of the `cards` that have copies, in one document laid out
    with each card's chosen fit (`fits`: card id -> the template's fit), checked as a face's
    footer is: its measured boxes (data-fit) and the footer's two sides (fit._step). A
    section that is another's but for the card and face it names (NAMING) is laid out once
    for both, unless a style sheet names those attributes (named_in_styles)."""
    from .fitproblems import box_or_footer

    multi = [c for c in cards if composed(c)]
    if not multi:
        return Numbers()
    distinct = not named_in_styles(pages)
    sections: list[str] = []
    index: dict[str, int] = {}      # a section without its names -> its page
    runs: dict[str, list[int]] = {}   # card id -> its numbers' pages, in copy order
    for c in multi:
        for n in range(1, c["copies"] + 1):
            html = pages.face(c, n, dict(fits[c["id"]], copy_only=True))
            same = NAMING.sub("", html) if distinct else len(sections)
            if same not in index:
                index[same] = len(sections)
                sections.append(html)
            runs.setdefault(c["id"], []).append(index[same])
    doc = layout.render(pages.document(sections))
    if len(doc.pages) != len(sections):
        raise TetherError(f"the copies' numbers took {len(doc.pages)} pages, not "
                          f"{len(sections)}: a template draws them off their page")
    out = Numbers(doc)
    measured = layout.measure(doc)
    for card in multi:
        over, boxes = 0.0, {}
        for i in runs[card["id"]]:
            out.pages.setdefault(card["id"], []).append(doc.pages[i])
            over, boxes = max(over, measured[i].footer_over), {**measured[i].boxes, **boxes}
        out.problems += box_or_footer(card, boxes, over)
    return out


def write_card(layout, card: dict, accepted: dict, doc, numbers: Numbers,
               finisher=None) -> bytes:
    """The card's PDF, a page per copy: written by WeasyPrint from its laid-out faces, or,
    for a card with copies, composed from its face and its numbers (compose). `finisher`
    reworks the faces' objects as WeasyPrint writes them (icons.finisher: each icon one
    form); the numbers draw no icon."""
    if not composed(card):
        keys = [f"{card['id']}-{n}" for n in range(1, card["copies"] + 1)]
        return layout.write([accepted[k] for k in keys], doc, finisher)
    face = layout.write([accepted[f"{card['id']}-1"]], doc, finisher)
    return compose(face, numbers.pdf(layout, card["id"]))


PAGE_OPS = b"q /Face Do Q\nq /Copy Do Q\n"


def compose(face_pdf: bytes, numbers_pdf: bytes) -> bytes:
    """A PDF of one page per page of `numbers_pdf`, each drawing the one page of `face_pdf`
    and then that number, both as Form XObjects at the page's origin; the face's objects
    (its fonts, icons and pictures) written once for all the pages."""
    from ..pdfparts.pdfasm import Writer, num_bytes, stream
    from ..pdfparts.pdfraw import fragments, shared_fragments

    (face,) = fragments(face_pdf)
    numbers = shared_fragments(numbers_pdf)
    writer = Writer(share=True)
    catalog, tree = writer.reserve(), writer.reserve()
    form = writer.add_form(face, face.mediabox, group=False)
    renumber = writer.shared[id(face.objects)][1]
    # the page's transparency group (if any) stays the page's, as on the face's own page
    group = b"/Group " + renumber(face.group) + b"\n" if face.group else b""
    box = b"/MediaBox [" + b" ".join(num_bytes(v) for v in face.mediabox) + b"]\n"
    ops = writer.add(stream(b"/Filter /FlateDecode\n", zlib.compress(PAGE_OPS)))
    kids = []
    for number in numbers:
        if number.mediabox != face.mediabox:
            raise TetherError("a copy's number is not laid out on a page of its face's size")
        copy = writer.add_form(number, number.mediabox, group=False)
        kids.append(writer.add(b"<</Type /Page\n/Parent %d 0 R\n" % tree + box + group
                               + b"/Resources <</XObject <</Face %d 0 R /Copy %d 0 R>>>>\n"
                               % (form, copy) + b"/Contents %d 0 R>>" % ops))
    writer.put(tree, b"<</Type /Pages\n/Kids [" + b" ".join(b"%d 0 R" % k for k in kids)
               + b"]\n/Count %d>>" % len(kids))
    writer.put(catalog, b"<</Type /Catalog\n/Pages %d 0 R>>" % tree)
    return writer.write(b"/Root %d 0 R\n" % catalog)
