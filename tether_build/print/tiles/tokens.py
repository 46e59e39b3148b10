"""Tokens and tracks for the table: what they are, how many, and sheets to cut out.

Counts are for 6 players (the maximum) and follow content/game.yaml where a rule names a
number:
- Cohort tokens, per faction colour: 20 of value 1 and 6 of value 5 (50 Cohorts). A
  player starts with `starting.forces` (4) and single cards deploy up to 8 at once; 50 is
  far beyond any position seen in a game, and the ones make change for the fives.
- Champion tokens, per faction colour: `champions.limit` (4), numbered 1..4, each with its
  own HP track card (cells 1..the highest printed Champion HP, 15) and an HP marker.
- Mine Value tokens: the values of `mine_values` up to `mine_value_max` (4, 5, 6, 7), as
  many of each as the most Mines on any board (7): every Mine can show any value at once.
- Bridge tokens (neutral, §4.2): (starting bridges x 6 players + one Build Bridge per
  player per round x round cap) x 1.25 spare, rounded up to ten: (12 + 60) x 1.25 -> 90.
- Gold coins: 50 x 1, 30 x 5, 10 x 10 (300 Gold; 6 x `start_gold` = 24 at the start).
- Round track (rounds 1..round cap in their Age bands) with 1 round marker.
- Permanence track 0..2 x `vp_to_win` with the winning cell marked; 2 markers per
  faction colour: Enduring Permanence (never falls) and total Permanence.
- Mana tracker per faction colour: cells 0..`resources.max_mana`, with one marker.
- 1 Lead (first-player) marker.

Sizes: the two standard craft punches. 5/8" (15.875 mm): Cohorts, Mine Values, the round
and Permanence markers and 1-Gold coins; 1" (25.4 mm): Champions, the Lead marker and the
5- and 10-Gold coins. A punch cuts on the printed circle; 1 mm of bleed outside it forgives a
punch set a little off. Bridge 20 x 4.5 mm, laid across the shared edge of two hexes (narrow
enough that a 5/8" Cohort fits the corner pocket between two Bridges of a 52 mm tile).
`tile_fit` proves they fit a tile of the default size. `square=True` (`tether print-tiles
--square-tokens`): the same tokens as squares of the same side, cut with a trimmer alone.

Faction tokens carry the faction's emblem as well as its colour (two factions whose colours
turn the same grey stay apart in grayscale and to colour-blind eyes). Mine Value tokens are
dark basalt with a light number, nothing like the yellow Gold coins. Every sheet is headed
by the game's title, the version and a contents line ("Sheet 3/6: 20 Cohort 1, 6 Cohort 5 ...
(Virteous Court)"), and a tick in both margins marks each cut between two rows.

Sheets are cut with a paper trimmer: tokens stand in rows of one height, with `CLEAR_MM`
of bare paper between the printed edges of any two tokens and between rows. So a straight
cut across the page between two rows, then between two tokens of a strip, touches no ink;
round tokens are then trimmed with scissors. A number is printed beside its icon.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import common
from .palette import GOLD_COIN
from .tiles import tile_set
from .tokenface import copy_face

BLEED_MM = 1.0
CLEAR_MM = 2.5  # bare paper between the printed edges (bleed included) of two tokens
GUTTER_MM = CLEAR_MM + 2 * BLEED_MM  # from one token's cut line to the next one's
PUNCH_SMALL, PUNCH_LARGE = 15.875, 25.4   # 5/8" and 1" circle punches
COHORT_MM, CHAMPION_MM, MARKER_MM, LEAD_MM = PUNCH_SMALL, PUNCH_LARGE, PUNCH_SMALL, PUNCH_LARGE
BRIDGE_MM = (20.0, 4.5)
MANA_TRACK_MM = (88.0, 16.0)
COINS = ((1, PUNCH_SMALL, 50), (5, PUNCH_LARGE, 30), (10, PUNCH_LARGE, 10))  # value, size, count
COHORTS = ((1, 20), (5, 6))  # value, count per faction
BOARD_GREY, BRIDGE_WOOD, COIN = "#EFECE6", "#8A6A4A", GOLD_COIN
MINE_TOKEN = "#3B3632"   # Mine Values: dark basalt, light number (Gold is yellow)
HEADER_MM = 9.0   # the title, version and contents lines atop every sheet


@dataclass
class Token:
    """One kind of token (or track) and how many to print."""

    group: str
    name: str  # player-facing name (glossary) for the manifest
    count: int
    w: float
    h: float
    face: dict = field(default_factory=dict)
    reason: str = ""
    shape: str = "circle"  # circle | rect | track
    faction: str | None = None  # faction name, for tokens in a faction's colour


def tile_fit(flat: float = common.DEFAULT_TILE_MM) -> dict:
    """Where tokens go on a tile: Bridges on all six edges, a Champion in the middle and
    Cohort-sized tokens in the six corner pockets between the Bridges. Returns the numbers
    and `ok` (everything fits without overlap)."""
    apothem = flat / 2
    bl, bw = BRIDGE_MM
    # a disc of radius r in a corner pocket at distance d from the centre must keep clear of
    # the two bridges beside it (d * sin 30 >= bw/2 + r) and stay inside the hex
    # (apothem - d * cos 30 >= r); the largest such r:
    pocket_r = (apothem - bw * math.cos(math.radians(30))) / (1 + 2 * math.cos(math.radians(30)))
    pocket_d = bw + 2 * pocket_r
    bridge_inner = apothem - bl / 2  # how far a Bridge reaches towards the centre
    corner = math.hypot(bridge_inner, bw / 2)
    centre_r = min(bridge_inner, pocket_d - COHORT_MM / 2)
    return {"tile_mm": flat, "bridge_mm": BRIDGE_MM, "bridge_into_tile_mm": bl / 2,
            "pocket_mm": round(2 * pocket_r, 2), "centre_mm": round(2 * centre_r, 2),
            "bridge_corner_clear_mm": round(corner, 2),
            "ok": 2 * pocket_r >= max(COHORT_MM, MARKER_MM) and 2 * centre_r >= CHAMPION_MM}


def _disc(colour, icon=None, value="", caption="", medallion=False, size=None, emblem=None,
          ring=None):
    return {"kind": "disc", "colour": colour, "ink": common.ink(colour), "icon": icon,
            "value": str(value), "caption": caption, "medallion": medallion, "size": size,
            "emblem": emblem, "ring": ring}


def _factions(content):
    return [(fid, f["colour"], common.plain(content, f["name"]))
            for fid, f in content.factions.items()]


def _emblem(content, fid: str) -> str | None:
    """The faction's emblem icon, if its file exists."""
    emblem = content.factions[fid].get("emblem")
    return emblem if emblem and common.icon_svg(emblem, 0, 0, 1) else None


