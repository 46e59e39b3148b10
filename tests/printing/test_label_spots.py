"""The board maps' page labels: their spots, found with a box test before the polygon test,
are the plain search's."""

from __future__ import annotations

import pytest

from tether_build.print.tiles import boardmap, common


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_page_label_spots_are_the_polygon_tests_own(content, paper, monkeypatch):
    flat = common.DEFAULT_TILE_MM
    cases = []
    for data in boardmap.blank_layouts(content.game) + [boardmap.layout(4, 1, content.game)]:
        w, h = boardmap.map_size(data["radius"], flat)
        hexes = boardmap.placed_hexes(content, data, flat, (w / 2, h / 2))
        pages = boardmap.map_split(content, data, paper)
        cases += [(win, pages, hexes) for win in pages["windows"]]
    boxed = [boardmap._label_spot(*case, flat) for case in cases]
    # no box ever rejects: every hex goes through the polygon test, as before the box test
    inf = float("inf")
    monkeypatch.setattr(boardmap, "_bounded", lambda corners: (corners, -inf, inf, -inf, inf))
    assert [boardmap._label_spot(*case, flat) for case in cases] == boxed
    assert any(spot["hexes"] == 0 for spot in boxed)
