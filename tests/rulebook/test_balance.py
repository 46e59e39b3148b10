"""The long two-column runs balanced by our own measure (print/rulebook/balance.py) write the
same bytes as WeasyPrint's own balancing, and WeasyPrint is then not asked to search."""

from __future__ import annotations

import pytest

from tether_build.print.layout import patches
from tether_build.print.layout.pdf import Layout, shared
from tether_build.print.rulebook import balance
from tether_build.print.rulebook.pagebase import TEMPLATES

BASE = TEMPLATES.as_uri() + "/"
HEAD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>T – c</title>
<link rel="stylesheet" href="fonts/fonts.css"><link rel="stylesheet" href="rulebook/book.css">
<style>@page { size: 186.3500mm 252.7000mm; margin: 3.1750mm; }
@page :first { size: 186.3500mm 229.3495mm; }</style></head>
<body class="rb rb-chapterdoc"><section class="rb-chapter rb-rules rb-prose rb-two" id="c">
<h1 class="rb-chapter-title">Components</h1>"""
TAIL = "</section></body></html>"


def _group(title: str, rows: int) -> str:
    body = "".join(f'<tr><td class="rb-num">{n + 1}</td><td>Marker of kind {n}</td></tr>'
                   for n in range(rows))
    return (f'<div class="rb-component-group"><h3>{title}</h3>'
            f'<table class="rb-table rb-components"><tbody>{body}</tbody></table></div>')


def _components(sizes: tuple[int, ...]) -> str:
    intro = '<div class="rb-cols"><p>What is in the box, and how many of each.</p></div>'
    groups = "".join(_group(f"Group {n}", rows) for n, rows in enumerate(sizes))
    return (f'{HEAD}{intro}<div class="rb-wide"><div class="rb-components-list">{groups}'
            f"</div></div>{TAIL}")


def _prose(paragraphs: int) -> str:
    words = "the seat that bids the most takes the first card of the row and pays for it "
    parts = []
    for n in range(paragraphs):
        if n % 4 == 0:
            parts.append(f"<h2>Step {n}</h2>")
        parts.append(f"<p>{words * (2 + n % 3)}</p>")
        if n % 5 == 2:
            parts.append("<ul><li>one thing</li><li>another thing</li></ul>")
    return f'{HEAD}<div class="rb-cols">{"".join(parts)}</div><div class="rb-wide"></div>{TAIL}'


@pytest.mark.skipif(not patches.patched(), reason="balanced by WeasyPrint on this path")
@pytest.mark.parametrize("html", [_components((30, 12, 9)), _components((8, 25, 14)),
                                  _prose(14), _prose(13)],
                         ids=["components", "components-2", "prose", "prose-2"])
def test_a_measured_run_writes_what_weasyprint_balancing_writes(html):
    marked, count = balance.mark(html)
    assert count == 1   # the run is measured and given its height, not searched
    heights = balance.placed(balance._measured(shared(BASE).render(
        balance.measure_html(balance.truncated(marked)))), balance._first_page(html))
    assert list(heights) == [0]
    stock = shared(BASE).render(html)
    ours = balance.render(shared(BASE), html)
    assert Layout.write(ours.pages, ours) == Layout.write(stock.pages, stock)


def test_short_runs_and_runs_the_page_breaks_stay_weasyprints():
    assert balance.mark(_prose(3))[1] == 0   # too short to pay for a measure
    html = _prose(60)   # longer than a page: left to WeasyPrint after the measure
    marked, count = balance.mark(html)
    assert count == 1
    heights = balance.placed(balance._measured(shared(BASE).render(
        balance.measure_html(balance.truncated(marked)))), balance._first_page(html))
    assert heights == {}
    stock, ours = shared(BASE).render(html), balance.render(shared(BASE), html)
    assert Layout.write(ours.pages, ours) == Layout.write(stock.pages, stock)
