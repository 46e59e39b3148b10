"""Two columns for rules text, full width for what needs it.

A chapter's HTML is cut at its top-level elements into runs: prose (paragraphs, lists,
headings) flows in two balanced columns; tables, figures, pictures and directive blocks
(`::: name`) sit across the page between the runs, each with the headings just before it.
WeasyPrint's `column-span: all` inside columns overlapped text, so the book never spans:
it closes the columns before a wide block and opens new ones after it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from markupsafe import Markup

from .directives import ANATOMY

WIDE_TAGS = {"table", "figure", "img", "svg", "div", "pre"}
WIDE_INSIDE = re.compile(r"<table|<svg|<figure|<img(?![^>]*\bclass=\"icon\")")  # not text icons
HEADINGS = {"h2", "h3", "h4"}
NARROW, NARROW_CELL = 3, 24  # a table of at most 3 columns of at most 24 characters: in a column
VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area"}


@dataclass(frozen=True)
class Run:
    """A piece of a chapter: kind "cols" (two columns), "wide" or "anatomy" (the card
    anatomy figure's place), and its HTML."""

    kind: str
    html: Markup


class _TopLevel(HTMLParser):
    """Start offset, end offset and tag of each top-level element (comments included)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.html, self.depth, self.items, self.start, self.tag = html, 0, [], 0, ""
        self.lines = [0]
        for line in html.split("\n")[:-1]:
            self.lines.append(self.lines[-1] + len(line) + 1)
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.start, self.tag = self._offset(), tag
        if tag not in VOID:
            self.depth += 1
        elif self.depth == 0:
            self._close_item()

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            self.start, self.tag = self._offset(), tag
            self._close_item()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        self.depth = max(0, self.depth - 1)
        if self.depth == 0:
            self._close_item()

    def handle_comment(self, data):
        if self.depth == 0:
            self.start, self.tag = self._offset(), "!--"
            self.items.append((self.start, self.html.index("-->", self.start) + 3, "!--"))

    def _close_item(self):
        end = self.html.index(">", self._offset()) + 1
        self.items.append((self.start, end, self.tag))


IN_COLUMN = re.compile(r'\s*<\w+[^>]*\bclass="[^"]*\brb-in-column\b')  # a figure a column wide


def _kind(tag: str, piece: str) -> str:
    if piece.strip() == ANATOMY:
        return "anatomy"
    if IN_COLUMN.match(piece):
        return "cols"
    if tag == "table" and _narrow(piece):
        return "cols"
    if tag in WIDE_TAGS or WIDE_INSIDE.search(piece):
        return "wide"
    return "cols"


def _narrow(table: str) -> bool:
    """A table of at most NARROW columns and short cells fits in a column."""
    first = re.search(r"<tr>(.*?)</tr>", table, re.DOTALL)
    cells = re.findall(r"<t[hd][\s>]", first.group(1)) if first else []
    longest = max((len(re.sub(r"<[^>]+>", "", c)) for c in
                   re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table, re.DOTALL)), default=0)
    return bool(cells) and len(cells) <= NARROW and longest <= NARROW_CELL


@functools.lru_cache(maxsize=64)
def _runs(html: str) -> tuple[Run, ...]:
    return tuple(_cut(html))


def runs(html: str) -> tuple[Run, ...]:
    """The chapter cut into runs; text between top-level elements goes with the one before.
    Remembered per process: a chapter is cut for each paper and for each look at its layout."""
    return _runs(str(html))


def _cut(html: str) -> list[Run]:
    pieces, last = [], 0
    for start, end, tag in _TopLevel(html).items:
        if pieces:
            pieces[-1][2] += html[last:start].rstrip()
        piece = html[last if not pieces else start:end]
        pieces.append([_kind(tag, piece), tag, piece])
        last = end
    if pieces:
        pieces[-1][2] += html[last:].rstrip()
    elif html.strip():
        pieces.append(["cols", "", html])
    for i in range(len(pieces) - 1, 0, -1):   # headings go down with the wide block below
        if pieces[i][0] == "wide" and pieces[i - 1][1] in HEADINGS:
            pieces[i - 1][0] = "wide"
    out: list[list] = []
    for kind, _, piece in pieces:
        if out and out[-1][0] == kind and kind != "anatomy":
            out[-1][1] += "\n" + piece
        else:
            out.append([kind, piece])
    return [Run(kind, Markup(text)) for kind, text in out]
