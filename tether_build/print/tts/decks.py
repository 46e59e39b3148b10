"""Tabletop Simulator decks: face sheets (at most 10 x 7), a back image, the custom-deck JSON.

TTS keeps the last cell of a 10 x 7 sheet for the hidden face, so a sheet holds 69 faces;
a bigger deck gets more sheets (<deck>.png, <deck>-2.png, ...), each its own CustomDeck.

CustomDeck keys are unique over the whole game, not per file: sheet s (0-based) of the deck
at position d (0-based) of ages.yaml's decks has key 10 * (d + 1) + s + 1 (11, 12, 21, ...),
and its cards CardID = key * 100 + index on the sheet. Two decks loaded side by side (or the
whole table, print/tts/table.py) never share a key, the classic cause of wrong faces in TTS.
"""

from __future__ import annotations

import json
import math
from functools import partial

from PIL import Image

from .. import pngfile

CELL = (400, 560)          # trimmed face in px (2.5 x 3.5 in at 160 DPI): 10 wide = 4000 px
BACK = (500, 700)
MAX_COLS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLS * MAX_ROWS - 1
MAX_SHEETS = 9   # sheets per deck the key scheme holds (621 faces)
EMPTY = (40, 40, 40)


def grid(count: int) -> tuple[int, int]:
    """Columns and rows of a sheet for `count` faces (TTS needs at least 2 x 2)."""
    cols = min(MAX_COLS, max(2, count))
    return cols, max(2, math.ceil(count / cols))


def _cached(raster, what: str, keys: list[str], draw) -> bytes:
    """An image from raster.cache, keyed by its faces' pages and this module, else drawn."""
    from ..cache import code_digest, digest

    key = digest("tts", what, code_digest("print/tts/decks.py"), [raster.face_id(k) for k in keys])
    data = raster.cache.get("tts", key)
    if data is None:
        data = draw()
        raster.cache.put("tts", key, data)
    return data


def _row(raster, keys: list[str], cols: int) -> tuple[bytes, int, int]:
    """One row of a sheet's cells as a compressed PNG band (pngfile.band), from the cache
    or drawn: a card edit draws again only its own row of the deck's sheet (10 faces, not
    50) and compresses a fifth of it."""
    from ..cache import code_digest, digest, pack, unpack

    key = digest("tts-row", code_digest("print/tts/decks.py"), cols, [raster.face_id(k) for k in keys])
    entry = unpack(raster.cache.get("tts", key))
    try:
        return entry[1], int(entry[0]["adler"]), int(entry[0]["length"])
    except (TypeError, KeyError, ValueError):   # missing or damaged: drawn
        pass
    row = Image.new("RGB", (cols * CELL[0], CELL[1]), EMPTY)
    for col, face in enumerate(keys):
        row.paste(raster.trimmed(face, *CELL), (col * CELL[0], 0))
    data, adler, length = pngfile.band(row)
    raster.cache.put("tts", key, pack({"adler": adler, "length": length}, data))
    return data, adler, length


def _sheet(raster, chunk: list[str], cols: int, rows: int) -> bytes:
    return pngfile.from_bands("RGB", (cols * CELL[0], rows * CELL[1]), [
        _row(raster, chunk[start:start + cols], cols)
        for start in range(0, rows * cols, cols)])


def sheet_images(raster, keys: list[str]) -> list[tuple[bytes, int, int]]:
    """PNG sheets of the faces `keys`, each with its (cols, rows)."""
    out = []
    for start in range(0, len(keys), PER_SHEET):
        chunk = keys[start:start + PER_SHEET]
        cols, rows = grid(len(chunk))
        data = _cached(raster, f"sheet {cols}x{rows}", chunk,
                       partial(_sheet, raster, chunk, cols, rows))
        out.append((data, cols, rows))
    return out


def back_image(raster, deck: str) -> bytes:
    """PNG of a deck's back, trimmed."""
    key = f"back:{deck}"
    return _cached(raster, "back", [key], lambda: pngfile.png(raster.trimmed(key, *BACK)))


def sheet_grids(count: int) -> list[tuple[int, int]]:
    """(cols, rows) of each sheet of a deck of `count` faces, as sheet_images lays them."""
    return [grid(min(PER_SHEET, count - start)) for start in range(0, count, PER_SHEET)]


def sheet_name(deck: str, index: int) -> str:
    """File name of sheet `index` (0-based) of a deck."""
    return f"{deck}.png" if index == 0 else f"{deck}-{index + 1}.png"


def deck_key(deck_index: int, sheet: int) -> int:
    """The CustomDeck key of sheet `sheet` (0-based) of the deck at `deck_index` (0-based
    position in ages.yaml's decks): unique over every deck of the game."""
    if not 0 <= sheet < MAX_SHEETS:
        from ...errors import TetherError
        raise TetherError(f"a deck of more than {MAX_SHEETS * PER_SHEET} cards does not fit "
                          "the Tabletop Simulator key scheme (print/tts/decks.py deck_key)")
    return 10 * (deck_index + 1) + sheet + 1


def transform(x: float = 0.0, y: float = 1.0, z: float = 0.0, scale: float = 1.0,
              rot_y: float = 180.0, face_down: bool = True) -> dict:
    """A TTS Transform (position in table units, face down by default as a deck lies)."""
    return {"posX": round(x, 4), "posY": round(y, 4), "posZ": round(z, 4), "rotX": 0.0,
            "rotY": rot_y, "rotZ": 180.0 if face_down else 0.0, "scaleX": scale,
            "scaleY": 1.0, "scaleZ": scale}


def deck_state(deck: str, deck_index: int, nickname: str, faces: list[dict],
               sheets: list[tuple[int, int]], url: str, where: dict | None = None) -> dict:
    """The TTS object of a deck (DeckCustom, or Card for a single face). faces: {name,
    description} in sheet order; sheets: (cols, rows) of each face sheet; where: its
    Transform (default: the origin, face down)."""
    where = where or transform()
    custom, ids, contained = {}, [], []
    for s, (cols, rows) in enumerate(sheets):
        custom[str(deck_key(deck_index, s))] = {
            "FaceURL": f"{url}/{sheet_name(deck, s)}", "BackURL": f"{url}/{deck}-back.png",
            "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True, "UniqueBack": False,
            "Type": 0}
    for i, face in enumerate(faces):
        key = str(deck_key(deck_index, i // PER_SHEET))
        card_id = int(key) * 100 + i % PER_SHEET
        ids.append(card_id)
        contained.append({"Name": "Card", "Nickname": face["name"],
                          "Description": face["description"], "CardID": card_id,
                          "CustomDeck": {key: custom[key]}, "Transform": dict(where)})
    if len(faces) == 1:   # TTS: a single card is a Card, not a deck
        return {**contained[0], "CustomDeck": custom}
    return {"Name": "DeckCustom", "Nickname": nickname, "Transform": dict(where),
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained}


def deck_json(deck: str, deck_index: int, nickname: str, faces: list[dict],
              sheets: list[tuple[int, int]], url: str) -> bytes:
    """The TTS saved-object JSON of one deck (see deck_state)."""
    state = deck_state(deck, deck_index, nickname, faces, sheets, url)
    return (json.dumps({"SaveName": nickname, "ObjectStates": [state]}, indent=2,
                       ensure_ascii=False) + "\n").encode("utf-8")


def faces_meta(plain, deck_cards: list[dict]) -> list[dict]:
    """{name, description} of every face of a deck in sheet order (copies repeated);
    plain: designer text -> plain text."""
    return [{"name": plain(c["name"]), "description": c["text"]}
            for c in deck_cards for _ in range(c["copies"])]
