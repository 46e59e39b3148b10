"""The faces' icons drawn once per face PDF (print/cards/icons.py): the same pixels as drawing
every SVG inline, one form per icon, no stand-in left in a PDF."""

from __future__ import annotations

import re

import pytest

from tether_build.print.html import TEMPLATES

# the sizes the faces draw icons at, a box that is not square (the viewBox is centred in
# it, as WeasyPrint does for an SVG), and an icon with an inner transform (drawn inline)
SECTION = """<section style="font-size: {pt}pt">
<img src="icons/gold.svg" style="width: 8.2mm; height: 8.2mm">
<img src="icons/force.svg" style="width: 3.4mm; height: 3.4mm">
<span>Gain 2 <img src="icons/gold.svg" style="width: 1.15em; height: 1.15em">.</span>
<img src="icons/mana.svg" style="width: 6mm; height: 3mm">
<img src="icons/hp.svg" style="width: 2.9mm; height: 5.3mm; opacity: 0.3">
<img src="icons/categories/deckcraft.svg" style="width: 11mm; height: 11mm">
</section>"""
HTML = ("<!DOCTYPE html><html><head><style>@page { size: 63mm 88mm; margin: 3mm } "
        "section { break-after: page }</style></head><body>"
        + "".join(SECTION.format(pt=pt) for pt in (10.4, 9.2, 7.0)) + "</body></html>")


def _pages(pdf: bytes) -> list[bytes]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].render(scale=300 / 72).to_pil().tobytes() for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize("grayscale", [False, True])
def test_icons_as_forms_draw_the_same_pixels(grayscale):
    from tether_build.print.cards.icons import IconForms
    from tether_build.print.layout.pdf import Layout

    layout = Layout(TEMPLATES.as_uri() + "/", grayscale)
    inline_doc = layout.render(HTML)
    inline = Layout.write(inline_doc.pages, inline_doc)
    icons = IconForms(layout)
    html = icons.standins(HTML)
    assert html.count("icon-standin.jpg?icon=") == 5 * 3   # deckcraft stays an SVG
    doc = layout.render(html)
    swapped = Layout.write(doc.pages, doc, icons.finisher)
    assert _pages(swapped) == _pages(inline)
    raw = _raw(swapped)
    assert b"/Subtype /Image" not in raw   # no stand-in left
    assert len(re.findall(rb"/Subtype /Form", raw)) >= 4   # gold, force, mana, hp: once each


def _raw(pdf: bytes) -> bytes:
    """Every object of a PDF, its streams decompressed (pypdf)."""
    import io

    import pypdf

    reader = pypdf.PdfReader(io.BytesIO(pdf))
    out = []
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            obj = ref.get_object()
            out.append(b"/Subtype " + str(obj.get("/Subtype")).encode())
    return b"\n".join(out)


def test_only_size_independent_icons_are_eligible():
    from tether_build.print.cards.icons import eligible_svg

    assert eligible_svg((TEMPLATES / "icons" / "gold.svg").read_bytes())
    root = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">'
    assert not eligible_svg(root + b'<circle cx="50%" cy="12" r="3"/></svg>')
    assert not eligible_svg(root.replace(b'"0 0 24 24"', b'"0 0 32 32"') + b"</svg>")
    assert not eligible_svg(root.replace(b">", b' preserveAspectRatio="none">') + b"</svg>")


def test_viewbox_scale_is_written_as_weasyprint_writes_it():
    from tether_build.print.cards.icons import _viewbox_cm

    assert _viewbox_cm(24.0, 24.0) == b"1 0 0 1 0 0 cm"
    assert _viewbox_cm(30.992126, 30.992126) == b"1.291339 0 0 1.291339 0 0 cm"
    assert _viewbox_cm(48.0, 24.0) == b"1 0 0 1 12 0 cm"


@pytest.mark.parametrize("unexpected", ["drawing", "version"])
def test_a_weasyprint_that_draws_otherwise_gets_its_icons_inline(monkeypatch, unexpected):
    """The stand-ins are used only where the probe finds them drawn as the post-pass
    rewrites them, on the WeasyPrint this was written for; else every icon stays an SVG."""
    import re as re_module

    from tether_build.print.cards import icons as icons_module
    from tether_build.print.layout import patches
    from tether_build.print.layout.pdf import Layout

    monkeypatch.setattr(icons_module, "_MADE", {})
    if unexpected == "drawing":   # a stand-in drawn under another matrix than w 0 0 -h 0 h
        monkeypatch.setattr(icons_module, "_IMAGE_CM", re_module.compile(rb"(x)(y)(z)\Z"))
    else:
        monkeypatch.setattr(patches, "versions_match", lambda: False)
    layout = Layout(TEMPLATES.as_uri() + "/", False)
    assert icons_module.IconForms(layout).standins(HTML) == HTML
