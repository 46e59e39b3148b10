"""Balanced columns without the one-pixel crawl: WeasyPrint's column balancing, patched.

WeasyPrint (66) balances a run of columns by laying it out at a height, and, while it does
not fit, again one pixel taller, unless it can tell how much taller the next box needs
(`lost_space`). It cannot when a box that fits is held back by a break rule (a heading kept
with the lines after it): the rules chapters' two columns then crawled up pixel by pixel, the
Overview's last page forty-two times, each a full layout of its columns (a third of the
chapter's layout, and the longest part the round cap lays out again).

A height is laid out the same as the one below it, pixel after pixel, until some box fits
that did not: the columns' breaks only move on as the height grows. So once a crawl step
laid out what the step before did (the same columns, ending at the same places), the patch
finds the first of the crawl's own heights where the columns change, doubling the step and
then halving it (probe layouts, thrown away as WeasyPrint throws its own), and the crawl
goes on from there. WeasyPrint then lays out and keeps exactly what it would have reached
pixel by pixel: the heights are its own (one pixel added at a time, the same floating-point
sums), and the heights skipped lay out as the one it came from. Pages with footnotes or
floats beside the columns crawl as before.

Applied only to the WeasyPrint version it was written against (PATCHED_VERSION) and only
when its code reads as expected; otherwise WeasyPrint balances as it does.
"""

from __future__ import annotations

import inspect
import textwrap
from math import inf

PATCHED_VERSION = "66.0"

_START = """        page_is_empty = stop_rendering = balancing = False
        while True:
"""
_RENDER = """            consumed_heights = []
            new_boxes = []
"""
_RESUME = """                new_boxes.append(new_box)
                column_skip_stack = resume_at
"""
_STEP = """                # Increase the column heights and render them again
                add_height = 1 if lost_space == inf else lost_space
                height += add_height
"""
_EDITS = (
    (_START, _START.replace("        while True:\n",
                            "        _crawl = None\n        while True:\n")),
    (_RENDER, _RENDER + "            _resumes = []\n"),
    (_RESUME, _RESUME + "                _resumes.append(repr(resume_at))\n"),
    (_STEP, """                # Increase the column heights and render them again
                if lost_space == inf:
                    _seen = (tuple(consumed_heights), tuple(_resumes))
                    _repeated = _crawl == _seen
                    _crawl = _seen
                    height = _tether_step(
                        context, column_box, containing_block, skip_stack, count,
                        current_position_y, height, max_height,
                        original_excluded_shapes, _seen if _repeated else None)
                else:
                    height += lost_space
"""),
)

_APPLIED: list = []


def apply() -> bool:
    """Patch WeasyPrint's columns_layout (once); whether it is patched."""
    if _APPLIED:
        return _APPLIED[0]
    _APPLIED.append(False)
    try:
        import weasyprint
        from weasyprint.layout import block, column
    except ImportError:
        return False
    if weasyprint.__version__ != PATCHED_VERSION or block.columns_layout is not column.columns_layout:
        return False
    source = textwrap.dedent(inspect.getsource(column.columns_layout))
    for old, new in _EDITS:
        if source.count(old) != 1:
            return False   # not the code this patch was written for
        source = source.replace(old, new)
    namespace = dict(vars(column), _tether_step=_step)
    exec(compile(source, column.__file__, "exec"), namespace)  # noqa: S102  (WeasyPrint's own code, edited above)
    block.columns_layout = column.columns_layout = namespace["columns_layout"]
    _APPLIED[0] = True
    return True


def _step(context, column_box, containing_block, skip_stack, count, position_y, height,
          max_height, excluded, seen) -> float:
    """The crawl's next height: one pixel taller, or, once a step laid out the same columns
    as the one before (`seen`: their heights and ends at this height), the first of the
    crawl's heights where they change (or the first past max_height)."""
    if seen is None or context.excluded_shapes or excluded \
            or context.current_footnote_area.height != "auto":
        return height + 1
    lattice = [height]   # the crawl's heights: one pixel added at a time, as it adds them

    def at(n: int) -> float:
        while len(lattice) <= n:
            lattice.append(lattice[-1] + 1)
        return lattice[n]

    def same(n: int) -> bool:
        return at(n) <= max_height and _columns(
            context, column_box, containing_block, skip_stack, count, position_y,
            at(n)) == seen

    lo, hi = 0, 2
    while same(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid
    return at(hi)


def _columns(context, column_box, containing_block, skip_stack, count, position_y,
             height) -> tuple:
    """Lay out the columns at `height` as the crawl does, throw the layout away, and say
    what it laid out: each column's height and where it ended."""
    from weasyprint.layout.block import block_box_layout, remove_placeholders

    column_skip_stack = skip_stack
    consumed, resumes, new_boxes = [], [], []
    for _ in range(count):
        new_box, resume_at, *_ = block_box_layout(
            context, column_box, context.page_bottom - position_y - height,
            column_skip_stack, containing_block, False, [], [], [], discard=False,
            max_lines=None)
        if new_box is None:   # (nothing fits in it: the crawl notes no more, as here)
            break
        new_boxes.append(new_box)
        column_skip_stack = resume_at
        resumes.append(repr(resume_at))
        flow = [child for child in new_box.children if child.is_in_normal_flow()]
        consumed.append(flow[-1].margin_height() + flow[-1].position_y - position_y
                        - flow[-1].margin_bottom if flow else 0)
        if resume_at is None:
            break
    remove_placeholders(context, new_boxes, [], [])
    return tuple(consumed), tuple(resumes)


__all__ = ["PATCHED_VERSION", "apply", "inf"]
