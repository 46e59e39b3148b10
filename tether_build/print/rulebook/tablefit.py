"""The fit check of the rulebook's tables (and the player aid's and the print guide's): every
table of class rb-table is measured after layout. A table wider than its page's text area
(printed into the margin or cut off at the paper's edge), a cell whose text runs outside
the cell (a long word, a number that does not wrap), or type under MIN_PT is a build error
naming the table by its chapter and first cells (print/cards/fit.py does this for card faces).
"""

from __future__ import annotations

from ...errors import TetherError
from ..layout.patches import page_root

MIN_PT = 6.0
TOLERANCE_MM = 0.3
PX_PER_MM = 96 / 25.4
PX_PER_PT = 96 / 72


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    return set((element.get("class") or "").split()) if element is not None else set()


def _walk(box):
    box = getattr(box, "_box", box)
    yield box
    for child in getattr(box, "children", ()):
        yield from _walk(child)


def _tables(root, holder=None):
    """(table box, the nearest block box holding it, or None for the page itself) of every
    rb-table table under `root`."""
    root = getattr(root, "_box", root)
    if "rb-table" in _classes(root) and type(root).__name__ == "TableBox":
        yield root, holder
        return
    kind = type(root).__name__
    inner = holder
    if kind == "BlockBox" and getattr(root, "element", None) is not None and \
            root.element.tag not in ("html", "body", "table"):   # (a table's wrapper)
        inner = root
    for child in getattr(root, "children", ()):
        yield from _tables(child, inner)


def _texts(box) -> list:
    return [b for b in _walk(box) if type(b).__name__ == "TextBox" and b.text.strip()]


def _name(table, chapter: str) -> str:
    words = " | ".join(t.text.strip() for t in _texts(table)[:3])
    return f"the table {words[:60]!r}" + (f" in {chapter!r}" if chapter else "")


def _chapter(page) -> str:
    for box in _walk(page_root(page)):
        if "rb-chapter-title" in _classes(box):
            texts = _texts(box)
            if texts:
                return " ".join(t.text.strip() for t in texts)
    return ""


def table_problems(document, opted: list | None = None) -> list[str]:
    """Why each table of the laid-out `document` does not fit ([] when all do); `opted`
    collects the same for the tables that may shrink (class rb-shrink)."""
    tol = TOLERANCE_MM * PX_PER_MM
    out: list[str] = []
    chapter = ""
    for number, page in enumerate(document.pages, 1):
        root = page_root(page)
        chapter = _chapter(page) or chapter
        left, right = root.content_box_x(), root.content_box_x() + root.width
        tables = [(b, box) for b, box in _tables(root)]
        for table, within in tables:
            name = _name(table, chapter)
            if within is not None:   # wider than the box that holds it (an aid's column)
                edge = within.content_box_x() + within.width
                spill = table.border_box_x() + table.border_width() - edge
                if spill > tol:
                    (opted if opted is not None and "rb-shrink" in _classes(table)
                     else out).append(f"page {number}: {name} runs {spill / PX_PER_MM:.1f} "
                                      "mm past the box that holds it")
                    continue
            if opted is not None and "rb-shrink" in _classes(table):
                before = len(out)
                _table_problems(table, name, number, left, right, tol, out)
                opted.extend(out[before:])
                del out[before:]
                continue
            _table_problems(table, name, number, left, right, tol, out)
    return out


def _table_problems(table, name: str, number: int, left: float, right: float, tol: float,
                    out: list[str]) -> None:
    x0, x1 = table.border_box_x(), table.border_box_x() + table.border_width()
    over = max(left - x0, x1 - right)
    if over > tol:
        out.append(f"page {number}: {name} runs {over / PX_PER_MM:.1f} mm past the "
                   "page's text area")
        return
    for cell in (b for b in _walk(table) if type(b).__name__ == "TableCellBox"):
        c0 = cell.padding_box_x()
        c1 = c0 + cell.padding_width()
        for text in _texts(cell):
            size = text.style["font_size"] / PX_PER_PT
            if size < MIN_PT - 0.05:
                out.append(f"page {number}: {name}: {text.text.strip()!r} is set at "
                           f"{size:.1f} pt, under the {MIN_PT:g} pt minimum")
                break
            spill = max(c0 - text.position_x, text.position_x + text.width - c1)
            if spill > tol:
                out.append(f"page {number}: {name}: {text.text.strip()!r} runs "
                           f"{spill / PX_PER_MM:.1f} mm outside its cell")
                break


SHRINK_STEPS = (0.9, 0.8, 0.7)   # as tiles and tokens (print/tiles/shrink.py)


def fitted(document, rerender):
    """The document with its opted-in tables (class rb-shrink: `shrink: true` in a rules
    chapter's front matter) laid out again smaller until they fit: (document, the size
    they print at, 1.0 when none had to shrink; why they had to, one line a table).
    `rerender(css)` lays the same HTML out with `css` added. What still does not fit at the
    last step is left for check()."""
    opted: list[str] = []
    table_problems(document, opted)
    why, scale = list(opted), 1.0
    for step in SHRINK_STEPS:
        if not opted:
            break
        scale = step
        document = rerender(shrink_css(step))
        opted = []
        table_problems(document, opted)
    return document, scale, why


def shrink_css(scale: float) -> str:
    return (f"<style>.rb-table.rb-shrink th, .rb-table.rb-shrink td "
            f"{{ font-size: {round(scale * 100)}% }}</style>")


def with_css(html: str, css: str) -> str:
    """`css` (a <style> element) added at the end of the document's head."""
    if not css:
        return html
    return html.replace("</head>", css + "</head>", 1) if "</head>" in html else css + html


def check(document, what: str) -> None:
    """Raise naming every table of `document` (one part of the book: `what`) that does not
    fit; the layout is then kept nowhere, so every build reports it until it is fixed."""
    problems = table_problems(document)
    if problems:
        raise TetherError(f"rulebook: {what}: a table does not fit:\n  "
                          + "\n  ".join(problems)
                          + "\n(shorten the words in its cells or split the table)")
