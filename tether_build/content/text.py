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


ARTICLE = re.compile(r"(?<![\w-])([Aa])(n?) $")


def article(before: str, name: str) -> str:
    """`before` with a trailing "a " / "an " made to suit the name that follows it, so a
    renamed term keeps its grammar ("a [burn_pile]" -> "an Entropy Pile")."""
    m = ARTICLE.search(before)
    if not m:
        return before
    low = name.lower()
    vowel = low[:1] in "aeio" or (low[:1] == "u" and not low.startswith(("uni", "use", "usu")))
    return before[:m.start()] + m.group(1) + ("n" if vowel else "") + " "


NUMBER_BEFORE = re.compile(r"(?<![\w.])[+-]?(\d+|one|two|three|four|five|six|seven|eight|nine"
                           r"|ten)\s*$", re.IGNORECASE)


def counted(before: str) -> bool | None:
    """Whether the text ends in a number: True if it is more than one ('+2 '), False for
    one ('1 '), None if no number stands there."""
    m = NUMBER_BEFORE.search(before)
    if m is None:
        return None
    return m.group(1).lower() not in ("1", "one")


def _icon_name(text: str, m: re.Match, terms: dict, icons: dict) -> str:
    """An icon read as its term's name: the plural after a number other than one ('+2
    {gold}' reads '+2 Crowns' once gold is a counted Crown), else the singular."""
    term = terms[icons[m.group(1)]["term"]]
    return term_form(term, "pl" if counted(text[:m.start()]) else None)


def render_plain(text: str, terms: dict, icons: dict) -> str:
    """Text with current glossary names (a/an made to fit); icons read as their term's
    name, in the plural after a number other than one."""
    out, pos = [], 0
    for m in TERM_TOKEN.finditer(text):
        name = term_form(terms[m.group(1)], m.group(2))
        out.append(article(text[pos:m.start()], name))
        out.append(name)
        pos = m.end()
    out.append(text[pos:])
    text = "".join(out)
    return ICON_TOKEN.sub(lambda m: _icon_name(text, m, terms, icons), text)


def render_html(text: str, terms: dict, icons: dict, icon_html: Callable[[str], str]) -> str:
    """Escaped HTML with glossary names in <span class=term> and icons from icon_html(id)."""
    out, pos = [], 0
    pattern = re.compile(TERM_TOKEN.pattern + "|" + ICON_TOKEN.pattern)
    for m in pattern.finditer(text):
        if m.group(1):
            name = term_form(terms[m.group(1)], m.group(2))
            out.append(html.escape(article(text[pos:m.start()], name)))
            out.append(f'<span class="term">{html.escape(name)}</span>')
        else:
            out.append(html.escape(text[pos:m.start()]))
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


_WORD_BEFORE, _WORD_AFTER = r"(?<![\w-])", r"(?![\w-])"


def literal_names(terms: dict) -> list[tuple[re.Pattern, str]]:
    """Patterns that find a glossary or design name typed literally, with the term id."""
    out = []
    for tid, term in terms.items():
        names = {term["singular"], term["plural"], *term.get("design_names", [])}
        if term.get("adjective"):
            names.add(term["adjective"])
        for name in sorted(names, key=len, reverse=True):
            flags = 0 if term.get("common_word") else re.IGNORECASE
            out.append((re.compile(_WORD_BEFORE + re.escape(name) + _WORD_AFTER, flags), tid))
    return out


def icon_preferred(texts, icons: dict) -> set[str]:
    """Terms that the content writes as an icon ({gold}) more often than as a term token."""
    icon_of = {iid: icon["term"] for iid, icon in icons.items()}
    as_icon: dict[str, int] = {}
    as_term: dict[str, int] = {}
    for value in texts:
        for kind, tid, _form, _ in tokens(value):
            if kind == "icon" and tid in icon_of:
                as_icon[icon_of[tid]] = as_icon.get(icon_of[tid], 0) + 1
            elif kind == "term":
                as_term[tid] = as_term.get(tid, 0) + 1
    return {tid for tid, n in as_icon.items() if n > as_term.get(tid, 0)}


_ANY: dict[int, tuple[list, re.Pattern]] = {}


def _any_literal(literal: list[tuple[re.Pattern, str]]) -> re.Pattern:
    """One case-blind pattern matching wherever any of `literal` might (a quick test)."""
    got = _ANY.get(id(literal))
    if got is None or got[0] is not literal:
        names = sorted({p.pattern[len(_WORD_BEFORE):-len(_WORD_AFTER)] for p, _ in literal},
                       key=len, reverse=True)
        union = _WORD_BEFORE + "(?:" + "|".join(names) + ")" + _WORD_AFTER if names else "(?!)"
        if len(_ANY) > 8:  # a long-running process (tether serve) makes new lists: keep few
            _ANY.clear()
        got = _ANY[id(literal)] = (literal, re.compile(union, re.IGNORECASE))
    return got[1]


def literal_hits(text: str, literal: list[tuple[re.Pattern, str]], terms: dict,
                 icons: dict, prefer_icon: set[str] = frozenset()) -> list[tuple[int, str, str]]:
    """Every glossary name typed literally in `text` (tokens already stripped), as
    (position, the words typed, the form to write instead), left to right, no overlaps.
    The fix names the token in the form the content uses for that term: its icon ({gold})
    where the content mostly writes the icon, else the term token ([force], [force:pl])."""
    if not _any_literal(literal).search(text):  # most texts name no term literally
        return []
    icon_of = {icon["term"]: iid for iid, icon in icons.items() if icon["term"] in prefer_icon}
    taken = [False] * len(text)
    hits = []
    for pattern, tid in sorted(literal, key=lambda pt: -len(pt[0].pattern)):
        for m in pattern.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            taken[m.start():m.end()] = [True] * (m.end() - m.start())
            term = terms[tid]
            if tid in icon_of:
                fix = "{" + icon_of[tid] + "}"
            elif _plural(m.group(0), term):
                fix = f"[{tid}:pl]"
            else:
                fix = f"[{tid}]"
            hits.append((m.start(), m.group(0), fix))
    return sorted(hits)


def _plural(typed: str, term: dict) -> bool:
    """Whether a literally typed name is the plural form (of the term or a design name)."""
    typed, singular = typed.lower(), term["singular"].lower()
    if typed == singular:
        return False
    return typed == term["plural"].lower() or (typed.endswith("s") and
                                               not singular.endswith("s"))
