"""Board maps: the generated layout as JSON, a real-size map over several pages, an overview.

The layout comes from `board.generate_board(players, seed, game)`, the same pure function
the engine uses, so one seed gives one board on the table and in the engine. The real-size
map is cut into page windows that overlap by OVERLAP_MM; alignment marks sit on the middle
line of every overlap, so they appear on both neighbouring pages. Trim each page (except
the first of its row/column) along its dashed line through the marks and lay it over its
neighbour so the half-marks meet.
"""

from __future__ import annotations

import bisect
import json
import math
import string
from collections.abc import Callable
from functools import lru_cache

from ...engine.board import all_hexes, capital_slots, generate_board
from . import common, splitcache

OVERLAP_MM = 12.0
LABEL_CORNER_MM = 2.0


def layout(players: int, seed: int, game: dict) -> dict:
    """The board as JSON data: {players, radius, seed, hexes: [{q, r, tile, ...}]}."""
    lo, hi = int(game["players"]["min"]), int(game["players"]["max"])
    if not lo <= players <= hi:
        raise common.TetherError(f"--players must be {lo}-{hi}, not {players}")
    try:
        return generate_board(players, seed, game).to_json()
    except ValueError as exc:
        raise common.TetherError(f"cannot generate the board: {exc}") from exc


def blank_layouts(game: dict) -> list[dict]:
    """The blank grids: one per board radius, every hex a Plain but the Capital slots of
    every player count played on that radius (named, with the counts that use them), so
    only the special tiles are laid on it (the overview of a seed says where)."""
    board = game["board"]
    counts: dict[int, list[int]] = {}
    for players in range(int(game["players"]["min"]), int(game["players"]["max"]) + 1):
        radius = int(board["radius_by_players"].get(
            players, board["radius_by_players"].get(str(players))))
        counts.setdefault(radius, []).append(players)
    out = []
    for radius, players in sorted(counts.items()):
        slots: dict[tuple[int, int], dict[str, list[int]]] = {}
        for p in players:
            for name, hx in capital_slots(p, game).items():
                slots.setdefault(hx, {}).setdefault(name, []).append(p)
        hexes = []
        for q, r in all_hexes(radius):
            names = slots.get((q, r))
            if names:
                used = sorted({p for ps in names.values() for p in ps})
                hexes.append({"q": q, "r": r, "tile": "capital", "slot": "/".join(names),
                              "players": used})
            else:
                hexes.append({"q": q, "r": r, "tile": "plain"})
        out.append({"players": players, "radius": radius, "seed": None, "hexes": hexes})
    return out


def grid_name(data: dict) -> str:
    """File stem of a blank grid: grid-2-3 (its player counts)."""
    return f"grid-{data['players'][0]}-{data['players'][-1]}"


def layout_json(data: dict) -> str:
    """The layout as JSON text: the board fields, then one hex per line."""
    head = {k: v for k, v in data.items() if k != "hexes"}
    hexes = ",\n  ".join(json.dumps(h, ensure_ascii=False) for h in data["hexes"])
    return json.dumps(head, ensure_ascii=False)[:-1] + f', "hexes": [\n  {hexes}\n]}}\n'


def placed_hexes(content, data: dict, flat: float, origin: tuple[float, float],
           texture: bool = False) -> list[dict]:
    """Drawable hexes: centre in mm (shifted by origin), colour, label and coordinates;
    with `texture`, Plains carry their grass tufts (the real-size map)."""
    info = {k: common.tile_info(content, k) for k in common.KINDS}
    inks = {k: common.ink(tile["colour"]) for k, tile in info.items()}
    out = []
    for h in data["hexes"]:
        x, y = common.axial_mm(h["q"], h["r"], flat)
        cx, cy = x + origin[0], y + origin[1]
        tile = info[h["tile"]]
        label = h.get("slot") or (str(h["mine_value"]) if "mine_value" in h else "")
        note = " · ".join(map(str, h.get("players", ())))
        corners = common.hex_corners(cx, cy, flat)
        out.append({"cx": cx, "cy": cy, "kind": h["tile"], "colour": tile["colour"],
                    "note": f"{note} P" if note else "",
                    "ink": inks[h["tile"]], "icon": tile["icon"],
                    "name": tile["name"] if h["tile"] != "plain" else "",
                    "label": label, "coord": f"{h['q']},{h['r']}",
                    "corners": corners, "points": common.points(corners),
                    "texture": (common.plain_texture(flat)
                                if texture and h["tile"] == "plain" else ""),
                    "texture_ink": common.PLAIN_TEXTURE})
    return out


