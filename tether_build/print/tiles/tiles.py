"""Hex tiles for the table: the set, its counts, and honeycomb sheets for A4 and Letter.

How many of each (all numbers come from content/game.yaml, so they follow the design):
- Capital: one per faction (factions.yaml), in the faction's colour, so any player count
  can seat any faction (6 factions = 6 Capitals, the 6-player maximum).
- Axis Mundi, Forge, Mine: for each kind, the largest `tile_counts` entry over 2-6 players
  (1, 3 and 7 today): one set serves every player count.
- Plain: the largest number of ordinary hexes any player count leaves, i.e. the maximum
  over P of hexes(radius_P) - P - center - forges - mines. Today that is 4 players on the
  radius-5 board: 91 - 4 - 1 - 2 - 5 = 79 (6 players need 74, 2 players 54).

Sheets: the special tiles come first, the Plains on sheets of their own after them, so a group
that plays on the blank grid map (boardmap.blank_layouts) prints the first sheets alone.
Tiles share their cut lines in a honeycomb (half the cutting of loose hexes, no
waste). Every tile has the same dark basalt rim inside its cut line, so a cut that wanders
by up to the rim width shows the neighbour's identical rim, not a different colour.
Plain tiles carry no text, only a light texture of grass tufts (so a Plain is not mistaken
for a blank or misprinted tile; it stays light in grayscale); special tiles show the glossary name, the icon and the brief
rules (tiles.yaml summary).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...engine.board import all_hexes
from . import common

RIM_MM = 1.8
LAYOUT = {  # text boxes in a 52 mm tile (box 52 x 60.04 mm), scaled with the tile size
    "name": (6.0, 8.6, 40.0, 4.8), "sub": (6.0, 13.4, 40.0, 3.0),
    "icon": (19.0, 17.0, 14.0, 14.0), "summary": (5.5, 31.6, 41.0, 16.0),
}
FONT_PT = {"name": 8.5, "sub": 6.0, "summary": 5.8}


@dataclass(frozen=True)
class TileSpec:
    """One kind of printed tile and how many copies the set holds."""

    kind: str
    count: int
    name: str
    colour: str
    icon: str | None
    summary: object  # Markup
    sub: str = ""  # the faction name on a Capital
    reason: str = ""
    scale: float = 1.0  # its text's size (shrink: true in tiles.yaml, print/tiles/shrink.py)


def _by_players(table: dict, players: int):
    return table[players] if players in table else table[str(players)]


def plain_need(game: dict) -> dict[int, int]:
    """Ordinary hexes on the board of each player count."""
    board = game["board"]
    out = {}
    for p in range(int(game["players"]["min"]), int(game["players"]["max"]) + 1):
        radius = int(_by_players(board["radius_by_players"], p))
        counts = _by_players(board["tile_counts"], p)
        special = p + sum(int(v) for v in counts.values())
        out[p] = len(all_hexes(radius)) - special
    return out


def tile_set(content, scales: dict[str, float] | None = None) -> list[TileSpec]:
    """Every tile to print: Capitals per faction, then Axis Mundi, Forges, Mines, Plains
    (`scales`: a text size per tile kind that was shrunk to fit, print/tiles/shrink.py)."""
    out = _tile_set(content)
    if scales:
        from dataclasses import replace

        out = [replace(s, scale=scales.get(s.kind, 1.0)) for s in out]
    return out


def _tile_set(content) -> list[TileSpec]:
    game = content.game
    board = game["board"]
    players = range(int(game["players"]["min"]), int(game["players"]["max"]) + 1)
    out: list[TileSpec] = []
    cap = common.tile_info(content, "capital")
    for faction in content.factions.values():
        emblem = faction.get("emblem")
        icon = emblem if common.icon_svg(emblem, 0, 0, 1) else cap["icon"]
        out.append(TileSpec("capital", 1, cap["name"], faction["colour"], icon, cap["summary"],
                            sub=common.plain(content, faction["name"]),
                            reason="one per faction"))
    for kind in ("center", "forge", "mine"):
        need = {p: int(_by_players(board["tile_counts"], p)[kind]) for p in players}
        best = max(need, key=lambda p: (need[p], p))
        info = common.tile_info(content, kind)
        out.append(TileSpec(kind, need[best], info["name"], info["colour"], info["icon"],
                            info["summary"], reason=f"tile_counts maximum ({best} players)"))
    need = plain_need(game)
    best = max(need, key=lambda p: (need[p], p))
    info = common.tile_info(content, "plain")
    out.append(TileSpec("plain", need[best], info["name"], info["colour"], None, "",
                        reason=f"most ordinary hexes of any board ({best} players)"))
    return out


def honeycomb(area: tuple[float, float, float, float], flat: float) -> list[tuple[float, float]]:
    """Centres of the pointy-top hexes that fit in `area`, sharing edges, block centred."""
    x0, y0, w, h = area
    s = common.hex_radius(flat)
    rows = int((h - 2 * s) // (1.5 * s)) + 1 if h >= 2 * s else 0
    n_even = int(w // flat)
    n_odd = int((w - flat / 2) // flat)
    if rows > 1 and n_odd < 1:
        rows = 1
    used_w = max(n_even * flat, n_odd * flat + flat / 2 if rows > 1 else 0)
    used_h = 2 * s + (rows - 1) * 1.5 * s
    left = x0 + (w - used_w) / 2
    top = y0 + (h - used_h) / 2
    out = []
    for k in range(rows):
        odd = k % 2 == 1
        for i in range(n_odd if odd else n_even):
            out.append((left + flat / 2 + i * flat + (flat / 2 if odd else 0), top + s + k * 1.5 * s))
    return out


def tile_face(spec: TileSpec, cx: float, cy: float, flat: float) -> dict:
    s = common.hex_radius(flat)
    k = flat / common.DEFAULT_TILE_MM
    box = (cx - flat / 2, cy - s)
    inner = flat - 2 * RIM_MM
    boxes = {name: tuple(v * k for v in dims) for name, dims in LAYOUT.items()}
    icon_box = boxes["icon"]
    text_ink = common.ink(spec.colour)
    medallion = None
    if spec.kind == "capital":  # faction emblems are drawn in the faction colour: light disc
        size = icon_box[2]
        medallion = (box[0] + icon_box[0] + size / 2, box[1] + icon_box[1] + size / 2,
                     size * 0.5)
        icon_box = (icon_box[0] + size * 0.15, icon_box[1] + size * 0.15, size * 0.70)
    return {
        "kind": spec.kind, "name": spec.name, "sub": spec.sub, "summary": spec.summary,
        "x": box[0], "y": box[1], "w": flat, "h": 2 * s, "colour": spec.colour,
        "ink": text_ink, "boxes": boxes,
        "fonts": {n: v * k * spec.scale for n, v in FONT_PT.items()},
        "outer": common.points(common.hex_corners(cx, cy, flat)),
        "inner": common.points(common.hex_corners(cx, cy, inner)),
        "icon": common.icon_svg(spec.icon, box[0] + icon_box[0], box[1] + icon_box[1],
                                icon_box[2], "tile-icon", text_ink),
        "blank": spec.kind == "plain", "medallion": medallion,
        "texture": common.plain_texture(flat) if spec.kind == "plain" else "", "cx": cx,
        "cy": cy,
    }


def sheets(content, paper: str, flat: float = common.DEFAULT_TILE_MM,
           scales: dict[str, float] | None = None) -> list[list[dict]]:
    """Pages of tile faces (dicts with page-mm positions) for one paper size."""
    return [[tile_face(spec, cx, cy, flat) for spec, cx, cy in page]
            for page in _sheet_slots(content, paper, flat, scales)]


def _sheet_slots(content, paper: str, flat: float,
                 scales: dict[str, float] | None) -> list[list[tuple[TileSpec, float, float]]]:
    """Pages of (tile, centre x, centre y in page mm) for one paper size (sheets)."""
    slots = honeycomb(common.safe_area(paper), flat)
    if not slots:
        raise common.TetherError(f"a {flat} mm tile does not fit on {paper} paper")
    pages = []
    for plains in (False, True):   # the special tiles first, the Plains on pages of their own
        faces = [spec for spec in tile_set(content, scales) for _ in range(spec.count)
                 if (spec.kind == "plain") == plains]
        for start in range(0, len(faces), len(slots)):
            chunk = faces[start:start + len(slots)]
            pages.append([(spec, *slots[i]) for i, spec in enumerate(chunk)])
    return pages


def special_pages(content, paper: str, flat: float = common.DEFAULT_TILE_MM) -> int:
    """How many of the first sheets hold the special tiles (the rest are Plains, which a
    group playing on the blank grid map need not print)."""
    special = sum(s.count for s in tile_set(content) if s.kind != "plain")
    return math.ceil(special / tiles_per_page(paper, flat))


def sheet_heads(content, pages: list[list[dict]], title: str) -> list[str]:
    """Each sheet's line: the title and version, "Sheet i/n" and what it holds in the
    glossary's words ("Sheet 1/6: 6 Capitals (one per faction), 1 Axis Mundi, ...")."""
    out = []
    for n, page in enumerate(pages, start=1):
        counts: dict[str, int] = {}
        for face in page:
            counts[face["kind"]] = counts.get(face["kind"], 0) + 1
        what = []
        for kind, k in counts.items():
            info = common.tile_info(content, kind)
            what.append(f"{k} {info['name'] if k == 1 else info['plural']}")
        out.append(f"{title} · Sheet {n}/{len(pages)}: {', '.join(what)}")
    return out


