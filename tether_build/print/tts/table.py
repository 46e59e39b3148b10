"""A whole Tabletop Simulator table: one saved-object JSON (build/tts/table.json).

The table holds the board (the blank grid of the build's player count, the same drawing as
the printed grid map), the special hex tiles (Axis Mundi, Forges and Mines laid where the
build's seed puts them, each Mine with its Mine Value token; the Capitals in a row above
the board, for the Capital draft), the Round and Permanence tracks, one bag per faction
(Cohorts, Champions, Permanence, HP and Mana markers, HP tracks and the Mana tracker), bags
of Gold, Mine Values and Bridges, the Lead and Round markers, the dice, and every deck.

Every picture but the card sheets is rasterized here from the PDF the printed sheets draw
(the same template and piece), cut to its shape with a transparent surround, and written
to build/tts/table/; the card sheets are the cards stage's (build/tts/<deck>.png). Decks
use print/tts/decks.py's game-wide CustomDeck keys, so no two decks share one.

Sizes: TTS does not store physical sizes. One table unit is taken as an inch (the TTS
knowledge base: "in-game units (about an inch)") and a Custom_Token at scale 1 as
NATIVE_UNITS across its longer side: an assumption not measured in TTS here; docs/tts.md
says how to correct it. Positions and scales both follow from it, so pieces keep their
proportions and their places on the board whatever it is.

`check_save` is the format's rules a save must keep (tests run it on a real build).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..tiles import boardmap, common, tiles, tokenface, tokens
from ..tiles.components import dice_count
from . import decks as tts

UNIT_MM = 25.4
NATIVE_UNITS = 2.0
DPI = {"token": 240, "tile": 150, "track": 150, "board": 90}
THICK = {"token": 0.06, "tile": 0.08, "track": 0.04, "board": 0.1}   # table units
KNOWN_OBJECTS = frozenset({"Custom_Token", "Custom_Tile", "Bag", "DeckCustom", "Card",
                           "Die_6"})
TABLE = "tts/table.json"
IMAGES = "tts/table"
Y = 1.2   # height objects are dropped from


@dataclass
class Table:
    """The save being assembled: objects, and images by file name (each drawn on demand)."""

    url: str
    objects: list[dict] = field(default_factory=list)
    # the pictures by file name, each made on demand (its PDF laid out or read from the
    # render cache; Picture.png() or pngs() rasterize it)
    images: dict[str, Callable[[], Picture]] = field(default_factory=dict)
    guids: set[str] = field(default_factory=set)
    deck_files: set[str] = field(default_factory=set)   # the cards stage's, under build/
    # () -> the tokens' pieces document and each piece's page (tokens.pieces_pdf), made once
    pieces: Callable[[], tuple[bytes, dict[str, int]]] = lambda: (b"", {})

    def guid(self, seed: str) -> str:
        """A GUID (6 hex digits) from the object's place in the save: the same every build."""
        n = 0
        while True:
            g = hashlib.sha1(f"{seed}|{n}".encode()).hexdigest()[:6]
            if g not in self.guids:
                self.guids.add(g)
                return g
            n += 1

    def image(self, name: str, draw: Callable[[], Picture]) -> str:
        self.images.setdefault(name, draw)
        return f"{self.url}/table/{name}"


def _place(x_mm: float, y_mm: float, y: float = Y, rot_y: float = 180.0) -> tuple:
    """Table coordinates of a point `x_mm` right of and `y_mm` below the board's centre (the
    page's top is the table's far side)."""
    return x_mm / UNIT_MM, y, -y_mm / UNIT_MM, rot_y


def _scale(w_mm: float, h_mm: float) -> float:
    return round(max(w_mm, h_mm) / UNIT_MM / NATIVE_UNITS, 4)


def _rgb(colour: str) -> dict:
    return {k: round(int(colour[i:i + 2], 16) / 255, 4) for k, i in zip("rgb", (1, 3, 5),
                                                                        strict=True)}


# ---- pictures: the printed drawing, rasterized and cut to shape ------------------------------

_OWN_CODE = Path(__file__).read_bytes()   # the code that cuts the pictures, in their key


