"""Load YAML keeping the line and column of every value; refuse duplicate keys and aliases."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .errors import Problem

Path_ = tuple  # a path into the document: ('cards', 3, 'effect', 0)


@dataclass
class Doc:
    """A parsed YAML file: its data and where every path of it was written."""

    path: str
    data: object
    marks: dict = field(default_factory=dict)  # path -> (line, col) of the value
    key_marks: dict = field(default_factory=dict)  # path -> (line, col) of the mapping key

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
        return self.loader.construct_object(node)

    def _problem(self, node, path, message, hint):
        line, col = _mark(node)
        self.problems.append(Problem(self.doc.path, line, col, dotted(path), message, hint))


def dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def load(path: Path, display: str | None = None) -> tuple[Doc | None, list[Problem]]:
    """Parse one YAML file. Returns (doc or None, problems)."""
    display = display or str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Problem(display, 1, 1, "", f"cannot read file: {exc}", "save it as UTF-8")]
    return parse(text, display)


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


def _parse(text: str, display: str) -> tuple[Doc | None, list[Problem]]:
    problems: list[Problem] = []
    try:
        # Refuse anchors and aliases before anything is built: no alias bomb can expand.
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                line, col = _mark(event)
                return None, [Problem(display, line, col, "",
                                      "YAML anchors and aliases (&name, *name) are not allowed",
                                      "write the value out in full")]
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = text.splitlines()
        if line <= len(lines) and "\t" in lines[line - 1][:col]:
            message, hint = "tab character in indentation", "indent with spaces, not tabs"
        else:
            message, hint = (exc.problem or str(exc)).strip(), _hint_for(exc)
        return None, [Problem(display, line, col, "", f"YAML syntax error: {message}", hint)]
    except yaml.YAMLError as exc:
        return None, [Problem(display, 1, 1, "", f"YAML error: {exc}", None)]
    doc = Doc(display, None)
    if node is None:
        return None, [Problem(display, 1, 1, "", "the file is empty", "add its content")]
    doc.data = _Builder(doc, yaml.SafeLoader(""), problems).build(node, ())
    return doc, problems

