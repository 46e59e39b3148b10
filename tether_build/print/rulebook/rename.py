"""`tether rename`: give a glossary term a new name, editing content/terms.yaml in place.

The edit is line-level: only the value of the term's `singular:` / `plural:` (and
`adjective:`) lines changes; comments, quoting style, key order and blank lines stay as
they were. A keyword tied to the term (keywords.yaml `term:`) keeps its display `name:` in
step. `design_names` are the design document's words and are left alone.

Refused: an unknown term id, an empty or over-long name, a name with control characters,
line breaks, bidirectional overrides, token brackets or markup, and a name that collides
(case-insensitively) with another term's singular, plural, adjective or design name.

The edit is validated on a copy of the content before anything is written; the files are
then replaced atomically, under a lock, and only if nobody changed them since they were
read. A crash or a kill leaves the old files or the new ones, never a half edit; two renames
at once run one after the other.
"""

from __future__ import annotations

import contextlib
import difflib
import fcntl
import json
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ...content.yamlio import parse
from ...errors import ContentError, TetherError
from ...fsutil import write_atomic

VALUE = re.compile(r"""^(?P<head>\s*[A-Za-z_]+:[ \t]*)(?P<value>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^#\n]*?)(?P<tail>[ \t]*(?:#.*)?)$""")


@dataclass
class Renamed:
    """What a rename changed."""

    term: str
    old: dict
    new: dict
    files: list[str]
    uses: list = None      # card names and notes that type the old name (literals.Use)
    skipped: list = None   # uses --names could not rewrite, with why
    changes: list = None   # (file, line, sentence before, after): every sentence that changes
    warnings: list = None  # grammar the new name breaks (rename_text.grammar_warnings)
    written: bool = True   # False for a dry run


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


NAME_MAX = 40
FORBIDDEN = set("[]{}<>&\\\"`")


def _check_name(field: str, name: str) -> None:
    """A name a player reads: printable text, no markup, no token brackets, bounded."""
    if len(name) > NAME_MAX:
        raise TetherError(f"the new {field} is longer than {NAME_MAX} characters")
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") or ch in FORBIDDEN:
            raise TetherError(f"the new {field} {name!r} holds {ch!r} "
                              f"(U+{ord(ch):04X}): use letters, digits, spaces and "
                              "simple punctuation")


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
        _check_name(field, name)
        if name.lower() in taken:
            raise TetherError(f"{name!r} is already the {taken[name.lower()]} "
                              "(choose another name, or rename that term first)")
    return new


