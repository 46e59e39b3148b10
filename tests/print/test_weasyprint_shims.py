"""What render/patches.py changes in how WeasyPrint works, to spend less time: each change
writes the very bytes WeasyPrint writes without it."""

from __future__ import annotations

import contextlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


PAGE = """<!DOCTYPE html><html><head><link rel="stylesheet" href="{css}">
<style>@page {{ size: 60mm 40mm; margin: 4mm; }}</style></head>
<body><p class="x">{text}</p></body></html>"""


def test_a_linked_stylesheet_is_parsed_once_per_layout(tmp_path, monkeypatch):
    """Two documents of one Layout linking the same file: parsed for the first only, the
    same PDF bytes as parsing it for each, @page rules included; an edited file is parsed
    again and its new rules apply."""
    import tinycss2
    from weasyprint import css as wcss

    from tether_build.render import patches, pdf

    assert isinstance(wcss.CSS, patches._LinkedSheets)   # the locked WeasyPrint has one
    from tether_build.paths_guard import allow_reads

    allow_reads(tmp_path)   # the page's folder stands for a loaded project (paths_guard)
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


SIZED = """<!DOCTYPE html><html><head>{link}<style>@page {{ size: {size}; margin: 0; }}
{first}</style></head><body><p>one</p><p style="break-before: page">two</p></body></html>"""


def test_a_kept_stylesheet_carries_no_page_size_of_the_document_it_was_parsed_for(tmp_path):
    """The rulebook lays out parts of different page sizes with one Layout (a part that runs
    on below another has a shorter first page, `@page :first`), and so do the token
    sheets' pieces: the linked sheet kept from the first document must not bring that
    document's own @page rules into the next. Each document's pages have the size it asks
    for, and the bytes of laying it out alone, before or after the link."""
    from tether_build.render import pdf

    sheet = tmp_path / "a.css"
    sheet.write_text("p { font-size: 9pt; }")
    link = f'<link rel="stylesheet" href="{sheet.as_uri()}">'
    run_on = {"size": "80mm 30mm", "first": "@page :first { size: 80mm 12mm; }"}
    fresh = {"size": "50mm 20mm", "first": ""}

    def sizes(document) -> list[tuple[int, int]]:
        return [(round(p.width * 25.4 / 96), round(p.height * 25.4 / 96))
                for p in document.pages]

    for before in (True, False):
        layout = pdf.Layout(tmp_path.as_uri() + "/")
        docs = [layout.render(SIZED.format(link=link if before else "", **kw).replace(
            "</style>", "</style>" + ("" if before else link))) for kw in (run_on, fresh)]
        assert sizes(docs[0]) == [(80, 12), (80, 30)]
        assert sizes(docs[1]) == [(50, 20), (50, 20)]
        alone = pdf.Layout(tmp_path.as_uri() + "/").render(
            SIZED.format(link=link if before else "", **fresh).replace(
                "</style>", "</style>" + ("" if before else link)))
        assert pdf.Layout.write(docs[1].pages, docs[1]) == pdf.Layout.write(alone.pages,
                                                                            alone)


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


BALANCED = """<!DOCTYPE html><html><head><style>
@page {{ size: 120mm 90mm; margin: 6mm; }}
body {{ font-family: DejaVu Sans; font-size: 9pt; }}
.cols {{ columns: 2; column-gap: 5mm; text-align: justify; hyphens: auto; }}
h2 {{ break-after: avoid; font-size: 11pt; }}
td {{ padding: 0 2mm; }}
.cut {{ white-space: nowrap; overflow: hidden; text-overflow: ellipsis; width: 30mm; }}
</style></head><body lang="en"><div class="cols">{body}</div></body></html>"""


def _balanced() -> str:
    """A document whose last page's two columns are balanced (laid out again and again),
    with justified text, a table of repeated cells and lines cut with an ellipsis."""
    para = ("Each round every player plans in secret, then all reveal at once: move your "
            "Cohorts across the Bridges, claim the Axis Mundi, spend Gold at The Archive. ")
    body = []
    for n in range(7):
        body.append(f"<h2>Part {n}</h2><p>{para * (1 + n % 3)}</p>")
        body.append("<table>" + "".join(f"<tr><td>{n % 4}</td><td>Gold {n % 2}</td></tr>"
                                        for _ in range(4)) + "</table>")
        body.append("<p class='cut'>Entropy rises while Permanence holds the line.</p>" * 2)
    return BALANCED.format(body="".join(body))


def test_lines_split_once_per_document_give_the_same_bytes(tmp_path):
    """Column balancing splits the same text at the same width again and again: within one
    document's layout (Layout.render) a line's split is kept and reused (render.pdf
    _LineSplits), with the bytes of a layout that splits every line anew; nothing is kept
    once the layout is done."""
    from weasyprint.text import line_break

    from tether_build.render import patches, pdf

    splits = patches._LINES
    assert splits is not None and line_break.split_first_line is splits
    html = _balanced()
    layout = pdf.Layout(tmp_path.as_uri() + "/")
    before = splits.calls
    kept = layout.render(html)
    kept_pdf = pdf.Layout.write(kept.pages, kept)
    reused = splits.calls - before
    assert splits._kept is None   # (only within a layout)

    try:   # every split made anew: no scope, nothing kept
        splits.scope = contextlib.nullcontext
        before = splits.calls
        plain = layout.render(html)
        made = splits.calls - before
    finally:
        del splits.scope
    assert len(kept.pages) == len(plain.pages) >= 2
    assert pdf.Layout.write(plain.pages, plain) == kept_pdf
    assert reused < made * 0.6, (reused, made)   # the balancing's splits were reused


def test_a_kept_split_is_never_shared(tmp_path):
    """Each call gets its own copy of the line's layout holder (drawing an ellipsis changes
    it), and an entry is found only for the very style and layout context it was made
    with."""
    from tether_build.render import patches

    results = []

    def real(text, style, context, *rest):
        results.append(object())
        return (type("Holder", (), {})(), len(text), None, 1.0, 2.0, 3.0)
    splits = patches._LineSplits(real)
    style, other, context = {}, {}, object()
    with splits.scope():
        first = splits("Gold", style, context, 10.0, 0)
        again = splits("Gold", style, context, 10.0, 0)
        splits("Gold", other, context, 10.0, 0)      # another style
        splits("Gold", style, object(), 10.0, 0)     # another context
        splits("Gold", style, context, 11.0, 0)      # another width
    assert splits.calls == 4 and first[1:] == again[1:]
    assert first[0] is not again[0] and type(first[0]) is type(again[0])
    splits("Gold", style, context, 10.0, 0)   # outside a scope: made anew
    assert splits.calls == 5
