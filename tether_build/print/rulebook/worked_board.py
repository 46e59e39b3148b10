"""The board of a recorded game as an SVG figure (the worked examples, print/rulebook/worked.py).

Drawn with the rulebook's hex helpers (print/rulebook/svg.py, print/tiles/common.py), as the §5
board diagrams are: tiles in their colours and icons, Mine Values, each Capital in its
faction's colour with its emblem, the Bridges. With `units`, each player's units in a hex
are a disc in the faction's colour with the number of Cohorts (a ring: a Champion with
them); with `labels`, hexes the text names carry a letter.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from ..tiles import common
from . import svg

FLAT = 10.0


def board_svg(content, factions: list[str], st: dict, width_mm: float, label: str,
              units: bool = False, labels: dict | None = None) -> Markup:
    """The board of snapshot `st` (rulebook/examples.snapshot)."""
    styles = svg.tile_styles(content)
    body, marks = [], []
    colour = {p: content.factions[f]["colour"] for p, f in enumerate(factions)}
    for coord, tile in sorted(st["tiles"].items()):
        cx, cy = common.axial_mm(*coord, FLAT)
        style = styles[tile]
        owner = st["capitals"].get(coord)
        body.append(svg.hex_shape(cx, cy, FLAT, style["colour"] if owner is None else colour[owner]))
        if tile == "mine":
            icon = common.icon_svg(style["icon"], cx - 1.9, cy - 4.6, 3.8, colour=style["ink"])
            marks.append(str(icon or "") + svg.svg_text(cx, cy + 1.8, 3.6,
                                                     st["mine_values"][coord], style["ink"]))
        elif tile in ("forge", "center"):
            icon = common.icon_svg(style["icon"], cx - 2.8, cy - 2.8, 5.6, colour=style["ink"])
            marks.append(str(icon) if icon else svg.svg_text(cx, cy, 3.0, style["name"][:1],
                                                          style["ink"]))
    body += [svg.bridge(a, b, FLAT) for a, b in st["bridges"]]
    for coord, p in st["capitals"].items():
        cx, cy = common.axial_mm(*coord, FLAT)
        faction = content.factions[factions[p]]
        ink = common.ink(faction["colour"])
        emblem = common.icon_svg(faction.get("emblem"), cx - 2.2, cy - 4.8, 4.4, colour=ink)
        marks.append(str(emblem or ""))
        if not units:
            n = sum(k for q, k, _c in st["units"].get(coord, []) if q == p)
            marks.append(svg.svg_text(cx, cy + 2.2, 3.4, n, ink))
    if units:
        marks += [_units(coord, here, colour) for coord, here in sorted(st["units"].items())]
    for coord, letter in sorted((labels or {}).items()):   # over the tile's icon: the text
        cx, cy = common.axial_mm(*coord, FLAT)                 # says the tile's kind
        marks.append(f'<circle cx="{cx:.2f}" cy="{cy - 2.0:.2f}" r="2.5" fill="#fff" '
                     'stroke="#2a3640" stroke-width="0.4"/>'
                     + svg.svg_text(cx, cy - 2.0, 3.3, letter, "#2a3640"))
    return svg.svg_figure(svg.frame(list(st["tiles"]), FLAT), body + marks, width_mm, label)


def _units(coord, here: list, colour: dict) -> str:
    """Each player's units in one hex: a disc per player (Cohorts, a ring for Champions)."""
    cx, cy = common.axial_mm(*coord, FLAT)
    sides: dict[int, list] = {}
    for p, n, champs in here:
        side = sides.setdefault(p, [0, 0])
        side[0] += n
        side[1] += len(champs)
    out = []
    for i, (p, (n, champs)) in enumerate(sorted(sides.items())):
        x = cx + (0 if len(sides) == 1 else (-2.3 if i == 0 else 2.3))
        y = cy + 2.7
        ring = (f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.55" fill="none" stroke="#2a3640" '
                'stroke-width="0.5"/>') if champs else ""
        out.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.0" fill="{colour[p]}" '
                   'stroke="#fff" stroke-width="0.45"/>' + ring
                   + svg.svg_text(x, y, 2.6, n if n else "", common.ink(colour[p])))
    return "".join(out)


def legend(content, factions: list[str], units: bool = False) -> str:
    """The factions' colours, then the tile kinds (the Capital is shown by faction)."""
    out = "".join(
        '<span class="rb-legend-item"><svg xmlns="http://www.w3.org/2000/svg" '
        'viewBox="0 0 4 4" width="4mm" height="4mm">'
        + (f'<circle cx="2" cy="2" r="1.8" fill="{content.factions[f]["colour"]}"/>' if units
           else f'<rect width="4" height="4" rx="0.6" fill="{content.factions[f]["colour"]}" '
                'stroke="#3b3632" stroke-width="0.2"/>')
        + f'</svg> {escape(content.factions[f]["name"])}</span>' for f in factions)
    out += "".join(f'<span class="rb-legend-item">{item["swatch"]} {escape(item["name"])}'
                   "</span>" for item in svg.legend(content) if item["kind"] != "capital")
    return out