def render_tiles(content, paper: str, flat: float = common.DEFAULT_TILE_MM,
                 scales: dict[str, float] | None = None) -> bytes:
    """The tile sheets of one paper size as PDF bytes (`scales`: see tile_set)."""
    from ...content.versions.gitcontent import describe

    width, height = common.paper_size(paper)
    name = describe(content.root, dirty=False)  # the last commit's: edits do not redraw tiles
    version = str(content.game.get("version", "")) + (f" ({name})" if name else "")
    from ..geometry import PT_PER_MM
    from ..pdfparts.pdfasm import document_fragments

    slots = _sheet_slots(content, paper, flat, scales)
    pages = [[tile_face(spec, cx, cy, flat) for spec, cx, cy in page] for page in slots]
    title = f"{common.plain(content, content.game.get('title', ''))} {version}".strip()
    style = {"rim": common.RIM, "cut": common.CUT, "cut_width": 0.2, "flat": flat,
             "texture_ink": common.PLAIN_TEXTURE,
             "version": f"{content.game.get('title', '')} {version}"}
    pieces_pdf, keys = tile_pieces(content, scales, style)
    cuts_pdf = common.to_pdf(common.render_html(
        "tiles.html.j2", pages=pages, heads=sheet_heads(content, pages, title), part="cuts",
        paper=(width, height), **style))
    cache = common.current_cache()
    frags = common.pdf_fragments(pieces_pdf)
    height_pt = height * PT_PER_MM
    s = common.hex_radius(flat)
    drawn = []
    for page, cuts in zip(slots, document_fragments(cuts_pdf, cache), strict=True):
        placed = [(frags[keys[spec]], (cx - flat / 2 - PIECE_MARGIN_MM) * PT_PER_MM,
                   height_pt - (cy + s + PIECE_MARGIN_MM) * PT_PER_MM) for spec, cx, cy in page]
        drawn.append(([0.0, 0.0, width * PT_PER_MM, height_pt], [*placed, (cuts, 0.0, 0.0)]))
    out = common.Pdf(common.placed_file(drawn))
    out.pages = len(drawn)
    out.overflows = tuple(sorted(set(pieces_pdf.overflows) | set(cuts_pdf.overflows)))
    return out


