"""The long two-column runs balanced by our own measure (print/rulebook/balance.py) against
WeasyPrint's own balancing, chapter by chapter, in CPU seconds and page images.

    python benchmarks/bench_columns.py           # the runs balance.py measures
    python benchmarks/bench_columns.py --all     # every two-column run measured (a trial)

Lays out the rulebook's chapter documents (the HTML the rulebook stage lays out, collected
from one run of the stage) both ways, and prints each one's CPU and whether the PDFs have
the same bytes or, when not, the same page images (drawn with PDFium at 100 dpi). Runs on
demand, not in pytest. Findings: docs/performance.md, "The rulebook stage, document by
document".
"""

from __future__ import annotations

import resource
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def _chapters(content: Path) -> tuple[list[str], str]:
    """The HTML of every chapter document the stage lays out, and their base URL."""
    from tether_build.commands import load
    from tether_build.print.rulebook import book, runon

    found, base = [], [""]
    lay_out = runon._lay_out

    def spy(html, kind, cache, at, *args):
        if kind == "bookch":
            found.append(html)
            base[0] = at
        return lay_out(html, kind, cache, at, *args)

    runon._lay_out = spy
    try:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "content"
            shutil.copytree(content, copy)
            book.render_rulebook(load(copy), copy, ("a4",), Path(tmp) / "cache", workers=1)
    finally:
        runon._lay_out = lay_out
    return found, base[0]


def _images(pdf: bytes) -> list:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    return [page.render(scale=100 / 72).to_pil() for page in document]


def _same_images(a: bytes, b: bytes) -> bool:
    from PIL import ImageChops

    first, second = _images(a), _images(b)
    return len(first) == len(second) and all(
        x.size == y.size and ImageChops.difference(x, y).getbbox() is None
        for x, y in zip(first, second))


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from tether_build.print.layout.pdf import Layout, shared
    from tether_build.print.rulebook import balance

    if "--all" in sys.argv[1:]:
        balance.LONG = 0   # every .rb-cols run measured, however short

    chapters, base = _chapters(ROOT / "content")
    layout = shared(base)
    totals = [0.0, 0.0]
    for html in chapters:
        start = cpu()
        stock = layout.render(html)
        middle = cpu()
        trial = balance.render(layout, html)
        end = cpu()
        totals[0] += middle - start
        totals[1] += end - middle
        a, b = Layout.write(stock.pages, stock), Layout.write(trial.pages, trial)
        same = "same bytes" if a == b else (
            "same images" if _same_images(a, b) else "IMAGES DIFFER")
        title = html.split("<title>", 1)[1].split("</title>", 1)[0]
        print(f"{middle - start:6.2f} {end - middle:6.2f}  {same:13} {title}")
    print(f"{totals[0]:6.2f} {totals[1]:6.2f}  CPU-s: stock balancing, balance.py")


if __name__ == "__main__":
    main()
