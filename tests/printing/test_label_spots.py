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


def _plain_free_spot(win, pages, hexes, flat, size):
    """The search as first written: at each spot tried (boardmap._label_spots, in its
    order), every hex through _overlaps, counted in full; the first spot touching fewest."""
    w, h = size
    best = None
    for spot in boardmap._label_spots(win, pages, size):
        n = sum(1 for hx in hexes if boardmap._overlaps((*spot, w, h), hx["corners"]))
        if best is None or n < best[0]:
            best = (n, spot)
        if n == 0:
            break
    return best


@pytest.mark.parametrize("flat", [common.DEFAULT_TILE_MM, 41.0])
def test_page_label_spots_are_the_plain_searchs(content, flat):
    """Counting a spot's hexes only up to the best count so far, with each hex's projections
    made once, finds the spot and the count the plain search finds."""
    seen = 0
    for paper in common.PAPERS:
        for data in boardmap.blank_layouts(content.game) + [boardmap.layout(4, 1, content.game)]:
            w, h = boardmap.map_size(data["radius"], flat)
            hexes = boardmap.placed_hexes(content, data, flat, (w / 2, h / 2))
            pages = boardmap.map_split(content, data, paper, flat)
            for win in pages["windows"]:
                for size in (boardmap._label_size(pages), boardmap.COMPACT_LABEL_MM, (150.0, 60.0)):
                    got = boardmap._free_spot(win, pages, hexes, flat, size)
                    n, (x, y) = _plain_free_spot(win, pages, hexes, flat, size)
                    assert (got["hexes"], got["x"], got["y"]) == (n, x, y)
                    seen += n > 0
    assert seen   # (some spots touch hexes: the counts were compared, not only zeros)


def test_a_hexs_projections_made_once_test_as_overlaps_does(content):
    """_overlaps_at on _separating's projections: _overlaps's answer, touching included."""
    flat = common.DEFAULT_TILE_MM
    data = boardmap.layout(4, 1, content.game)
    hexes = boardmap.placed_hexes(content, data, flat, (0.3, 0.7))
    sizes = [(74.0, 19.0), (40.0, 8.0), (0.5, 0.5), (3.0, 90.0)]
    tried = 0
    for hx in hexes[:12]:
        shape = boardmap._separating(hx["corners"])
        xs = [c[0] for c in hx["corners"]] + [hx["cx"] + d for d in (-40.0, -7.3, 0.0, 11.1)]
        ys = [c[1] for c in hx["corners"]] + [hx["cy"] + d for d in (-33.0, -2.9, 0.0, 8.4)]
        for w, h in sizes:
            for x in xs + [x - w for x in xs]:       # (edges on the hex's corners: touching)
                for y in ys + [y - h for y in ys]:
                    assert boardmap._overlaps_at(x, y, x + w, y + h, shape) \
                        == boardmap._overlaps((x, y, w, h), hx["corners"]), (x, y, w, h)
                    tried += 1
    assert tried > 10000
