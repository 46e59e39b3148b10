"""Colour-blind safety of the faction palette (issue 15): simulated vision and CIEDE2000.

The bar: every two faction colours, and every faction colour against the Mine and Gold
yellows, are at least 20 CIEDE2000 apart under normal vision, deuteranopia, protanopia and
tritanopia (Machado 2009, severity 1.0).
"""

from __future__ import annotations

import re

import pytest

from tether_build.errors import ContentError
from tether_build.print.tiles import palette

BAR = 20.0


@pytest.mark.parametrize("lab1, lab2, expected", [  # Sharma, Wu & Dalal (2005) test data
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_ciede2000_matches_published_pairs(lab1, lab2, expected):
    assert palette.delta_e(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_simulation_keeps_greys_and_merges_red_green():
    for vision in palette.VISIONS:
        for grey in ("#FFFFFF", "#808080", "#000000"):
            assert palette.distance(grey, grey, vision) == 0
            assert palette.lab(palette.simulate(grey, vision))[0] == pytest.approx(
                palette.lab(palette.simulate(grey, "normal"))[0], abs=1.0)
    red, green = "#D03A2F", "#4E9A3A"
    assert palette.distance(red, green) > 40
    assert palette.distance(red, green, "deuteranopia") < palette.distance(red, green) / 2
    blue, green2 = "#2F6FD0", "#3AA05A"
    assert palette.distance(blue, green2, "tritanopia") < palette.distance(blue, green2)


def test_bar_is_stated():
    assert palette.MIN_DELTA_E == BAR


def test_fixture_palette_passes_every_vision(content):
    factions, neutrals = palette.palette_of(content)
    assert len(factions) == len(content.factions) and set(neutrals) == {"Mine", "Gold"}
    rows = list(palette.pairs(factions, neutrals))
    n = len(factions)
    assert len(rows) == len(palette.VISIONS) * (n * (n - 1) // 2 + n * len(neutrals))
    worst = min(rows, key=lambda r: r[5])
    assert worst[5] >= BAR, worst
    assert palette.clashes(factions, neutrals) == []


def test_old_palette_fails_with_the_known_clash():
    old = {"leadbound": "#5E6B73", "virteous_court": "#6B2D5C", "vapourborn": "#2E9AA6",
           "refiner": "#C8952A", "cipher": "#3D4E9E", "gatewright": "#B4532A"}
    found = palette.clashes(old, {"Mine": "#EBC96A", "Gold": palette.GOLD_COIN})
    pairs = {(a, b) for _, a, _, b, _, _ in found}
    assert ("refiner", "Mine") in pairs and ("refiner", "Gold") in pairs
    assert ("leadbound", "cipher") in pairs
    assert found[0][5] < 10  # ochre on a gold coin: 8.7 under deuteranopia


def test_validate_locates_a_clash(content_copy):
    from tether_build.content.validate import validate

    path = content_copy / "factions.yaml"
    text = path.read_text(encoding="utf-8")
    ours = re.search(r"(refiner:\n(?:.*\n)*?\s+colour: )\"(#[0-9A-Fa-f]{6})\"", text)
    path.write_text(text.replace(ours.group(0), ours.group(1) + '"#C8952A"'), encoding="utf-8")
    line = text[:ours.end()].count("\n") + 1
    with pytest.raises(ContentError) as err:
        validate(content_copy)
    messages = [str(p) for p in err.value.problems]
    mine = [m for m in messages if "#C8952A and Mine #EBC96A" in m]
    assert mine, messages
    assert re.match(rf".*factions\.yaml:{line}:\d+: factions\.refiner\.colour: ", mine[0])
    assert "under deuteranopia vision" in mine[0] and "at least 20" in mine[0]
    assert any("Gold #E3B83F" in m for m in messages)


def test_a_faction_colour_close_to_a_tile_colour_is_a_located_warning(content):
    """Faction tokens stand on every tile: a faction colour closer to a tile's than the bar
    is a warning at the tile's colour, with the worst vision type (the fixture's Refiner
    on the Forge, Vapourborn on a Plain under protanopia); a distant tile gives none."""
    from tether_build.content.consistency import warnings

    tiles = palette.tile_colours(content)
    assert "forge" in tiles and "capital" not in tiles and "mine" not in tiles
    found = [str(w) for w in warnings(content) if ".colour:" in str(w)]
    expected = {(kind, fid) for kind, colour in tiles.items()
                for fid, fc in palette.palette_of(content)[0].items()
                if min(palette.distance(fc, colour, v) for v in palette.VISIONS) < BAR}
    assert len(found) == len(expected) and expected
    forge = next(w for w in found if "tiles.forge.colour" in w)
    assert re.match(r"content/tiles\.yaml:\d+:\d+: tiles\.forge\.colour: Refiner #AD6242 "
                    r"tokens on the Forge tile #D98B62 are 1\d\.\d apart under \w+ vision", forge)
    assert ("center", "refiner") not in expected   # Axis Mundi's pale sand stays clear
