"""`tether rename`: give a glossary term a new name, editing content/terms.yaml in place.

The edit is line-level: only the value of the term's `singular:` / `plural:` (and
`adjective:`) lines changes; comments, quoting style, key order and blank lines stay as
they were. A keyword tied to the term (keywords.yaml `term:`) keeps its display `name:` in
step. `design_names` are the design document's words and are left alone.

Refused: an unknown term id, an empty name, and a name that collides (case-insensitively)
with another term's singular, plural, adjective or design name. After writing, the content
is validated again; if that fails, both files are put back as they were.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ContentError, TetherError
from ..fsutil import write_atomic
from ..yamlio import load

VALUE = re.compile(r"""^(?P<head>\s*[A-Za-z_]+:[ \t]*)(?P<value>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^#\n]*?)(?P<tail>[ \t]*(?:#.*)?)$""")


@dataclass
class Renamed:
    """What a rename changed."""

    term: str
    old: dict
    new: dict
    files: list[str]


def _quote(old_value: str, new: str) -> str:
    """`new` written in the quoting style of the value it replaces (JSON-safe double quotes)."""
    if old_value.startswith("'"):
        return "'" + new.replace("'", "''") + "'"
    if old_value.startswith('"') or not re.fullmatch(r"[A-Za-z][\w .'-]*", new) or \
            new.lower() in ("yes", "no", "true", "false", "null", "on", "off"):
        return json.dumps(new, ensure_ascii=False)
    return new


def _replace_line(lines: list[str], lineno: int, new: str, where: str) -> None:
    """Replace the scalar value on 1-based line `lineno`, keeping key, spacing and comment."""
    m = VALUE.match(lines[lineno - 1].rstrip("\n"))
    if m is None or not m.group("value").strip():
        raise TetherError(f"{where}:{lineno}: cannot edit this line in place "
                          "(write the name on the same line as its key)")
    end = "\n" if lines[lineno - 1].endswith("\n") else ""
    lines[lineno - 1] = (m.group("head") + _quote(m.group("value").strip(), new)
                         + m.group("tail") + end)


def _taken(terms: dict, tid: str) -> dict[str, str]:
    """Lower-cased names used by every other term -> which term and field uses it."""
    out = {}
    for other, term in terms.items():
        if other == tid:
            continue
        for field in ("singular", "plural", "adjective"):
            if term.get(field):
                out.setdefault(term[field].lower(), f"{field} of term '{other}'")
        for name in term.get("design_names", []):
            out.setdefault(name.lower(), f"a design name of term '{other}'")
    return out


def _default_plural(old: dict, new: str) -> str | None:
    """The plural when none is given: same as singular for mass nouns, else the same suffix."""
    if old["plural"] == old["singular"]:
        return new
    for suffix in ("es", "s"):
        if old["plural"] == old["singular"] + suffix:
            return new + suffix
    return None


def plan(terms: dict, tid: str, singular: str, plural: str | None,
         adjective: str | None) -> dict:
    """The new singular/plural/adjective of `tid`, or a TetherError saying why not."""
    if tid not in terms:
        close = difflib.get_close_matches(tid, list(terms), n=1)
        raise TetherError(f"unknown term id {tid!r} "
                          f"({'did you mean ' + repr(close[0]) + '?' if close else ''}"
                          f"{' ' if close else ''}term ids are the keys under 'terms:' in "
                          "content/terms.yaml)")
    old = terms[tid]
    singular = singular.strip()
    if plural is None:
        plural = _default_plural(old, singular)
        if plural is None:
            raise TetherError(f"cannot guess the plural of {singular!r} (was "
                              f"{old['singular']!r} / {old['plural']!r}); pass --plural")
    new = {"singular": singular, "plural": plural.strip()}
    if old.get("adjective"):
        if adjective is None:
            raise TetherError(f"term {tid!r} has an adjective form ({old['adjective']!r}); "
                              "pass --adjective with its new form")
        new["adjective"] = adjective.strip()
    elif adjective is not None:
        new["adjective"] = adjective.strip()
    taken = _taken(terms, tid)
    for field, name in new.items():
        if not name:
            raise TetherError(f"the new {field} is empty (give a name)")
        if name.lower() in taken:
            raise TetherError(f"{name!r} is already the {taken[name.lower()]} "
                              "(choose another name, or rename that term first)")
    return new


def rename_term(content_dir: Path, tid: str, singular: str, plural: str | None = None,
                adjective: str | None = None) -> Renamed:
    """Rename term `tid` in content_dir/terms.yaml (and tied keywords), then re-validate."""
    from ..validate import validate
    from .chapters import check_chapters

    content_dir = Path(content_dir)
    terms_path = content_dir / "terms.yaml"
    doc, problems = load(terms_path, "terms.yaml")
    if doc is None or problems:
        raise ContentError(problems)
    terms = doc.data["terms"]
    new = plan(terms, tid, singular, plural, adjective)
    old = {k: terms[tid].get(k) for k in new}
    originals: dict[Path, bytes] = {terms_path: terms_path.read_bytes()}
    lines = terms_path.read_text(encoding="utf-8").splitlines(keepends=True)
    for field, name in new.items():
        if field not in terms[tid]:
            raise TetherError(f"term {tid!r} has no {field} line to edit; add "
                              f"'{field}: ...' under it in content/terms.yaml first")
        line, _ = doc.locate(("terms", tid, field))
        _replace_line(lines, line, name, "content/terms.yaml")
    edits = {terms_path: "".join(lines)}
    kw_path = content_dir / "keywords.yaml"
    if kw_path.exists():
        kdoc, _ = load(kw_path, "keywords.yaml")
        tied = [k for k, v in ((kdoc.data or {}).get("keywords") or {}).items()
                if isinstance(v, dict) and v.get("term") == tid and "name" in v] if kdoc else []
        if tied:
            klines = kw_path.read_text(encoding="utf-8").splitlines(keepends=True)
            for kid in tied:
                line, _ = kdoc.locate(("keywords", kid, "name"))
                _replace_line(klines, line, new["singular"], "content/keywords.yaml")
            originals[kw_path] = kw_path.read_bytes()
            edits[kw_path] = "".join(klines)
    for path, text in edits.items():
        write_atomic(path, text.encode("utf-8"))
    try:
        content = validate(content_dir)
        problems = check_chapters(content, content_dir / "rules", content_dir.resolve().parent)
        if problems:
            raise ContentError(problems)
    except ContentError as exc:
        for path, data in originals.items():
            write_atomic(path, data)
        raise TetherError("the rename makes the content invalid, so nothing was changed:\n"
                          + exc.format_message()) from None
    return Renamed(tid, old, new, [str(p) for p in edits])
