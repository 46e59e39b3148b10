"""Load YAML keeping the line and column of every value; refuse duplicate keys and aliases."""

from __future__ import annotations

import functools
import hashlib
import marshal
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import Problem

Path_ = tuple  # a path into the document: ('cards', 3, 'effect', 0)


@dataclass
class Doc:
    """A parsed YAML file: its data and where every path of it was written."""

    path: str
    data: object
    marks: dict = field(default_factory=dict)  # path -> (line, col) of the value
    key_marks: dict = field(default_factory=dict)  # path -> (line, col) of the mapping key
    first_line: str = ""      # the file's first line (load: its schema line)
    source_digest: str = ""   # SHA-256 of the file's bytes (load)

    def locate(self, path: Path_, key: bool = False) -> tuple[int, int]:
        """Line/column of `path`, or of its nearest written ancestor."""
        path = tuple(path)
        while True:
            table = self.key_marks if key and path in self.key_marks else self.marks
            if path in table:
                return table[path]
            if not path:
                return (1, 1)
            path = path[:-1]


def _mark(node_or_mark) -> tuple[int, int]:
    mark = getattr(node_or_mark, "start_mark", node_or_mark)
    return (mark.line + 1, mark.column + 1)


def _hint_for(exc: yaml.MarkedYAMLError) -> str:
    text = f"{exc.problem or ''} {exc.context or ''}"
    if "\\t" in text or "'\t'" in text or "tab" in text:
        return "indent with spaces, not tabs"
    if "mapping values are not allowed" in text:
        return "quote text that contains ': '"
    if "could not find expected ':'" in text:
        return "a key needs ': ' after it; check indentation"
    return "check indentation and quoting near here"


class _Builder:
    def __init__(self, doc: Doc, loader: yaml.SafeLoader, problems: list[Problem]):
        self.doc, self.loader, self.problems = doc, loader, problems

    def build(self, node, path: Path_):
        self.doc.marks[path] = _mark(node)
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                key = self.build(key_node, path + ("<key>",))
                self.doc.marks.pop(path + ("<key>",), None)
                if isinstance(key, (dict, list)):
                    self._problem(key_node, path, "a mapping key must be plain text", None)
                    continue
                if key in out:
                    line, _ = self.doc.key_marks[path + (key,)]
                    self._problem(key_node, path + (key,),
                                  f"duplicate key {key!r} (first written at line {line})",
                                  "remove or rename one of them")
                    continue
                self.doc.key_marks[path + (key,)] = _mark(key_node)
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        try:
            return self.loader.construct_object(node)
        except (ValueError, OverflowError, yaml.YAMLError) as exc:
            # e.g. an integer of thousands of digits, a malformed timestamp
            self._problem(node, path, f"cannot read this value: {str(exc)[:80]}",
                          "write a plain number or quote the text")
            return None

    def _problem(self, node, path, message, hint):
        line, col = _mark(node)
        self.problems.append(Problem(self.doc.path, line, col, dotted(path), message, hint))


def dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def load(path: Path, display: str | None = None, memo=None, root=None
         ) -> tuple[Doc | None, list[Problem]]:
    """Parse one YAML file. Returns (doc or None, problems). The file is read through
    paths_guard: a regular file of at most 8 MiB, inside `root` (the project folder) once its
    links are followed; otherwise a located problem that never quotes the file.

    memo: a render.cache.Cache that keeps the parsed data and marks of files that parsed
    cleanly, by their bytes (plain values only, stored with marshal); a file with a problem
    is parsed, and its problem worded, every time."""
    display = display or str(path)
    from .paths_guard import TEXT_MAX, Refused, read_bytes

    try:
        raw = read_bytes(path, root, TEXT_MAX)
    except Refused as exc:
        return None, [Problem(display, 1, 1, "", f"cannot read file: it {exc.why}",
                              "a content file is a plain YAML file inside the project")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem(display, 1, 1, "", f"cannot read file: not UTF-8 (byte "
                              f"{exc.start})", "save it as UTF-8")]
    key = _memo_key(raw) if memo is not None else None
    if key is not None:
        doc = _remembered(memo.get("parsed", key), display)
        if doc is not None:
            return _stamped(doc, raw, text), []
    doc, problems = parse(text, display)
    if doc is not None:
        _stamped(doc, raw, text)
    if key is not None and doc is not None and not problems:
        try:
            memo.put("parsed", key, marshal.dumps((doc.data, doc.marks, doc.key_marks)))
        except ValueError:
            pass  # a value marshal cannot keep (e.g. a date): parsed again next time
    return doc, problems


def _stamped(doc: Doc, raw: bytes, text: str) -> Doc:
    doc.first_line = text.split("\n", 1)[0]
    doc.source_digest = hashlib.sha256(raw).hexdigest()
    return doc


@functools.cache
def _loader_digest() -> str:
    """This module's code, PyYAML's version and whether libyaml is used: read once."""
    return hashlib.sha256(Path(__file__).read_bytes() + yaml.__version__.encode()
                          + _fast_loader().__name__.encode()).hexdigest()


def _memo_key(raw: bytes) -> str:
    return hashlib.sha256(_loader_digest().encode() + b"\0" + raw).hexdigest()


def _remembered(entry: bytes | None, display: str) -> Doc | None:
    """The Doc a memo entry holds, or None (no entry, or one that is not what we wrote)."""
    if entry is None:
        return None
    try:
        data, marks, key_marks = marshal.loads(entry)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(marks, dict) or not isinstance(key_marks, dict):
        return None
    return Doc(display, data, marks, key_marks)


