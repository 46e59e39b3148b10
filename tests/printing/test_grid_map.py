"""The blank grid maps (only the special tiles are laid on them), the maps of every player
count, page joins that never cut a hex's words, and tile sheets with the special tiles first."""

from __future__ import annotations

import pytest

from tether_build.board import capital_slots
from tether_build.printing import boardmap, build, common, tiles

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
        hexes = boardmap._hexes(content, data, FLAT, (w / 2, h / 2))
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
