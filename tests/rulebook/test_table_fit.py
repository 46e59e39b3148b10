"""The fit check of the book's tables (print/rulebook/tablefit.py): measured after layout, a table
past the text area, text outside its cell or type under the minimum is refused by name."""

from __future__ import annotations

import pytest

from tether_build.errors import TetherError
from tether_build.print.layout.pdf import Layout
from tether_build.print.rulebook import tablefit
from tether_build.print.rulebook.pagebase import TEMPLATES

BASE = TEMPLATES.as_uri() + "/"


def _doc(body: str):
    html = ('<!DOCTYPE html><html><head><link rel="stylesheet" href="fonts/fonts.css">'
            '<link rel="stylesheet" href="rulebook/book.css"><style>@page { size: 105mm 148mm;'
            ' margin: 10mm; }</style></head><body><h1 class="rb-chapter-title">Planted</h1>'
            f"{body}</body></html>")
    return Layout(BASE).render(html)


def test_a_table_that_fits_passes():
    doc = _doc('<table class="rb-table"><tr><th>Players</th><th>Radius</th></tr>'
               "<tr><td>2</td><td>4</td></tr></table>")
    assert tablefit.table_problems(doc) == []


def test_text_outside_its_cell_is_refused_by_name():
    word = "Unbreakablewordthatrunsonandonpastitscell" * 2
    doc = _doc('<table class="rb-table" style="table-layout: fixed; width: 60mm">'
               f'<tr><th>Kind</th><th>Count</th></tr><tr><td>{word}</td><td>3</td></tr>'
               "</table>")
    problems = tablefit.table_problems(doc)
    assert problems and "Kind" in problems[0] and "Planted" in problems[0]
    assert "outside its cell" in problems[0] or "past the page" in problems[0]
    with pytest.raises(TetherError, match="a table does not fit"):
        tablefit.check(doc, "a planted part")


def test_a_table_wider_than_the_page_is_refused():
    cells = "".join(f"<td>column{i}</td>" for i in range(14))
    doc = _doc(f'<table class="rb-table" style="white-space: nowrap"><tr>{cells}</tr></table>')
    problems = tablefit.table_problems(doc)
    assert problems and "past the page's text area" in problems[0]


def test_type_under_the_minimum_is_refused():
    doc = _doc('<table class="rb-table" style="font-size: 4pt"><tr><td>tiny</td></tr></table>')
    assert any("under the 6 pt minimum" in p for p in tablefit.table_problems(doc))


def _tight(cls: str):
    """A word a little too wide for its fixed cell at the table's standard size."""
    html = ('<!DOCTYPE html><html><head><link rel="stylesheet" href="fonts/fonts.css">'
            '<link rel="stylesheet" href="rulebook/book.css"><style>@page { size: 105mm 148mm;'
            ' margin: 10mm; }</style></head><body><h1 class="rb-chapter-title">Planted</h1>'
            f'<table class="{cls}" style="table-layout: fixed; width: 26mm">'
            "<tr><th>Kind</th></tr><tr><td>Counterbalancingly</td></tr></table></body></html>")
    return html, Layout(BASE).render(html)


def test_a_table_overflow_is_an_error_without_the_opt_in():
    _html, doc = _tight("rb-table")
    assert tablefit.table_problems(doc)
    doc2, scale, why = tablefit.fitted(doc, lambda css: pytest.fail("laid out again"))
    assert scale == 1.0 and why == [] and doc2 is doc
    with pytest.raises(TetherError, match="a table does not fit"):
        tablefit.check(doc, "a planted part")


def test_a_table_opted_in_shrinks_until_it_fits():
    html, doc = _tight("rb-table rb-shrink")
    opted: list[str] = []
    assert tablefit.table_problems(doc, opted) == [] and opted   # set apart, not refused
    doc, scale, why = tablefit.fitted(
        doc, lambda css: Layout(BASE).render(tablefit.with_css(html, css)))
    assert 0.7 <= scale < 1.0 and "Counterbalancingly" in why[0]
    assert tablefit.table_problems(doc) == []
    tablefit.check(doc, "a planted part")                       # no error now


def test_a_chapter_opts_in_by_its_front_matter(content, content_copy):
    from tether_build.print.rulebook.chapters import ChapterRenderer
    from tether_build.print.rulebook.directives import Ctx
    from tether_build.print.rulebook.words import Words

    path = content_copy / "rules" / "14-board.md"
    text = path.read_text(encoding="utf-8")
    renderer = ChapterRenderer(Ctx(content, Words(content), dict))
    plain, problems = renderer.render(path, "content/rules/14-board.md")
    assert not problems and 'class="rb-table' in str(plain.html)
    assert "rb-shrink" not in str(plain.html)
    path.write_text(text.replace("---\n", "---\nshrink: true\n", 1), encoding="utf-8")
    opted, problems = renderer.render(path, "content/rules/14-board.md")
    assert not problems and 'class="rb-table rb-shrink' in str(opted.html)
    path.write_text(text.replace("---\n", "---\nshrink: maybe\n", 1), encoding="utf-8")
    none, problems = renderer.render(path, "content/rules/14-board.md")
    assert none is None and problems[0].field == "front matter.shrink"


def test_a_table_wider_than_its_box_is_refused():
    """A table inside a narrower box (the player aid's columns) that runs past the box's
    edge: its cells fit and it is inside the page, yet the box beside it covers it."""
    doc = _doc('<div style="width: 40mm"><table class="rb-table" style="white-space: nowrap">'
               "<tr><th>Attacker \\ Defender</th><td>40%</td><td>8%</td><td>1%</td></tr>"
               "</table></div>")
    problems = tablefit.table_problems(doc)
    assert problems and "past the box that holds it" in problems[0]
    fits = _doc('<div style="width: 80mm"><table class="rb-table"><tr><th>A</th><td>40%</td>'
                "</tr></table></div>")
    assert tablefit.table_problems(fits) == []
