"""The book's own layouts (the book with empty slots, the player aid's sheet, print/README.pdf)
are laid out once for every paper when their HTML is the same, each paper's PDF showing the
pages centred on its own sheet; they come from the render cache when nothing that shapes them
changed, and a damaged entry is laid out again."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tether_build.print.cache import Cache
from tether_build.print.geometry import PAPERS, PT_PER_MM
from tether_build.print.rulebook import book, runon
from tether_build.print.rulebook.stamp import stamp

HTML = ('<style>@page {{ size: {size}; bleed: {bleed}; margin: 10mm; }}</style>'
        '<p>One layout for every paper</p><p style="break-before: page">{note}</p>')


def _html(note: str) -> str:
    width, height = runon.sheet()
    across, down = runon.sheet_bleed()
    return HTML.format(size=f"{width}mm {height}mm", bleed=f"{down}mm {across}mm", note=note)


def _pdf(found: tuple) -> PdfReader:
    skel, placed, _ = found
    return PdfReader(io.BytesIO(stamp(skel, placed, {})))


def test_the_papers_share_one_layout_then_the_cache(tmp_path, monkeypatch):
    from tether_build.print.layout.pdf import Layout

    base = book.TEMPLATES.as_uri() + "/"
    cache, real, laid = Cache(tmp_path), Layout.render, []

    def counted(self, html):
        laid.append(html)
        return real(self, html)
    monkeypatch.setattr(Layout, "render", counted)
    html = {p: _html("x") for p in PAPERS}
    found = book._layouts(tuple(PAPERS), html, base, cache)
    assert len(laid) == 1   # one layout, both papers
    for paper, (width, height) in PAPERS.items():
        reader = _pdf(found[paper])
        assert found[paper][2] == len(reader.pages) == 2
        for page in reader.pages:
            media = [float(v) for v in page.mediabox]
            assert media == pytest.approx([float(v) for v in page.trimbox], abs=1e-3)
            assert (media[2] - media[0]) / PT_PER_MM == pytest.approx(width, abs=0.01)
            assert (media[3] - media[1]) / PT_PER_MM == pytest.approx(height, abs=0.01)
        text = " ".join(p.extract_text() for p in reader.pages)
        assert "One layout for every paper" in text and "x" in text
    # the laid-out page sits in the middle of each paper's sheet
    a4, letter = (_pdf(found[p]).pages[0].mediabox for p in ("a4", "letter"))
    assert float(a4[0]) == pytest.approx(0, abs=1e-3) and float(a4[1]) < 0
    assert float(letter[1]) == pytest.approx(0, abs=1e-3) and float(letter[0]) < 0
    assert -float(a4[1]) == pytest.approx(
        (PAPERS["a4"][1] - PAPERS["letter"][1]) / 2 * PT_PER_MM, abs=1e-3)

    again = book._layouts(tuple(PAPERS), html, base, cache)
    assert len(laid) == 1   # from the cache
    assert {p: stamp(*again[p][:2], {}) for p in PAPERS} == {
        p: stamp(*found[p][:2], {}) for p in PAPERS}
    book._layouts(("a4",), {"a4": _html("y")}, base, cache)
    assert len(laid) == 2   # other HTML: laid out
    for entry in (tmp_path / "book").iterdir():
        entry.write_bytes(entry.read_bytes()[:-10])   # cut short: damaged
    mended = book._layouts(tuple(PAPERS), html, base, cache)
    assert len(laid) == 3   # laid out again, once
    assert stamp(*mended["letter"][:2], {}) == stamp(*found["letter"][:2], {})


def _part(paper: str, cached_only: bool = False):
    """A chain whose part has the same HTML on every paper unless JOB["own"] names the paper
    in it (as the guide would if it printed its own paper); each layout is logged to a file,
    so one in a forked worker counts too."""
    cache = runon.JOB["cache"]
    key = paper if runon.JOB["own"] else "same"
    if cache.get("part", key) is None:
        if cached_only:
            return None
        with open(runon.JOB["log"], "a") as log:
            log.write(paper + "\n")
        cache.put("part", key, b"laid out")
    return [key]


@pytest.mark.parametrize("own", [False, True])
def test_a_part_is_laid_out_once_for_every_paper_even_with_no_cache(tmp_path, own):
    log = tmp_path / "laid"
    log.write_text("")
    found = runon.per_paper(("a4", "letter"), _part, cache=Cache(None), own=own, log=log)
    laid = log.read_text().split()
    if own:
        assert found == {"a4": ["a4"], "letter": ["letter"]} and laid == ["a4", "letter"]
    else:
        assert found == {"a4": ["same"], "letter": ["same"]} and laid == ["a4"]