@contextlib.contextmanager
def _locked(content_dir: Path):
    """One rename at a time per content folder (advisory lock beside the files)."""
    lock = content_dir / ".tether-rename.lock"
    with open(lock, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _validate_copy(content_dir: Path, edits: dict[Path, str], load) -> None:
    """Validate the content with `edits` applied, in a temporary copy; ContentError if bad."""
    from .chapters import check_chapters

    with tempfile.TemporaryDirectory(prefix="tether-rename-") as tmp:
        copy = Path(tmp) / "content"
        shutil.copytree(content_dir, copy, ignore=shutil.ignore_patterns(".*"))
        for path, text in edits.items():
            (copy / path.relative_to(content_dir)).write_text(text, encoding="utf-8")
        content = load(copy)
        problems = check_chapters(content, copy / "rules", copy.parent)
        if problems:
            raise ContentError(problems)


def rename_term(content_dir: Path, tid: str, singular: str, plural: str | None = None,
                adjective: str | None = None, names: bool = False,
                dry_run: bool = False, *, load) -> Renamed:
    """Rename term `tid` in content_dir/terms.yaml (and tied keywords): validated first,
    written atomically, refused if the files changed meanwhile. Card names and notes that
    type the old name are listed, and with `names` renamed too (literals.py), quotations of
    the design document excepted. Every sentence whose words change and the grammar the new
    name breaks are reported; with `dry_run` nothing is written. load: the commands layer's
    content loader (commands.load), for the content and the edited trial copy."""
    from . import literals
    from .rename_text import grammar_warnings, sentence_changes

    content_dir = Path(content_dir)
    with contextlib.nullcontext() if dry_run else _locked(content_dir):
        originals, edits, old, new = _edits(content_dir, tid, singular, plural, adjective)
        uses, skipped = literals.find(content_dir, old), []
        old_glossary = parse_bytes(originals[content_dir / "terms.yaml"], "terms.yaml")[0].data
        if names and uses:
            texts = {u.file: edits.get(u.file) or u.file.read_text(encoding="utf-8")
                     for u in uses}
            for path in texts:
                originals.setdefault(path, path.read_bytes())
            design = old_glossary["terms"][tid].get("design_names", [])
            skipped = literals.apply(texts, uses, old, new, _tokens(load(content_dir), tid),
                                     design)
            edits.update(texts)
        try:
            _validate_copy(content_dir, edits, load)
        except ContentError as exc:
            raise TetherError("the rename makes the content invalid, so nothing was changed:\n"
                              + exc.format_message()) from None
        new_glossary = parse(edits[content_dir / "terms.yaml"], "terms.yaml")[0].data
        changes = sentence_changes(content_dir, edits, old_glossary, new_glossary)
        warnings = grammar_warnings(content_dir, edits, tid, new_glossary)
        done = Renamed(tid, old, new, [str(p) for p in edits], uses, skipped, changes,
                       warnings, written=not dry_run)
        if dry_run:
            return done
        for path, data in originals.items():
            if path.read_bytes() != data:
                raise TetherError(f"{path.name} changed while the rename ran; nothing was "
                                  "written (run the rename again)")
        for path, text in edits.items():
            write_atomic(path, text.encode("utf-8"))
    return done


def _tokens(content, tid: str) -> dict[str, str]:
    """The token a note gets for each form of the term: the icon where the content writes
    the term as an icon ({gold}, read in the plural after a number), else [tid] /
    [tid:pl] / [tid:adj]."""
    from ...content.text import icon_preferred

    icons = [i for i, icon in content.icons.items() if icon["term"] == tid]
    texts = (c.get("text") or "" for c in content.cards)
    if icons and tid in icon_preferred(texts, content.icons):
        return dict.fromkeys(("singular", "plural", "adjective"), "{" + icons[0] + "}")
    return {"singular": f"[{tid}]", "plural": f"[{tid}:pl]", "adjective": f"[{tid}:adj]"}


def _edits(content_dir: Path, tid: str, singular: str, plural: str | None,
           adjective: str | None):
    """(original bytes, new texts, old names, new names) of terms.yaml and keywords.yaml."""
    terms_path = content_dir / "terms.yaml"
    original = terms_path.read_bytes()
    doc, problems = parse_bytes(original, "terms.yaml")
    if doc is None or problems:
        raise ContentError(problems)
    terms = doc.data["terms"]
    new = plan(terms, tid, singular, plural, adjective)
    old = {k: terms[tid].get(k) for k in new}
    originals: dict[Path, bytes] = {terms_path: original}
    lines = original.decode("utf-8").splitlines(keepends=True)
    for field, name in new.items():
        if field not in terms[tid]:
            raise TetherError(f"term {tid!r} has no {field} line to edit; add "
                              f"'{field}: ...' under it in content/terms.yaml first")
        line, _ = doc.locate(("terms", tid, field))
        _replace_line(lines, line, name, "content/terms.yaml")
    if terms[tid].get("countable") is False and new["plural"] != new["singular"]:
        line, _ = doc.locate(("terms", tid, "countable"))   # a plural of its own: counted
        lines[line - 1] = re.sub(r"\bfalse\b", "true", lines[line - 1], count=1)
    edits = {terms_path: "".join(lines)}
    kw_path = content_dir / "keywords.yaml"
    if kw_path.exists():
        kw_original = kw_path.read_bytes()
        kdoc, _ = parse_bytes(kw_original, "keywords.yaml")
        tied = [k for k, v in ((kdoc.data or {}).get("keywords") or {}).items()
                if isinstance(v, dict) and v.get("term") == tid and "name" in v] if kdoc else []
        if tied:
            klines = kw_original.decode("utf-8").splitlines(keepends=True)
            for kid in tied:
                line, _ = kdoc.locate(("keywords", kid, "name"))
                _replace_line(klines, line, new["singular"], "content/keywords.yaml")
            originals[kw_path] = kw_original
            edits[kw_path] = "".join(klines)
    return originals, edits, old, new


def parse_bytes(data: bytes, shown: str):
    """yamlio.parse of a file's bytes (read once, so the check later compares the same)."""
    try:
        return parse(data.decode("utf-8"), shown)
    except UnicodeDecodeError as exc:
        raise TetherError(f"{shown} is not UTF-8: {exc}") from None
