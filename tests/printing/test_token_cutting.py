"""Token sheets for a paper trimmer, read back from the PDFs (issue 15): every token stands
apart with a clear gutter, rows are strips one straight cut frees, and numbers sit beside
their icons, not under them."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest
from tether_pdf_geometry import read_paths
from tether_print_helpers import print_build as _print_build

from tether_build.print.tiles import common, tokens

MIN_GUTTER_MM = 2.0  # bare paper between the ink of two tokens, and between two rows


@pytest.fixture(scope="module")
def print_build(tmp_path_factory):
    return _print_build(tmp_path_factory)


def _inside(inner, outer, tol=0.05):
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def _tokens_on_pages(pdf):
    """{page: [(token ink box, [boxes of the paths inside it])]}: a token is a painted path
    whose box no larger path's box holds (its bleed background); the rest belong to it."""
    paths, _ = read_paths(pdf)
    by_page: dict[int, list] = {}
    for path in sorted(paths, key=lambda p: -p.size[0] * p.size[1]):
        page = by_page.setdefault(path.page, [])
        owner = next((t for t in page if _inside(path.box, t[0])), None)
        if owner is None:
            page.append((path.box, []))
        else:
            owner[1].append(path.box)
    return by_page


def _gap(a, b) -> float:
    return max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_every_token_stands_apart_in_trimmer_strips(print_build, content, paper):
    pages = _tokens_on_pages(print_build / f"tokens-{paper}.pdf")
    x0, y0, w, h = tokens.sheet_area(paper)
    b = tokens.BLEED_MM
    planned = tokens.pack(tokens.token_set(content), (x0, y0, w, h), content)
    assert sorted(pages) == list(range(len(planned)))
    for page, found in pages.items():
        # the tokens (the ticks in the margins that mark the cuts stand outside their area)
        boxes = [box for box, _ in found if box[0] >= x0 - b - 0.01 and box[2] <= x0 + w + b
                 + 0.01]
        # two tokens closer than their gutter would have merged: the counts would differ
        assert len(boxes) == len(planned[page]), (paper, page)
        for i, a in enumerate(boxes):
            for c in boxes[i + 1:]:
                assert _gap(a, c) >= MIN_GUTTER_MM - 0.01, (paper, page, a, c)
        rows = sorted({(round(box[1], 2), round(box[3], 2)) for box in boxes})
        for (_, bottom), (top, _) in pairwise(rows):
            assert top - bottom >= MIN_GUTTER_MM - 0.01, (paper, page, rows)