def map_size(radius: int, flat: float) -> tuple[float, float]:
    """Width and height in mm of a hexagonal board of this radius (pointy-top)."""
    return (2 * radius + 1) * flat, (3 * radius + 2) * common.hex_radius(flat)


def split(map_w: float, map_h: float, paper: str, overlap: float = OVERLAP_MM,
          avoid: list[tuple[float, float, float, float]] = ()) -> dict:
    """Page windows over the map: orientation with fewest pages, windows in map mm.

    avoid: boxes (x0, y0, x1, y1, map mm) no page join may cross (the words and numbers on
    the hexes): each join slides within the paper the map leaves spare (two pages then
    overlap by more than `overlap`), to where it crosses fewest boxes."""
    best = None
    for landscape in (False, True):
        _, _, w, h = common.safe_area(paper, landscape)
        cols = max(1, math.ceil((map_w - overlap) / (w - overlap)))
        rows = max(1, math.ceil((map_h - overlap) / (h - overlap)))
        if best is None or cols * rows < best[0]:
            best = (cols * rows, landscape, cols, rows, w, h)
    _, landscape, cols, rows, w, h = best
    xs = _starts(map_w, w, cols, overlap, [(b[0], b[2]) for b in avoid])
    ys = _starts(map_h, h, rows, overlap, [(b[1], b[3]) for b in avoid])
    cols, rows = len(xs), len(ys)
    windows = [{"row": r, "col": c, "name": f"{string.ascii_uppercase[r]}{c + 1}",
                "x": xs[c], "y": ys[r], "w": w, "h": h}
               for r in range(rows) for c in range(cols)]
    seams_x = [x + overlap / 2 for x in xs[1:]]
    seams_y = [y + overlap / 2 for y in ys[1:]]
    marks = _marks(seams_x, seams_y, xs, ys, w, h)
    return {"landscape": landscape, "cols": cols, "rows": rows, "windows": windows,
            "seams_x": seams_x, "seams_y": seams_y, "marks": marks, "overlap": overlap}


def seam_crossings(seams: list[float], spans) -> int:
    """How many (lo, hi) spans a join line crosses."""
    return sum(1 for s in seams for lo, hi in spans if lo < s < hi)


def _crossing_counter(spans, shift: float) -> Callable[[float], int]:
    """crosses(x): how many (lo, hi) spans the join line at x + shift crosses, as
    seam_crossings counts them, by two binary searches over the sorted ends (lo < s < hi
    holds for #(lo < s) - #(hi <= s) spans, since hi <= s implies lo < s for lo < hi; a
    span with lo >= hi is never crossed and is left out)."""
    kept = [(lo, hi) for lo, hi in spans if lo < hi]
    los, his = sorted(lo for lo, _ in kept), sorted(hi for _, hi in kept)

    def crosses(x: float) -> int:
        s = x + shift
        return bisect.bisect_left(los, s) - bisect.bisect_right(his, s)
    return crosses


def _furthest(top: float, tries: int, crosses: Callable[[float], int]) -> float:
    """Of top - k * 0.5 for k < tries, the one whose join crosses fewest spans, the furthest
    on among those: the first with the fewest, as the tries go back from `top` (the first
    that crosses none ends the search)."""
    best_x, best_c = top, None
    for k in range(tries):
        x = top - k * 0.5
        c = crosses(x)
        if c == 0:
            return x
        if best_c is None or c < best_c:
            best_x, best_c = x, c
    return best_x


