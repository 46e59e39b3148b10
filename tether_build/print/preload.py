"""Loading the layout libraries ahead of the work, in the process workers fork from (the
build system's preloaded process, buildsys/workers.py, and the card faces' own workers)."""

from __future__ import annotations


def load_layout() -> None:
    """Import the layout library (WeasyPrint: 0.2-0.4 s), the PDF assembler every layout
    stage uses (pdfasm; not pypdf, which only a file it does not read and a new rulebook
    skeleton need: see pdfasm) and the templates' engine (Jinja), and read the versions
    the render cache's keys name, in this process: done before forking workers that lay
    out, they inherit all of it (each imported them again, on its own critical path), and
    this process has them for the keys it works out after."""
    from . import html  # noqa: F401
    from .cache import LAYOUT_PACKAGES, versions
    from .layout import pdf  # noqa: F401
    from .pdfparts import pdfasm  # noqa: F401

    versions(*LAYOUT_PACKAGES)