def _max_hp(cards) -> int:
    return max((c["champion"]["hp"] for c in cards if c.get("champion")), default=10)


def token_set(content, cards=None) -> list[Token]:
    """Every token and track to print, in sheet order, with its count and the reason."""
    from ...content.cards import normalized_cards
    from .shrink import fit_tokens

    cards = normalized_cards(content) if cards is None else cards
    return fit_tokens(content, _tracks(content, cards) + _faction_tokens(content)
                      + _shared_tokens(content))


def _t(content):
    return lambda tid, plural=False: common.term(content, tid, plural)


def _tracks(content, cards) -> list[Token]:
    """Round / Age track, Permanence track, one HP track per Champion token."""
    game, t = content.game, _t(content)
    ages = [(a["numeral"], common.plain(content, a["name"]), a["rounds"])
            for a in content.ages["ages"].values()]
    rounds, win = int(game["victory"]["round_cap"]), int(game["victory"]["vp_to_win"])
    out = [Token("round_track", f"{t('round')} / {t('age')}", 1, 190.0, 27.0, {
        "kind": "round_track", "title": t("round", True), "icon": "round",
        "cells": list(range(1, rounds + 1)), "ages": ages}, "one per game", "track"),
        Token("vp_track", t("vp"), 1, 178.0, 38.0, {
            "kind": "vp_track", "title": t("vp"), "icon": "vp",
            "cells": list(range(2 * win + 1)), "win": win}, f"0..2 x {win} to win", "track")]
    hp, limit = _max_hp(cards), int(game["champions"]["limit"])
    for _, colour, fname in _factions(content):
        for n in range(1, limit + 1):
            face = {"kind": "hp_track", "title": t("hp"), "colour": colour,
                    "ink": common.ink(colour), "number": n, "cells": list(range(1, hp + 1))}
            out.append(Token("hp_track", f"{t('hp')} ({t('champion')} 1-{limit})", 1, 88.0,
                             22.0, face, f"one per {t('champion')} token, cells 1..{hp}",
                             "track", fname))
    return out + _mana_tracks(content)


