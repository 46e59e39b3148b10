"""A card's copies (print/cards/copies.py): its face laid out once, number blank, and each
copy's number drawn over it. Against laying out every copy in full (the old way, kept
reachable by making `composed` say no): the same measures at every step of the fit ladder,
so the same decisions, and the same pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tether_build.print.cards import copies, fit

# the fixture's cards printed more than once, and cards that step down the fit ladder (a
# smaller text size, the picture given way, the flex column) given copies for the test
STEPPING = ("attrition", "air_drop", "marked_for_coin", "tunnel_network")


def _pages(content):
    from tether_build.print.cards.context import Renderer
    from tether_build.print.html import TEMPLATES, Pages

    return Pages(Renderer(content, TEMPLATES))


def _lay_out(monkeypatch, content, cards, whole: bool):
    """fit_part over `cards` (one process), every copy laid out in full when `whole`;
    returns (card pdfs, fits, every measure fit._measure returned, in order)."""
    from tether_build.print.layout.pdf import Layout

    measured = []
    real = fit._measure

    def spy(*args):
        worst = real(*args)
        measured.append({cid: dict(w) for cid, w in worst.items()})
        return worst

    with monkeypatch.context() as patch:
        patch.setattr(fit, "_measure", spy)
        if whole:
            patch.setattr(copies, "composed", lambda card: False)
        pages = _pages(content)
        card_pdfs, _, fits, problems = fit.fit_part(
            pages, Layout(pages.base_url), cards, [])
    assert problems == []
    return card_pdfs, fits, measured


@pytest.fixture(scope="module")
def both(printed_cards, shipped_content):
    cards = [c for c in printed_cards.values() if c["copies"] > 1]
    cards += [dict(printed_cards[cid], copies=3) for cid in STEPPING]
    assert len(cards) > len(STEPPING) + 2
    with pytest.MonkeyPatch.context() as monkeypatch:
        old = _lay_out(monkeypatch, shipped_content, cards, whole=True)
        new = _lay_out(monkeypatch, shipped_content, cards, whole=False)
    return cards, old, new


def test_every_fit_decision_and_measure_is_the_same_as_laying_out_every_copy(both):
    _, (_, old_fits, old_measures), (_, new_fits, new_measures) = both
    assert new_fits == old_fits
    # every step of the ladder measured the same (name, text, footer, art, boxes, squeezed)
    assert new_measures == old_measures
    steps = len(old_measures)
    assert steps > 1, "no card of the test stepped down the fit ladder"


def test_every_copy_has_the_same_pixels_as_laid_out_in_full(both):
    """Each copy's PNG (300 DPI) and TTS cell: the pixels of its page laid out whole."""
    from tether_build.print.raster import Raster

    cards, (old_pdfs, _, _), (new_pdfs, _, _) = both
    for card in cards[:2] + cards[-1:]:
        keys = [f"{card['id']}-{n}" for n in range(1, card["copies"] + 1)]
        old = Raster([(old_pdfs[card["id"]], keys)])
        # a copy's images drawn from its first copy's, its numbers' pixels drawn again
        new = Raster([(new_pdfs[card["id"]], keys)], copies=copies.first_copies([card]))
        try:
            olds, news = old.pngs(keys), new.pngs(keys)
            for key in keys:
                a = Image.open(io.BytesIO(olds[key])).convert("RGB")
                b = Image.open(io.BytesIO(news[key])).convert("RGB")
                assert a.tobytes() == b.tobytes(), key
                cell_a, cell_b = old.trimmed(key, 400, 560), new.trimmed(key, 400, 560)
                assert cell_a.tobytes() == cell_b.tobytes(), key
        finally:
            old.close()
            new.close()


