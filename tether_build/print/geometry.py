"""Print geometry in millimetres: card sizes, the card sheets, bleed and crop marks.

A4 holds 3 x 3 cards on a portrait page. Letter is 12.7 mm shorter: 3 rows leave 6.35 mm
above and below, no room for crop marks outside a printer's dead zone, so Letter holds
4 x 2 cards on a landscape page (12.7 mm and 19.05 mm margins). Crop marks stay at least
`MARK_DEAD_ZONE` from the paper edge and never cross the bleed; where a margin is narrow
(A4 left and right) the outer bleed shrinks to make room for them.

Pure arithmetic, no rendering. Sheet coordinates have their origin at the top-left of the
paper; `pt()` converts to PDF points and the sheet writer flips y.
"""

from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH

CARD_W, CARD_H = 63.5, 88.9          # poker trim (2.5 x 3.5 in)
ART_BLEED = MM_PER_INCH / 8          # each face is drawn with 1/8 in of bleed (TGC size)
FACE_W, FACE_H = CARD_W + 2 * ART_BLEED, CARD_H + 2 * ART_BLEED

PRINT_BLEED = 3.0                    # bleed on the sheets where there is room (design.md)
NO_PRINT = 4.0                       # home printers cannot print this close to the edge
MARK_DEAD_ZONE = 6.0                 # crop marks keep this far from the paper edge
MARK_GAP = 0.5                       # gap between the bleed and a crop mark
MARK_MIN, MARK_MAX = 2.0, 6.0        # wanted mark length outside the bleed
COLS, ROWS = 3, 3                    # A4
PER_PAGE = COLS * ROWS

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
LAYOUTS = {"a4": (False, 3, 3), "letter": (True, 4, 2)}  # landscape, columns, rows


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle, top-left origin, millimetres."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass(frozen=True)
class Sheet:
    """The card grid on one paper size (width and height as the page is printed)."""

    paper: str
    width: float
    height: float
    x0: float        # left trim edge of the block
    y0: float        # top trim edge of the block
    bleed: dict      # side -> bleed at the block's outer edge: left, right, top, bottom
    cols: int = COLS
    rows: int = ROWS

    @property
    def per_page(self) -> int:
        """Cards on one sheet."""
        return self.cols * self.rows

    @property
    def duplex(self) -> str:
        """The printer's duplex setting that lays each back on its front: backs mirror the
        columns, so flip about the page's vertical axis (the long edge of a portrait page)."""
        return "short edge" if self.width > self.height else "long edge"

    def slot(self, index: int, back: bool = False) -> Rect:
        """Trim box of a slot (row-major); backs mirror the columns (see `duplex`)."""
        row, col = divmod(index, self.cols)
        if back:
            col = self.cols - 1 - col
        return Rect(self.x0 + col * CARD_W, self.y0 + row * CARD_H, CARD_W, CARD_H)

    def clip(self, index: int, filled: int, back: bool = False) -> Rect:
        """Trim box grown by bleed on every side that has no card next to it on the page."""
        row, col = divmod(index, self.cols)

        def occupied(r: int, c: int) -> bool:
            return self.inside(r, c) and r * self.cols + c < filled

        grow = {}
        for side, (dr, dc) in {"left": (0, -1), "right": (0, 1),
                               "top": (-1, 0), "bottom": (1, 0)}.items():
            r, c = row + dr, col + dc
            if occupied(r, c):
                grow[side] = 0.0
            elif self.inside(r, c):
                grow[side] = PRINT_BLEED      # an empty slot: room for full bleed
            else:
                grow[side] = self.bleed[side]
        if back:  # mirrored page: what was left is now right
            grow["left"], grow["right"] = grow["right"], grow["left"]
        trim = self.slot(index, back)
        return Rect(trim.x - grow["left"], trim.y - grow["top"],
                    trim.w + grow["left"] + grow["right"], trim.h + grow["top"] + grow["bottom"])

    def inside(self, row: int, col: int) -> bool:
        """Whether (row, col) is a slot of the grid."""
        return 0 <= row < self.rows and 0 <= col < self.cols

    def boxes(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """(TrimBox, BleedBox) of a sheet page in PDF points (bottom-left origin): the
        outer trim of the card block, and that block grown by the sheet's bleed."""
        left, top = self.x0, self.y0
        right, bottom = left + self.cols * CARD_W, top + self.rows * CARD_H
        trim = (pt(left), pt(self.height - bottom), pt(right), pt(self.height - top))
        b = self.bleed
        bleed = (pt(left - b["left"]), pt(self.height - bottom - b["bottom"]),
                 pt(right + b["right"]), pt(self.height - top + b["top"]))
        return trim, bleed

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of the vertical cuts and y positions of the horizontal cuts."""
        xs = [self.x0 + i * CARD_W for i in range(self.cols + 1)]
        ys = [self.y0 + i * CARD_H for i in range(self.rows + 1)]
        return xs, ys

    def outer_x(self, xs: list[float]) -> tuple[float, float]:
        """The left and right edges the side marks stand off from (`xs`: the cut lines)."""
        return self.x0, self.x0 + self.cols * CARD_W

    def marks(self) -> list[tuple[float, float, float, float]]:
        """Crop mark segments (x1, y1, x2, y2): in the margin, in line with every cut."""
        xs, ys = self.cut_lines()
        top, bottom = mark_span(self, "top"), mark_span(self, "bottom")
        left, right = mark_span(self, "left"), mark_span(self, "right")
        y_top, y_bot = self.y0, self.y0 + self.rows * CARD_H
        x_left, x_right = self.outer_x(xs)
        out = []
        for x in xs:
            out.append((x, y_top - top[0], x, y_top - top[1]))
            out.append((x, y_bot + bottom[0], x, y_bot + bottom[1]))
        for y in ys:
            out.append((x_left - left[0], y, x_left - left[1], y))
            out.append((x_right + right[0], y, x_right + right[1], y))
        return out


def _margin(sheet: Sheet, side: str) -> float:
    if side in ("left", "right"):
        return sheet.x0
    return sheet.y0


def mark_span(sheet: Sheet, side: str) -> tuple[float, float]:
    """Start and end distance of crop marks from the trim edge on one side of the block:
    past the bleed and a gap, up to the dead zone, at most MARK_MAX long."""
    start = sheet.bleed[side] + MARK_GAP
    return start, min(_margin(sheet, side) - MARK_DEAD_ZONE, start + MARK_MAX)


def bleed_for(margin: float) -> float:
    """Outer bleed on a side with `margin` mm of paper: full, unless the crop marks need
    the room (they need MARK_MIN between the bleed plus gap and the dead zone)."""
    room = margin - MARK_DEAD_ZONE - MARK_GAP - MARK_MIN
    if room <= 0:
        raise ValueError(f"a {margin:.2f} mm margin leaves no room for crop marks")
    return min(PRINT_BLEED, margin - NO_PRINT, room)


def sheet_for(paper: str) -> Sheet:
    """The centred card block on a paper size (see LAYOUTS), bleed and marks in the margin."""
    landscape, cols, rows = LAYOUTS[paper]
    width, height = PAPERS[paper]
    if landscape:
        width, height = height, width
    x0 = (width - cols * CARD_W) / 2
    y0 = (height - rows * CARD_H) / 2
    side_bleed = {"left": bleed_for(x0), "right": bleed_for(x0), "top": bleed_for(y0),
                  "bottom": bleed_for(y0)}
    return Sheet(paper, width, height, x0, y0, side_bleed, cols, rows)
