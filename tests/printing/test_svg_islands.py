"""Long inline SVG (token sheets, board maps) is read by the XML parser instead of the HTML
tokenizer (render/patches.parse): the PDF must be the same bytes either way, and anything that
is not plain well-formed SVG must be read the usual way."""

from __future__ import annotations

import pytest

from tether_build.printing import tokens
from tether_build.render import patches, pdf


def _both_ways(monkeypatch, make) -> tuple[bytes, bytes]:
    """make() laid out with long SVG read as XML, then with everything read as HTML."""
    fast = make()
    monkeypatch.setattr(patches, "SVG_ISLAND_CHARS", 10**12)
    slow = make()
    return bytes(fast), bytes(slow)


def _sheet(svg_body: str, extra: str = "") -> str:
    svg = ('<svg class="layer" xmlns="http://www.w3.org/2000/svg" width="100mm" height="100mm"'
           f' viewBox="0 0 100 100">{svg_body}</svg>')
    return (f"<html><head><style>@page {{ size: 120mm 120mm; margin: 5mm; }}</style></head>"
            f"<body>{extra}<section><p>before</p>{svg}<p>after &amp; more</p></section>"
            f"</body></html>")


def _layout(html: str) -> bytes:
    document = pdf.Layout("file:///").render(html)
    return pdf.Layout.write(document.pages, document)


def _many_shapes(n: int = 400) -> str:
    return "".join(
        f'<g transform="translate({i % 20 * 5} {i // 20 * 5})"><rect width="4" height="4" '
        f'fill="#{i * 997 % 0xFFFFFF:06x}" stroke="black" stroke-width="0.2"/>'
        f'<text x="2" y="3" font-size="2" text-anchor="middle">{i} &lt;&amp;&gt;</text></g>'
        for i in range(n))


def test_a_long_svg_read_as_xml_gives_the_same_pdf(monkeypatch):
    body = _many_shapes() + '<svg x="1" y="1" width="3" height="3"><circle r="1"/></svg>'
    html = _sheet(body)
    assert len(patches._islands(html)[0]) == 1
    fast, slow = _both_ways(monkeypatch, lambda: _layout(html))
    assert fast == slow


@pytest.mark.parametrize("why, extra, body", [
    ("an HTML comment", "<!-- <svg></svg> -->", _many_shapes()),
    ("an HTML entity XML does not know", "", _many_shapes() + "<text>a&nbsp;b</text>"),
    ("an entity declaration", "", "<!DOCTYPE svg [<!ENTITY x 'y'>]>" + _many_shapes()),
])
def test_svg_that_is_not_plain_xml_is_read_the_usual_way(monkeypatch, why, extra, body):
    html = _sheet(body, extra)
    fast, slow = _both_ways(monkeypatch, lambda: _layout(html))
    assert fast == slow, why


def test_an_unbalanced_svg_is_left_to_the_html_parser():
    html = _sheet(_many_shapes()).replace("</svg>", "", 1)
    assert patches._islands(html) == ([], html)


def test_the_token_sheets_are_the_same_bytes_either_way(content, monkeypatch):
    fast, slow = _both_ways(monkeypatch, lambda: tokens.render_tokens(content, "a4"))
    assert fast == slow
