"""Inline SVGs handed to WeasyPrint as images (pdf.svg_images, Layout.render(images=True)):
the same PDF bytes as the inline drawing, each outermost <svg> an <img> of its own."""

from pathlib import Path

from tether_build.print.layout import pdf

TILES = (Path(__file__).resolve().parents[2] / "templates" / "tiles").as_uri() + "/"

ICON = ('<svg x="1" y="1" width="4" height="4" viewBox="0 0 24 24" color="#FFFFFF">'
        '<circle cx="12" cy="12" r="9" fill="currentColor"/></svg>')


def _svg(label: str, cls: str = "layer", extra: str = "") -> str:
    return (f'<svg class="{cls}" xmlns="http://www.w3.org/2000/svg" style="left: 3.000mm; '
            f'top: 2.000mm;" width="40.000mm" height="30.000mm" viewBox="0 0 40 30">'
            f'<polygon points="20,1 38,10 38,20 20,29 2,20 2,10" fill="#A0522D" '
            f'stroke="#3B3632" stroke-width="0.300"/>{ICON}'
            f'<text x="20" y="16" text-anchor="middle" class="serif" font-size="4" '
            f'fill="#111111">{label}</text>{extra}</svg>')


def _page(*svgs: str) -> str:
    sections = "".join(f'<section class="page" style="width: 50mm; height: 40mm;">{s}'
                       '</section>' for s in svgs)
    return ('<!doctype html><html><head><meta charset="utf-8"><style>@page { size: 50mm '
            '40mm; margin: 0; }</style><link rel="stylesheet" href="print.css"></head>'
            f'<body>{sections}</body></html>')


def test_each_outermost_svg_becomes_an_image_of_its_own_class_and_style():
    html, svgs = pdf.svg_images(_page(_svg("Mine &amp; 3 · q,r"), _svg("Other", cls="x")))
    assert "<svg" not in html and len(svgs) == 2
    imgs = [part.split(">")[0] for part in html.split("<img")[1:]]
    assert [img.count('class="layer"') for img in imgs] == [1, 0]
    assert 'class="x"' in imgs[1]
    assert all('style="left: 3.000mm; top: 2.000mm;"' in img for img in imgs)
    assert all(url.startswith(pdf.SVG_URL) and f'src="{url}"' in html for url in svgs)
    texts = [data.decode() for data in svgs.values()]
    assert all(text.count("<svg") == 2 and text.endswith("</svg>") for text in texts)


def test_a_repeated_svg_is_one_image_and_a_malformed_one_stays_inline():
    bad = _svg("Broken", extra="<g>")   # an unclosed group: not XML
    html, svgs = pdf.svg_images(_page(_svg("Same"), _svg("Same"), bad))
    assert len(svgs) == 1 and html.count(f'src="{next(iter(svgs))}"') == 2
    assert bad in html


def test_the_pdf_is_the_inline_drawings_byte_for_byte():
    html = _page(_svg("Mine &amp; 3 · q,r"), _svg("Second"), _svg("Second"))
    layout = pdf.Layout(TILES)
    inline = layout.render(html)
    images = layout.render(html, images=True)
    assert len(images.pages) == 3
    assert pdf.Layout.write(images.pages, images) == pdf.Layout.write(inline.pages, inline)


def test_an_image_weasyprint_never_asked_for_is_an_error(monkeypatch):
    import pytest

    from tether_build.errors import TetherError

    real = pdf._fetcher
    monkeypatch.setattr(pdf, "_fetcher", lambda grayscale, svgs: real(grayscale))
    with pytest.raises(TetherError, match="did not load 1 of"):
        pdf.Layout(TILES).render(_page(_svg("Refused")), images=True)


def test_a_rule_on_the_svg_element_itself_keeps_the_svgs_inline():
    """A style sheet that styles an <svg> as such (`svg`, `img` or an attribute in a
    selector's subject) would style the <img> in its place otherwise: such a document is
    laid out with its SVGs inline, the same bytes as without images=True. A rule on what
    lies inside an SVG (`svg text`, `.layer` on its class) lets them become images."""
    styled = _page(_svg("Styled")).replace(
        "</style>", " .page > svg.layer { opacity: 0.5; }</style>")
    layout = pdf.Layout(TILES)
    inline = layout.render(styled)
    images = layout.render(styled, images=True)
    assert layout.served == set()
    assert pdf.Layout.write(images.pages, images) == pdf.Layout.write(inline.pages, inline)
    assert pdf.svg_subjects("@media print { img { width: 1mm; } }")
    assert pdf.svg_subjects("section [width] { width: 1mm; }")
    assert not pdf.svg_subjects("svg text { font-size: 2pt; } svg .serif, .layer { x: y; }")
    plain = pdf.Layout(TILES)
    plain.render(_page(_svg("Plain")), images=True)
    assert len(plain.served) == 1
