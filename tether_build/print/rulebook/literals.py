"""Where a renamed glossary word still stands typed out: card names and notes.

Card text cannot hold a glossary name (validation refuses it), but a card's own name may
("Gold Plated Armor") and notes may quote any word. `tether rename` lists every such place;
with `--names` it renames them too: a card's name takes the new word (its `design_name` keeps
the document's name), and a note gets the term's token, so the next rename reaches it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ...content.yamlio import parse


@dataclass
class Use:
    """One place that types the old name."""

    file: Path
    line: int
    kind: str   # "card name" or "note"
    text: str
    card_index: int | None = None
    has_design_name: bool = True


def _pattern(old: dict) -> re.Pattern:
    names = sorted({v for k, v in old.items() if v}, key=len, reverse=True)
    return re.compile(r"(?<![\w\[{-])(" + "|".join(map(re.escape, names)) + r")(?![\w\]}-])",
                      re.IGNORECASE)


def _notes(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if str(key).endswith("notes") and isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        yield path + (key, i), item
            else:
                yield from _notes(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _notes(item, path + (i,))


def find(content_dir: Path, old: dict) -> list[Use]:
    """Every card name and note of the content's YAML that types one of the old names."""
    pattern, uses = _pattern(old), []
    for path in sorted(Path(content_dir).rglob("*.yaml")):
        doc, problems = parse(path.read_text(encoding="utf-8"), str(path))
        if doc is None or problems or path.name == "terms.yaml":
            continue
        cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
        for i, card in enumerate(cards or []):
            if isinstance(card, dict) and isinstance(card.get("name"), str) \
                    and pattern.search(card["name"]):
                uses.append(Use(path, doc.locate(("cards", i, "name"))[0], "card name",
                                card["name"], i, "design_name" in card))
        for where, note in _notes(doc.data):
            if pattern.search(note):
                uses.append(Use(path, doc.locate(where)[0], "note", note))
    return uses


def inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in spans)


def _cased(typed: str, new: str) -> str:
    return new if typed[:1].isupper() else new[:1].lower() + new[1:]


def apply(texts: dict[Path, str], uses: list[Use], old: dict, new: dict,
          token: dict[str, str], design_names=()) -> list[str]:
    """Rewrite the uses in `texts` (path -> file text); returns what could not be rewritten.

    `token` maps each form ('singular', 'plural', 'adjective') to the token a note gets
    ([force:pl], {gold}). Each typed name takes the form the words around it ask for (a
    number before it: the plural; a name after it: the adjective or singular, so 'Gold
    Plated Armor' becomes 'Crown Plated Armor', never 'Crowns ...'); quotations of the
    design document (rename_text.quoted_spans) are left as they are."""
    from .rename_text import form, quoted_spans

    pattern, skipped = _pattern(old), []
    by_file: dict[Path, list[Use]] = {}

    kept: list[str] = []

    def sub(line: str, note: bool) -> str:
        spans = quoted_spans(line, design_names)

        def one(m: re.Match) -> str:
            if inside(spans, m.start(), m.end()):
                kept.append(m.group(0))
                return m.group(0)
            f = form(m.group(0), line[:m.start()], line[m.end():], old)
            if note:
                return token[f]
            return _cased(m.group(0), new.get(f) or new["singular"])
        return pattern.sub(one, line)

    for use in uses:
        by_file.setdefault(use.file, []).append(use)
    for path, file_uses in by_file.items():
        lines = texts[path].splitlines(keepends=True)
        for use in sorted(file_uses, key=lambda u: -u.line):  # bottom up: inserts keep lines
            line = lines[use.line - 1]
            kept.clear()
            if not pattern.search(line):
                skipped.append(f"{path.name}:{use.line}: {use.kind} spans lines; edit it by hand")
                continue
            if use.kind == "note":
                if not line.lstrip().lstrip("- ").startswith('"'):
                    skipped.append(f"{path.name}:{use.line}: note is not in double quotes; "
                                   "edit it by hand")
                    continue
                lines[use.line - 1] = sub(line, True)
            else:
                lines[use.line - 1] = sub(line, False)
            if kept:
                skipped.append(f"{path.name}:{use.line}: {', '.join(map(repr, kept))} "
                               "quotes the design document; kept as written")
            if use.kind == "note":
                continue
            if not use.has_design_name:
                indent = re.match(r"\s*(?:-\s+)?", line).group(0)
                indent = " " * len(indent)
                lines.insert(use.line, f"{indent}design_name: {json.dumps(use.text)}\n")
        texts[path] = "".join(lines)
    return skipped
