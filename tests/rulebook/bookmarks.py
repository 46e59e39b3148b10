"""The PDF bookmarks of a book and the characters a page draws, for the rulebook tests (a
module of its own: test modules are not imported by one another)."""

from __future__ import annotations

from collections import Counter

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


def page_glyphs(page) -> Counter:
    """Every character a PDFium page draws and where (to 0.05 pt), counted."""
    text = page.get_textpage()
    found: Counter = Counter()
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        if char.strip():
            left, bottom, _, _ = text.get_charbox(i)
            found[char, round(left * 20), round(bottom * 20)] += 1
    return found