def _mana_tracks(content) -> list[Token]:
    """One Mana tracker per faction colour: cells 0..resources.max_mana."""
    t, most = _t(content), int(content.game["resources"]["max_mana"])
    return [Token("mana_track", t("mana"), 1, MANA_TRACK_MM[0], MANA_TRACK_MM[1],
                  {"kind": "mana_track", "title": t("mana"), "icon": "mana", "colour": colour,
                   "ink": common.ink(colour), "cells": list(range(most + 1))},
                  f"one per player, 0..{most}", "track", fname)
            for _, colour, fname in _factions(content)]


def _faction_tokens(content) -> list[Token]:
    """Cohorts, Champions, Permanence markers and HP markers in each faction's colour."""
    t, limit = _t(content), int(content.game["champions"]["limit"])
    out = []
    for fid, colour, fname in _factions(content):
        emblem = _emblem(content, fid)
        for value, count in COHORTS:
            out.append(Token("cohort", f"{t('force')} {value}", count, COHORT_MM, COHORT_MM,
                             _disc(colour, "force", value, medallion=True, emblem=emblem),
                             "ones make change for fives", faction=fname))
        out.append(Token("champion", f"{t('champion')} 1-{limit}", limit, CHAMPION_MM,
                         CHAMPION_MM, _disc(colour, "champion", "", medallion=True,
                                            emblem=emblem),
                         f"{t('champion')} limit {limit}", faction=fname))
        out.append(Token("vp_marker", f"{t('permanent_vp')} / {t('vp')}", 2, MARKER_MM,
                         MARKER_MM, _disc(colour, "vp", "", medallion=True, emblem=emblem),
                         "one each", faction=fname))
    for _, colour, fname in _factions(content):
        out.append(Token("hp_marker", f"{t('hp')} marker", limit, 8.0, 8.0,
                         {"kind": "square", "colour": colour}, "one per HP track", "rect",
                         fname))
        out.append(Token("mana_marker", f"{t('mana')} marker", 1, 8.0, 8.0,
                         {"kind": "square", "colour": colour}, f"one per {t('mana')} tracker",
                         "rect", fname))
    return out


def _shared_tokens(content) -> list[Token]:
    """Mine Values, Bridges, Gold, the round marker and the Lead marker."""
    game, t = content.game, _t(content)
    board = game["board"]
    mines = max(int(v["mine"]) for v in board["tile_counts"].values())
    low = min(int(v) for v in board["mine_values"])
    values = sorted({int(v) for v in board["mine_values"]}
                    | set(range(low, int(board["mine_value_max"]) + 1)))
    mine_colour = next(s.colour for s in tile_set(content) if s.kind == "mine")
    out = [Token("mine_value", f"{t('mine_value')} {v}", mines, MARKER_MM, MARKER_MM,
                 _disc(MINE_TOKEN, "mine", v, medallion=True, ring=mine_colour),
                 f"most {t('mine', True)} on a board, "
                 f"{t('mine_value')} {values[0]}-{values[-1]}")
           for v in values]
    players, rounds = int(game["players"]["max"]), int(game["victory"]["round_cap"])
    start = int(game["starting"]["bridges"]) * players
    bridges = math.ceil((start + players * rounds) * 1.25 / 10) * 10
    out.append(Token("bridge", t("bridge"), bridges, *BRIDGE_MM,
                     {"kind": "bridge", "colour": BRIDGE_WOOD},
                     f"({start} + {players} x {rounds}) x 1.25", "rect"))
    total = sum(value * count for value, _, count in COINS)
    out += [Token("gold", f"{t('gold')} {value}", count, size, size, _disc(COIN, "gold", value),
                  f"{total} in all") for value, size, count in COINS]
    out.append(Token("round_marker", f"{t('round')} marker", 1, MARKER_MM, MARKER_MM,
                     _disc(BOARD_GREY, "round"), "one per game"))
    out.append(Token("lead", t("lead"), 1, LEAD_MM, LEAD_MM,
                     _disc(BOARD_GREY, "lead", caption=t("lead")), "one per game"))
    return out


def _row_class(token: Token) -> tuple[str, float, float]:
    """Tokens share a row only if they share this: shape class, width and height (every
    row a strip of one height, which one straight cut frees). Markers of every colour
    (the HP and Mana markers, squares of one size) share their rows."""
    shape = "disc" if token.shape in ("circle", "square") else token.shape
    return (shape, token.w if shape != "disc" else 0.0, token.h)


