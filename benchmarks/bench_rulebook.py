"""The rulebook stage alone, from an empty render cache, in CPU seconds, document by document.

    python benchmarks/bench_rulebook.py              # both papers, the chapters' process forked
    python benchmarks/bench_rulebook.py --workers 1  # one process: every document counted here
    python benchmarks/bench_rulebook.py --save DIR   # also write the outputs (to compare bytes)

What a clean `tether build` asks of the rulebook stage: the content is copied to a temporary
folder outside git (so the version the book prints does not change with a commit), the card
faces are made first (a build's card stage makes them; they are kept, every other entry of
the render cache dropped), then `render_rulebook` runs once, timed in CPU seconds (this
process and the processes it forks, which the machine's load inflates less than wall time).

With --workers 1 nothing is forked, and each WeasyPrint document the stage lays out is
listed with its CPU (layout and writing apart), grouped by part (bookch: the rules chapters,
bookref: the card reference's runs of rows, bookaid, bookguide; "book": the book, the aid
sheet and the guide's page on their own, the reference's column probe and the anatomy figure).
Runs on demand, not in pytest.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cpu(who: int = resource.RUSAGE_SELF) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def system(who: int) -> float:
    """CPU seconds in the kernel (page faults of a forked process's copied pages among them)."""
    return resource.getrusage(who).ru_stime


def _traced(log: list) -> None:
    """Note each document's layout and writing (this process only) in `log`."""
    from tether_build.print.layout import pdf
    from tether_build.print.rulebook import runon

    render, write, lay_out = pdf.Layout.render, pdf.Layout.write, runon._lay_out
    part = ["book"]

    def timed_render(self, html):
        start = cpu()
        document = render(self, html)
        title = re.search(r"<title>(.*?)</title>", html)
        name = re.sub(r"<[^>]+>", "", title.group(1)) if title else "(untitled)"
        log.append((part[0], "layout", cpu() - start, len(document.pages), name))
        return document

    def timed_write(pages, document):
        start = cpu()
        data = write(pages, document)
        log.append((part[0], "write", cpu() - start, len(pages), ""))
        return data

    def in_part(html, kind, *args, **kwargs):
        part[0] = kind
        try:
            return lay_out(html, kind, *args, **kwargs)
        finally:
            part[0] = "book"

    pdf.Layout.render, pdf.Layout.write = timed_render, staticmethod(timed_write)
    runon._lay_out = in_part


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2,
                        help="as render_rulebook's (2: the chapters in a forked process)")
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--save", type=Path, help="write the outputs under this folder")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tether_build.commands import load
    from tether_build.print.rulebook import book

    with tempfile.TemporaryDirectory() as tmp:
        content_dir = Path(tmp) / "content"
        shutil.copytree(args.content, content_dir)
        content = load(content_dir)
        papers = ("a4", "letter")
        made = Path(tmp) / "made"
        book.render_rulebook(content, content_dir, papers, made, workers=1)   # the faces
        cache = Path(tmp) / "cache"
        shutil.copytree(made / "faces", cache / "faces")
        log: list = []
        if args.workers == 1:
            _traced(log)
        start, children = cpu(), cpu(resource.RUSAGE_CHILDREN)
        kernel = system(resource.RUSAGE_SELF) + system(resource.RUSAGE_CHILDREN)
        result = book.render_rulebook(content, content_dir, papers, cache, workers=args.workers)
        used, forked = cpu() - start, cpu(resource.RUSAGE_CHILDREN) - children
        kernel = system(resource.RUSAGE_SELF) + system(resource.RUSAGE_CHILDREN) - kernel
    print(f"rulebook stage: {used + forked:.2f} CPU-s (this process {used:.2f}, forked "
          f"{forked:.2f}; in the kernel {kernel:.2f}); pages {result.pages}; "
          f"load {os.getloadavg()[0]:.1f}")
    if log:
        parts: dict = defaultdict(lambda: [0.0, 0.0, 0])
        for kind, what, seconds, _, _ in log:
            parts[kind][0 if what == "layout" else 1] += seconds
            parts[kind][2] += what == "layout"
        for kind, (lay, wrote, count) in sorted(parts.items(), key=lambda p: -sum(p[1][:2])):
            print(f"  {kind:10} {count:3} documents: layout {lay:6.2f}, writing {wrote:5.2f}")
        print("  slowest layouts:")
        for kind, _, seconds, pages, name in sorted(
                (e for e in log if e[1] == "layout"), key=lambda e: -e[2])[:6]:
            print(f"    {seconds:5.2f} {kind:9} {pages:2} pages  {name}")
    if args.save:
        for name, data in result.files.items():
            path = args.save / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


if __name__ == "__main__":
    main()
