"""The PDF bookmarks of a book, for the rulebook tests (a module of its own: test modules
are not imported by one another)."""

from __future__ import annotations

from pypdf import PdfReader


def outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) for every bookmark, in order."""
    out = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, reader.get_destination_page_number(item) + 1))
    walk(reader.outline, 1)
    return out