def pack(tokens: list[Token], area, content) -> list[list[dict]]:
    """Place every copy of every token on pages, row by row; a new row for a new shape or
    height, so every row is a strip a trimmer cuts off in one straight cut."""
    x0, y0, w, h = area
    pages: list[list[dict]] = [[]]
    x, y, row_h, prev = x0, y0, 0.0, None
    for token in tokens:
        for i in range(token.count):
            cls = _row_class(token)
            if x + token.w > x0 + w + 1e-6 or (prev is not None and cls != prev and x > x0):
                x, y, row_h = x0, y + row_h + GUTTER_MM, 0.0
            if y + token.h > y0 + h + 1e-6:
                pages.append([])
                x, y, row_h = x0, y0, 0.0
            face = copy_face(token, i, content)
            pages[-1].append({"x": x, "y": y, "w": token.w, "h": token.h, "shape": token.shape,
                              "face": face})
            x += token.w + GUTTER_MM
            row_h = max(row_h, token.h)
            prev = cls
    return pages


TICK_MM = 4.0   # a column in each side margin for the ticks that mark the cuts


def sheet_area(paper: str) -> tuple[float, float, float, float]:
    """Where tokens go on a sheet of `paper` (x, y, width, height in mm): the safe area less
    the head line, the tick columns and the tokens' bleed, so a token's bleed stays inside
    the safe area."""
    x0, y0, w, h = common.safe_area(paper)
    b = BLEED_MM
    return (x0 + b + TICK_MM, y0 + b + HEADER_MM, w - 2 * b - 2 * TICK_MM,
            h - 2 * b - HEADER_MM)


def shaped(token_list: list[Token], square: bool) -> list[Token]:
    """The tokens as printed: round, or (square) every round token a square of its size."""
    from dataclasses import replace

    return [replace(t, shape="square") if square and t.shape == "circle" else t
            for t in token_list]


def _contents(page: list[dict]) -> str:
    """What a sheet holds, in the glossary's words, faction by faction in sheet order.
    Factions whose tokens on the sheet are the same share one entry ("Leadbound, Cipher
    (each): 4 HP marker, 1 Mana marker"), so the line stays short enough to print whole."""
    groups: dict[str, dict[str, int]] = {}
    for item in page:
        names = groups.setdefault(item.get("faction") or "", {})
        names[item["name"]] = names.get(item["name"], 0) + 1
    merged: dict[str, list[str]] = {}
    for faction, names in groups.items():
        what = ", ".join(f"{n} {name}" for name, n in names.items())
        merged.setdefault(what, []).append(faction)
    parts = []
    for what, factions in merged.items():
        if factions == [""]:
            parts.append(what)
        else:
            each = " (each)" if len(factions) > 1 else ""
            parts.append(f"{', '.join(factions)}{each}: {what}")
    return "; ".join(parts)


HEAD_SIZE_MM, HEAD_MIN_MM = 2.2, 2.117   # the contents line: 6.2 pt, at least 6 pt
HEAD_LINES = 2


def _wrap(text: str, width_mm: float, lines: int = HEAD_LINES) -> tuple[list[str], float]:
    """`text` in at most `lines` lines of `width_mm`, measured in the font it prints in
    (the sheet head's regular sans): the lines and the font size in mm, HEAD_SIZE_MM unless
    it must shrink to fit, never under HEAD_MIN_MM (6 pt). Text that still needs more lines
    comes back in more lines: the fit check (head_overflows) reports it."""
    from .textwidth import text_mm

    size = HEAD_SIZE_MM
    while True:
        out: list[str] = []
        for word in text.split(" "):
            line = f"{out[-1]} {word}" if out else word
            if out and text_mm(line, size, "sans") <= width_mm:
                out[-1] = line
            else:
                out.append(word)
        if len(out) <= lines or size <= HEAD_MIN_MM:
            return out, round(size, 3)
        size = max(HEAD_MIN_MM, size - 0.05)


def head_overflows(pages: list[list[dict]]) -> list[tuple[int, str, str]]:
    """(sheet, field, how far) for each sheet head whose contents need more lines than the
    head holds, or whose title or a line runs past the head's width."""
    from .textwidth import text_mm

    out = []
    for n, page in enumerate(pages, start=1):
        head = next((i for i in page if i["shape"] == "header"), None)
        if head is None:
            continue
        face = head["face"]
        if len(face["lines"]) > HEAD_LINES:
            lines = len(face["lines"])
            out.append((n, "contents", f"{lines} lines, the head holds {HEAD_LINES} at 6 pt"))
        widths = [("title", text_mm(face["title"], 2.6, "sans-bold"))] + [
            ("contents", text_mm(line, face["size"], "sans")) for line in face["lines"]]
        for what, width in widths:
            if width - head["w"] > 0.2:
                out.append((n, what, f"{width - head['w']:.1f} mm past the head"))
    return out


