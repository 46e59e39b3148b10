"""Figures drawn from data as inline SVG: board layouts (board generator) and hex distance.

Geometry and icons come from the print helpers (print/tiles/common.py): pointy-top hexes,
axial (q, r) at x = flat * (q + r / 2), y = 1.5 * edge * r. Units are millimetres.
"""

from __future__ import annotations

from collections import deque

from markupsafe import Markup, escape

from ...engine.board import all_hexes, distance, generate_board, neighbors
from ..tiles import common

BOARD_SEED = 1        # the example layouts: any seed shows the rules; this one is fixed
FONT = 'font-family="Tether Sans"'


def hex_shape(cx: float, cy: float, flat: float, fill: str, stroke: str = "#3b3632",
         width: float = 0.25) -> str:
    pts = common.points(common.hex_corners(cx, cy, flat * 0.985))
    return (f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width:.2f}"/>')


def svg_text(x: float, y: float, size: float, value, colour: str = "#111",
          weight: str = "bold") -> str:
    return (f'<text x="{x:.2f}" y="{y + size * 0.35:.2f}" font-size="{size:.2f}" {FONT} '
            f'font-weight="{weight}" text-anchor="middle" fill="{colour}">'
            f'{escape(str(value))}</text>')


def frame(hexes, flat: float, pad: float = 1.0) -> tuple[float, float, float, float]:
    xs = [common.axial_mm(q, r, flat)[0] for q, r in hexes]
    ys = [common.axial_mm(q, r, flat)[1] for q, r in hexes]
    edge = common.hex_radius(flat)
    return (min(xs) - flat / 2 - pad, min(ys) - edge - pad,
            max(xs) - min(xs) + flat + 2 * pad, max(ys) - min(ys) + 2 * edge + 2 * pad)


def svg_figure(box, body: list[str], width_mm: float, label: str) -> Markup:
    x, y, w, h = box
    height_mm = width_mm * h / w
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x:.2f} {y:.2f} '
                  f'{w:.2f} {h:.2f}" width="{width_mm:.1f}mm" height="{height_mm:.1f}mm" '
                  f'role="img" aria-label="{escape(label)}">' + "".join(body) + "</svg>")


def tile_styles(content) -> dict[str, dict]:
    """Per tile kind: name, colour, icon, text colour (from tiles.yaml and the glossary)."""
    out = {}
    for kind in common.KINDS:
        info = common.tile_info(content, kind)
        out[kind] = {**info, "ink": common.ink(info["colour"])}
    return out


def board_diagram(content, players: int, width_mm: float = 80.0) -> tuple[Markup, dict]:
    """The example board for `players` with Capital slots, and facts for its caption."""
    board = generate_board(players, BOARD_SEED, content.game)
    styles = tile_styles(content)
    flat = 10.0
    body = []
    for h in board.hexes:
        st = styles[h["tile"]]
        cx, cy = common.axial_mm(h["q"], h["r"], flat)
        body.append(hex_shape(cx, cy, flat, st["colour"]))
        if h["tile"] == "capital":
            body.append(svg_text(cx, cy, 3.4, h["slot"], st["ink"]))
        elif h["tile"] == "mine":
            icon = common.icon_svg(st["icon"], cx - 1.9, cy - 4.6, 3.8, colour=st["ink"])
            body.append(str(icon or "") + svg_text(cx, cy + 1.8, 3.6, h["mine_value"], st["ink"]))
        elif h["tile"] != "plain":
            icon = common.icon_svg(st["icon"], cx - 2.8, cy - 2.8, 5.6, colour=st["ink"])
            body.append(str(icon) if icon else svg_text(cx, cy, 3.0, st["name"][:1], st["ink"]))
    label = f"{players}: {', '.join(sorted(board.capitals()))}"
    facts = {"players": players, "radius": board.radius, "hexes": len(board.hexes),
             "slots": sorted(board.capitals()), "seed": BOARD_SEED}
    return svg_figure(frame(all_hexes(board.radius), flat), body, width_mm, label), facts


def legend(content) -> list[dict]:
    """Tile kinds for a legend: name, colour, icon svg."""
    out = []
    for kind, st in tile_styles(content).items():
        icon = common.icon_svg(st["icon"], 0.6, 0.6, 2.8, colour=st["ink"]) if st["icon"] else ""
        swatch = Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4" '
                        f'width="4mm" height="4mm"><rect width="4" height="4" rx="0.6" '
                        f'fill="{st["colour"]}" stroke="#3b3632" stroke-width="0.2"/>'
                        f'{icon or ""}</svg>')
        out.append({"kind": kind, "name": st["name"], "swatch": swatch})
    return out


# ---- hex distance and bridges (§2.1, §4.2) ----------------------------------------------

FIELD_RADIUS = 2
START = (0, 0)
GOAL = (2, 0)
BRIDGES = [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (2, 0)), ((-1, 0), (-2, 1))]


def bridge_path(start, goal, bridges) -> list | None:
    """The shortest hex path from start to goal crossing only bridges (None if none)."""
    links: dict = {}
    for a, b in bridges:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    parent, todo = {start: None}, deque([start])
    while todo:
        h = todo.popleft()
        for n in sorted(links.get(h, ())):
            if n not in parent:
                parent[n] = h
                todo.append(n)
    if goal not in parent:
        return None
    path = [goal]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return path[::-1]


def bridge(a, b, flat: float) -> str:
    ax, ay = common.axial_mm(*a, flat)
    bx, by = common.axial_mm(*b, flat)
    t0, t1 = 0.38, 0.62   # a short bar across the shared edge, clear of the hexes' labels
    return (f'<line x1="{ax + (bx - ax) * t0:.2f}" y1="{ay + (by - ay) * t0:.2f}" '
            f'x2="{ax + (bx - ax) * t1:.2f}" y2="{ay + (by - ay) * t1:.2f}" '
            f'stroke="#6b4a2b" stroke-width="{flat * 0.18:.2f}" stroke-linecap="round"/>')


def distance_figure(content, width_mm: float = 72.0) -> tuple[Markup, dict]:
    """A small field: the distance of every hex from A, some bridges, B beyond them."""
    styles = tile_styles(content)
    flat = 12.0
    hexes = [h for h in all_hexes(FIELD_RADIUS + 1) if distance(h, START) <= FIELD_RADIUS + 1]
    path = bridge_path(START, GOAL, BRIDGES) or []
    body = []
    for h in hexes:
        cx, cy = common.axial_mm(*h, flat)
        fill = "#f1dfae" if h in (START, GOAL) else "#f6ecd4" if h in path else \
            styles["plain"]["colour"]
        body.append(hex_shape(cx, cy, flat, fill))
    body += [bridge(a, b, flat) for a, b in BRIDGES]
    for h in hexes:
        cx, cy = common.axial_mm(*h, flat)
        if h == START:
            body.append(svg_text(cx, cy, 5.0, "A"))
        elif h == GOAL:
            # its distance beside the letter, up and right: a Bridge bar into B (from
            # below) once covered it
            body.append(svg_text(cx - 0.9, cy, 5.0, "B") +
                        svg_text(cx + 2.6, cy - 2.0, 2.8, distance(START, h), "#555", "normal"))
        else:
            body.append(svg_text(cx, cy, 3.6, distance(START, h), "#555", "normal"))
    assert all(b in neighbors(a) for a, b in BRIDGES), "figure bridges must join neighbours"
    facts = {"distance": distance(START, GOAL), "steps": len(path) - 1, "bridges": len(BRIDGES)}
    return svg_figure(frame(hexes, flat), body, width_mm, "distance"), facts
