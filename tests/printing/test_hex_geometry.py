"""Hex geometry made once per size (common._corner_offsets, boardmap._piece_points) gives
the floats and the text the plain formulas give."""

from __future__ import annotations

import math

from tether_build.print.tiles import boardmap, common


def _plain_corners(cx, cy, flat):
    s = common.hex_radius(flat)
    return [(cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)]


def test_hex_corners_are_the_plain_formulas_floats():
    for flat in (common.DEFAULT_TILE_MM, 52.0 * 0.2137, 41.3, 1e-3, 600.0):
        for cx, cy in ((0.0, 0.0), (-17.25, 3.1), (105.99999, -0.3), (1e6 / 3, 2e-7)):
            assert common.hex_corners(cx, cy, flat) == _plain_corners(cx, cy, flat)


def test_a_pieces_polygon_is_the_one_its_centre_gives():
    for flat in (common.DEFAULT_TILE_MM, 47.5):
        w, h = boardmap.piece_size(flat)
        assert boardmap._piece_points(flat) == common.points(_plain_corners(w / 2, h / 2, flat))
