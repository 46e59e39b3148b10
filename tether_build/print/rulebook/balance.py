"""The long two-column runs of a rules chapter balanced by our own measure, not by WeasyPrint's
search (docs/performance.md, "The rulebook stage, document by document").

WeasyPrint 66 balances a multi-column box that ends on its page by laying its columns out at
growing heights, from the mean of the column heights up, often 1 px a step: the components
list takes about 70 steps (294 column layouts, 3 CPU-s), Action Phase's run about 30 (its run
is long: 3 CPU-s). For such a run, a measure document (the chapter up to its last such run, on
a page as wide and 10 m tall, each run at `column-fill: auto`, so its first column holds all
of it) gives the run as one column; from its lines and unbreakable blocks come the places the
run may break and the two columns' heights at each; the height is the least of the taller,
with that column's trailing margin (as WeasyPrint's own balancing sets it). The chapter is
then laid out with that height as CSS (`column-fill: auto; height: N px`): WeasyPrint lays the
columns out once, at that height, and never searches. Not a patch: our CSS.

Only the runs that pay are measured (MEASURED): the components list, and a run of at least
LONG characters of text; short runs balance in a step or two, and a measure document would
cost more than it saves. A run is given its height only when it is predicted to end on the
chapter's first page (its top in the measure is its top there: all before it is laid out the
same); a run the page would break is left to WeasyPrint. After the layout, a run given a
height that took more columns than it asks for, or did not stay whole on the first page, goes
back to WeasyPrint and the chapter is laid out again (not seen on the designer's content).

With TETHER_STOCK_LAYOUT=1, or library versions other than print/layout/patches.py's, every
run is WeasyPrint's: tests/print/test_stock_layout.py compares both paths' bytes.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

ATTR = "data-balance"
LONG = 2700       # characters of text: a `.rb-cols` run at least this long is measured
TALL_MM = 10000   # the measure document's page height
AVOID = frozenset({"avoid", "avoid-column", "avoid-page"})
PX_PER_MM = 96 / 25.4

_OPEN = re.compile(r"<(div)(\s[^>]*)?>")
_PAGE = re.compile(r"@page\s*\{\s*size:\s*([\d.]+)mm\s+([\d.]+)mm;\s*margin:\s*([\d.]+)mm;")
_FIRST = re.compile(r"@page\s*:first\s*\{\s*size:\s*[\d.]+mm\s+([\d.]+)mm;\s*\}")
_DIV = re.compile(r"<(/?)div\b")
_TAG = re.compile(r"<[^>]+>")


def enabled() -> bool:
    """Our balancing is used with the library versions it was written for, and not with
    TETHER_STOCK_LAYOUT (the stock path: WeasyPrint balances every run)."""
    from ..layout.patches import patched

    return patched()


def render(layout, html: str):
    """html (a chapter document) laid out by `layout` (print/layout/pdf.py's Layout), its long
    two-column runs balanced by measure (the module's docstring)."""
    first = _first_page(html)
    marked, count = mark(html) if first is not None and enabled() else (html, 0)
    if not count:
        return layout.render(html)
    measured = _measured(layout.render(measure_html(truncated(marked))))
    heights = placed(measured, first)
    while True:
        document = layout.render(final_html(marked, heights))
        over = overfull(document, heights)
        if not over:
            return document
        for number in over:
            heights.pop(number)   # WeasyPrint's own balancing, for this run


def _first_page(html: str) -> float | None:
    """The height (px) of the content area of the document's first page, from its @page
    rules (`size: W H; margin: M` in mm, `@page :first` its first page's size), or None."""
    page = _PAGE.search(html)
    if page is None or "</head>" not in html:
        return None
    _, height, margin = (float(v) for v in page.groups())
    first = _FIRST.search(html)
    return ((float(first.group(1)) if first else height) - 2 * margin) * PX_PER_MM


def _close(html: str, start: int) -> int:
    """The end of the div that opens at `start`."""
    depth = 0
    for match in _DIV.finditer(html, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return match.end()
    return len(html)


def measured_run(classes: list[str], html: str, start: int) -> bool:
    """Whether the div opening at `start` with these classes is a run to measure: the
    components list, or a `.rb-cols` run of at least LONG characters of text."""
    if "rb-components-list" in classes:
        return True
    return "rb-cols" in classes and len(_TAG.sub("", html[start:_close(html, start)])) >= LONG


def mark(html: str) -> tuple[str, int]:
    """The HTML with a `data-balance` number on each run to measure (with no style attribute
    of its own), and how many were marked."""
    count = 0

    def one(match: re.Match) -> str:
        nonlocal count
        attrs = match.group(2) or ""
        found = re.search(r'\bclass="([^"]*)"', attrs)
        if found is None or re.search(r"\b(style|data-balance)=", attrs) \
                or not measured_run(found.group(1).split(), html, match.start()):
            return match.group(0)
        count += 1
        return f'<{match.group(1)}{attrs} {ATTR}="{count - 1}">'

    return _OPEN.sub(one, html), count


def truncated(marked: str) -> str:
    """The marked HTML without what follows its last marked run in the chapter (nothing
    after it moves it)."""
    last = marked.rfind(f' {ATTR}="')
    start = marked.rfind("<", 0, last)
    end = _close(marked, start)
    stop = marked.rfind("</section>")
    return marked[:end] + marked[stop:] if stop > end else marked


def _styled(html: str, css: str) -> str:
    """The HTML with a style sheet added last in its head."""
    at = html.find("</head>")
    return f"{html[:at]}<style>{css}</style>{html[at:]}"


def measure_html(marked: str) -> str:
    """The measure document: one page, TALL_MM tall, each marked run one column (its first,
    of the columns' width: `column-fill: auto`). The width is the chapter's own."""
    page = _PAGE.search(marked)
    size = f"size: {page.group(1)}mm {TALL_MM}mm"
    return _styled(marked, f"@page {{ {size}; }} @page :first {{ {size}; }} "
                           f"[{ATTR}] {{ column-fill: auto !important; }}")


def final_html(marked: str, heights: dict[int, float]) -> str:
    """The marked HTML with the given runs at their heights (px, the float itself: a
    rounded height moves what follows by a fraction), their columns filled in order."""
    if not heights:
        return marked
    rules = " ".join(f'[{ATTR}="{i}"] {{ column-fill: auto !important; '
                     f"height: {h!r}px !important; }}" for i, h in sorted(heights.items()))
    return _styled(marked, rules)


def _boxes(document):
    """(page index, page's content top, box) of every box of the document's pages."""
    from ..layout.boxes import walk
    from ..layout.patches import page_root

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
    """A marked run in the measure document: its top (px below the page's content top), its
    height there (one column) and its balanced height (px)."""

    top: float
    tall: float
    height: float


def _measured(document) -> dict[int, Measured]:
    """Run number -> Measured, for the marked runs of two columns that the measure document
    lays out as one column (the others are left to WeasyPrint)."""
    seen: dict[int, list] = {}
    for _, top, box in _boxes(document):
        number = _number(box)
        if number is not None:
            seen.setdefault(number, []).append((top, box))
    out = {}
    for number, found in seen.items():
        if len(found) != 1:
            continue
        top, box = found[0]
        columns = _columns(box)
        if box.style["column_count"] != 2 or len(columns) != 1:
            continue
        height = _height(columns[0])
        if height is not None:
            out[number] = Measured(box.position_y - top, box.border_height(), height)
    return out


def placed(measured: dict[int, Measured], first: float) -> dict[int, float]:
    """Run number -> height, for the runs predicted to end on the chapter's first page (of
    `first` px): each run's top is its top in the measure, less what the runs before it
    gave up (their one column's height less their height). On that page the prediction is
    exact; a run that would reach past it is left to WeasyPrint, and so is every run after
    it (its top is no longer known)."""
    heights = {}
    saved = 0.0
    for number in sorted(measured):
        run = measured[number]
        if run.top - saved + run.height > first:
            break
        heights[number] = run.height
        saved += run.tall - run.height
    return heights


def overfull(document, heights: dict[int, float]) -> list[int]:
    """The runs given a height that hold more columns than they ask for (WeasyPrint sets
    columns beside a box of fixed height that its content overflows), or that are not
    whole on the first page: each goes back to WeasyPrint's own balancing."""
    seen: dict[int, int] = {}
    over = set()
    for index, _, box in _boxes(document):
        number = _number(box)
        if number is None or number not in heights:
            continue
        seen[number] = seen.get(number, 0) + 1
        if index or len(_columns(box)) > box.style["column_count"]:
            over.add(number)
    over.update(n for n in heights if seen.get(n) != 1)
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
    """The height to give the run: WeasyPrint's column layout at the least height at which
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
        return None   # the first column would take more at the run's height
    return max(height, fit)


def _breaks(leaves: list):
    """(bottom of the first column, top of the second, the first column's trailing margin)
    for each place the content may break, in px of the measure document: between two lines
    of a paragraph with `orphans` lines before and `widows` after, between blocks where no
    box that ends there has `break-after: avoid` and none that starts there `break-before:
    avoid`, never inside a box with `break-inside: avoid` or a table."""
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