PIECE_MARGIN_MM = 1.0   # around a tile on its piece's page (tile_pieces)


def tile_pieces(content, scales: dict[str, float] | None, style: dict
                ) -> tuple[common.Pdf, dict[TileSpec, int]]:
    """Every kind of tile face (a Capital per faction, one of each other kind) laid out once,
    with no cut line, each on a page of its own (its box plus PIECE_MARGIN_MM), in one
    document the same for both papers (the second finds it in the stage's memo); and each
    tile's page. The sheets (render_tiles) place these and draw the cut lines and heads
    over them: a sheet of Plains was 17 tiles laid out, a document a page."""
    specs = tile_set(content, scales)
    pdf = faces_pdf(specs, PIECE_MARGIN_MM, part="face", **style)
    return pdf, {spec: n for n, spec in enumerate(specs)}


def faces_pdf(specs: list[TileSpec], margin: float, **style) -> common.Pdf:
    """One document of the tiles `specs`, each alone on a page of its own (its box plus
    `margin` on every side), drawn by tiles.html.j2 with `style`, which names the tiles'
    size `flat` (tile_pieces; the Tabletop Simulator table's tile pictures)."""
    flat = style["flat"]
    s = common.hex_radius(flat)
    memo = common.stage_memo("tile-faces")   # (the second paper's: the same document)
    key = (tuple(specs), margin, tuple(sorted(style.items())))
    if key not in memo:
        faces = [[tile_face(spec, margin + flat / 2, margin + s, flat)] for spec in specs]
        memo[key] = common.to_pdf(common.render_html(
            "tiles.html.j2", pages=faces, paper=(flat + 2 * margin, 2 * s + 2 * margin),
            **style))
    return memo[key]


def tiles_per_page(paper: str, flat: float = common.DEFAULT_TILE_MM) -> int:
    """How many tiles one sheet of `paper` holds."""
    return len(honeycomb(common.safe_area(paper), flat))


def sheet_count(content, paper: str, flat: float = common.DEFAULT_TILE_MM) -> int:
    """Number of tile sheets for one paper size."""
    plains = sum(s.count for s in tile_set(content) if s.kind == "plain")
    return special_pages(content, paper, flat) + math.ceil(plains / tiles_per_page(paper, flat))