@dataclass(frozen=True)
class Picture:
    """One picture of the table: page `page` of `pdf` at `dpi`, cut to the w x h mm at
    `margin`, outside `shape` (circle, hex, rect, or drawn: what the page draws, on a
    transparent ground) transparent. png() gives its PNG bytes."""

    pdf: bytes
    margin: float
    w: float
    h: float
    dpi: int
    shape: str
    page: int = 0

    def key(self) -> str:
        """Its render-cache key: the PDF's bytes (their SHA-256: the pictures of one document
        share it, hashed once), the cut, this module's code and the rasterizing libraries'
        versions."""
        from .. import cache as render_cache

        return render_cache.digest("tts-picture/3", _pdf_digest(self.pdf), repr(
            (self.margin, self.w, self.h, self.dpi, self.shape, self.page)), _OWN_CODE,
            render_cache.versions("pypdfium2", "pillow"))

    def png(self) -> bytes:
        """The PNG bytes; from the render cache when the stage opened one (common.cached)
        and it holds this picture (a card's text edit changes the table's JSON, not one of
        its pictures: they are not drawn again)."""
        return pngs({"": self})[""]


@functools.lru_cache(maxsize=4)
def _pdf_digest(pdf: bytes) -> str:
    """SHA-256 of a picture's document, once a document (the tokens' pieces document is the
    document of about a hundred pictures: its bytes were hashed once a picture)."""
    return hashlib.sha256(pdf).hexdigest()


def pngs(pictures: dict[str, Picture], workers: int = 1) -> dict[str, bytes]:
    """name -> PNG bytes of each picture: those in the render cache (common.cached) read
    from it, the others rasterized (over `workers` forked processes when there are at
    least MIN_PER_WORKER each: the same bytes whatever the number) and stored."""
    store = common.current_cache()
    keys = {name: pic.key() for name, pic in pictures.items()} if store is not None else {}
    out: dict[str, bytes] = {}
    for name, key in keys.items():
        hit = store.get("tts-pictures", key)
        if hit is not None:
            out[name] = hit
    missing = [name for name in pictures if name not in out]
    for name, png in zip(missing, _rasterize_all([pictures[n] for n in missing], workers)):
        out[name] = png
        if store is not None:
            store.put("tts-pictures", keys[name], png)
    return out


MIN_PER_WORKER = 16   # pictures: fewer are not worth a fork (a forked process costs a few)
_JOB: list[Picture] = []   # set before forking, read by _rasterize_one in the workers