def _starts(size: float, page: float, count: int, overlap: float, spans,
            _more: bool = False) -> list[float]:
    """Where each window starts (map mm). Evenly spaced and centred on the map, unless a
    join crosses a span: then, over first-window offsets in 0.5 mm steps, each next window
    starts as far on as it may (pages overlapping by `overlap` at least) without its join
    crossing a span, and the set that covers the map with fewest crossings wins, then the
    one nearest the centred layout. If every set crosses a span, one window more (a row or
    column of pages more) when that clears every join."""
    step = page - overlap
    centred = (size - (count * step + overlap)) / 2
    even = [centred + c * step for c in range(count)]
    if count < 2 or not spans:
        return even
    crosses = _crossing_counter(spans, overlap / 2)   # (seam_crossings' counts)
    if sum(crosses(x) for x in even[1:]) == 0:
        return even

    furthest: dict[float, float] = {}   # the next window's start after a window's top: the
    tries = int(step / 0.5)             # same tops come back for many first windows

    def after(top: float) -> float:
        if top == 0:   # (0.0 and -0.0 are one key: not kept)
            return _furthest(top, tries, crosses)
        if top not in furthest:
            furthest[top] = _furthest(top, tries, crosses)
        return furthest[top]

    best = None
    lo = size - (count * step + overlap)
    for i in range(int(-lo / 0.5) + 1):
        starts = [lo + i * 0.5]
        for _ in range(1, count):
            starts.append(after(starts[-1] + step))
        if starts[-1] + page < size:
            continue   # the map's far edge left uncovered
        cost = (sum(crosses(x) for x in starts[1:]),
                sum(abs(a - b) for a, b in zip(starts, even, strict=True)))
        if best is None or cost < best[0]:
            best = (cost, starts)
    if (best is None or best[0][0]) and not _more:   # no place for every join: a page more
        more = _starts(size, page, count + 1, overlap, spans, _more=True)
        if sum(crosses(x) for x in more[1:]) == 0:
            return more
    return best[1] if best else even


def label_boxes(hexes: list[dict], flat: float) -> list[tuple[float, float, float, float]]:
    """The box (x0, y0, x1, y1) of the name, icon and number on every hex that has them."""
    out = []
    for h in hexes:
        if h["kind"] == "plain" and not h["label"]:
            continue
        half = max(0.2 * flat, 0.3 * 0.075 * flat * len(h["name"])) + 1.5
        out.append((h["cx"] - half, h["cy"] - 0.29 * flat, h["cx"] + half, h["cy"] + 0.36 * flat))
    return out


def _marks(seams_x, seams_y, xs, ys, w, h):
    """Alignment marks on every seam: at each window's quarter points and at crossings."""
    marks = set()
    for sx in seams_x:
        for top in ys:
            for f in (0.25, 0.75):
                marks.add((round(sx, 3), round(top + f * h, 3)))
    for sy in seams_y:
        for left in xs:
            for f in (0.25, 0.75):
                marks.add((round(left + f * w, 3), round(sy, 3)))
    for sx in seams_x:
        for sy in seams_y:
            marks.add((round(sx, 3), round(sy, 3)))
    return sorted(marks)


LABEL_CELL_MM = 4.0
LABEL_STEP_MM = 2.0
COMPACT_LABEL_MM = (40.0, 8.0)  # page name and number only, where the full label finds no room


def _label_size(pages: dict) -> tuple[float, float]:
    """Width and height of a page label: name and title, then the page key and the 50 mm
    scale bar side by side."""
    return pages["cols"] * LABEL_CELL_MM + 62.0, max(10.0 + pages["rows"] * LABEL_CELL_MM, 19.0)


def _overlaps(box: tuple[float, float, float, float], corners) -> bool:
    """Whether rectangle (x, y, w, h) and a convex polygon overlap (separating axes)."""
    x, y, w, h = box
    rect = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    axes = [(1.0, 0.0), (0.0, 1.0)]
    axes += [(b[1] - a[1], a[0] - b[0]) for a, b in zip(corners, corners[1:] + corners[:1],
                                                          strict=True)]
    for ax, ay in axes:
        p = [ax * px + ay * py for px, py in rect]
        q = [ax * px + ay * py for px, py in corners]
        if max(p) <= min(q) + 1e-9 or max(q) <= min(p) + 1e-9:
            return False
    return True