def parse(text: str, display: str, first_line: int = 1) -> tuple[Doc | None, list[Problem]]:
    """Parse YAML text (every YAML the tool reads goes through here). `first_line` is the
    file line of the text's first line, for YAML embedded in a file (front matter)."""
    doc, problems = _parse(text, display)
    if first_line != 1:
        shift = first_line - 1
        problems = [Problem(p.path, p.line + shift, p.col, p.field, p.message, p.hint)
                    for p in problems]
        if doc is not None:
            doc.marks = {k: (ln + shift, c) for k, (ln, c) in doc.marks.items()}
            doc.key_marks = {k: (ln + shift, c) for k, (ln, c) in doc.key_marks.items()}
    return doc, problems


MAX_DEPTH = 64  # nesting levels; the deepest shipped file uses 12


def _fast_loader():
    """libyaml's loader when PyYAML has it (same data, same marks), else the pure one."""
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _refuse(event, depth: int) -> tuple[str, str] | None:
    """(message, hint) for YAML the tool does not accept, else None."""
    if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
        return ("YAML anchors and aliases (&name, *name) are not allowed",
                "write the value out in full")
    tag = getattr(event, "tag", None)
    implicit = getattr(event, "implicit", True)
    explicit = implicit is False or (isinstance(implicit, tuple) and not any(implicit))
    if tag and explicit and not tag.startswith("tag:yaml.org,2002:str"):
        return (f"YAML tags ({tag}) are not allowed", "write the plain value")
    if isinstance(event, yaml.ScalarEvent) and event.value == "<<" and not event.style:
        return ("YAML merge keys (<<) are not allowed", "write the keys out in full")
    if depth > MAX_DEPTH:
        return (f"nested more than {MAX_DEPTH} levels deep", "flatten the structure")
    return None


def _scan(text: str, display: str) -> list[Problem]:
    """Refuse anchors, aliases, tags, merge keys and deep nesting before anything is built:
    no alias bomb can expand, no constructor runs."""
    depth = 0
    for event in yaml.parse(text, Loader=_fast_loader()):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        bad = _refuse(event, depth)
        if bad:
            line, col = _mark(event)
            return [Problem(display, line, col, "", *bad)]
    return []


def _content_col(line: str) -> int:
    """Where a line's key or value starts: after its indentation and any '- ' markers."""
    return len(re.match(r"[ ]*(?:-[ ]+)*", line).group(0))


def _indent_hint(lines: list[str], line_no: int) -> str | None:
    """A hint for a line indented more than the field above it (YAML then reads it as more
    of that field's value), or indented to no column a block above uses; else None."""
    if not 1 < line_no <= len(lines) or not lines[line_no - 1].strip():
        return None
    here = lines[line_no - 1]
    indent = len(here) - len(here.lstrip(" "))
    above = [n for n in range(line_no - 1, 0, -1)
             if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#")]
    if not above:
        return None
    prev_no = above[0]
    prev = lines[prev_no - 1].rstrip()
    prev_col = _content_col(prev)
    opens = prev.endswith((":", "|", ">", "|-", ">-", "[", "{", ","))
    prev_indent = len(prev) - len(prev.lstrip(" "))
    if here.lstrip().startswith("- ") and prev.lstrip().startswith("- ") \
            and indent > prev_indent and not opens:
        return (f"the list item on line {line_no} is indented {indent} spaces, more than "
                f"the item on line {prev_no} ({prev_indent}): indent it {prev_indent} "
                "spaces to make it the next item of the same list")
    if indent > prev_col and not opens:
        return (f"line {line_no} is indented {indent} spaces, more than line {prev_no} "
                f"({prev_col}), so it is read as more of line {prev_no}'s value: indent it "
                f"{prev_col} spaces if it is a field of its own")
    cols = sorted({_content_col(lines[n - 1]) for n in above}
                  | {len(lines[n - 1]) - len(lines[n - 1].lstrip(" ")) for n in above})
    if indent < prev_col and indent not in cols:
        shown = ", ".join(str(c) for c in cols if c < prev_col + 1)
        return (f"line {line_no} is indented {indent} spaces, a column no line above uses "
                f"({shown}): align it with the field it belongs beside")
    return None


def _syntax_problem(text: str, display: str, exc: yaml.MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    lines = text.splitlines()
    if line <= len(lines) and "\t" in lines[line - 1][:col]:
        message, hint = "tab character in indentation", "indent with spaces, not tabs"
    else:
        message = (exc.problem or str(exc)).strip()
        hint = _indent_hint(lines, line) or _hint_for(exc)
    return Problem(display, line, col, "", f"YAML syntax error: {message}", hint)


def _compose(text: str, display: str):
    """(root node, problems). libyaml first; the pure loader only to word an error."""
    for loader_class in dict.fromkeys((_fast_loader(), yaml.SafeLoader)):
        try:
            problems = _scan(text, display)
            if problems:
                return None, problems
            loader = loader_class(text)
            try:
                return loader.get_single_node(), []
            finally:
                loader.dispose()
        except yaml.MarkedYAMLError as exc:
            if loader_class is yaml.SafeLoader:
                return None, [_syntax_problem(text, display, exc)]
        except yaml.YAMLError as exc:
            if loader_class is yaml.SafeLoader:
                return None, [Problem(display, 1, 1, "", f"YAML error: {exc}", None)]
    return None, [Problem(display, 1, 1, "", "YAML error", None)]  # pragma: no cover


def _parse(text: str, display: str) -> tuple[Doc | None, list[Problem]]:
    if "\0" in text:
        return None, [Problem(display, 1, 1, "", "the file holds a NUL character",
                              "save it as plain UTF-8 text")]
    node, problems = _compose(text, display)
    if problems:
        return None, problems
    if node is None:
        return None, [Problem(display, 1, 1, "", "the file is empty", "add its content")]
    doc = Doc(display, None)
    doc.data = _Builder(doc, yaml.SafeLoader(""), problems).build(node, ())
    return doc, problems
