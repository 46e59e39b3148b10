"""Read card sheets back from the PDF itself: page size, placed faces, clip boxes, crop marks.

Independent of the writer's code: it parses the content stream operators with pypdf and
reports millimetres with the origin at the top-left of the paper.
"""

from __future__ import annotations

from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 25.4 / 72   # mm per point


@dataclass
class Placed:
    """One face drawn on a sheet: its XObject name, trim box and clip box (mm, top-left)."""

    name: str       # e.g. "Face.recruit.2" or "Back.starter"
    trim: tuple     # x, y, w, h
    clip: tuple     # x, y, w, h


@dataclass
class SheetPage:
    width: float
    height: float
    placed: list
    marks: list     # (x1, y1, x2, y2)


def _rect_mm(x, y, w, h, page_h):
    return (x * MM, (page_h - y - h) * MM, w * MM, h * MM)


def read_sheets(path) -> list[SheetPage]:
    """Every page of a sheet PDF, parsed."""
    reader = PdfReader(str(path))
    pages = []
    for page in reader.pages:
        w_pt, h_pt = float(page.mediabox.width), float(page.mediabox.height)
        xobjects = page["/Resources"]["/XObject"]
        ops = ContentStream(page.get_contents(), reader).operations
        placed, marks, clip, ctm, path, pos = [], [], None, (0.0, 0.0), [], None
        for operands, op in ops:
            op = op.decode() if isinstance(op, bytes) else op
            args = [float(a) if not hasattr(a, "startswith") else a for a in operands]
            if op == "q":
                clip, ctm = None, (0.0, 0.0)
            elif op == "re":
                clip = args
            elif op == "cm":
                ctm = (args[4], args[5])
            elif op == "Do":
                name = str(operands[0])
                bbox = [float(v) for v in xobjects[name].get_object()["/BBox"]]
                face_w, face_h = bbox[2] - bbox[0], bbox[3] - bbox[1]
                card_w, card_h = 63.5 / MM, 88.9 / MM
                # the face is drawn with equal bleed all round: its trim is centred
                tx = ctm[0] + (face_w - card_w) / 2
                ty = ctm[1] + (face_h - card_h) / 2
                placed.append(Placed(name.lstrip("/"), _rect_mm(tx, ty, card_w, card_h, h_pt),
                                     _rect_mm(*clip, h_pt)))
            elif op == "m":
                pos = args
            elif op == "l":
                path.append((pos[0] * MM, (h_pt - pos[1]) * MM, args[0] * MM,
                             (h_pt - args[1]) * MM))
            elif op == "S":
                marks.extend(path)
                path = []
        pages.append(SheetPage(w_pt * MM, h_pt * MM, placed, marks))
    return pages
