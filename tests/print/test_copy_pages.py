"""A card's copies differ only in their copy number ("2/12"): all but the first are made
from the first's layout with that number changed (render/fit._copies, Layout.derive). The
printed copies must be exactly what laying out each copy gives, and any other difference
between copies must still be laid out."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

CARD = "recruit"   # a Starter card of the fixture content (12 copies when printed for 6)


@pytest.fixture(scope="module")
def pages(shipped_content):
    from tether_build.render.context import Renderer
    from tether_build.render.html import TEMPLATES, Pages

    return Pages(Renderer(shipped_content, TEMPLATES))


def _layout(pages):
    from tether_build.render.pdf import Layout

    return Layout(pages.base_url)


def page_texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def _fit(pages, card: dict) -> bytes:
    from tether_build.render.fit import fit_part

    card_pdfs, _, _, problems = fit_part(pages, _layout(pages), [card], [])
    assert not problems
    return card_pdfs[card["id"]]


def test_derived_copies_are_the_laid_out_copies(pages, shipped_cards, monkeypatch):
    """Twelve copies: the PDF holds 12 pages numbered 1/12 ... 12/12, byte for byte what
    laying out every copy from its own HTML writes; only the first copy of each length of
    number ("1/12", "10/12") was laid out."""
    from tether_build.render import fit
    from tether_build.render.pdf import Layout

    card = dict(shipped_cards[CARD], copies=12)
    made = []
    real = Layout.derive
    monkeypatch.setattr(Layout, "derive", staticmethod(
        lambda *a: made.append(a[3]) or real(*a)))
    derived = _fit(pages, card)
    assert made == [f"{n}/12" for n in (2, 3, 4, 5, 6, 7, 8, 9, 11, 12)]

    monkeypatch.setattr(fit, "_COPY", re.compile("(?!)"))   # no copy text: lay out each
    made.clear()
    laid_out = _fit(pages, card)
    assert made == []
    assert derived == laid_out
    texts = page_texts(derived)
    assert [re.search(r"\b(\d+/12)\b", t).group(1) for t in texts] == [
        f"{n}/12" for n in range(1, 13)]


def test_a_copy_that_differs_elsewhere_is_laid_out(pages, shipped_cards, monkeypatch):
    """A template that prints the copy number a second time: every copy is laid out from
    its own HTML, and each page shows its own number there."""
    card = dict(shipped_cards[CARD], copies=3)
    real = pages.face

    def face(card, copy, fit=None):
        return real(card, copy, fit).replace('<p class="rules">',
                                             f'<p class="rules">Copy number {copy}. ', 1)

    monkeypatch.setattr(pages, "face", face)
    from tether_build.render.pdf import Layout

    made = []
    monkeypatch.setattr(Layout, "derive", staticmethod(lambda *a: made.append(a) or None))
    texts = page_texts(_fit(pages, card))
    assert made == []
    assert [f"Copy number {n}" in t for n, t in enumerate(texts, 1)] == [True] * 3


def test_a_number_of_another_width_is_not_derived(pages, shipped_cards):
    """Layout.derive refuses a text that is not exactly as wide (the caller then lays the
    copy out) and a class the page does not have."""
    card = dict(shipped_cards[CARD], copies=1)
    layout = _layout(pages)
    doc = layout.render(pages.document([pages.face(card, 1)]))
    page = doc.pages[0]
    assert layout.derive(page, "copy", "1/1", "W/1") is None      # a W is wider than a 1
    assert layout.derive(page, "no-such-class", "1/1", "2/1") is None
    assert layout.derive(page, "copy", "2/1", "7/1") is None      # not the text it holds
    same = layout.derive(page, "copy", "1/1", "7/1")
    assert same is not None
    assert "7/1" in page_texts(layout.write([same], doc))[0]
    assert "1/1" in page_texts(layout.write([page], doc))[0]   # the first page is untouched


def test_a_copy_number_styled_into_other_text_is_laid_out(pages, shipped_cards, monkeypatch):
    """CSS that changes the copy number's text (here text-transform) makes the laid-out text
    differ from the HTML's: no copy is derived, and each shows its own number as styled."""
    from tether_build.render.pdf import Layout

    card = dict(shipped_cards[CARD], copies=3)
    real = pages.face

    def face(card, copy, fit=None):
        html = real(card, copy, fit).replace('class="copy">', 'class="copy">no.', 1)
        return html + ("<style>.copy { text-transform: uppercase; font-family: monospace; }"
                       "</style>")   # monospace: as wide as the text it replaces

    monkeypatch.setattr(pages, "face", face)
    made = []
    real_derive = Layout.derive
    monkeypatch.setattr(Layout, "derive", staticmethod(
        lambda *a: made.append(a) or real_derive(*a)))
    texts = page_texts(_fit(pages, card))
    assert made and all(real_derive(*a) is None for a in made)
    assert [f"NO.{n}/3" in t for n, t in enumerate(texts, 1)] == [True] * 3
