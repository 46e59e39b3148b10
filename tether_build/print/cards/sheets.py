"""Print sheets: place the rendered faces on A4 (3 x 3) or Letter (4 x 2), clip bleed, draw crop marks.

Each face page of the faces PDF becomes one Form XObject (named /Face.<card>.<copy> or
/Back.<deck>) that every sheet reuses, so a card is drawn once by WeasyPrint and only
placed here. A front page is followed by its backs page, columns mirrored for long-edge
duplex. Card placement reads back from the PDF as `q <clip> re W n <a b c d e f> cm /Name Do Q`.
"""

from __future__ import annotations

import zlib

from ..geometry import ART_BLEED, FACE_H, FACE_W, Sheet, pt
from ..pdfparts.pdfasm import Fragment, Writer, fragments, stream, text

MARK_WIDTH_PT = 0.3     # black hairline
HALO_WIDTH_PT = 1.2     # white underlay, so marks show where they cross the bleed


def form_name(key: str) -> str:
    if key.startswith("back:"):
        return "/Back." + key[5:]
    if key.startswith("marker:"):   # a pile marker placed as a front
        return "/Marker." + key[7:]
    card, _, copy = key.rpartition("-")
    return f"/Face.{card}.{copy}"


def read_faces(parts: list[tuple[bytes, list[str]]], cache=None,
               known: dict[str, bytes] | None = None) -> dict[str, Fragment]:
    """A Fragment (a face page ready to place) per key of the faces PDFs; parsed once per
    face PDF (by the layout workers when they made it: `known`) and cached
    (print/cache.py), then placed on as many sheets as need it."""
    return fragments(parts, cache, known)


def num_text(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def place(sheet: Sheet, slot: int, filled: int, back: bool, name: str) -> str:
    """Content-stream ops that draw one face, clipped to its trim plus allowed bleed."""
    clip = sheet.clip(slot, filled, back)
    trim = sheet.slot(slot, back)
    x, y = pt(clip.x), pt(sheet.height - clip.bottom)
    tx, ty = pt(trim.x - ART_BLEED), pt(sheet.height - trim.bottom - ART_BLEED)
    return (f"q {num_text(x)} {num_text(y)} {num_text(pt(clip.w))} {num_text(pt(clip.h))} re W n "
            f"1 0 0 1 {num_text(tx)} {num_text(ty)} cm {name} Do Q")


def marks(sheet: Sheet) -> str:
    segs = [f"{num_text(pt(x1))} {num_text(pt(sheet.height - y1))} m "
            f"{num_text(pt(x2))} {num_text(pt(sheet.height - y2))} l S"
            for x1, y1, x2, y2 in sheet.marks()]
    path = "\n".join(segs)
    return (f"q 1 1 1 RG {HALO_WIDTH_PT} w 0 J\n{path}\nQ\n"
            f"q 0 0 0 RG {MARK_WIDTH_PT} w 0 J\n{path}\nQ")


def _page(writer: Writer, sheet: Sheet, placed: list[tuple[str, int]], back: bool,
          parent: int) -> int:
    ops = [place(sheet, slot, len(placed), back, name) for slot, (name, _) in enumerate(placed)]
    ops.append(marks(sheet))
    contents = writer.add(stream(b"/Filter /FlateDecode\n",
                                 zlib.compress("\n".join(ops).encode("ascii"))))
    xobjects = b"".join(b"%s %d 0 R\n" % (name.encode(), num)
                        for name, num in dict(placed).items())   # a back repeats on its page
    trim, bleed = sheet.boxes()  # where the printer cuts, and how far the art runs on
    boxes = b"".join(b"/%s [%s]\n" % (name, " ".join(num_text(v) for v in box).encode())
                     for name, box in ((b"TrimBox", trim), (b"BleedBox", bleed)))
    return writer.add(
        b"<</Type /Page\n/Parent %d 0 R\n/MediaBox [0 0 %s %s]\n"
        % (parent, num_text(pt(sheet.width)).encode(), num_text(pt(sheet.height)).encode())
        + boxes + b"/Resources <</XObject <<" + xobjects + b">>>>\n/Contents %d 0 R>>" % contents)


def page_count(sheet: Sheet, fronts: int, backs: bool = True) -> int:
    """Pages build_sheets writes for `fronts` front faces (each page of fronts followed by
    its page of backs): the one count the print guide states."""
    return (2 if backs else 1) * -(-fronts // sheet.per_page)


def build_sheets(sheet: Sheet, faces: dict[str, Fragment], keys: list[str],
                 decks: dict[str, str], backs: bool = True, title: str = "") -> bytes:
    """A print PDF: fronts on the sheet's grid in `keys` order, each page followed by its mirrored backs.

    faces: read_faces() of the faces PDFs (keys "card-copy", "back:<deck>");
    decks: face key -> deck id.
    """
    writer = Writer(once=True)   # the faces' icon forms written once (pdfasm)
    catalog, tree = writer.reserve(), writer.reserve()
    fronts = [k for k in keys if not k.startswith("back:")]
    used = list(dict.fromkeys(fronts + ([f"back:{decks[k]}" for k in fronts] if backs else [])))
    forms = {k: writer.add_form(faces[k], faces[k].mediabox) for k in used}
    kids = []
    for start in range(0, len(fronts), sheet.per_page):
        chunk = fronts[start:start + sheet.per_page]
        kids.append(_page(writer, sheet, [(form_name(k), forms[k]) for k in chunk], False,
                          tree))
        if backs:
            back_keys = [f"back:{decks[k]}" for k in chunk]
            kids.append(_page(writer, sheet, [(form_name(b), forms[b]) for b in back_keys],
                              True, tree))
    assert len(kids) == page_count(sheet, len(fronts), backs)
    writer.put(tree, b"<</Type /Pages\n/Kids [" + b" ".join(b"%d 0 R" % k for k in kids)
               + b"]\n/Count %d>>" % len(kids))
    writer.put(catalog, b"<</Type /Catalog\n/Pages %d 0 R>>" % tree)
    info = writer.add(b"<</Title " + text(title) + b"\n/Producer (tether print-cards)>>")
    return writer.write(b"/Root %d 0 R\n/Info %d 0 R\n" % (catalog, info))


FACE_SIZE_PT = (pt(FACE_W), pt(FACE_H))
