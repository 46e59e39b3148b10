"""Geometry of the printed sheets, read back from the PDFs: tiles, tokens, board map."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from tether_pdf_geometry import hexagons, read_paths
from tether_print_helpers import board_build as _board_build
from tether_print_helpers import cli
from tether_print_helpers import print_build as _print_build

from tether_build.print.tiles import common, tiles, tokens

ROOT = Path(__file__).resolve().parents[2]
FLAT = common.DEFAULT_TILE_MM
EDGE_MM = 4.0  # nothing printed within 4 mm of the paper edge
PAPER_MM = {name: size for name, size in common.PAPERS.items()}


@pytest.fixture(scope="module")
def print_build(tmp_path_factory) -> Path:
    return _print_build(tmp_path_factory)


@pytest.fixture(scope="module")
def board_build(tmp_path_factory) -> Path:
    return _board_build(tmp_path_factory)


@pytest.fixture(scope="module")
def content():
    from tether_build.content.validate import validate
    return validate(ROOT / "tests" / "fixtures" / "content")


def _inside(paths, sizes, margin=EDGE_MM):
    bad = []
    for p in paths:
        w, h = sizes[p.page]
        x0, y0, x1, y1 = p.box
        if x0 < margin - 1e-3 or y0 < margin - 1e-3 or x1 > w - margin + 1e-3 \
                or y1 > h - margin + 1e-3:
            bad.append((p.page, p.box))
    return bad


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tile_cut_lines_equal_on_every_page(print_build, content, paper):
    paths, sizes = read_paths(print_build / f"tiles-{paper}.pdf")
    assert all(abs(w - PAPER_MM[paper][0]) < 0.1 and abs(h - PAPER_MM[paper][1]) < 0.1
               for w, h in sizes)
    cuts = hexagons(paths, "stroke")
    total = sum(spec.count for spec in tiles.tile_set(content))
    assert len(cuts) == total == 96
    point = 2 * FLAT / math.sqrt(3)
    for cut in cuts:  # same size on every page: 52 mm across the flats, pointy-top
        width, height = cut.size
        assert abs(width - FLAT) < 0.05 and abs(height - point) < 0.05, (cut.page, cut.size)
    pages = {cut.page for cut in cuts}
    assert pages == set(range(len(sizes)))  # every page has cut lines
    assert len(sizes) == tiles.sheet_count(content, paper)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nothing_printed_near_the_paper_edge(print_build, paper):
    for name in ("tiles", "tokens"):
        paths, sizes = read_paths(print_build / f"{name}-{paper}.pdf")
        assert paths
        assert _inside(paths, sizes) == [], name


def test_tokens_have_cut_lines_and_counts(print_build, content):
    paths, _ = read_paths(print_build / "tokens-a4.pdf")
    circles = Counter(round(p.size[0], 1) for p in paths
                      if p.paint == "stroke" and p.closed and p.curved
                      and abs(p.size[0] - p.size[1]) < 0.01)
    expected = Counter()
    for token in tokens.token_set(content):
        if token.shape == "circle":
            expected[round(token.w, 1)] += token.count
    for size, count in expected.items():  # every round token has its circular cut line
        assert circles[size] >= count, (size, circles[size], count)
    rects = [p for p in paths if p.paint == "stroke" and p.closed and not p.curved
             and abs(p.size[0] - tokens.BRIDGE_MM[0]) < 0.01
             and abs(p.size[1] - tokens.BRIDGE_MM[1]) < 0.01]
    assert len(rects) == next(t.count for t in tokens.token_set(content) if t.group == "bridge")


def test_default_tile_holds_the_tokens():
    fit = tokens.tile_fit()
    assert fit["ok"]
    assert fit["pocket_mm"] >= tokens.COHORT_MM and fit["centre_mm"] >= tokens.CHAMPION_MM
    assert not tokens.tile_fit(44.0)["ok"]


def test_board_outputs(board_build):
    data = json.loads((board_build / "board-4-11.json").read_text())
    printed = json.loads(cli("board", "--content", str(ROOT / "tests" / "fixtures" / "content"), "--players", "4",
                             "--seed", "11", "--json").output)
    assert data == printed
    paths, sizes = read_paths(board_build / "board-4-11-map-a4.pdf")
    assert len(sizes) == 6 and _inside(paths, sizes) == []
    # map hexes (filled and outlined; small ones are icons) are at real tile size
    hexes = [h for h in hexagons(paths, "both") if h.raw_size[0] > 20]
    assert hexes and all(abs(h.raw_size[0] - FLAT) < 0.05 for h in hexes)
    assert {h.page for h in hexes} == set(range(6))
    assert len(hexes) > 91  # each of the 91 hexes, whole or cut by a page edge
    paths, overview = read_paths(board_build / "board-4-11-overview-a4.pdf")
    assert len(overview) == 1 and _inside(paths, overview) == []
    assert len([h for h in hexagons(paths, "both") if h.raw_size[0] > 10]) >= 91


def test_tile_text_fits_its_boxes(content):
    pdf = tiles.render_tiles(content, "a4")
    assert pdf.overflows == ()


def test_overflow_is_reported():
    html = (
        '<html><body><div data-fit="probe" style="position:absolute;width:20mm;height:5mm;'
        'overflow:hidden;font-size:8pt">' + "word " * 80 + "</div></body></html>"
    )
    pdf = common.to_pdf(html)
    assert pdf.pages == 1 and pdf.overflows and pdf.overflows[0][0] == "probe"


def test_a_sheet_laid_out_page_by_page_draws_what_one_document_draws(content, tmp_path):
    """Token and tile sheets are laid out a page a document (common.to_pdf_pages, so an edit
    lays out only the pages it changes) and joined into one file: every page paints the same
    paths, at the same places, as the whole sheet laid out as one document, on pages of the
    same size, and reports the same overflows."""
    width, height = common.paper_size("a4")
    pages = tokens.pack(tokens.token_set(content), tokens.sheet_area("a4"), content)
    assert len(pages) >= 2
    context = {"paper": (width, height), "cut": common.CUT_DARK, "bleed": tokens.BLEED_MM,
               "age_word": common.term(content, "age")}
    whole = common.to_pdf(common.render_html("tokens.html.j2", pages=pages, **context))
    joined = common.to_pdf_pages("tokens.html.j2", pages, **context)
    assert joined.pages == whole.pages == len(pages) and joined.overflows == whole.overflows
    (tmp_path / "whole.pdf").write_bytes(whole)
    (tmp_path / "joined.pdf").write_bytes(joined)

    def drawn(path):
        paths, sizes = read_paths(path)
        return sizes, sorted((p.page, p.paint, tuple((round(x, 2), round(y, 2))
                                                     for x, y in p.points)) for p in paths)
    assert drawn(tmp_path / "joined.pdf") == drawn(tmp_path / "whole.pdf")


def test_token_sheets_drawn_from_pieces_draw_what_one_document_draws(content, tmp_path):
    """The token sheets draw each distinct token once, as a piece laid out alone, and place
    it wherever a token of its kind stands (common.to_pdf_pieces): every page paints the same
    paths as the whole sheet laid out as one document, at the same places (within 0.001 mm),
    on pages of the same size; the file holds each piece once."""
    from pypdf import PdfReader

    width, height = common.paper_size("letter")
    pages = tokens.pack(tokens.token_set(content), tokens.sheet_area("letter"), content)
    context = {"cut": common.CUT_DARK, "bleed": tokens.BLEED_MM,
               "age_word": common.term(content, "age")}
    whole = common.to_pdf(common.render_html("tokens.html.j2", pages=pages,
                                             paper=(width, height), **context))
    pieces = common.to_pdf_pieces("tokens.html.j2", pages, (width, height), tokens.BLEED_MM,
                                  **context)
    assert pieces.pages == whole.pages == len(pages) and pieces.overflows == whole.overflows
    (tmp_path / "whole.pdf").write_bytes(whole)
    (tmp_path / "pieces.pdf").write_bytes(pieces)

    def drawn(path):
        paths, sizes = read_paths(path)
        return sizes, sorted(((p.page, p.paint, p.points) for p in paths),
                             key=lambda d: (d[0], d[1], [(round(x, 1), round(y, 1))
                                                         for x, y in d[2]]))
    (sizes, found), (want_sizes, wanted) = drawn(tmp_path / "pieces.pdf"), drawn(
        tmp_path / "whole.pdf")
    assert sizes == want_sizes and len(found) == len(wanted)
    for (page, paint, points), (want_page, want_paint, want_points) in zip(found, wanted):
        assert (page, paint, len(points)) == (want_page, want_paint, len(want_points))
        # within 0.002 mm: the templates write mm to 3 decimals, and a punch size in 1/16"
        # (7.9375 mm radius) rounds on its own in a piece and at its place on the page
        assert max(max(abs(x - u), abs(y - v)) for (x, y), (u, v) in zip(points, want_points)
                   ) < 0.002, (page, points[:2], want_points[:2])
    forms = {id(xo.get_object()) for page in PdfReader(tmp_path / "pieces.pdf").pages
             for xo in page["/Resources"]["/XObject"].values()}
    kinds = {repr(sorted((k, v) for k, v in t.items() if k not in ("x", "y")))
             for page in pages for t in page}
    assert len(forms) == len(kinds) < sum(len(page) for page in pages) / 3


def test_a_map_page_draws_only_the_hexes_its_window_shows_and_looks_the_same(content,
                                                                              monkeypatch):
    """Each page of the real-size map draws the hexes that reach into its window, not every
    hex of the map clipped to it: every hex is on some page, and each page, rasterized, is
    the same image as drawing the whole map under the window."""
    import pypdfium2 as pdfium

    from tether_build.print.tiles import boardmap

    data = boardmap.layout(4, 1, content.game)
    shown = boardmap.render_map(content, data, "a4")
    map_w, map_h = boardmap.map_size(data["radius"], FLAT)
    pages = boardmap.split(map_w, map_h, "a4")
    hexes = boardmap.placed_hexes(content, data, FLAT, (map_w / 2, map_h / 2))
    picked = [boardmap._in_window(hexes, win, FLAT / 2) for win in pages["windows"]]
    assert {h["coord"] for some in picked for h in some} == {h["coord"] for h in hexes}
    assert max(len(some) for some in picked) < len(hexes) / 2
    monkeypatch.setattr(boardmap, "_in_window", lambda hexes, win, reach: hexes)
    whole = boardmap.render_map(content, data, "a4")
    assert len(shown) < len(whole)

    def images(pdf: bytes) -> list[bytes]:
        document = pdfium.PdfDocument(pdf)
        return [page.render(scale=1.5).to_pil().tobytes() for page in document]
    assert images(shown) == images(whole)


def test_a_sheet_page_is_the_same_bytes_whatever_was_laid_out_with_its_fonts(content):
    """The pages of a stage's sheets share one font configuration (print/layout/pdf.py's shared()),
    which reads the fonts once; each page's PDF is still the same bytes as laid out alone,
    in whatever order the pages come, so the render cache can keep each one."""
    from tether_build.print.layout import pdf

    width, height = common.paper_size("letter")
    pages = tokens.pack(tokens.token_set(content), tokens.sheet_area("letter"), content)[:3]
    html = [common.render_html("tokens.html.j2", pages=[page], paper=(width, height),
                               cut=common.CUT_DARK, bleed=tokens.BLEED_MM,
                               age_word=common.term(content, "age")) for page in pages]
    base = common._base()

    def alone(one: str) -> bytes:
        pdf.fresh(base)
        return bytes(common.to_pdf(one))
    single = [alone(one) for one in html]
    pdf.fresh(base)
    assert [bytes(common.to_pdf(one)) for one in html] == single
    layout = pdf.shared(base)
    assert [bytes(common.to_pdf(one)) for one in reversed(html)] == single[::-1]
    assert pdf.shared(base) is layout   # one Layout for them all
    pdf.fresh(base)   # a later stage starts afresh
    assert pdf.shared(base) is not layout