def test_a_card_with_copies_is_one_face_and_its_numbers():
    pdf_pages = []

    class Layout:
        def write(self, pages, doc, finisher=None):
            pdf_pages.append(list(pages))
            return b"pdf"

    numbers = copies.Numbers("numbers doc", {"c": ["n1", "n2", "n3"]})
    card = {"id": "c", "copies": 3}
    seen = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(copies, "compose", lambda face, nums: seen.append((face, nums)) or b"x")
        assert copies.write_card(Layout(), card, {"c-1": "face"}, "doc", numbers) == b"x"
    assert pdf_pages == [["face"], ["n1", "n2", "n3"]]
    once = {"id": "d", "copies": 1}
    assert copies.write_card(Layout(), once, {"d-1": "face d"}, "doc", numbers) == b"pdf"
    assert pdf_pages[-1] == ["face d"]


class _NumbersPages:
    """Pages whose copy-only sections differ by the card and face they name only, for two
    cards of the same type and copies, and by more for a third."""

    def __init__(self, templates):
        self.templates = templates

    def face(self, card, copy, fit):
        assert fit["copy_only"]
        return (f'<section class="face type-{card["type"]}" data-face="{card["id"]}-{copy}" '
                f'data-card="{card["id"]}"><b class="copy">{copy}/{card["copies"]}</b>'
                "</section>")

    def document(self, sections):
        return list(sections)


class _NumbersLayout:
    def __init__(self):
        self.rendered, self.written = [], []

    def render(self, sections):
        from types import SimpleNamespace

        self.rendered.append(sections)
        return SimpleNamespace(pages=[f"page of {s}" for s in sections])

    def measure(self, doc):
        from types import SimpleNamespace

        return [SimpleNamespace(footer_over=0.0, boxes={}) for _ in doc.pages]

    def write(self, pages, doc, finisher=None):
        self.written.append(list(pages))
        return repr(pages).encode()


def _numbers(tmp_path, css: str):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "cards.css").write_text(css)
    cards = [{"id": "a", "type": "order", "copies": 3}, {"id": "b", "type": "order", "copies": 3},
             {"id": "c", "type": "spell", "copies": 2}]
    layout = _NumbersLayout()
    numbers = copies.lay_out_numbers(_NumbersPages(tmp_path), layout, cards,
                                     {c["id"]: {} for c in cards})
    pdfs = {c["id"]: numbers.pdf(layout, c["id"]) for c in cards}
    return layout, numbers, pdfs


def test_the_same_numbers_of_several_cards_are_laid_out_and_written_once(tmp_path):
    layout, numbers, pdfs = _numbers(tmp_path, ".copy { color: black }")
    (sections,) = layout.rendered
    assert len(sections) == 3 + 2   # a's 1/3..3/3 serve b too; c's own two
    assert [s.split('data-card="')[1][0] for s in sections] == ["a"] * 3 + ["c"] * 2
    assert numbers.pages["a"] == numbers.pages["b"] != numbers.pages["c"]
    assert pdfs["a"] == pdfs["b"] and len(layout.written) == 2
    assert numbers.problems == []


def test_numbers_are_each_laid_out_when_a_style_sheet_names_the_card(tmp_path):
    layout, numbers, _ = _numbers(tmp_path, '[data-card="b"] .copy { color: red }')
    (sections,) = layout.rendered
    assert len(sections) == 3 + 3 + 2
    assert numbers.pages["a"] != numbers.pages["b"]
    assert len(layout.written) == 3


def test_a_faces_worker_runs_its_chunk_with_the_collector_paused(monkeypatch):
    """fit._work pauses the garbage collector for the whole chunk (its documents stay alive
    until its PDFs are written), and restores it after."""
    import gc
    from types import SimpleNamespace

    seen = []

    def fit_part(pages, layout, cards, backs):
        seen.append(gc.isenabled())
        return {}, {}, {}, ["a problem"]

    monkeypatch.setattr(fit, "fit_part", fit_part)
    monkeypatch.setitem(fit._JOB, "pages", SimpleNamespace(base_url="file:///nowhere/",
                                                          grayscale=False))
    monkeypatch.setitem(fit._JOB, "chunks", [[]])
    monkeypatch.setitem(fit._JOB, "backs", [])
    assert gc.isenabled()
    assert fit._work(0)[3] == ["a problem"]
    assert seen == [False] and gc.isenabled()
