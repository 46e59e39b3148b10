"""Constants in text: `{{ path.to.constant }}` is looked up in game.yaml, never evaluated.

Rules chapters and the text of tiles, keywords, factions, setting and ages name the game's
numbers by their path in content/game.yaml. The lookup is a plain walk over the loaded
mapping: no template engine, no attribute access, no loops, so content cannot run code or
make the tool work without bound. The only forms are

    {{ path }}              a number or word
    {{ path + 1 }}          a whole number plus or minus a literal (|literal| <= 1000)
    {{ path | or }}         a list as "2 or 3"  (| and: "2 and 3", | list: "4, 5, 6")
    {{ path | keys | list }}  the keys of a mapping, then one of the list forms
    {{ path | chances }}    a mapping value -> percent as "4 (50%), 5 (30%), 6 (20%)"

Anything else between `{{` and `}}` (and any `{%` or `{#`) is a located error.
"""

from __future__ import annotations

import difflib
import re

OPEN = re.compile(r"\{\{|\{%|\{#")
FORM = re.compile(r"\s*(?P<path>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*)\s*"
                  r"(?:(?P<op>[+-])\s*(?P<num>\d{1,4})\s*)?"
                  r"(?P<filters>(?:\|\s*[a-z]+\s*)*)")
JOINS = {"list": (", ", ", "), "or": (", ", " or "), "and": (", ", " and ")}
HINT = "write a path of content/game.yaml, e.g. {{ resources.max_mana }}"


def paths(data, prefix: str = "") -> list[str]:
    """Every dotted path of a constants mapping (for 'did you mean' hints)."""
    out = []
    if isinstance(data, dict):
        for key, value in data.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            out.append(path)
            out += paths(value, path)
    return out


def lookup(game: dict, dotted: str):
    """The value at a dotted path; KeyError when a part is missing."""
    node = game
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(dotted)
        node = node[part]
    return node


def _printable(value) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _join(items: list, how: str) -> str | None:
    words = [_printable(v) for v in items]
    if not words or None in words:
        return None
    sep, last = JOINS[how]
    return words[0] if len(words) == 1 else sep.join(words[:-1]) + last + words[-1]


def _apply(value, op: str | None, num: str | None, filters: list[str]):
    """(printed text, None) or (None, (message, hint))."""
    if op:
        if isinstance(value, bool) or not isinstance(value, int) or int(num) > 1000:
            return None, ("arithmetic works on a whole number and a literal up to 1000", HINT)
        value = value + int(num) if op == "+" else value - int(num)
    for name in filters:
        if name == "keys" and isinstance(value, dict):
            value = list(value)
        elif name == "chances" and isinstance(value, dict):
            value = ", ".join(f"{_printable(k)} ({_printable(v)}%)" for k, v in value.items())
        elif name in JOINS and isinstance(value, list):
            value = _join(value, name)
        else:
            return None, (f"'| {name}' does not apply to a {type(value).__name__}",
                          "forms: | keys, | chances, | list, | or, | and")
    if isinstance(value, list):
        value = _join(value, "list")
    shown = _printable(value) if value is not None else None
    if shown is None:
        return None, (f"this constant is a {type(value).__name__}, not a number or word",
                      "name one of its entries, or add '| keys' or '| chances'")
    return shown, None


def _render(inner: str, game: dict) -> tuple[str | None, tuple[str, str] | None]:
    """(text, None) for a good form, or (None, (message, hint))."""
    m = FORM.fullmatch(inner)
    if not m:
        return None, (f"only a constant's path may stand between braces, not {{{{{inner}}}}}",
                      HINT)
    name = m.group("path")
    try:
        value = lookup(game, name)
    except KeyError:
        close = difflib.get_close_matches(name, paths(game), n=1, cutoff=0.5)
        return None, (f"unknown constant {{{{ {name} }}}}",
                      f"did you mean '{close[0]}'?" if close else
                      "constants are the keys of content/game.yaml")
    filters = [f.strip() for f in m.group("filters").split("|")[1:]]
    shown, bad = _apply(value, m.group("op"), m.group("num"), filters)
    if bad:
        return None, (f"{{{{{inner}}}}}: {bad[0]}", bad[1])
    return shown, None


def fill(text: str, game: dict) -> tuple[str, list[tuple[int, int, str, str]]]:
    """(text with every {{ path }} filled in, problems as (line, column, message, hint)).

    Line and column are 1-based within `text`. On any problem the text is returned as given.
    """
    out, problems, pos = [], [], 0
    for m in OPEN.finditer(text):
        if m.start() < pos:
            continue
        line = text.count("\n", 0, m.start()) + 1
        col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        if m.group(0) != "{{":
            problems.append((line, col, f"'{m.group(0)}' is not allowed in text", HINT))
            pos = m.end()
            continue
        end = text.find("}}", m.end())
        if end < 0:
            problems.append((line, col, "'{{' is not closed by '}}'", HINT))
            break
        shown, bad = _render(text[m.end():end], game)
        if bad:
            problems.append((line, col) + bad)
        else:
            out.append(text[pos:m.start()])
            out.append(shown)
        pos = end + 2
    if problems:
        return text, problems
    out.append(text[pos:])
    return "".join(out), []
