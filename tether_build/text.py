"""Glossary and icon tokens in text: `[force]`, `[force:pl]`, `[market:adj]`, `{gold}`.

Text is data: rendering escapes everything the designer typed, then replaces only the
tokens, so `<b>`, `{{ x }}` or `{% if %}` in a card's text print exactly as typed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

TERM_TOKEN = re.compile(r"\[([a-z][a-z0-9_]*)(?::(pl|adj))?\]")
ICON_TOKEN = re.compile(r"\{([a-z][a-z0-9_]*)\}")
FORMS = {None: "singular", "pl": "plural", "adj": "adjective"}


def term_form(term: dict, form: str | None) -> str:
    """The glossary name of a term in a form (adjective falls back to singular)."""
    return term.get(FORMS[form]) or term["singular"]


def tokens(text: str):
    """Yield ('term'|'icon', id, form, start) for every token in text."""
    for m in TERM_TOKEN.finditer(text):
        yield "term", m.group(1), m.group(2), m.start()
    for m in ICON_TOKEN.finditer(text):
        yield "icon", m.group(1), None, m.start()


def render_plain(text: str, terms: dict, icons: dict) -> str:
    """Text with current glossary names; icons read as their term's name."""
    text = TERM_TOKEN.sub(lambda m: term_form(terms[m.group(1)], m.group(2)), text)
    return ICON_TOKEN.sub(lambda m: term_form(terms[icons[m.group(1)]["term"]], None), text)


def render_html(text: str, terms: dict, icons: dict, icon_html: Callable[[str], str]) -> str:
    """Escaped HTML with glossary names in <span class=term> and icons from icon_html(id)."""
    out, pos = [], 0
    pattern = re.compile(TERM_TOKEN.pattern + "|" + ICON_TOKEN.pattern)
    for m in pattern.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        if m.group(1):
            name = term_form(terms[m.group(1)], m.group(2))
            out.append(f'<span class="term">{html.escape(name)}</span>')
        else:
            out.append(icon_html(m.group(3)))
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)


def _blank(m: re.Match) -> str:
    return " " * (m.end() - m.start())


def strip_tokens(text: str) -> str:
    """Text with every token (and constant expression) blanked out."""
    return ICON_TOKEN.sub(_blank, TERM_TOKEN.sub(_blank, JINJA.sub(_blank, text)))


def literal_names(terms: dict) -> list[tuple[re.Pattern, str]]:
    """Patterns that find a glossary or design name typed literally, with the term id."""
    out = []
    for tid, term in terms.items():
        names = {term["singular"], term["plural"], *term.get("design_names", [])}
        if term.get("adjective"):
            names.add(term["adjective"])
        for name in sorted(names, key=len, reverse=True):
            flags = 0 if term.get("common_word") else re.IGNORECASE
            out.append((re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", flags), tid))
    return out
