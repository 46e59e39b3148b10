"""The fit check of the book's tables (rulebook/tablefit.py): measured after layout, a table
past the text area, text outside its cell or type under the minimum is refused by name."""

from __future__ import annotations

import pytest

from tether_build.errors import TetherError
from tether_build.render.pdf import Layout
from tether_build.rulebook import tablefit
from tether_build.rulebook.pagebase import TEMPLATES

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
