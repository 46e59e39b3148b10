"""Print sheets: place the rendered faces 3 x 3 on A4 or Letter, clip bleed, draw crop marks.

Each face page of the faces PDF becomes one Form XObject (named /Face.<card>.<copy> or
/Back.<deck>) that every sheet reuses, so a card is drawn once by WeasyPrint and only
placed here. A front page is followed by its backs page, columns mirrored for long-edge
duplex. Card placement reads back from the PDF as `q <clip> re W n <a b c d e f> cm /Name Do Q`.
"""

from __future__ import annotations

import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    TextStringObject,
)

from .geometry import ART_BLEED, FACE_H, FACE_W, PER_PAGE, Sheet, pt

MARK_WIDTH_PT = 0.3     # black hairline
HALO_WIDTH_PT = 1.2     # white underlay, so marks show where they cross the bleed


def _form_name(key: str) -> str:
    if key.startswith("back:"):
        return "/Back." + key[5:]
    card, _, copy = key.rpartition("-")
    return f"/Face.{card}.{copy}"


def read_faces(parts: list[tuple[bytes, list[str]]]) -> list[tuple[str, object]]:
    """(key, pypdf page) for every page of the faces PDFs; parse once, place many times."""
    pairs = []
    for pdf, keys in parts:
        pairs += zip(keys, PdfReader(io.BytesIO(pdf)).pages)
    return pairs


def _forms(writer: PdfWriter, pairs: list[tuple[str, object]]) -> dict[str, object]:
    """One Form XObject per face page, resources cloned once into the writer."""
    forms = {}
    for key, page in pairs:
        form = DecodedStreamObject()
        form.set_data(page.get_contents().get_data())
        box = [float(v) for v in page.mediabox]
        form.update({
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(FloatObject(v) for v in box),
            NameObject("/Resources"): page["/Resources"].clone(writer),
        })
        if "/Group" in page:
            form[NameObject("/Group")] = page["/Group"].clone(writer)
        forms[key] = writer._add_object(form.flate_encode())
    return forms


def _num(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def _place(sheet: Sheet, slot: int, filled: int, back: bool, name: str) -> str:
    """Content-stream ops that draw one face, clipped to its trim plus allowed bleed."""
    clip = sheet.clip(slot, filled, back)
    trim = sheet.slot(slot, back)
    x, y = pt(clip.x), pt(sheet.height - clip.bottom)
    tx, ty = pt(trim.x - ART_BLEED), pt(sheet.height - trim.bottom - ART_BLEED)
    return (f"q {_num(x)} {_num(y)} {_num(pt(clip.w))} {_num(pt(clip.h))} re W n "
            f"1 0 0 1 {_num(tx)} {_num(ty)} cm {name} Do Q")


def _marks(sheet: Sheet) -> str:
    segs = [f"{_num(pt(x1))} {_num(pt(sheet.height - y1))} m "
            f"{_num(pt(x2))} {_num(pt(sheet.height - y2))} l S"
            for x1, y1, x2, y2 in sheet.marks()]
    path = "\n".join(segs)
    return (f"q 1 1 1 RG {HALO_WIDTH_PT} w 0 J\n{path}\nQ\n"
            f"q 0 0 0 RG {MARK_WIDTH_PT} w 0 J\n{path}\nQ")


def _page(writer: PdfWriter, sheet: Sheet, placed: list[tuple[str, object]], back: bool):
    page = writer.add_blank_page(width=pt(sheet.width), height=pt(sheet.height))
    xobjects = DictionaryObject()
    ops = []
    for slot, (name, ref) in enumerate(placed):
        xobjects[NameObject(name)] = ref
        ops.append(_place(sheet, slot, len(placed), back, name))
    ops.append(_marks(sheet))
    page[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
    stream = DecodedStreamObject()
    stream.set_data("\n".join(ops).encode("ascii"))
    page[NameObject("/Contents")] = writer._add_object(stream.flate_encode())
    return page


def build_sheets(sheet: Sheet, faces: list[tuple[str, object]], keys: list[str],
                 decks: dict[str, str], backs: bool = True, title: str = "") -> bytes:
    """A print PDF: fronts 3 x 3 in `keys` order, each page followed by its mirrored backs.

    faces: read_faces() of the faces PDFs (keys "card-copy", "back:<deck>");
    decks: face key -> deck id.
    """
    writer = PdfWriter()
    forms = _forms(writer, faces)
    fronts = [k for k in keys if not k.startswith("back:")]
    for start in range(0, len(fronts), PER_PAGE):
        chunk = fronts[start:start + PER_PAGE]
        _page(writer, sheet, [(_form_name(k), forms[k]) for k in chunk], back=False)
        if backs:
            back_keys = [f"back:{decks[k]}" for k in chunk]
            _page(writer, sheet, [(_form_name(b), forms[b]) for b in back_keys], back=True)
    writer.add_metadata({"/Title": TextStringObject(title), "/Producer": "tether print-cards"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


FACE_SIZE_PT = (pt(FACE_W), pt(FACE_H))