def _bounded(corners) -> tuple:
    """(corners, least x, most x, least y, most y) of a polygon."""
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return corners, min(xs), max(xs), min(ys), max(ys)


def _separating(corners) -> tuple:
    """What _overlaps projects of a convex polygon, whatever the rectangle: (least x + 1e-9,
    most x, least y + 1e-9, most y, and per edge (its axis, least projection + 1e-9, most
    projection)), each the same sum _overlaps makes (overlapping: the same floats)."""
    xs, ys = [px for px, _ in corners], [py for _, py in corners]
    edges = []
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        ax, ay = b[1] - a[1], a[0] - b[0]
        q = [ax * px + ay * py for px, py in corners]
        edges.append((ax, ay, min(q) + 1e-9, max(q)))
    return min(xs) + 1e-9, max(xs), min(ys) + 1e-9, max(ys), tuple(edges)


def _overlaps_at(x0: float, y0: float, x1: float, y1: float, shape: tuple) -> bool:
    """_overlaps((x0, y0, x1 - x0, y1 - y0), corners) for the rectangle from (x0, y0) to
    (x1, y1), where x1 and y1 are x0 + w and y0 + h, and shape = _separating(corners): the
    polygon's projections made once, the rectangle's as _overlaps makes them (an axis
    (1, 0) or (0, 1) projects a point on its x or y, exactly)."""
    lo_x, hi_x, lo_y, hi_y, edges = shape
    if x1 <= lo_x or hi_x <= x0 + 1e-9 or y1 <= lo_y or hi_y <= y0 + 1e-9:
        return False
    for ax, ay, lo, hi in edges:
        a0, a1, b0, b1 = ax * x0, ax * x1, ay * y0, ay * y1
        p0, p1, p2, p3 = a0 + b0, a1 + b0, a1 + b1, a0 + b1
        if max(p0, p1, p2, p3) <= lo or hi <= min(p0, p1, p2, p3) + 1e-9:
            return False
    return True


def _label_spot(win: dict, pages: dict, hexes: list[dict], flat: float) -> dict:
    """Where the page label goes: on the part of the page that stays visible after trimming
    and gluing, off the hex grid. Corners first, then along the top and bottom edges, then
    the sides; where the full label touches a hex everywhere, the compact one; if that too
    touches a hex everywhere, the spot touching fewest."""
    spot = _free_spot(win, pages, hexes, flat, _label_size(pages))
    if spot["hexes"]:
        compact = _free_spot(win, pages, hexes, flat, COMPACT_LABEL_MM)
        spot = {**compact, "compact": True} if compact["hexes"] < spot["hexes"] else spot
    return spot