def _rasterize_all(pictures: list[Picture], workers: int) -> list[bytes]:
    import multiprocessing

    workers = max(1, min(workers, len(pictures) // MIN_PER_WORKER))
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [_rasterize(p) for p in pictures]
    from ...forking import fork_pool

    _JOB[:] = pictures   # (inherited by the workers: no PDF is pickled)
    try:
        with fork_pool(workers) as pool:
            return list(pool.map(_rasterize_one, range(len(pictures)), chunksize=4))
    finally:
        _JOB.clear()


def _rasterize_one(index: int) -> bytes:
    return _rasterize(_JOB[index])


def _rasterize(picture: Picture) -> bytes:
    import pypdfium2 as pdfium

    pdf, margin, w, h, dpi, shape = (picture.pdf, picture.margin, picture.w, picture.h,
                                     picture.dpi, picture.shape)
    doc = pdfium.PdfDocument(pdf)
    try:   # "drawn": what the page draws, on a transparent ground (the board's outline)
        image = doc[picture.page].render(
            scale=dpi / 72, fill_color=(255, 255, 255, 0 if shape == "drawn" else 255)
        ).to_pil().convert("RGBA")
    finally:
        doc.close()
    px = dpi / 25.4
    box = (round(margin * px), round(margin * px), round((margin + w) * px),
           round((margin + h) * px))
    image = image.crop(box)
    if shape not in ("rect", "drawn"):
        image.putalpha(_mask(shape, image.size))
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()


@functools.lru_cache(maxsize=64)
def _mask(shape: str, size: tuple[int, int]):
    """The alpha of a `shape` (circle or hex) picture of `size` px: drawn four times larger,
    then reduced, for a smooth edge; made once per shape and size (pictures of one size
    share it: putalpha copies it)."""
    from PIL import Image, ImageDraw

    k = 4
    mask = Image.new("L", (size[0] * k, size[1] * k), 0)
    draw = ImageDraw.Draw(mask)
    W, H = mask.size
    if shape == "circle":
        draw.ellipse((0, 0, W - 1, H - 1), fill=255)
    else:   # pointy-top hex filling the box
        draw.polygon([(W / 2, 0), (W, H / 4), (W, 3 * H / 4), (W / 2, H), (0, 3 * H / 4),
                      (0, H / 4)], fill=255)
    return mask.resize(size, Image.LANCZOS)


def _token_png(table: Table, item: dict, dpi: int) -> Picture:
    """A token's picture: its page of the token sheets' pieces document (the same layout)."""
    pdf, pages = table.pieces()
    shape = "circle" if item["shape"] == "circle" else "rect"
    return Picture(pdf, tokens.BLEED_MM, item["w"], item["h"], dpi, shape,
                   pages[common.piece_key(item)])


TILE_MARGIN_MM = 2.0   # around a tile on its page of the table's tiles document


def _tile_pngs(content, flat: float) -> Callable[[tiles.TileSpec], Picture]:
    """tile -> its picture: the page of one document holding every tile the table shows
    (a Capital per faction, one of each other special kind), each alone on a page of its
    size (the printed tile's drawing, its cut line in the rim's colour), laid out when
    the first picture is drawn; was a document a tile."""
    from functools import cache

    m, s = TILE_MARGIN_MM, common.hex_radius(flat)
    specs = [spec for spec in tiles.tile_set(content) if spec.kind != "plain"]

    @cache
    def document() -> bytes:
        return tiles.faces_pdf(specs, m, rim=common.RIM, cut=common.RIM, cut_width=0.2,
                               flat=flat, texture_ink=common.PLAIN_TEXTURE, version="")

    def png(spec: tiles.TileSpec) -> Picture:
        return Picture(document(), m, flat, 2 * s, DPI["tile"], "hex", specs.index(spec))
    return png


def _board_png(content, grid: dict, flat: float) -> Picture:
    m = 2.0
    w, h = boardmap.map_size(grid["radius"], flat)
    return Picture(boardmap.render_whole(content, grid, flat, m), m, w, h, DPI["board"],
                   "drawn")


# ---- objects -------------------------------------------------------------------------------

def _base(table: Table, name: str, nickname: str, where: tuple, scale: float = 1.0,
          description: str = "", locked: bool = False, face_down: bool = False) -> dict:
    x, y, z, rot_y = where
    return {"GUID": table.guid(f"{name}|{nickname}|{len(table.guids)}"), "Name": name,
            "Nickname": nickname, "Description": description,
            "Transform": tts.transform(x, y, z, scale, rot_y, face_down), "Locked": locked,
            "Grid": False, "Snap": True, "Tooltip": True}


def _token(table: Table, nickname: str, image: str, w_mm: float, h_mm: float, where: tuple,
           kind: str = "token", locked: bool = False, description: str = "") -> dict:
    state = _base(table, "Custom_Token", nickname, where, _scale(w_mm, h_mm), description,
                  locked)
    state["CustomImage"] = {"ImageURL": image, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                            "WidthScale": 0.0, "CustomToken": {
                                "Thickness": THICK[kind], "MergeDistancePixels": 15.0,
                                "StandUp": False, "Stackable": kind == "token"}}
    return state


def _bag(table: Table, nickname: str, colour: str, where: tuple, contents: list[dict],
         description: str = "") -> dict:
    state = _base(table, "Bag", nickname, where, 1.0, description)
    state["ColorDiffuse"] = _rgb(colour)
    state["ContainedObjects"] = contents
    return state


def _item_name(token: tokens.Token, face: dict) -> str:
    who = f" ({token.faction})" if token.faction else ""
    number = face.get("value") if token.group.startswith("champion") else ""
    caption = face.get("caption") if token.group.startswith("vp_marker") else ""
    return " ".join(x for x in (token.name, number, caption) if x) + who


def _token_objects(table: Table, content, token: tokens.Token, where: tuple) -> list[dict]:
    """Every copy of a printed token as a Custom_Token (copies that look alike share one
    picture)."""
    out = []
    kind = "track" if token.shape == "track" else "token"
    dpi = DPI[kind]
    for i in range(token.count):
        face = tokenface.copy_face(token, i, content)
        item = {"w": token.w, "h": token.h, "shape": token.shape, "face": face}
        key = hashlib.sha1(json.dumps(item, sort_keys=True, default=str).encode()).hexdigest()
        name = f"{token.group}-{key[:10]}.png"
        url = table.image(name, lambda item=item: _token_png(table, item, dpi))
        out.append(_token(table, _item_name(token, face), url, token.w, token.h, where, kind))
    return out


def _decks(table: Table, content, cards: list[dict], x0: float) -> None:
    """Every deck (the full print: one Starter set per player), face down in a column left
    of the board, with the game-wide CustomDeck keys of print/tts/decks.py."""
    from ..cards.build import PrintOptions, select_cards

    chosen = select_cards(content, cards, PrintOptions())
    order = list(content.ages["decks"])
    decks = list(dict.fromkeys(c["deck"] for c in chosen))
    for n, deck in enumerate(decks):
        deck_cards = [c for c in chosen if c["deck"] == deck]
        faces = tts.faces_meta(lambda s: common.plain(content, s), deck_cards)
        where = tts.transform(x0 - 3.0 * (n % 2), Y, 7.5 - 4.2 * (n // 2))
        state = tts.deck_state(deck, order.index(deck),
                               common.plain(content, content.ages["decks"][deck]["name"]),
                               faces, tts.sheet_grids(len(faces)), table.url, where)
        table.deck_files |= {f"tts/{tts.sheet_name(deck, i)}"
                             for i in range(len(tts.sheet_grids(len(faces))))}
        table.deck_files.add(f"tts/{deck}-back.png")
        state["GUID"] = table.guid(f"deck|{deck}")
        for card in state.get("ContainedObjects", []):
            card["GUID"] = table.guid(f"card|{deck}|{card['CardID']}")
        table.objects.append(state)


def build_table(content, cards: list[dict], players: int, seed: int, url: str,
                flat: float = common.DEFAULT_TILE_MM) -> Table:
    """The whole table for `players` on the board of `seed` (see the module doc)."""
    from functools import cache

    url = url.rstrip("/")
    table = Table(url, pieces=cache(lambda: tokens.pieces_pdf(content, cards)))
    game = content.game
    data = boardmap.layout(players, seed, game)
    grid = next(g for g in boardmap.blank_layouts(game) if players in g["players"])
    map_w, map_h = boardmap.map_size(grid["radius"], flat)
    board_url = table.image(f"board-{boardmap.grid_name(grid)}.png",
                            lambda: _board_png(content, grid, flat))
    board = _token(table, common.plain(content, game["title"]), board_url, map_w, map_h,
                   _place(0, 0, 1.0), "board", locked=True,
                   description=f"P{'-'.join(map(str, grid['players']))}: seed {seed}")
    table.objects.append(board)
    specs = {s.kind: s for s in tiles.tile_set(content) if s.kind not in ("capital", "plain")}
    tile_png = _tile_pngs(content, flat)
    tile_url = {k: table.image(f"tile-{k}.png", lambda s=s: tile_png(s))
                for k, s in specs.items()}
    hex_h = 2 * common.hex_radius(flat)
    all_tokens = tokens.token_set(content, cards)
    mine_tokens = {int(tok.face["value"]): tok for tok in all_tokens if tok.group == "mine_value"}
    used_values: dict[int, int] = {}
    for h in data["hexes"]:
        if h["tile"] not in specs:
            continue
        x, y = common.axial_mm(h["q"], h["r"], flat)
        spec = specs[h["tile"]]
        table.objects.append(_token(table, spec.name, tile_url[h["tile"]], flat, hex_h,
                                    _place(x, y, Y), "tile", description=f"{h['q']},{h['r']}"))
        if "mine_value" in h:
            value = int(h["mine_value"])
            tok = mine_tokens[value]
            used_values[value] = used_values.get(value, 0) + 1
            table.objects += _token_objects(table, content, tokens.Token(
                tok.group, tok.name, 1, tok.w, tok.h, tok.face), _place(x, y, Y + 0.4))
    # Capitals, one per faction, in a row above the board for the Capital draft
    caps = [s for s in tiles.tile_set(content) if s.kind == "capital"]
    for i, spec in enumerate(caps):
        x = (i - (len(caps) - 1) / 2) * (flat + 6)
        cap_url = table.image(f"tile-capital-{i + 1}.png",
                              lambda s=spec: tile_png(s))
        table.objects.append(_token(table, f"{spec.name} ({spec.sub})", cap_url, flat, hex_h,
                                    _place(x, -map_h / 2 - hex_h, Y), "tile"))
    _tracks_and_bags(table, content, all_tokens, used_values, map_w, map_h, hex_h)
    _dice(table, content, cards, map_w)
    _decks(table, content, cards, -map_w / 2 / UNIT_MM - 3.5)
    return table


def _tracks_and_bags(table, content, all_tokens, used_values, map_w, map_h, hex_h) -> None:
    """The Round and Permanence tracks above the Capitals; a bag per faction and the shared
    bags below the board; the Lead and Round markers loose beside the tracks."""
    top = -map_h / 2 - 2 * hex_h - 10
    by_faction: dict[str, list] = {}
    shared: dict[str, list] = {}
    loose = []
    for tok in all_tokens:
        if tok.group in ("round_track", "vp_track"):
            y = top - (0 if tok.group == "round_track" else tok.h + 40)
            table.objects += _token_objects(table, content, tok, _place(0, y - tok.h / 2))
        elif tok.faction:
            by_faction.setdefault(tok.faction, []).append(tok)
        elif tok.group == "mine_value":
            spare = tokens.Token(tok.group, tok.name, tok.count - used_values.get(
                int(tok.face["value"]), 0), tok.w, tok.h, tok.face)
            shared.setdefault(common.term(content, "mine_value", True), []).append(spare)
        elif tok.group in ("round_marker", "lead"):
            loose.append(tok)
        else:
            shared.setdefault(tok.name.rsplit(" ", 1)[0] if tok.group == "gold" else tok.name,
                              []).append(tok)
    colours = {common.plain(content, f["name"]): f["colour"] for f in content.factions.values()}
    row = map_h / 2 + 50   # below the board (a bag is about 50 mm across)
    names = list(by_faction)
    for i, fname in enumerate(names):
        x = (i - (len(names) - 1) / 2) * 80
        inside = [o for tok in by_faction[fname]
                  for o in _token_objects(table, content, tok, _place(x, row))]
        table.objects.append(_bag(table, fname, colours.get(fname, "#888888"), _place(x, row),
                                  inside, _contents(by_faction[fname])))
    for i, (name, toks) in enumerate(shared.items()):
        x = (i - (len(shared) - 1) / 2) * 80
        inside = [o for tok in toks for o in _token_objects(table, content, tok,
                                                             _place(x, row + 65))]
        table.objects.append(_bag(table, name, "#8A6A4A", _place(x, row + 65), inside,
                                  _contents(toks)))
    for i, tok in enumerate(loose):
        table.objects += _token_objects(table, content, tok,
                                        _place(-map_w / 2 + 20 + 40 * i, top + 25))


def _contents(toks) -> str:
    return "; ".join(f"{t.count} {t.name}" for t in toks if t.count)


def _dice(table: Table, content, cards: list[dict], map_w: float) -> None:
    n = dice_count(cards)
    word = common.term(content, "die")
    for i in range(n):
        x = map_w / 2 + 40 + (i % 3) * 25
        state = _base(table, "Die_6", word, _place(x, -60 + (i // 3) * 25))
        table.objects.append(state)


def save_doc(content, table: Table) -> dict:
    """The saved-object file: TTS loads every object of ObjectStates (Objects > Saved
    Objects)."""
    title = common.plain(content, content.game["title"])
    return {"SaveName": f"{title} table", "GameMode": title, "Date": "", "VersionNumber": "",
            "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "TabStates": {},
            "ObjectStates": table.objects}


def table_files(content, cards: list[dict], players: int, seed: int, url: str,
                flat: float = common.DEFAULT_TILE_MM, workers: int = 1) -> dict[str, bytes]:
    """{relative path: bytes}: tts/table.json and every picture it names under tts/table/
    (those not in the render cache rasterized over `workers` processes: pngs)."""
    table = build_table(content, cards, players, seed, url, flat)
    doc = save_doc(content, table)
    problems = check_save(doc, {f"{IMAGES}/{n}" for n in table.images}, url,
                          extra=table.deck_files)
    if problems:
        raise common.TetherError("the Tabletop Simulator table breaks the save format:\n  "
                                 + "\n  ".join(problems))
    files = {TABLE: (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()}
    drawn = pngs({name: draw() for name, draw in sorted(table.images.items())}, workers)
    files |= {f"{IMAGES}/{name}": drawn[name] for name in sorted(drawn)}
    return files


# ---- the save format's rules ---------------------------------------------------------------

def _walk(objects: list[dict]):
    for obj in objects:
        yield obj
        yield from _walk(obj.get("ContainedObjects", []))


def check_save(doc: dict, files: set[str] | None, url: str, extra: set[str] | None) -> list[str]:
    """Every way `doc` breaks the save format's rules: GUIDs six hex digits and unique;
    every object type one TTS knows; one definition per CustomDeck key in the whole save
    and no key shared by two decks; each CardID = key * 100 + index with its key in the
    card's CustomDeck, inside the sheet; DeckIDs the cards' own; every picture under `url`
    and (files given) a file of the build (`files`: the table's own, `extra`: the cards
    stage's; relative paths under build/)."""
    problems: list[str] = []
    guids: dict[str, str] = {}
    decks: dict[str, str] = {}   # key -> the deck object (GUID) that owns it
    defs: dict[str, str] = {}
    known = set(files or ()) | set(extra or ())
    base = url.rstrip("/") + "/"

    def image(where: str, link: str) -> None:
        if not link:
            return
        if not link.startswith(base):
            problems.append(f"{where}: {link} is not under {base}")
        elif files is not None and "tts/" + link[len(base):] not in known:
            problems.append(f"{where}: {link} names no file of the build")

    for obj in _walk(doc.get("ObjectStates", [])):
        name, guid = obj.get("Name"), obj.get("GUID", "")
        where = f"{name} {obj.get('Nickname', '')!r} ({guid})"
        if name not in KNOWN_OBJECTS:
            problems.append(f"{where}: unknown object type {name!r}")
        if not (len(guid) == 6 and all(c in "0123456789abcdef" for c in guid)):
            problems.append(f"{where}: GUID {guid!r} is not six hex digits")
        elif guid in guids:
            problems.append(f"{where}: GUID {guid} also on {guids[guid]}")
        else:
            guids[guid] = where
        img = obj.get("CustomImage")
        if img:
            image(where, img.get("ImageURL", ""))
            image(where, img.get("ImageSecondaryURL", ""))
        for key, custom in obj.get("CustomDeck", {}).items():
            text = json.dumps(custom, sort_keys=True)
            if defs.setdefault(key, text) != text:
                problems.append(f"{where}: CustomDeck {key} defined twice, differently")
            image(where, custom.get("FaceURL", ""))
            image(where, custom.get("BackURL", ""))
            if custom.get("NumWidth", 0) > tts.MAX_COLS or custom.get("NumHeight", 0) > tts.MAX_ROWS:
                problems.append(f"{where}: CustomDeck {key} sheet larger than 10 x 7")
            if name == "DeckCustom" or (name == "Card" and "ContainedObjects" not in obj):
                owner = decks.setdefault(key, guid) if name == "DeckCustom" else None
                if owner is not None and owner != guid:
                    problems.append(f"{where}: CustomDeck {key} also used by deck {owner}")
        if name == "Card":
            card_id, custom = obj.get("CardID"), obj.get("CustomDeck", {})
            key = str(card_id // 100) if isinstance(card_id, int) else None
            if key not in custom:
                problems.append(f"{where}: CardID {card_id} has no CustomDeck {key}")
            else:
                sheet = custom[key]
                if card_id % 100 >= sheet["NumWidth"] * sheet["NumHeight"]:
                    problems.append(f"{where}: CardID {card_id} is off its sheet")
        if name == "DeckCustom":
            ids = [c.get("CardID") for c in obj.get("ContainedObjects", [])]
            if obj.get("DeckIDs") != ids:
                problems.append(f"{where}: DeckIDs are not its cards' CardIDs")
            for card_id in ids:
                if str(card_id // 100) not in obj.get("CustomDeck", {}):
                    problems.append(f"{where}: card {card_id} of a sheet the deck lacks")
    return problems


def scale_mm(state: dict) -> float:
    """The longer side in mm of a Custom_Token as placed (the inverse of _scale)."""
    return state["Transform"]["scaleX"] * NATIVE_UNITS * UNIT_MM

