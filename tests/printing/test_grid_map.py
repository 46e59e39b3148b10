"""The blank grid maps (only the special tiles are laid on them), the maps of every player
count, page joins that never cut a hex's words, and tile sheets with the special tiles first."""

from __future__ import annotations

import math

import pytest

from tether_build.engine.board import capital_slots
from tether_build.print.tiles import boardmap, build, common, tiles

FLAT = common.DEFAULT_TILE_MM


def test_a_blank_grid_per_radius_names_every_capital_slot_of_its_counts(content):
    game = content.game
    grids = boardmap.blank_layouts(game)
    counts = range(game["players"]["min"], game["players"]["max"] + 1)
    assert sorted(p for g in grids for p in g["players"]) == list(counts)
    for grid in grids:
        slots = {(h["q"], h["r"]): h for h in grid["hexes"] if h["tile"] == "capital"}
        assert {h["tile"] for h in grid["hexes"]} == {"capital", "plain"}
        for players in grid["players"]:
            for name, hx in capital_slots(players, game).items():
                assert name in slots[hx]["slot"].split("/") and players in slots[hx]["players"]


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_no_page_join_crosses_the_words_on_a_hex(content, paper):
    layouts = [boardmap.layout(p, 1, content.game) for p in range(2, 7)]
    for data in layouts + boardmap.blank_layouts(content.game):
        w, h = boardmap.map_size(data["radius"], FLAT)
        hexes = boardmap.placed_hexes(content, data, FLAT, (w / 2, h / 2))
        boxes = boardmap.label_boxes(hexes, FLAT)
        pages = boardmap.split(w, h, paper, avoid=boxes)
        assert boardmap.seam_crossings(pages["seams_x"], [(b[0], b[2]) for b in boxes]) == 0
        assert boardmap.seam_crossings(pages["seams_y"], [(b[1], b[3]) for b in boxes]) == 0
        cover = [(v["x"], v["y"], v["x"] + v["w"], v["y"] + v["h"]) for v in pages["windows"]]
        assert min(c[0] for c in cover) <= 0 and max(c[2] for c in cover) >= w   # still
        assert min(c[1] for c in cover) <= 0 and max(c[3] for c in cover) >= h   # covered
        centred = boardmap.split(w, h, paper)   # at most a row or column of pages more
        assert pages["cols"] + pages["rows"] <= centred["cols"] + centred["rows"] + 1


def test_every_player_count_gets_its_overview_and_the_grids_their_maps(content):
    files = build.every_count_files(content, 1, ["a4"], FLAT, skip=4)
    counts = range(content.game["players"]["min"], content.game["players"]["max"] + 1)
    assert {f"board/board-{p}-1-overview-a4.pdf" for p in counts if p != 4} <= set(files)
    assert {f"board/{boardmap.grid_name(g)}-map-a4.pdf"
            for g in boardmap.blank_layouts(content.game)} <= set(files)


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_the_special_tiles_come_first_and_the_plains_on_their_own_sheets(content, paper):
    pages = tiles.sheets(content, paper)
    first = tiles.special_pages(content, paper)
    kinds = [{t["kind"] for t in page} for page in pages]
    assert all("plain" not in k for k in kinds[:first])
    assert all(k == {"plain"} for k in kinds[first:])
    assert len(pages) == tiles.sheet_count(content, paper)
    assert sum(len(p) for p in pages[:first]) == sum(
        s.count for s in tiles.tile_set(content) if s.kind != "plain")


def _plain_starts(size, page, count, overlap, spans, _more=False, slide=False):
    """The page-join search as first written (every try scanned, every span counted): the
    plain path boardmap._starts must agree with. slide: each next window's slide found by
    boardmap._furthest over boardmap._crossing_counter's counts, searched anew for every
    window (as _starts did before it kept the starts of the tops it had seen: the plain
    scan is too slow for real maps)."""
    step = page - overlap
    centred = (size - (count * step + overlap)) / 2
    even = [centred + c * step for c in range(count)]
    if count < 2 or not spans or boardmap.seam_crossings(
            [x + overlap / 2 for x in even[1:]], spans) == 0:
        return even

    def crosses(x):
        return boardmap.seam_crossings([x + overlap / 2], spans)

    def after(top):
        if slide:
            return boardmap._furthest(top, int(step / 0.5), counted)
        return min([top - k * 0.5 for k in range(int(step / 0.5))],
                   key=lambda x: (crosses(x), -x))

    counted = boardmap._crossing_counter(spans, overlap / 2)
    best = None
    lo = size - (count * step + overlap)
    for i in range(int(-lo / 0.5) + 1):
        starts = [lo + i * 0.5]
        for _ in range(1, count):
            starts.append(after(starts[-1] + step))
        if starts[-1] + page < size:
            continue
        cost = (sum(crosses(x) for x in starts[1:]),
                sum(abs(a - b) for a, b in zip(starts, even, strict=True)))
        if best is None or cost < best[0]:
            best = (cost, starts)
    if (best is None or best[0][0]) and not _more:
        more = _plain_starts(size, page, count + 1, overlap, spans, _more=True,
                             slide=slide)
        if boardmap.seam_crossings([x + overlap / 2 for x in more[1:]], spans) == 0:
            return more
    return best[1] if best else even


def test_the_fast_page_join_search_places_every_join_as_the_plain_one():
    """_starts counts crossings by binary search and stops at the first join that crosses
    nothing; over random labels (dense ones, so that some joins must cross) it returns the
    same windows, to the bit, as the plain scan of every try."""
    import random

    rng = random.Random(7)
    kinds = set()
    for trial in range(40):   # small pages: the plain scan is quadratic in the page size
        size, page = rng.uniform(60, 200), rng.uniform(40, 90)
        count = max(2, int(size // (page - 8)) + 1)
        spans = []
        for _ in range(rng.randrange(0, 20 if trial % 3 else 60)):
            lo = rng.uniform(0, size)
            spans.append((lo, lo + rng.choice([rng.uniform(0.5, 12), 0.0])))
        plain = _plain_starts(size, page, count, 8.0, spans)
        assert boardmap._starts(size, page, count, 8.0, spans) == plain, trial
        kinds.add("more" if len(plain) > count else "placed")
    assert kinds == {"more", "placed"}   # both searches were exercised


@pytest.mark.parametrize("flat", [FLAT, 40.0])
def test_page_windows_start_where_the_plain_search_puts_them(content, flat):
    """_starts keeps each next window's start for a top it has seen: the same starts."""
    compared = 0
    for data in boardmap.blank_layouts(content.game) + [boardmap.layout(p, 1, content.game)
                                                        for p in range(2, 7)]:
        w, h = boardmap.map_size(data["radius"], flat)
        boxes = boardmap.label_boxes(boardmap.placed_hexes(content, data, flat, (w / 2, h / 2)),
                                     flat)
        for paper in common.PAPERS:
            for landscape in (False, True):
                _, _, pw, ph = common.safe_area(paper, landscape)
                for size, page, spans in ((w, pw, [(b[0], b[2]) for b in boxes]),
                                          (h, ph, [(b[1], b[3]) for b in boxes])):
                    count = max(1, math.ceil((size - boardmap.OVERLAP_MM)
                                             / (page - boardmap.OVERLAP_MM)))
                    for n in {count, count + 1}:
                        assert boardmap._starts(size, page, n, boardmap.OVERLAP_MM, spans) \
                            == _plain_starts(size, page, n, boardmap.OVERLAP_MM, spans,
                                             slide=True)
                        compared += n > 1
    assert compared
