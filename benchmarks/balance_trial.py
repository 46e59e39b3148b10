"""A TRIAL, not used by the build: two-column boxes balanced by our own measure, not by
WeasyPrint's search (benchmarks/bench_columns.py compares it with the stock layout).

WeasyPrint 66 balances the columns of a multi-column box that ends on its page by laying them
out at growing heights, from the mean of the column heights up, each step the least "lost
space" it saw or 1 px (`weasyprint/layout/column.py`): 294 column layouts for a one-page
components list, about a third of the rulebook's CPU. Here the box is measured once instead,
and WeasyPrint is handed the height as CSS (`column-fill: auto; height: N px`), so it lays the
columns out at that height and never searches.

How (render):
1. The boxes to balance (`classes`, two columns, no style of their own) get a
   `data-balance` number in the HTML.
2. A measure document: the same HTML on a page as wide and 10 m tall, each such box at
   `column-fill: auto`, so its first column holds it all: one column of the columns' width.
3. From that column, the places it may break (`_breaks`): between two lines of a paragraph
   with `orphans` lines before and `widows` after, between blocks where no box that ends
   there has `break-after: avoid` and no box that starts there `break-before: avoid`
   (headings, a list's lead-in), never inside a box with `break-inside: avoid` or a table.
   For each, the first column's height (down to the border of what ends there) and the
   second's (from the top margin of what starts there to the end); the box's height is
   the least of the taller of the two, rounded up to 1/100 px.
4. The document laid out with those heights, and checked: a box that holds more columns
   than it asks for (WeasyPrint adds columns beside a box of fixed height when the content
   does not fit: a box the page breaks, or a measure that was short) loses its height and
   is balanced by WeasyPrint, and the document is laid out again.

The heights are the balanced heights, or lower: WeasyPrint stops at the first height of its
steps that fits, this measure takes the least. A box that the page breaks is left to
WeasyPrint (its last page's columns are balanced by WeasyPrint's search).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

BALANCED = ("rb-cols", "rb-components-list")   # classes of the two-column boxes balanced here
ATTR = "data-balance"
TALL_MM = 10000   # the measure document's page height
ROUND = 100       # heights rounded up to 1/ROUND px
AVOID = frozenset({"avoid", "avoid-column", "avoid-page"})

_OPEN = re.compile(r"<(div|section|ul|ol)(\s[^>]*)?>")
_PAGE = re.compile(r"@page\s*\{\s*size:\s*([\d.]+)mm\s+([\d.]+)mm;\s*margin:\s*([\d.]+)mm;")
_FIRST = re.compile(r"@page\s*:first\s*\{\s*size:\s*[\d.]+mm\s+([\d.]+)mm;\s*\}")
PX_PER_MM = 96 / 25.4
MARGIN_PX = 24.0   # room kept below a box predicted to end on a page after a page break


@dataclass(frozen=True)
class Pages:
    """A document's page: its width (mm, bleed included) and the height of the content
    area of its first page and of the others (px)."""

    width_mm: float
    first: float
    rest: float


def pages(html: str) -> Pages | None:
    """The page of a document whose first @page rule sets `size: W H; margin: M` in mm (and
    `@page :first` its first page's size), or None."""
    page = _PAGE.search(html)
    if page is None:
        return None
    width, height, margin = (float(v) for v in page.groups())
    first = _FIRST.search(html)
    first_height = float(first.group(1)) if first else height
    return Pages(width, (first_height - 2 * margin) * PX_PER_MM,
                 (height - 2 * margin) * PX_PER_MM)


def mark(html: str, classes: tuple[str, ...] = BALANCED) -> tuple[str, int]:
    """The HTML with a `data-balance` number on each opening tag of one of `classes` that
    has no style attribute of its own, and how many were marked."""
    wanted = set(classes)
    count = 0

    def one(match: re.Match) -> str:
        nonlocal count
        attrs = match.group(2) or ""
        found = re.search(r'\bclass="([^"]*)"', attrs)
        if found is None or not wanted & set(found.group(1).split()) \
                or re.search(r"\b(style|data-balance)=", attrs):
            return match.group(0)
        count += 1
        return f'<{match.group(1)}{attrs} {ATTR}="{count - 1}">'

    return _OPEN.sub(one, html), count


def _styled(html: str, css: str) -> str:
    """The HTML with a style sheet added last in its head."""
    at = html.find("</head>")
    return f"{html[:at]}<style>{css}</style>{html[at:]}"


def measure_html(marked: str, page: Pages) -> str:
    """The measure document of marked HTML: one page as wide, TALL_MM tall, each marked box
    one column (its first, of the columns' width: `column-fill: auto`)."""
    size = f"size: {page.width_mm:.4f}mm {TALL_MM}mm"
    return _styled(marked, f"@page {{ {size}; }} @page :first {{ {size}; }} "
                           f"[{ATTR}] {{ column-fill: auto !important; }}")


def final_html(marked: str, heights: dict[int, float]) -> str:
    """The marked HTML with the given boxes at their heights (px), their columns filled in
    order (WeasyPrint then lays them out once, at that height)."""
    if not heights:
        return marked
    rules = " ".join(f'[{ATTR}="{i}"] {{ column-fill: auto !important; '
                     f"height: {h:.2f}px !important; }}" for i, h in sorted(heights.items()))
    return _styled(marked, rules)


def render(layout, html: str, classes: tuple[str, ...] = BALANCED):
    """html laid out by `layout` (print/layout/pdf.py's Layout), its two-column boxes of
    `classes` balanced by measure (the module's docstring)."""
    page = pages(html)
    marked, count = mark(html, classes) if page is not None and "</head>" in html else (html, 0)
    if not count:
        return layout.render(html)
    measured = _measured(layout.render(measure_html(marked, page)))
    heights = placed(measured, page)
    while True:
        document = layout.render(final_html(marked, heights))
        over = overfull(document, heights)
        if not over:
            return document
        for number in over:
            heights.pop(number)   # WeasyPrint's own balancing, for this box


def _boxes(document):
    """(page index, page's content top, box) of every box of the document's pages."""
    from tether_build.print.layout.boxes import walk
    from tether_build.print.layout.patches import page_root

    for index, page in enumerate(document.pages):
        root = page_root(page)
        top = root.content_box_y()
        for box in walk(root):
            yield index, top, box


def _number(box) -> int | None:
    element = getattr(box, "element", None)
    if element is None or not _columns(box):
        return None
    value = element.get(ATTR)
    return int(value) if value is not None and value.isdigit() else None


def _columns(box) -> list:
    return [c for c in getattr(box, "children", ()) if getattr(c, "is_column", False)]


@dataclass(frozen=True)
class Measured:
    """A marked box in the measure document: its top (px below the page's content top), its
    height there (one column) and its balanced height (px, rounded up)."""

    top: float
    tall: float
    height: float


def _measured(document) -> dict[int, Measured]:
    """Box number -> Measured, for the marked boxes of two columns that the measure
    document lays out as one column (the others are left to WeasyPrint)."""
    seen: dict[int, list] = {}
    for _, top, box in _boxes(document):
        number = _number(box)
        if number is not None:
            seen.setdefault(number, []).append((top, box))
    out = {}
    for number, found in seen.items():
        if len(found) != 1:
            continue   # broken over two pages even there
        top, box = found[0]
        columns = _columns(box)
        if box.style["column_count"] != 2 or len(columns) != 1:
            continue
        height = _height(columns[0])
        if height is not None:
            out[number] = Measured(box.position_y - top, box.border_height(),
                                   math.ceil(height * ROUND + 0.5) / ROUND)
    return out


def placed(measured: dict[int, Measured], page: Pages) -> dict[int, float]:
    """Box number -> height, for the boxes predicted to end on the page they start on:
    each box's top is its top in the measure document, less what the boxes before it gave
    up (their one column's height less their height); the pages are cut at their content
    heights. A box the page would break is left out (WeasyPrint balances its last page).
    Before the first page ends the prediction is exact; after it, a page may turn earlier
    than predicted (what does not fit is moved to the next page whole), so MARGIN_PX is
    kept free below the box."""
    heights = {}
    saved = 0.0
    for number in sorted(measured):
        box = measured[number]
        top = box.top - saved
        bottom, index = page.first, 0
        while top >= bottom:
            bottom += page.rest
            index += 1
        if top + box.height + (MARGIN_PX if index else 0) <= bottom:
            heights[number] = box.height
            saved += box.tall - box.height
        else:
            saved += box.tall / 2   # (WeasyPrint balances it: about half as tall)
    return heights


def overfull(document, heights: dict[int, float]) -> list[int]:
    """The boxes given a height that hold more columns than they ask for (WeasyPrint sets
    columns beside a box of fixed height that its content overflows), that were moved to
    the top of a later page (too tall for the room left) or broken over pages: each goes
    back to WeasyPrint's own balancing."""
    seen: dict[int, set] = {}
    over = set()
    for index, top, box in _boxes(document):
        number = _number(box)
        if number is None or number not in heights:
            continue
        seen.setdefault(number, set()).add(index)
        if len(_columns(box)) > box.style["column_count"] or (
                index and abs(box.position_y - top) < 0.5):
            over.add(number)
    over.update(n for n, at in seen.items() if len(at) > 1)
    return sorted(over)


def _leaves(box, path: tuple, out: list) -> None:
    """The lines and unbreakable blocks under `box`, in order: (box, path of the block
    boxes down to it, is a line)."""
    from weasyprint.formatting_structure import boxes as wb

    for child in box.children:
        if not child.is_in_normal_flow():
            continue
        if isinstance(child, wb.LineBox):
            out.append((child, path, True))
        elif (type(child) is wb.BlockBox and not child.is_table_wrapper
              and child.style["break_inside"] not in AVOID and child.children):
            _leaves(child, (*path, child), out)
        else:
            out.append((child, path, False))


def _bottom(box) -> float:
    return box.border_box_y() + box.border_height()


def _top(box) -> float:
    """The top of a box's margin, as it stands at the top of a column (a block's own margin
    top is kept there: WeasyPrint truncates it only on an empty page)."""
    return box.border_box_y() - max(box.margin_top or 0, 0)


def _height(column) -> float | None:
    """The height to give the box: WeasyPrint's column layout at the least height at which
    the content fits in two columns, broken at one of its break points (_breaks), makes the
    box as tall as its taller column with that column's trailing margin (as WeasyPrint's own
    balancing does); that height, when the first column then breaks at the same place (no
    later break point fits in the height). None: no content, or no such height."""
    leaves: list = []
    _leaves(column, (), leaves)
    if not leaves:
        return None
    top = column.content_box_y()
    flow = [c for c in column.children if c.is_in_normal_flow()]
    total = max(_bottom(c) for c in flow) - top
    ends = column.position_y + column.margin_height() - top   # with the trailing margin
    breaks = sorted(((first - top, second - top, margin) for first, second, margin
                     in _breaks(leaves)), key=lambda b: max(b[0], total - b[1]))
    if not breaks:
        return None
    first, second, margin = breaks[0]
    fit = max(first, total - second)
    height = max(first + margin, ends - second)
    if any(fit < f <= height for f, _, _ in breaks):
        return None   # the first column would take more at the box's height
    return max(height, fit)


def _breaks(leaves: list):
    """(bottom of the first column, top of the second, the first column's trailing margin)
    for each place the content may break, in px of the measure document."""
    lines: dict[int, list] = {}
    for leaf, path, is_line in leaves:
        if is_line:
            lines.setdefault(id(path[-1] if path else None), []).append(leaf)
    deepest = 0.0
    for (a, path_a, line_a), (b, path_b, line_b) in itertools.pairwise(leaves):
        deepest = max(deepest, _bottom(a))
        shared = 0
        while shared < min(len(path_a), len(path_b)) and path_a[shared] is path_b[shared]:
            shared += 1
        ending = list(path_a[shared:]) + ([] if line_a else [a])
        starting = list(path_b[shared:]) + ([] if line_b else [b])
        margin = max([0.0, *(x.margin_bottom or 0 for x in (*path_a, *([] if line_a else [a])))])
        if not ending and not starting:   # two lines of one paragraph
            parent = path_a[-1] if path_a else None
            siblings = lines[id(parent)]
            before = next(i for i, line in enumerate(siblings) if line is b)
            style = (parent or a).style
            if before < style["orphans"] or len(siblings) - before < style["widows"]:
                continue
            yield deepest, b.position_y, margin
            continue
        if any(x.style["break_after"] in AVOID for x in ending) or any(
                x.style["break_before"] in AVOID for x in starting):
            continue
        bottom = max([deepest, *(_bottom(x) for x in ending)])
        start = min([b.position_y if line_b else _top(b), *(_top(x) for x in starting)])
        yield bottom, start, margin
