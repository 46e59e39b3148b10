"""Components for the table (issue 15), read back from the PDFs where they are drawn:
textured Plains, the Mana tracker, and a real-size map with its labels off the hex grid."""

from __future__ import annotations

import re

import pytest
import yaml
from pypdf import PdfReader
from tether_pdf_geometry import hexagons, read_paths
from tether_print_helpers import board_build as _board_build
from tether_print_helpers import print_build as _print_build

from tether_build.print.tiles import common, palette, tiles, tokens

COORD = re.compile(r"-?\d+,\s?-?\d+")


@pytest.fixture(scope="module")
def print_build(tmp_path_factory):
    return _print_build(tmp_path_factory)


@pytest.fixture(scope="module")
def board_build(tmp_path_factory):
    return _board_build(tmp_path_factory)


def _within(box, hexagon, tol=0.1):
    x0, y0, x1, y1 = hexagon.box
    return box[0] >= x0 - tol and box[1] >= y0 - tol and box[2] <= x1 + tol and \
        box[3] <= y1 + tol


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_every_plain_tile_is_textured(print_build, content, paper):
    plains = next(s.count for s in tiles.tile_set(content) if s.kind == "plain")
    paths, _ = read_paths(print_build / f"tiles-{paper}.pdf")
    cuts = hexagons(paths)
    tufts = [p for p in paths if p.paint == "stroke" and p.curved and not p.closed]
    assert len(tufts) == plains
    for tuft in tufts:  # one texture per tile, inside its cut line, spread over it
        box = tuft.box
        home = [h for h in cuts if h.page == tuft.page and _within(box, h)]
        assert len(home) == 1
        assert box[2] - box[0] > 0.6 * home[0].size[0]


def test_plain_texture_is_light_and_survives_grayscale(content):
    plain = common.tile_info(content, "plain")["colour"]
    lightness = [palette.lab(palette.simulate(c, "normal"))[0]
                 for c in (plain, common.PLAIN_TEXTURE)]
    assert 8 <= lightness[0] - lightness[1] <= 30, lightness  # seen in gray, yet light
    assert lightness[1] > 60


def test_mana_tracker_follows_content(content, content_copy):
    from tether_build.content.validate import validate

    most = int(content.game["resources"]["max_mana"])
    tracks = [t for t in tokens.token_set(content) if t.group == "mana_track"]
    assert len(tracks) == len(content.factions)
    assert {t.faction for t in tracks} == {common.plain(content, f["name"])
                                           for f in content.factions.values()}
    assert all(t.face["cells"] == list(range(most + 1)) for t in tracks)
    assert all(t.name == content.terms["mana"]["singular"] for t in tracks)
    markers = [t for t in tokens.token_set(content) if t.group == "mana_marker"]
    assert sum(t.count for t in markers) == len(content.factions)

    game = content_copy / "game.yaml"
    data = game.read_text(encoding="utf-8")
    game.write_text(data.replace(f"max_mana: {most}", f"max_mana: {most + 2}"), encoding="utf-8")
    terms = content_copy / "terms.yaml"
    doc = yaml.safe_load(terms.read_text(encoding="utf-8"))
    assert doc["terms"]["mana"]["singular"] == content.terms["mana"]["singular"]
    changed = validate(content_copy)
    track = next(t for t in tokens.token_set(changed) if t.group == "mana_track")
    assert track.face["cells"] == list(range(most + 3))


def test_mana_tracker_is_printed(print_build, content):
    reader = PdfReader(str(print_build / "tokens-a4.pdf"))
    word = content.terms["mana"]["singular"]
    most = int(content.game["resources"]["max_mana"])
    pages = [p.extract_text() for p in reader.pages]
    page = next(t for t in pages if word in t)
    assert page.count(word) >= len(content.factions)
    digits = re.findall(r"\d+", page)
    assert all(str(n) in digits for n in range(most + 1))


def test_map_has_no_coordinates_on_the_grid(board_build):
    maps = sorted(board_build.glob("board-*-map-*.pdf"))
    assert maps
    for pdf in maps:
        text = " ".join(p.extract_text() for p in PdfReader(str(pdf)).pages)
        assert not COORD.search(text), pdf.name
    overview = next(board_build.glob("board-*-overview-a4.pdf"))
    assert len(COORD.findall(PdfReader(str(overview)).pages[0].extract_text())) > 30


def _inside_hex(x, y, hexagon) -> bool:
    pts = hexagon.points[:6]
    sign = 0
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1], strict=True):
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if abs(cross) < 1e-9:
            continue
        if sign == 0:
            sign = 1 if cross > 0 else -1
        elif (cross > 0) != (sign > 0):
            return False
    return True


def test_page_labels_cover_no_hex(board_build):
    for pdf in sorted(board_build.glob("board-*-map-*.pdf")):
        paths, sizes = read_paths(pdf)
        for page in range(len(sizes)):
            mine = [p for p in paths if p.page == page]
            hexes = hexagons(mine, "both")
            labels = [p for p in mine if p.paint == "both" and p.closed and not p.curved
                      and len(p.points) == 4 and p.size[0] > 30]
            assert len(labels) == 1 and hexes, (pdf.name, page)
            x0, y0, x1, y1 = labels[0].box
            grid = [(x0 + (x1 - x0) * i / 40, y0 + (y1 - y0) * j / 10)
                    for i in range(41) for j in range(11)]
            for h in hexes:
                hx0, hy0, hx1, hy1 = h.box
                if hx1 < x0 or hx0 > x1 or hy1 < y0 or hy0 > y1:
                    continue
                inside = [pt for pt in grid if _inside_hex(*pt, h)]
                # the shared edge is allowed: a point inside by more than 0.3 mm is not
                deep = [pt for pt in inside
                        if all(_inside_hex(pt[0] + dx, pt[1] + dy, h)
                               for dx, dy in ((0.3, 0), (-0.3, 0), (0, 0.3), (0, -0.3)))]
                assert not deep, (pdf.name, page + 1, labels[0].box)
