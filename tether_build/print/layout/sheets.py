"""A document's style sheets, read once for every document that links them.

WeasyPrint parses every style sheet a document links (tinycss2), checks its declarations
and compiles its selectors, for each document: about 30 ms for the rulebook's fonts.css,
book.css and worked.css, and the book is some fifty documents. Its public API also takes
parsed sheets (`HTML.render(stylesheets=[CSS(...)])`), which it reads as the user's, not the
author's: a place in the cascade below every author declaration. So a document is laid out
that way only when all of its style is in such sheets, read in the same order, and nothing
the cascade would weigh against them is left as the author's:

- every `<style>` and `<link>` element of the document is in its head (which has no
  comment and no `<base>`), written as the templates write them (`<style>`, `<link rel="stylesheet" href="...">`, a plain relative
  address); they become the user's sheets in document order (the linked ones read once per
  Layout, a `<style>` each time: it is short), and are left in the document with a type or
  rel that WeasyPrint skips, so the document's tree is the same;
- no sheet has an ID selector: with none, a `style` attribute (the author's, specificity
  1,0,0) wins over every sheet's normal declaration, as it does among author sheets;
- no `!important` in the document outside its sheets (a `style` attribute's important
  declaration would lose to a user sheet's important one, not win as the author's);
- no `@import`, `@counter-style`, `@namespace` or other at-rule than `@page`, `@font-face`
  and `@media` (nested rules checked the same way).

Among the user's sheets the weights keep their order (user agent < normal < important),
`@page` rules are weighed in the same order, and `@font-face` rules load the same fonts into
the same font configuration. Any other document is laid out as WeasyPrint reads it.
`split` decides; print/layout/pdf.py's Layout makes the sheets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)
_ANY = re.compile(r"<(style|link)\b", re.IGNORECASE)
_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)
_LINK = re.compile(r'<link rel="stylesheet" href="([A-Za-z0-9_.][A-Za-z0-9_./-]*)">')
_ITEM = re.compile(_STYLE.pattern + "|" + _LINK.pattern, re.DOTALL)
_IMPORTANT = re.compile(r"important", re.IGNORECASE)
_BASE = re.compile(r"<base\b", re.IGNORECASE)
SKIPPED_STYLE = '<style type="text/x-tether-read">'   # WeasyPrint reads text/css only
SKIPPED_LINK = '<link rel="x-tether-read" href="{}">'   # nor a link that is no stylesheet
_AT_RULES = frozenset({"page", "font-face", "media"})


@dataclass(frozen=True)
class Split:
    """A document whose style is all in sheets: its HTML with them skipped, and each sheet
    in document order as ("link", address relative to the base) or ("style", its text)."""

    html: str
    sheets: tuple[tuple[str, str], ...]


def split(html: str) -> Split | None:
    """The document's sheets as the user's (the module's docstring), or None: laid out as
    WeasyPrint reads it."""
    end = _HEAD_END.search(html)
    if end is None:
        return None
    head = html[:end.start()]
    if "<!--" in head or _BASE.search(head):
        return None   # a sheet commented out, or addresses read from another base
    items = list(_ITEM.finditer(head))
    if len(_ANY.findall(html)) != len(items):
        return None   # a sheet elsewhere, or written otherwise
    out, sheets, at = [], [], 0
    for item in items:
        out.append(html[at:item.start()])
        if item.group(1) is not None:   # a <style>
            if not plain(item.group(1)):
                return None
            sheets.append(("style", item.group(1)))
            out.append(f"{SKIPPED_STYLE}{item.group(1)}</style>")
        else:
            sheets.append(("link", item.group(2)))
            out.append(SKIPPED_LINK.format(item.group(2)))
        at = item.end()
    out.append(html[at:])
    rest = "".join(html[a:b] for a, b in _gaps(items, len(html)))
    if _IMPORTANT.search(rest):
        return None
    return Split("".join(out), tuple(sheets))


def _gaps(items: list, size: int):
    at = 0
    for item in items:
        yield at, item.start()
        at = item.end()
    yield at, size


def plain(css: str) -> bool:
    """Whether a style sheet keeps its place in the cascade as the user's (the module's
    docstring): no ID selector, no at-rule but @page, @font-face and @media."""
    import tinycss2

    return _plain(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


def _plain(rules) -> bool:
    import tinycss2

    for rule in rules:
        if rule.type == "qualified-rule":
            if _has_id(rule.prelude):
                return False
        elif rule.type == "at-rule":
            if rule.lower_at_keyword not in _AT_RULES:
                return False
            if rule.lower_at_keyword == "media" and rule.content is not None and not _plain(
                    tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                             skip_whitespace=True)):
                return False
        elif rule.type == "error":
            return False
    return True


def _has_id(tokens) -> bool:
    for token in tokens:
        if token.type == "hash":
            return True   # (an ID selector, or a colour where no selector has one)
        inner = getattr(token, "arguments", None) or getattr(token, "content", None)
        if isinstance(inner, list) and _has_id(inner):
            return True
    return False
