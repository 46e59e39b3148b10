"""What render/patches.py changes in how WeasyPrint works, to spend less time: each change
writes the very bytes WeasyPrint writes without it."""

from __future__ import annotations

import contextlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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