def with_heads(pages: list[list[dict]], paper: str, title: str) -> list[list[dict]]:
    """Every page with its head line (title, version, "Sheet i/n" and its contents) and a
    tick in both margins at the middle of every gap between two rows (and above the first,
    below the last), where the trimmer's cuts go."""
    x0, y0, w, h = common.safe_area(paper)
    out = []
    for n, page in enumerate(pages, start=1):
        lines, size = _wrap(_contents(page), w - 2 * TICK_MM)
        head = {"x": x0 + TICK_MM, "y": y0, "w": w - 2 * TICK_MM, "h": HEADER_MM - 1.5,
                "shape": "header",
                "face": {"title": f"{title} · Sheet {n}/{len(pages)}", "lines": lines,
                         "size": size}}
        rows = sorted({(round(i["y"], 3), round(i["y"] + i["h"], 3)) for i in page})
        tops = sorted({r[0] for r in rows})
        cuts = [round(y - BLEED_MM - CLEAR_MM / 2, 3) for y in tops]
        cuts.append(round(max(r[1] for r in rows) + BLEED_MM + CLEAR_MM / 2, 3))
        top = y0 + HEADER_MM - 2.5
        ticks = [{"x": x, "y": top, "w": TICK_MM - 2 * BLEED_MM, "h": y0 + h - top,
                  "shape": "ticks", "face": {"cuts": [round(c - top, 3) for c in cuts]}}
                 for x in (x0, x0 + w - TICK_MM + 2 * BLEED_MM)]
        out.append([head, *ticks, *page])
    return out


def _labelled(token_list: list[Token], area, content) -> list[list[dict]]:
    """pack, each item also naming its token and faction (for the sheet's contents line)."""
    pages = pack(token_list, area, content)
    names = [(t.name, t.faction) for t in token_list for _ in range(t.count)]
    k = 0
    for page in pages:
        for item in page:
            item["name"], item["faction"] = names[k]
            k += 1
    return pages


def render_tokens(content, paper: str, cards=None, square: bool = False) -> bytes:
    """The token and track sheets of one paper size as PDF bytes."""
    from ...content.versions.gitcontent import describe

    width, height = common.paper_size(paper)
    token_list = shaped(token_set(content, cards), square)
    pages = _labelled(token_list, sheet_area(paper), content)
    name = describe(content.root, dirty=False)
    version = str(content.game.get("version", "")) + (f" ({name})" if name else "")
    title = f"{common.plain(content, content.game.get('title', ''))} {version}".strip()
    headed = with_heads(pages, paper, title)
    drawn = [[{k: v for k, v in item.items() if k not in ("name", "faction")} for item in page]
             for page in headed]   # (the contents line's names: drawn by the head alone)
    out = common.to_pdf_pieces("tokens.html.j2", drawn, (width, height), BLEED_MM,
                               shared=token_pieces(token_list, content),
                               **piece_context(content))
    out.head_overflows = tuple(head_overflows(headed))   # the fit check reads them
    return out


def piece_context(content) -> dict:
    """What the token template draws every piece with, besides the piece."""
    return {"cut": common.CUT_DARK, "bleed": BLEED_MM, "age_word": common.term(content, "age")}


def token_pieces(token_list: list[Token], content) -> list[dict]:
    """Every distinct token drawing ({w, h, shape, face}), in sheet order: the pieces the
    sheets of every paper and the Tabletop Simulator table draw (one document of pieces,
    common.pieces_pdf)."""
    out: dict[str, dict] = {}
    for token in token_list:
        for i in range(token.count):
            item = {"w": token.w, "h": token.h, "shape": token.shape,
                    "face": copy_face(token, i, content)}
            out.setdefault(common.piece_key(item), item)
    return list(out.values())


def pieces_pdf(content, cards=None) -> tuple[common.Pdf, dict[str, int]]:
    """The round tokens' pieces document (as the sheets lay it out: the same document, so
    one layout serves both) and each piece's page, by common.piece_key."""
    items = token_pieces(token_set(content, cards), content)
    pdf = common.pieces_pdf("tokens.html.j2", items, BLEED_MM, **piece_context(content))
    return pdf, {common.piece_key(item): n for n, item in enumerate(items)}


def sheet_count(content, paper: str, cards=None) -> int:
    """Number of token and track sheets for one paper size (as render_tokens packs them)."""
    return len(pack(token_set(content, cards), sheet_area(paper), content))