def _numerals(pdf, page_no):
    """(text, left and right edge of its glyphs, baseline) in mm from the page's top left
    of the digit strings of a page, as PDFium places them (through the Form XObjects the
    sheets draw their tokens with)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    from tether_build.print.geometry import PT_PER_MM

    page = pdfium.PdfDocument(str(pdf))[page_no]
    height, chars = page.get_height(), page.get_textpage()
    out, run = [], None
    for i in range(chars.count_chars()):
        char = chars.get_text_range(i, 1)
        if not char.isdigit():
            run = None
            continue
        left, _, right, _ = chars.get_charbox(i)
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium_c.FPDFText_GetCharOrigin(chars.raw, i, x, y)
        baseline = (height - y.value) / PT_PER_MM
        if run is not None and abs(run[3] - baseline) < 0.05 and left / PT_PER_MM - run[2] < 0.5:
            run[0] += char
            run[2] = right / PT_PER_MM
        else:
            run = [char, left / PT_PER_MM, right / PT_PER_MM, baseline]
            out.append(run)
    return [tuple(r) for r in out]


def test_numbers_sit_beside_their_icons(print_build, content):
    pdf = print_build / "tokens-a4.pdf"
    pages = _tokens_on_pages(pdf)
    valued = {round(t.w, 1) for t in tokens.token_set(content)
              if t.shape == "circle" and t.face.get("value") or t.group == "champion"}
    checked = Counter()
    for page, found in pages.items():
        numerals = _numerals(pdf, page)
        for box, parts in found:
            d = box[2] - box[0] - 2 * tokens.BLEED_MM
            if round(d, 1) not in valued or abs((box[3] - box[1]) - (box[2] - box[0])) > 0.1:
                continue
            mine = [n for n in numerals if box[0] < n[1] < box[2] and box[1] < n[3] < box[3]]
            if not mine:
                continue
            text, glyph_left, _, baseline = mine[0]
            # not the cut line, nor the faction's emblem above the icon
            icon = [p for p in parts if p[2] - p[0] < 0.6 * d
                    and p[3] > box[1] + tokens.BLEED_MM + 0.3 * d]
            left, top = min(p[0] for p in icon), min(p[1] for p in icon)
            right, bottom = max(p[2] for p in icon), max(p[3] for p in icon)
            assert left < (box[0] + box[2]) / 2 < glyph_left, (page, text, box)
            assert glyph_left >= right - 0.1, (page, text, box)  # beside: right of the icon
            assert top <= baseline <= bottom + 0.15 * d, (page, text, box)  # not under it
            checked[round(d, 1)] += 1
    assert set(checked) == valued, checked


def test_round_tokens_fit_the_standard_punches(print_build):
    """Every round token, read from the PDF, is a 5/8" or a 1" disc inside its bleed."""
    sizes = Counter()
    for found in _tokens_on_pages(print_build / "tokens-a4.pdf").values():
        for box, _ in found:
            w, h = box[2] - box[0], box[3] - box[1]
            if abs(w - h) < 0.05 and 12 < w < 30:   # the discs (not ticks nor 8 mm markers)
                sizes[round(w - 2 * tokens.BLEED_MM, 1)] += 1
    assert set(sizes) == {round(tokens.PUNCH_SMALL, 1), round(tokens.PUNCH_LARGE, 1)}, sizes
    assert (tokens.PUNCH_SMALL, tokens.PUNCH_LARGE) == (5 / 8 * 25.4, 25.4)


def test_every_sheet_names_itself_and_what_it_holds(print_build, content):
    from pypdf import PdfReader

    pages = PdfReader(print_build / "tokens-a4.pdf").pages
    force, names = common.term(content, "force"), [
        common.plain(content, f["name"]) for f in content.factions.values()]
    import re

    ones = Counter()
    for n, page in enumerate(pages, start=1):
        text = " ".join(page.extract_text().split())
        assert f"Sheet {n}/{len(pages)}" in text and common.plain(
            content, content.game["title"]) in text and str(content.game["version"]) in text
        # "Virteous Court: 20 Cohort 1, ..." or "Leadbound, Cipher (each): 20 Cohort 1, ..."
        # (a faction may span sheets)
        for part in text.split("; "):
            who, _, what = part.rpartition(": ")
            found = re.search(rf"\b(\d+) {force} 1\b", what)
            for name in names:
                if found and re.search(rf"(^|[ ,]){name}(,| \(each\)|$)", who):
                    ones[name] += int(found.group(1))
    assert ones == dict.fromkeys(names, dict(tokens.COHORTS)[1])


def test_square_tokens_are_the_same_tokens_as_squares(content):
    round_ = tokens.token_set(content)
    square = tokens.shaped(round_, True)
    assert [(t.name, t.count, t.w) for t in square] == [(t.name, t.count, t.w) for t in round_]
    assert {t.shape for t in square} == {"square", "rect", "track"}
    html = common.render_html("tokens.html.j2", pages=[[{
        "x": 2, "y": 2, "w": tokens.COHORT_MM, "h": tokens.COHORT_MM, "shape": "square",
        "face": square[[t.group for t in square].index("cohort")].face}]], paper=(20, 20),
        cut=common.CUT_DARK, bleed=tokens.BLEED_MM, age_word="Age")
    assert "<circle cx=\"9.938\" cy=\"9.938\" r=\"8.938\"" not in html   # no round bleed
    assert f'width="{tokens.COHORT_MM:.3f}"' in html


def test_faction_tokens_carry_the_emblem_not_colour_alone(content):
    for token in tokens.token_set(content):
        if token.group in ("cohort", "champion", "vp_marker"):
            fid = next(k for k, f in content.factions.items()
                       if common.plain(content, f["name"]) == token.faction)
            assert token.face["emblem"] == content.factions[fid]["emblem"], token.name
    mine = next(t for t in tokens.token_set(content) if t.group == "mine_value")
    gold = next(t for t in tokens.token_set(content) if t.group == "gold")
    assert mine.face["colour"] != gold.face["colour"]
    assert common.ink(mine.face["colour"]) != common.ink(gold.face["colour"])  # dark vs light
