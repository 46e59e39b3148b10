"""Gutter-fold card sheets, for printers without duplex (`print-cards --gutter-fold`).

Each landscape page holds 2 x 2 fronts on its left half and their backs on its right
half, mirrored about the fold line in the middle: print single-sided, fold the sheet along
the line (marks above and below it), glue, then cut along the crop marks. A front and its
back meet exactly, whatever a printer's duplex drift. The faces are the same Form XObjects
as on the duplex sheets (sheets.py); only the placing differs.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from ..geometry import CARD_H, CARD_W, PAPERS, PRINT_BLEED, Rect, Sheet, bleed_for, mark_span, pt
from ..pdfparts.pdfasm import Writer, stream, text
from .sheets import form_name, marks, num_text, place

GUTTER = 6.0          # mm between the fronts' and the backs' blocks; the fold runs in its middle
HALF_COLS, ROWS = 2, 2


@dataclass(frozen=True)
class GutterSheet(Sheet):
    """Fronts in the left half, backs mirrored in the right half of a landscape page."""

    gutter: float = GUTTER

    @property
    def per_page(self) -> int:
        return HALF_COLS * self.rows

    @property
    def fold(self) -> float:
        """x of the fold line (mm from the left edge)."""
        return self.x0 + HALF_COLS * CARD_W + self.gutter / 2

    def slot(self, index: int, back: bool = False) -> Rect:
        row, col = divmod(index, HALF_COLS)
        x = self.x0 + col * CARD_W
        if back:   # mirrored about the fold: the back of the outer front is outermost
            x = self.x0 + HALF_COLS * CARD_W + self.gutter + (HALF_COLS - 1 - col) * CARD_W
        return Rect(x, self.y0 + row * CARD_H, CARD_W, CARD_H)

    def clip(self, index: int, filled: int, back: bool = False) -> Rect:
        row, col = divmod(index, HALF_COLS)

        def occupied(r: int, c: int) -> bool:
            return 0 <= r < self.rows and 0 <= c < HALF_COLS and r * HALF_COLS + c < filled

        grow = {}
        for side, (dr, dc) in {"left": (0, -1), "right": (0, 1),
                               "top": (-1, 0), "bottom": (1, 0)}.items():
            r, c = row + dr, col + dc
            if occupied(r, c):
                grow[side] = 0.0
            elif 0 <= r < self.rows and 0 <= c < HALF_COLS:
                grow[side] = PRINT_BLEED
            elif side == "right":
                grow[side] = min(PRINT_BLEED, self.gutter / 2)   # toward the fold
            else:
                grow[side] = self.bleed[side]
        if back:
            grow["left"], grow["right"] = grow["right"], grow["left"]
        trim = self.slot(index, back)
        return Rect(trim.x - grow["left"], trim.y - grow["top"],
                    trim.w + grow["left"] + grow["right"], trim.h + grow["top"] + grow["bottom"])

    def boxes(self):
        left, top = self.x0, self.y0
        right, bottom = left + 2 * HALF_COLS * CARD_W + self.gutter, top + self.rows * CARD_H
        trim = (pt(left), pt(self.height - bottom), pt(right), pt(self.height - top))
        b = self.bleed
        bleed = (pt(left - b["left"]), pt(self.height - bottom - b["bottom"]),
                 pt(right + b["right"]), pt(self.height - top + b["top"]))
        return trim, bleed

    def cut_lines(self):
        xs = [self.slot(c).x for c in range(HALF_COLS)] + [self.slot(HALF_COLS - 1).right]
        xs += [self.slot(c, True).x for c in range(HALF_COLS)] + [self.slot(0, True).right]
        ys = [self.y0 + i * CARD_H for i in range(self.rows + 1)]
        return sorted(set(xs)), ys

    def outer_x(self, xs: list[float]) -> tuple[float, float]:
        """The outermost cut lines (the fold's gutter lies between the two halves)."""
        return xs[0], xs[-1]


def gutter_sheet(paper: str) -> GutterSheet:
    """The 2 x 2 + 2 x 2 block centred on a landscape page of `paper`."""
    height, width = PAPERS[paper]            # landscape
    block_w = 2 * HALF_COLS * CARD_W + GUTTER
    x0, y0 = (width - block_w) / 2, (height - ROWS * CARD_H) / 2
    bleed = {"left": bleed_for(x0), "right": bleed_for(x0), "top": bleed_for(y0), "bottom": bleed_for(y0)}
    return GutterSheet(paper, width, height, x0, y0, bleed, 2 * HALF_COLS, ROWS)


def _fold_marks(sheet: GutterSheet) -> str:
    """Dashed fold line segments above and below the block, in the gutter's middle."""
    x = pt(sheet.fold)
    top, bottom = mark_span(sheet, "top"), mark_span(sheet, "bottom")
    y_top, y_bot = sheet.y0, sheet.y0 + sheet.rows * CARD_H
    segs = [(y_top - top[0], y_top - top[1]), (y_bot + bottom[0], y_bot + bottom[1])]
    path = "\n".join(f"{num_text(x)} {num_text(pt(sheet.height - a))} m {num_text(x)} "
                     f"{num_text(pt(sheet.height - b))} l S" for a, b in segs)
    return f"q 0 0 0 RG 0.4 w [2 1.5] 0 d\n{path}\nQ"


def build_gutter_sheets(sheet: GutterSheet, faces: dict, keys: list[str],
                        decks: dict[str, str], title: str = "") -> bytes:
    """A single-sided print PDF: per page up to 4 fronts and, mirrored across the fold,
    their backs (faces, keys and decks as sheets.build_sheets takes them)."""
    writer = Writer(once=True)   # the faces' icon forms written once (pdfasm)
    catalog, tree = writer.reserve(), writer.reserve()
    fronts = [k for k in keys if not k.startswith("back:")]
    used = list(dict.fromkeys(fronts + [f"back:{decks[k]}" for k in fronts]))
    forms = {k: writer.add_form(faces[k], faces[k].mediabox) for k in used}
    kids = []
    for start in range(0, len(fronts), sheet.per_page):
        chunk = fronts[start:start + sheet.per_page]
        ops, xobjects = [], {}
        for back in (False, True):
            for slot, key in enumerate(chunk):
                key = f"back:{decks[key]}" if back else key
                name = form_name(key)
                ops.append(place(sheet, slot, len(chunk), back, name))
                xobjects[name] = forms[key]
        ops += [marks(sheet), _fold_marks(sheet)]
        contents = writer.add(stream(b"/Filter /FlateDecode\n",
                                     zlib.compress("\n".join(ops).encode("ascii"))))
        trim, bleed = sheet.boxes()
        boxes = b"".join(b"/%s [%s]\n" % (n, " ".join(num_text(v) for v in box).encode())
                         for n, box in ((b"TrimBox", trim), (b"BleedBox", bleed)))
        refs = b"".join(b"%s %d 0 R\n" % (n.encode(), num) for n, num in xobjects.items())
        kids.append(writer.add(
            b"<</Type /Page\n/Parent %d 0 R\n/MediaBox [0 0 %s %s]\n"
            % (tree, num_text(pt(sheet.width)).encode(), num_text(pt(sheet.height)).encode())
            + boxes + b"/Resources <</XObject <<" + refs + b">>>>\n/Contents %d 0 R>>"
            % contents))
    writer.put(tree, b"<</Type /Pages\n/Kids [" + b" ".join(b"%d 0 R" % k for k in kids)
               + b"]\n/Count %d>>" % len(kids))
    writer.put(catalog, b"<</Type /Catalog\n/Pages %d 0 R>>" % tree)
    info = writer.add(b"<</Title " + text(title) + b"\n/Producer (tether print-cards)>>")
    return writer.write(b"/Root %d 0 R\n/Info %d 0 R\n" % (catalog, info))
