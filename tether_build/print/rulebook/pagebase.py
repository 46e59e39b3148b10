"""What every part of the book is laid out with: its templates, its margins, and the cache
key of a layout (every part of the book, and the parts laid out apart, share these)."""

from __future__ import annotations

import os
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
BOOK_TEMPLATES = ("rulebook", "cards", "backs", "fonts", "icons")  # what the book may load
MARGIN = (17.0, 15.0, 16.0, 15.0)  # the book's page margins in mm: top, right, bottom, left
AID_MARGIN = (11.0, 12.0, 12.0, 12.0)  # the player aid's (its sheet and the book's last pages)


def layout_key(html: str, base: str) -> str:
    """Cache key of a book layout: its HTML and all that shapes its PDF (files, code, libs).

    Card faces and the card reference's pages are not in the HTML (only empty slots): an
    edit that shows on faces or in the reference lays out that part alone and stamps again."""
    from .. import cache

    code = Path(__file__).resolve().parent
    own = cache.once_a_stage(("book-code",), lambda: ((code / "stamp.py").read_bytes(),
                                                     (code / "runon.py").read_bytes(),
                                                     (code / "balance.py").read_bytes()))
    return cache.digest("book/1", html, base, cache.files_digest(TEMPLATES, BOOK_TEMPLATES),
                        cache.code_digest(*cache.LAYOUT_CODE, "print/pdfparts/pdfasm.py",
                                          "print/pdfparts/fragment.py", "print/pdfparts/pdfobjects.py"),
                        *own, cache.versions(*cache.LAYOUT_PACKAGES), cache.versions("pypdf"),
                        os.environ.get("SOURCE_DATE_EPOCH", "0"))
