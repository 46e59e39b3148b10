"""What render/pdf.py changes in how WeasyPrint works, to spend less time: each change
writes the very bytes WeasyPrint writes without it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_font_subsetting_parses_no_array_type_per_font(monkeypatch):
    """The subsetter's glyph arrays are made as 'hb_codepoint_t[]' (render.pdf
    _UnsizedArrays): writing a PDF adds no 'hb_codepoint_t[N]' type to cffi's parsed
    types, and writes the very bytes the plain handle writes."""
    from weasyprint.pdf import fonts

    from tether_build.render import pdf

    assert isinstance(fonts.ffi, pdf._UnsizedArrays)   # the locked WeasyPrint has one
    real = fonts.ffi._ffi

    def sized() -> set[str]:
        return {k for k in real._parsed_types if k.startswith("hb_codepoint_t[")
                and k != "hb_codepoint_t[]"}

    layout = pdf.Layout((ROOT / "templates").as_uri() + "/")
    document = layout.render(pdf.WARM_UP_HTML.replace("Warm 1/2", "Glyphs ÆØÅ ßẞ 1/2"))
    before = sized()
    wrapped = pdf.Layout.write(document.pages, document)
    assert sized() == before
    monkeypatch.setattr(fonts, "ffi", real)
    assert pdf.Layout.write(document.pages, document) == wrapped


PAGE = """<!DOCTYPE html><html><head><link rel="stylesheet" href="{css}">
<style>@page {{ size: 60mm 40mm; margin: 4mm; }}</style></head>
<body><p class="x">{text}</p></body></html>"""


def test_a_linked_stylesheet_is_parsed_once_per_layout(tmp_path, monkeypatch):
    """Two documents of one Layout linking the same file: parsed for the first only, the
    same PDF bytes as parsing it for each, @page rules included; an edited file is parsed
    again and its new rules apply."""
    import tinycss2
    from weasyprint import css as wcss

    from tether_build.render import pdf

    assert isinstance(wcss.CSS, pdf._LinkedSheets)   # the locked WeasyPrint has one
    sheet = tmp_path / "a.css"
    sheet.write_text("@page { background: #ddeeff; } .x { color: #c00000; font-size: 14pt; }")
    parsed = []
    real_parse = tinycss2.parse_stylesheet_bytes
    monkeypatch.setattr(tinycss2, "parse_stylesheet_bytes",
                        lambda *a, **k: parsed.append(1) or real_parse(*a, **k))

    def pdfs(layout) -> list[bytes]:
        out = []
        for text in ("first", "second"):
            document = layout.render(PAGE.format(css=sheet.as_uri(), text=text))
            out.append(pdf.Layout.write(document.pages, document))
        return out

    once = pdfs(pdf.Layout(tmp_path.as_uri() + "/"))
    assert len(parsed) == 1
    monkeypatch.setattr(wcss, "CSS", wcss.CSS._make)
    assert pdfs(pdf.Layout(tmp_path.as_uri() + "/")) == once
    assert len(parsed) == 3
    monkeypatch.undo()

    layout = pdf.Layout(tmp_path.as_uri() + "/")
    before = pdfs(layout)
    sheet.write_text("@page { background: #ddeeff; } .x { color: #0000c0; font-size: 14pt; }")
    after = pdfs(layout)
    assert before != after and before == once


def test_a_stylesheet_that_is_no_regular_file_is_never_read(tmp_path):
    """A link to a FIFO: the stylesheet cache does not open it (it would wait for a writer
    forever); the layout goes on as WeasyPrint's own fetcher decides."""
    import os
    import subprocess
    import sys

    fifo = tmp_path / "pipe.css"
    os.mkfifo(fifo)
    probe = (f"from tether_build.render import pdf\n"
             f"layout = pdf.Layout({(tmp_path.as_uri() + '/')!r})\n"
             f"try:\n"
             f"    layout.render({PAGE.format(css=fifo.as_uri(), text='x')!r})\n"
             f"except Exception as exc:\n"
             f"    print(type(exc).__name__)\n"
             f"print('returned')\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert "returned" in done.stdout, done.stderr
