"""Style sheets read once for every document (print/layout/sheets.py): the same cascade,
the same PDF bytes, and the documents whose cascade could differ laid out as before."""

from __future__ import annotations

import pytest

from tether_build.print.layout import sheets
from tether_build.print.layout.pdf import Layout
from tether_build.print.layout.sheets import split
from tether_build.print.rulebook.pagebase import TEMPLATES

BASE = TEMPLATES.as_uri() + "/"

# a linked rule of higher specificity than a later <style> rule on the same property (it
# wins among author sheets: as the user's beside an author <style>, it would lose), an
# @page rule in both, a style attribute beside a sheet's rule, a sheet's !important
HTML = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="fonts/fonts.css">
<link rel="stylesheet" href="{linked}">
<style>@page {{ size: 80mm 60mm; margin: 4mm; }} p {{ color: #00f; font-size: 9pt; }}
.x {{ margin-left: 3mm !important; }}</style>
</head><body class="rb"><p class="a b">One <b class="x">two</b> three</p>
<p class="a" style="color: #0a0; margin-left: 1mm">Four five six</p>
<div class="b">Seven</div>{extra}</body></html>"""

SHEET = """@page {{ @bottom-center {{ content: counter(page); }} }}
body p.a {{ color: #f00; font-family: "Tether Sans"; }}
.b {{ margin-left: 6mm; {more} }}"""


@pytest.fixture
def linked(tmp_path):
    """A sheet of the test's own, linked like the templates' sheets (relative to BASE)."""
    import os

    from tether_build.content import paths_guard

    paths_guard.allow_reads(tmp_path)   # (a page may load it)

    def make(more: str = "") -> str:
        path = tmp_path / f"test-{len(list(tmp_path.iterdir()))}.css"
        path.write_text(SHEET.format(more=more))
        return os.path.relpath(path, TEMPLATES)
    return make


def _pdf(layout: Layout, html: str) -> bytes:
    document = layout.render(html)
    return Layout.write(document.pages, document)


def test_split_lists_the_sheets_in_order_and_skips_them():
    html = HTML.format(linked="rulebook/book.css", extra="")
    found = split(html)
    assert found is not None
    assert [kind for kind, _ in found.sheets] == ["link", "link", "style"]
    assert found.sheets[1] == ("link", "rulebook/book.css")
    assert '<link rel="stylesheet"' not in found.html and "<style>" not in found.html
    assert found.html.count(sheets.SKIPPED_STYLE) == 1
    body = html[html.index("<body"):]
    assert found.html.endswith(body)   # the document's tree is the same


@pytest.mark.parametrize("extra", [
    "<style>p { color: red; }</style>",                      # a sheet outside the head
    '<svg><style>rect { fill: red; }</style></svg>',
    '<link rel="stylesheet" href="rulebook/worked.css">',
    '<p style="color: red !important">x</p>',               # an important attribute
])
def test_split_refuses_a_document_whose_cascade_could_differ(extra):
    assert split(HTML.format(linked="rulebook/book.css", extra=extra)) is None


@pytest.mark.parametrize("head", [
    '<link rel="stylesheet" media="print" href="rulebook/book.css">',
    "<!-- <style>p { color: red; }</style> -->",
    '<base href="file:///elsewhere/">',
    "<style>#top { color: red; }</style>",                   # an ID selector
    "<style>@import url(rulebook/book.css);</style>",
    "<style>@supports (color: red) { p { color: red; } }</style>",
    "<style>p:not(#top) { color: red; }</style>",
])
def test_split_refuses_sheets_written_otherwise(head):
    html = HTML.format(linked="rulebook/book.css", extra="").replace("</head>", head + "</head>")
    assert split(html) is None


def test_plain():
    assert sheets.plain("a.b > c[d] { color: #fff; } @media print { p { margin: 0; } }")
    assert not sheets.plain("@media print { #a { margin: 0; } }")
    assert not sheets.plain("@counter-style x { system: cyclic; symbols: a; }")


@pytest.mark.parametrize("more", ["", "color: #888 !important;"])
def test_the_same_bytes_with_the_sheets_read_once(linked, more):
    html = HTML.format(linked=linked(more), extra="")
    stock = _pdf(Layout(BASE), html)
    layout = Layout(BASE, sheets=True)
    assert _pdf(layout, html) == stock
    read = dict(layout.linked)
    assert set(read) == {"fonts/fonts.css", split(html).sheets[1][1]}
    assert all(sheet is not None for sheet in read.values())
    assert _pdf(layout, html) == stock
    assert all(layout.linked[k] is read[k] for k in read)   # parsed once


def test_a_linked_sheet_with_an_id_selector_is_read_as_before(linked):
    html = HTML.format(linked=linked("} #top { color: red;"), extra="")
    layout = Layout(BASE, sheets=True)
    assert _pdf(layout, html) == _pdf(Layout(BASE), html)
    assert layout.linked[split(html).sheets[1][1]] is None   # not plain: WeasyPrint reads it