def _label_spots(win: dict, pages: dict, size) -> list[tuple[float, float]]:
    """Where a label of `size` may go on a window's page, in the order tried: the corners of
    the part that stays visible after trimming and gluing, then along its top and bottom
    edges, then along its sides."""
    ov = pages["overlap"]
    w, h = size
    left = win["x"] + (ov if win["col"] > 0 else 0) + LABEL_CORNER_MM
    top = win["y"] + (ov if win["row"] > 0 else 0) + LABEL_CORNER_MM
    right = win["x"] + win["w"] - (ov if win["col"] < pages["cols"] - 1 else 0) - 2 - w
    bottom = win["y"] + win["h"] - (ov if win["row"] < pages["rows"] - 1 else 0) - 2 - h
    xs = [left + i * LABEL_STEP_MM for i in range(int((right - left) // LABEL_STEP_MM) + 1)]
    ys = [top + i * LABEL_STEP_MM for i in range(int((bottom - top) // LABEL_STEP_MM) + 1)]
    spots = [(left, top), (right, top), (left, bottom), (right, bottom)]
    return spots + [(x, y) for y in (top, bottom) for x in xs] + [(x, y) for x in (left, right)
                                                                 for y in ys]


def _free_spot(win: dict, pages: dict, hexes: list[dict], flat: float, size) -> dict:
    """The first spot for a label of `size` that touches no hex (see _label_spot)."""
    w, h = size
    near = [(*_bounded(hx["corners"])[1:], _separating(hx["corners"])) for hx in hexes
            if win["x"] - flat < hx["cx"] < win["x"] + win["w"] + flat
            and win["y"] - flat < hx["cy"] < win["y"] + win["h"] + flat]

    def covered(spot, enough: int | None) -> int:
        """How many hexes the label at `spot` touches, counted up to `enough` at most (a
        spot touching that many is no better than the best so far). A hex whose box the
        label's misses is not touched (_overlaps's first two axes, the same sums, tested
        first without the polygon's)."""
        x0, y0 = spot
        x1, y1 = x0 + w, y0 + h
        n = 0
        for lo_x, hi_x, lo_y, hi_y, shape in near:
            if (x1 <= lo_x + 1e-9 or hi_x <= x0 + 1e-9 or y1 <= lo_y + 1e-9
                    or hi_y <= y0 + 1e-9) or not _overlaps_at(x0, y0, x1, y1, shape):
                continue
            n += 1
            if n == enough:
                break
        return n

    best = None
    for spot in _label_spots(win, pages, size):
        n = covered(spot, best[0] if best is not None else None)
        if n == 0:
            best = (0, spot)
            break
        if best is None or n < best[0]:
            best = (n, spot)
    (x, y) = best[1]
    return {"x": x, "y": y, "w": w, "h": h, "cell": LABEL_CELL_MM, "hexes": best[0],
            "compact": False}


def map_style(flat: float, overview: bool = False) -> dict:
    """Text and icon sizes inside a hex, in mm, proportional to its size (the overview
    enlarges names and coordinates: there the hexes are small and the coordinates matter)."""
    big = 1.45 if overview else 1.0
    return {"name": 0.075 * flat * big, "icon": 0.30 * flat, "label": 0.15 * flat,
            "coord": 0.065 * flat * (1.75 if overview else 1.0),
            "stroke": max(0.12, 0.006 * flat)}


def _legend(content, data: dict) -> list[dict]:
    counts = {k: 0 for k in common.KINDS}
    for h in data["hexes"]:
        counts[h["tile"]] += 1
    return [{"kind": k, "name": common.tile_info(content, k)["plural" if counts[k] != 1
                                                             else "name"],
             "colour": common.tile_info(content, k)["colour"], "count": counts[k]}
            for k in common.KINDS]


def map_split(content, data: dict, paper: str, flat: float = common.DEFAULT_TILE_MM) -> dict:
    """The page windows of the real-size map of a layout (split, the joins kept off the
    words on its hexes): what render_map prints, for the print guide's counts."""
    map_w, map_h = map_size(data["radius"], flat)
    hexes = placed_hexes(content, data, flat, (map_w / 2, map_h / 2))
    return splitcache.split(split, map_w, map_h, paper, OVERLAP_MM, label_boxes(hexes, flat))


def render_map(content, data: dict, paper: str, flat: float = common.DEFAULT_TILE_MM) -> bytes:
    """The real-size map of a layout over several pages (PDF bytes).

    Drawn from pieces: each distinct hex body (its polygon and a Plain's grass tufts) and
    each distinct hex top (icon, name, numbers) is laid out once, centred on a page of its
    own (one document for the map: map_pieces, the same for every paper, so the second
    paper finds it in the stage's memo: common.stage_memo), and each page draws, for every hex its window
    shows (_in_window), that hex's body and top where the hex stands, then its own marks,
    trim lines and label (the map template with no hex, a page a window). Each piece is in
    the file once. A Plain of a seed's map is one body for all Plains; SVG drawing was
    most of the stage, each hex drawn on each page it reaches for each paper."""
    from ..geometry import PT_PER_MM
    from ..pdfparts.pdfasm import document_fragments

    map_w, map_h = map_size(data["radius"], flat)
    origin = (map_w / 2, map_h / 2)
    hexes = placed_hexes(content, data, flat, origin, texture=True)
    pages = map_split(content, data, paper, flat)
    for win in pages["windows"]:
        win["label"] = _label_spot(win, pages, hexes, flat)
        win["hexes"] = []   # (the hexes are the pieces': this document draws the rest)
        win["marks"] = _marks_near(pages["marks"], win, MARK_MM)
    coords = data["seed"] is None
    size = piece_size(flat)
    keyed = {id(h): [(common.piece_key(p), p) for p in hex_parts(h, flat, coords)]
             for h in hexes}
    keys = {k: [key for key, _ in v] for k, v in keyed.items()}
    pieces_pdf, order = map_pieces(keyed.values(), flat)
    cache = common.current_cache()
    frags = dict(zip(order, common.pdf_fragments(pieces_pdf), strict=True))
    paper_wh = common.paper_size(paper, pages["landscape"])
    over_pdf = common.to_pdf(common.render_html(
        "map.html.j2", flat=flat,
        style=map_style(flat), pages=pages, paper=paper_wh, safe=common.SAFE_MM, data=data,
        coords=coords,
        title=common.plain(content, content.game["title"]), total=len(pages["windows"])))
    overlays = document_fragments(over_pdf, cache)
    height = paper_wh[1] * PT_PER_MM
    box = [0.0, 0.0, paper_wh[0] * PT_PER_MM, height]
    drawn = []
    for win, overlay in zip(pages["windows"], overlays, strict=True):
        placed = []
        for h in _in_window(hexes, win, flat / 2):
            x = (common.SAFE_MM + h["cx"] - win["x"] - size[0] / 2) * PT_PER_MM
            y = height - (common.SAFE_MM + h["cy"] - win["y"] + size[1] / 2) * PT_PER_MM
            placed += [(frags[key], x, y) for key in keys[id(h)]]
        clip = (common.SAFE_MM * PT_PER_MM, height - (common.SAFE_MM + win["h"]) * PT_PER_MM,
                win["w"] * PT_PER_MM, win["h"] * PT_PER_MM)   # the window (the map's SVG's)
        drawn.append((box, [("clip", clip, placed), (overlay, 0.0, 0.0)]))
    out = common.Pdf(common.placed_file(drawn))
    out.pages = len(drawn)
    out.overflows = tuple(sorted(set(pieces_pdf.overflows) | set(over_pdf.overflows)))
    return out


MARK_MM = 4.0   # an alignment mark's reach from its centre (hexes.j2's mark: its arms)


def _marks_near(marks, win: dict, reach: float) -> list:
    """The marks a page window shows (its SVG is clipped to the window): those within
    `reach` of it, in the map's order."""
    return [(x, y) for x, y in marks
            if win["x"] - reach <= x <= win["x"] + win["w"] + reach
            and win["y"] - reach <= y <= win["y"] + win["h"] + reach]


PIECE_PAD = 0.5   # of a hex's width, around a hex on its piece's page: room for a long name


def piece_size(flat: float) -> tuple[float, float]:
    """Width and height in mm of the page a hex's piece is laid out on (render_map)."""
    pad = PIECE_PAD * flat
    return flat + 2 * pad, 2 * common.hex_radius(flat) + 2 * pad


@lru_cache(maxsize=64)
def _piece_points(flat: float) -> str:
    """The polygon of a hex centred on its piece's page (piece_size), as `points`: the same
    for every hex of a size."""
    w, h = piece_size(flat)
    return common.points(common.hex_corners(w / 2, h / 2, flat))


def hex_parts(h: dict, flat: float, coords: bool) -> list[dict]:
    """What the real-size map draws of a hex (placed_hexes'), centred on its piece's page:
    its body (polygon, a Plain's tufts), and its top (icon, name, numbers) unless the hex
    shows none (a Plain of a seed's map)."""
    w, h_ = piece_size(flat)
    cx, cy = w / 2, h_ / 2
    body = {"part": "body", "cx": cx, "cy": cy, "colour": h["colour"],
            "points": _piece_points(flat), "texture": h["texture"],
            "texture_ink": h["texture_ink"]}
    if h["kind"] == "plain" and not h["label"] and not h["note"] and not coords:
        return [body]
    top = {"part": "top", "cx": cx, "cy": cy, "coords": coords,
           **{k: h[k] for k in ("kind", "icon", "ink", "name", "label", "note")},
           "coord": h["coord"] if coords else ""}
    return [body, top]


def map_pieces(keyed, flat: float) -> tuple[bytes, list[str]]:
    """The document of every distinct hex part of a map (hex_parts, in map order, each as
    (its piece_key, the part)), one a page, and each page's piece_key."""
    items = {key: p for some in keyed for key, p in some}
    memo = common.stage_memo("map-pieces")   # (the second paper's: the same document)
    found = memo.get((flat, tuple(items)))
    if found is None:
        found = memo[flat, tuple(items)] = common.to_pdf(common.render_html(
            "hexpieces.html.j2", pieces=list(items.values()), paper=piece_size(flat),
            flat=flat, style=map_style(flat)))
    return found, list(items)


def _in_window(hexes: list[dict], win: dict, reach: float) -> list[dict]:
    """The hexes a page window shows, in map order: those whose corners come within `reach`
    mm of it (room for a stroke or a name wider than its hex). A page draws these alone, not
    every hex of the map clipped to its window: on the six-page map of four players, about a
    third of the drawing (a hex near a seam is on two or four pages), and the same page."""
    x0, y0 = win["x"] - reach, win["y"] - reach
    x1, y1 = win["x"] + win["w"] + reach, win["y"] + win["h"] + reach
    out = []
    for h in hexes:
        xs, ys = [c[0] for c in h["corners"]], [c[1] for c in h["corners"]]
        if max(xs) >= x0 and min(xs) <= x1 and max(ys) >= y0 and min(ys) <= y1:
            out.append(h)
    return out


def render_overview(content, data: dict, paper: str, flat: float = common.DEFAULT_TILE_MM
                    ) -> bytes:
    """One page: the whole board scaled down, with axial coordinates, legend and page key."""
    return render_overviews(content, [(data, paper)], flat)[0]


def render_overviews(content, jobs: list[tuple[dict, str]], flat: float = common.DEFAULT_TILE_MM
                     ) -> list[common.Pdf]:
    """The overview (render_overview) of each (layout, paper) of `jobs`, drawn from pieces:
    every distinct hex body (polygon) and hex top (icon, name, numbers, coordinates) of all
    of them is laid out once at the real map's size (overview_parts, one document,
    map_pieces) and placed scaled down where the hex stands; each overview's own page (title,
    legend, page key: overview.html.j2, every overview a page of one document) is drawn
    over them. The hexes' order and every size
    on the page are the old single document's (the stroke's floor is kept by giving a body
    its stroke divided by the scale); ten overviews drew some 900 hexes, each of its own
    SVG text, where the pieces are about 250."""
    from ..geometry import PT_PER_MM
    from ..pdfparts.pdfasm import document_fragments

    size = piece_size(flat)
    drawn, views, placing = [], [], []
    for data, paper in jobs:
        paper_wh = common.paper_size(paper)
        x0, y0, w, h = common.safe_area(paper)
        header, footer = 14.0, 42.0
        real_w, real_h = map_size(data["radius"], flat)
        scale = min(w / real_w, (h - header - footer) / real_h)
        map_w, map_h = real_w * scale, real_h * scale
        left, top = x0 + (w - map_w) / 2, y0 + header + (h - header - footer - map_h) / 2
        pages = map_split(content, data, paper, flat)
        key = _page_key(content, data, pages, flat, box=(x0 + w - 92, y0 + h - footer + 4, 92,
                                                          footer - 4))
        hexes = placed_hexes(content, data, flat * scale, (left + map_w / 2, top + map_h / 2))
        stroke = map_style(flat * scale, overview=True)["stroke"] / scale
        keyed = [[(common.piece_key(p), p) for p in overview_parts(hx, flat, stroke)]
                 for hx in hexes]
        drawn += keyed
        placing.append((paper_wh, scale, hexes, keyed))
        views.append({"paper": paper_wh, "safe": (x0, y0, w, h), "data": data, "key": key,
                      "legend": _legend(content, data), "footer": footer,
                      "real": (real_w, real_h), "pages": pages})
    over_pdf = common.to_pdf(common.render_html(
        "overview.html.j2", views=views, title=common.plain(content, content.game["title"]),
        real_flat=flat))
    pieces_pdf, order = map_pieces(drawn, flat)
    cache = common.current_cache()
    frags = dict(zip(order, common.pdf_fragments(pieces_pdf), strict=True))
    overlays = document_fragments(over_pdf, cache)
    out = []
    for (paper_wh, scale, hexes, keyed), overlay in zip(placing, overlays, strict=True):
        height = paper_wh[1] * PT_PER_MM
        placed = []
        for hx, parts in zip(hexes, keyed, strict=True):
            x = (hx["cx"] - scale * size[0] / 2) * PT_PER_MM
            y = height - (hx["cy"] + scale * size[1] / 2) * PT_PER_MM
            placed += [(frags[k], x, y, scale) for k, _ in parts]
        box = [0.0, 0.0, paper_wh[0] * PT_PER_MM, height]
        pdf = common.Pdf(common.placed_file([(box, [*placed, (overlay, 0.0, 0.0)])],
                                                  used=True))
        pdf.pages = 1
        pdf.overflows = tuple(sorted(set(pieces_pdf.overflows) | set(over_pdf.overflows)))
        out.append(pdf)
    return out


def overview_parts(h: dict, flat: float, stroke: float) -> list[dict]:
    """What an overview draws of a hex (placed_hexes' at the overview's scale), as pieces at
    the real map's size `flat` (hex_parts'), each with its own sizes (map_style's of an
    overview at that size; `stroke`: the overview's stroke over its scale): its body and
    its top, the compact one (icon left, number right) with coordinates. Only a Mine's
    number ring is stroked in a top, so the others share one piece across scales."""
    w, h_ = piece_size(flat)
    cx, cy = w / 2, h_ / 2
    style = {**map_style(flat, overview=True), "stroke": stroke}
    body = {"part": "body", "cx": cx, "cy": cy, "colour": h["colour"],
            "points": _piece_points(flat), "texture": "",
            "texture_ink": h["texture_ink"], "st": style}
    ringed = h["kind"] == "mine" and h["label"]
    top = {"part": "top", "cx": cx, "cy": cy, "coords": True, "compact": True,
           **{k: h[k] for k in ("kind", "icon", "ink", "name", "label", "note", "coord")},
           "st": style if ringed else {**style, "stroke": 0.0}}
    return [body, top]


def _page_key(content, data, pages, flat, box) -> dict:
    """A small drawing of the board under the page windows of the real-size map."""
    bx, by, bw, bh = box
    wins = pages["windows"]
    cx0, cy0 = min(v["x"] for v in wins), min(v["y"] for v in wins)
    cw = max(v["x"] + v["w"] for v in wins) - cx0
    ch = max(v["y"] + v["h"] for v in wins) - cy0
    k = min(bw / cw, bh / ch)
    ox, oy = bx + bw - cw * k, by
    real_w, real_h = map_size(data["radius"], flat)
    hexes = placed_hexes(content, data, flat * k, (ox + (real_w / 2 - cx0) * k,
                                              oy + (real_h / 2 - cy0) * k))
    return {"hexes": hexes, "windows": [{**v, "x": ox + (v["x"] - cx0) * k,
                                         "y": oy + (v["y"] - cy0) * k, "w": v["w"] * k,
                                         "h": v["h"] * k} for v in wins],
            "stroke": 0.1}


def render_whole(content, data: dict, flat: float, margin: float = 2.0) -> bytes:
    """The whole map on one page of its own size plus `margin` (the Tabletop Simulator
    board image), with coordinates on the blank grid."""
    map_w, map_h = map_size(data["radius"], flat)
    hexes = placed_hexes(content, data, flat, (map_w / 2 + margin, map_h / 2 + margin), texture=True)
    html = common.render_html("whole.html.j2", flat=flat, style=map_style(flat), hexes=hexes,
                              paper=(map_w + 2 * margin, map_h + 2 * margin),
                              coords=data["seed"] is None)
    return common.to_pdf(html)
