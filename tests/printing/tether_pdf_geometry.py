"""Read vector geometry back out of a PDF: every painted path, in millimetres from the top-left.

A small content-stream interpreter over pypdf: it follows q/Q/cm (and Form XObjects), keeps
the points of each path (m, l, c, re, h) and records them when a paint operator ends it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.generic import ContentStream

PT_MM = 25.4 / 72
PAINT = {"S": "stroke", "s": "stroke", "f": "fill", "F": "fill", "f*": "fill", "B": "both",
         "B*": "both", "b": "both", "b*": "both", "n": None}


@dataclass
class Path:
    """One painted path: its points (mm, y down), closed or not, and how it was painted."""

    points: list[tuple[float, float]]
    closed: bool
    paint: str
    page: int
    curved: bool = False
    clip: tuple[float, float, float, float] | None = None

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Bounding box of what shows: the path's box cut by its clipping rectangle."""
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        box = (min(xs), min(ys), max(xs), max(ys))
        return _intersect(box, self.clip) if self.clip else box

    @property
    def visible(self) -> bool:
        x0, y0, x1, y1 = self.box
        return x1 > x0 - 1e-6 and y1 > y0 - 1e-6

    @property
    def raw_size(self) -> tuple[float, float]:
        """Size of the whole path, clipped or not."""
        xs = [p[0] for p in self.points]
        ys = [p[1] for p in self.points]
        return max(xs) - min(xs), max(ys) - min(ys)

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return x1 - x0, y1 - y0


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _intersect(a, b):
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


def _walk(ops, resources, ctm, height, page_no, out, reader, clip=None):
    stack, path, closed, curved, clipping = [], [], False, False, False
    for operands, op in ops:
        op = op.decode() if isinstance(op, bytes) else op
        if op == "q":
            stack.append((ctm, clip))
        elif op == "Q":
            ctm, clip = stack.pop()
        elif op in ("W", "W*"):
            clipping = True
        elif op == "cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op in ("m", "l"):
            x, y = float(operands[0]), float(operands[1])
            path.append(_pt(x, y, ctm, height))
        elif op == "c":
            path.append(_pt(float(operands[4]), float(operands[5]), ctm, height))
            curved = True
        elif op in ("v", "y"):
            path.append(_pt(float(operands[2]), float(operands[3]), ctm, height))
            curved = True
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            path += [_pt(x, y, ctm, height), _pt(x + w, y, ctm, height),
                     _pt(x + w, y + h, ctm, height), _pt(x, y + h, ctm, height)]
            closed = True
        elif op == "h":
            closed = True
        elif op in PAINT:
            if clipping and path:
                xs, ys = [p[0] for p in path], [p[1] for p in path]
                box = (min(xs), min(ys), max(xs), max(ys))
                clip = _intersect(clip, box) if clip else box
            if PAINT[op] and path:
                painted = Path(path, closed or op in ("s", "b", "b*"), PAINT[op], page_no,
                               curved, clip)
                if painted.visible:
                    out.append(painted)
            path, closed, curved, clipping = [], False, False, False
        elif op == "Do":
            xobjs = resources.get("/XObject", {}) if resources else {}
            xobj = xobjs.get(operands[0])
            if xobj is not None:
                xobj = xobj.get_object()
                if xobj.get("/Subtype") == "/Form":
                    matrix = [float(v) for v in xobj.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    sub = ContentStream(xobj, reader).operations
                    _walk(sub, xobj.get("/Resources", resources), _mul(matrix, ctm), height,
                          page_no, out, reader, clip)


def _pt(x, y, ctm, height):
    a, b, c, d, e, f = ctm
    px, py = a * x + c * y + e, b * x + d * y + f
    return px * PT_MM, (height - py) * PT_MM


def read_paths(pdf_path) -> tuple[list[Path], list[tuple[float, float]]]:
    """(every painted path, page sizes in mm) of a PDF file."""
    reader = PdfReader(str(pdf_path))
    out: list[Path] = []
    sizes = []
    for i, page in enumerate(reader.pages):
        box = page.mediabox
        height = float(box.height)
        sizes.append((float(box.width) * PT_MM, height * PT_MM))
        ops = ContentStream(page.get_contents(), reader).operations
        _walk(ops, page.get("/Resources"), (1, 0, 0, 1, 0, 0), height, i, out, reader)
    return out, sizes


def hexagons(paths: list[Path], paint: str = "stroke") -> list[Path]:
    """Closed six-corner paths painted this way (cut lines of hex tiles)."""
    return [p for p in paths if p.closed and p.paint == paint and len(_dedupe(p.points)) == 6]


def _dedupe(points):
    out = []
    for p in points:
        if not out or abs(p[0] - out[-1][0]) > 1e-3 or abs(p[1] - out[-1][1]) > 1e-3:
            out.append(p)
    if len(out) > 1 and abs(out[0][0] - out[-1][0]) < 1e-3 and abs(out[0][1] - out[-1][1]) < 1e-3:
        out.pop()
    return out
