"""The tile, token and map sheets' style sheet is parsed once a stage and given to every
sheet (common.SHEETS), not linked from each: the same PDF bytes as the <link> wrote; and the
page labels' spots, found with a box test before the polygon test, are the plain search's."""

from __future__ import annotations

import pytest

from tether_build.errors import TetherError
from tether_build.print.layout.pdf import Layout, shared
from tether_build.print.tiles import boardmap, common

HEAD = ('<!doctype html><html><head><meta charset="utf-8">'
        '<style>@page { size: 60mm 40mm; margin: 0; }</style>{link}</head><body>'
        '<section class="page" style="width: 60mm; height: 40mm;">'
        '<div class="abs t-name" style="left: 2mm; top: 2mm; width: 40mm">Forge <b>3</b></div>'
        '<svg class="layer" xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" '
        'viewBox="0 0 60 40"><text x="5" y="30" class="serif" font-size="4">Mine 2</text>'
        '<text x="5" y="36" font-size="3">1,-2</text></svg></section></body></html>')
LINK = '<link rel="stylesheet" href="print.css">'


def _pdf(html: str, sheets: tuple[str, ...]) -> bytes:
    layout = shared(common._base())   # (one font configuration for the process's sheets)
    document = layout.render(html, stylesheets=sheets)
    return Layout.write(document.pages, document)


def test_the_style_sheet_given_once_writes_the_bytes_the_link_wrote():
    linked = _pdf(HEAD.replace("{link}", LINK), ())
    given = _pdf(HEAD.replace("{link}", ""), common.SHEETS)
    assert given == linked
    assert given != _pdf(HEAD.replace("{link}", ""), ())   # (the sheet was applied)
    layout = shared(common._base())
    assert layout.sheet("print.css") is layout.sheet("print.css")   # parsed once


def test_no_sheet_template_links_the_style_sheet_again():
    for path in common.TILE_TEMPLATES.glob("*.html.j2"):
        assert LINK not in path.read_text(encoding="utf-8"), path.name


def test_a_style_sheet_that_would_cascade_otherwise_is_refused(tmp_path, monkeypatch):
    from tether_build.print.layout import pdf

    sheet = tmp_path / "loud.css"
    sheet.write_text("body { color: red !important; }", encoding="utf-8")
    monkeypatch.setattr(pdf, "local_file", lambda url: None)
    with pytest.raises(TetherError, match="!important or @page"):
        Layout(tmp_path.as_uri() + "/").sheet("loud.css")


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_page_label_spots_are_the_polygon_tests_own(content, paper, monkeypatch):
    flat = common.DEFAULT_TILE_MM
    cases = []
    for data in boardmap.blank_layouts(content.game) + [boardmap.layout(4, 1, content.game)]:
        w, h = boardmap.map_size(data["radius"], flat)
        hexes = boardmap._hexes(content, data, flat, (w / 2, h / 2))
        pages = boardmap.map_split(content, data, paper)
        cases += [(win, pages, hexes) for win in pages["windows"]]
    boxed = [boardmap._label_spot(*case, flat) for case in cases]
    # no box ever rejects: every hex goes through the polygon test, as before the box test
    inf = float("inf")
    monkeypatch.setattr(boardmap, "_bounded", lambda corners: (corners, -inf, inf, -inf, inf))
    assert [boardmap._label_spot(*case, flat) for case in cases] == boxed
    assert any(spot["hexes"] == 0 for spot in boxed)
