"""The Play page's board: the printed map's hexes with the public units, drawn by the server.

The hexes are the print's (templates/tiles/hexes.j2: a tile's name above its icon, a Mine's
value or a Capital's slot beside it, the coordinates below). The units go where none of
those words are (`layout`): a hex's first Champion in a badge above the tile's name, its
Forces (one disc per seat) and any further Champions in a row between the icon and the
coordinates. Badges are as wide as their text; a name that does not fit is shortened
(the whole name is the badge's tooltip). tests/serve/test_play_board.py checks on the SVG
sent that no two texts, and no unit and text, overlap.
"""

from __future__ import annotations

FLAT = 30.0          # mm across the flats of a drawn hex (the SVG scales to the page)
CHAR_EM = 0.6        # a character's width, as a share of the font size (generous for sans)
COLOURS = ("#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#17a589")


def text_width(text: str, size: float) -> float:
    return len(text) * CHAR_EM * size


def _fit(name: str, tail: str, size: float, room: float) -> str:
    """'Name 6', or 'Na… 6' shortened to fit `room` mm (with the badge's padding)."""
    text = f"{name} {tail}"
    if text_width(text, size) + size <= room:
        return text
    keep = int((room - size) / (CHAR_EM * size)) - len(tail) - 2
    return f"{name[:max(1, keep)].rstrip()}… {tail}"


def layout(hexes: list[dict], obs: dict, by_name: dict[str, int], words,
           flat: float = FLAT) -> list[dict]:
    """Unit marks per hex, in map mm: discs {kind: force, cx, cy, r, size, colour, text,
    title} and badges {kind: champion, x, y, w, h, size, colour, text, title}."""
    k = flat / 30.0
    top_y0, top_h, badge_size = -13.3 * k, 3.9 * k, 2.7 * k
    top_room = 19.5 * k  # wider than the hex there: only the neighbours' coordinates are
    # near, 10.5 mm off the middle
    row_y, disc_r, disc_size = 7.0 * k, 2.6 * k, 3.2 * k
    row_room = 28.0 * k  # to the hex's sides: the neighbours' words are 17 mm off
    centre = {h["index"]: (h["cx"], h["cy"]) for h in hexes}
    names = {h: n for n, h in by_name.items()}
    champs: dict[int, list] = {}
    for seat, cid, where, hp, mx in obs["champions"]:
        champs.setdefault(by_name[where], []).append((seat, words.card(cid), hp, mx))
    marks = []
    force_word, forces_word = words.t("force"), words.t("force", True)
    for h in sorted(set(champs) | {by_name[w] for w in obs["forces"]}):
        cx, cy = centre[h]
        here = champs.get(h, [])
        if here:  # the first Champion above the tile's name
            seat, name, hp, mx = here[0]
            text = _fit(name, str(hp), badge_size, top_room)
            w = text_width(text, badge_size) + badge_size
            marks.append({"kind": "champion", "x": cx - w / 2, "y": cy + top_y0, "w": w,
                          "h": top_h, "size": badge_size, "colour": COLOURS[seat % 6],
                          "text": text, "tx": cx, "ty": cy + top_y0 + 0.72 * top_h,
                          "title": f"{name} (Seat {seat + 1}) {hp}/{mx} HP"})
        row = []
        for seat, n in obs["forces"].get(names[h], []):
            row.append({"kind": "force", "w": 2 * disc_r, "seat": seat, "n": n})
        for seat, name, hp, mx in here[1:]:
            row.append({"kind": "champion", "seat": seat, "name": name, "hp": hp, "mx": mx})
        fixed = sum(item["w"] for item in row if item["kind"] == "force")
        badges = [item for item in row if item["kind"] == "champion"]
        gap = 0.8 * k
        share = (row_room - fixed - gap * (len(row) - 1)) / max(1, len(badges))
        for item in badges:
            item["text"] = _fit(item["name"], str(item["hp"]), badge_size, share)
            item["w"] = text_width(item["text"], badge_size) + badge_size
        x = cx - (sum(item["w"] for item in row) + gap * (len(row) - 1)) / 2
        for item in row:
            colour = COLOURS[item["seat"] % 6]
            if item["kind"] == "force":
                n = item["n"]
                marks.append({"kind": "force", "cx": x + disc_r, "cy": cy + row_y, "r": disc_r,
                              "size": disc_size, "colour": colour, "text": str(n),
                              "tx": x + disc_r, "ty": cy + row_y + 0.36 * disc_size,
                              "title": f"Seat {item['seat'] + 1}: {n} "
                                       f"{force_word if n == 1 else forces_word}"})
            else:
                marks.append({"kind": "champion", "x": x, "y": cy + row_y - top_h / 2,
                              "w": item["w"], "h": top_h, "size": badge_size, "colour": colour,
                              "text": item["text"], "tx": x + item["w"] / 2,
                              "ty": cy + row_y - top_h / 2 + 0.72 * top_h,
                              "title": f"{item['name']} (Seat {item['seat'] + 1}) "
                                       f"{item['hp']}/{item['mx']} HP"})
            x += item["w"] + gap
    return marks


def board_svg(content, g, obs: dict, words) -> str:
    """The board as the print draws it, with the Bridges and units of a public observation
    (engine/views.py) of game g: the live game's, or a replay's at a point of its timeline."""
    from ..print.tiles import boardmap, common
    from .playstate import HEX_NAME

    s = g.s
    name = s.topo.name
    by_name = {name(h): h for h in range(s.topo.n)}
    capital_of = {by_name[pl["capital"]]: pl["seat"] for pl in obs["players"]
                  if pl.get("capital") in by_name}
    data = {"hexes": []}
    for h, (q, r) in enumerate(s.topo.coords):
        tile = s.tile[h] if s.tile[h] in common.KINDS else "plain"
        if h in capital_of:
            tile = "capital"
        hexd = {"q": q, "r": r, "tile": tile}
        if tile == "mine":
            hexd["mine_value"] = obs["mines"].get(name(h), s.mine_value[h])
        if h in capital_of:
            hexd["slot"] = f"S{capital_of[h] + 1}"
        data["hexes"].append(hexd)
    w, hgt = boardmap.map_size(s.topo.radius, FLAT)
    hexes = boardmap.placed_hexes(content, data, FLAT, (0.0, 0.0))
    for h, hexd in zip(range(s.topo.n), hexes, strict=True):
        hexd["index"], hexd["coord_name"] = h, name(h)
    centre = {h["index"]: (h["cx"], h["cy"]) for h in hexes}
    bridges = []
    for b in obs["bridges"]:
        a, c = (centre[by_name[x]] for x in HEX_NAME.findall(b))
        # across the shared edge only (38-62 % of the way): clear of both hexes' words
        bridges.append({"x1": a[0] + (c[0] - a[0]) * .38, "y1": a[1] + (c[1] - a[1]) * .38,
                        "x2": c[0] - (c[0] - a[0]) * .38, "y2": c[1] - (c[1] - a[1]) * .38})
    return common.render_html("play-board.svg.j2", hexes=hexes, flat=FLAT,
                              style=boardmap.map_style(FLAT, overview=True),
                              box=(-w / 2, -hgt / 2, w, hgt), bridges=bridges,
                              marks=layout(hexes, obs, by_name, words),
                              bridge_word=words.t("bridge"))
