"""Load every content file, schema-check it, and keep where each value was written."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError, Problem
from . import paths_guard, yamlio

# file (relative to content/) -> schema; cards/*.yaml use cards.schema.json
SINGLE_FILES = {
    "game.yaml": "game.schema.json",
    "terms.yaml": "terms.schema.json",
    "keywords.yaml": "keywords.schema.json",
    "factions.yaml": "factions.schema.json",
    "tiles.yaml": "tiles.schema.json",
    "ages.yaml": "ages.schema.json",
    "setting.yaml": "setting.schema.json",
}
CARD_SCHEMA = "cards.schema.json"
SCHEMA_LINE = "# yaml-language-server: $schema="


@dataclass
class Content:
    """All content, as parsed data plus the documents (for error locations)."""

    root: Path
    docs: dict[str, yamlio.Doc] = field(default_factory=dict)
    cards: list[dict] = field(default_factory=list)  # raw card dicts + deck + _src
    card_docs: list[str] = field(default_factory=list)
    bad_cards: dict[str, set[int]] = field(default_factory=dict)  # schema-invalid, left out
    # files that parsed but failed their schema as a whole: left out of the model, yet their
    # text is still checked (tokens, literal names), so one run reports every problem
    broken: dict[str, yamlio.Doc] = field(default_factory=dict)
    complete: bool = True

    def __setattr__(self, name: str, value) -> None:
        if self.__dict__.get("frozen"):   # handed to the stages (content/frozen.py)
            from .frozen import FrozenModelError
            raise FrozenModelError(f"the content model is read-only: a stage cannot set "
                                   f"content.{name} (dataclasses.replace makes a changed copy)")
        object.__setattr__(self, name, value)

    def data(self, name: str):
        return self.docs[name].data

    @property
    def game(self) -> dict:
        return self.data("game.yaml")

    @property
    def terms(self) -> dict:
        return self.data("terms.yaml")["terms"]

    @property
    def icons(self) -> dict:
        return self.data("terms.yaml")["icons"]

    @property
    def keywords(self) -> dict:
        return self.data("keywords.yaml")["keywords"]

    @property
    def factions(self) -> dict:
        return self.data("factions.yaml")["factions"]

    @property
    def tiles(self) -> dict:
        return self.data("tiles.yaml")["tiles"]

    @property
    def ages(self) -> dict:
        return self.data("ages.yaml")

    @property
    def setting(self) -> dict:
        return self.data("setting.yaml")

    def problem(self, doc: str, path, message: str, hint: str | None = None,
                key: bool = False) -> Problem:
        """A Problem located at `path` of document `doc`."""
        line, col = self.docs[doc].locate(path, key=key)
        return Problem(self.docs[doc].path, line, col, yamlio.dotted(path), message, hint)


def _schema_problems(doc: yamlio.Doc, schema: str) -> list[Problem]:
    from . import schemacheck

    out = []
    for path, message, hint in schemacheck.check(doc.data, schema):
        # an unknown field's path ends at the key itself: point at the key, not its value
        line, col = doc.locate(path, key=message.startswith("unknown field"))
        out.append(Problem(doc.path, line, col, yamlio.dotted(path), message, hint))
    return out


def _schema_line(doc: yamlio.Doc, display: str, schema: str) -> list[Problem]:
    first = doc.first_line
    if not first.startswith(SCHEMA_LINE) or not first.rstrip().endswith(schema):
        return [Problem(display, 1, 1, "", "first line must point the editor at its schema",
                        f"start the file with '{SCHEMA_LINE}…/schemas/{schema}'")]
    return []


def load_content(root: Path, memo=None) -> Content:
    """Load and schema-check all of content/; raise ContentError with every problem."""
    content, problems = load_partial(root, memo)
    if problems:
        raise ContentError(problems)
    return content


# Cross-checks read every single file: they run only when all of them loaded cleanly.
CORE = tuple(SINGLE_FILES)


@functools.cache
def _checker_digest() -> str:
    """Every schema (a file's may refer to the others), the loader and checker code and the
    checker's version: read once per process."""
    from importlib import metadata

    from ..digests import digest
    from . import fastschema, schemacheck

    schemas = sorted(schemacheck.SCHEMA_DIR.glob("*.schema.json"))
    return digest("valid/1", *[(p.name, p.read_bytes()) for p in schemas],
                  *[Path(m.__file__).read_bytes() for m in (yamlio, schemacheck, fastschema)],
                  metadata.version("jsonschema"))


def schema_checked(doc: yamlio.Doc, path: Path, schema: str, memo) -> list[Problem]:
    """The schema problems of one loaded file; with a memo (render.cache.Cache), a file
    found valid before, byte for byte, is not checked again (only valid verdicts are kept:
    problems are always worded afresh)."""
    if memo is None:
        return _schema_problems(doc, schema)
    from ..digests import digest

    key = digest(_checker_digest(), doc.source_digest, schema)   # set by yamlio.load
    if memo.get("valid", key) == b"valid":
        return []
    problems = _schema_problems(doc, schema)
    if not problems:
        memo.put("valid", key, b"valid")
    return problems


def load_partial(root: Path, memo=None) -> tuple[Content, list[Problem]]:
    """Load what can be loaded. Cards with schema problems are left out of content.cards;
    `content.complete` says whether every core file loaded cleanly (cross-checks need it).
    memo: a render.cache.Cache that remembers which files were schema-valid, or None."""
    root = Path(root)
    content = Content(root)
    problems: list[Problem] = []
    base = root.parent if root.name else root
    project = paths_guard.project_of(root)
    paths_guard.allow_reads(project)   # what pages may load (render.resources.local_file)

    def display(p: Path) -> str:
        try:
            return str(p.relative_to(base))
        except ValueError:
            return str(p)

    files = [(root / name, schema) for name, schema in SINGLE_FILES.items()]
    card_files = sorted((root / "cards").glob("*.yaml"))
    files += [(p, CARD_SCHEMA) for p in card_files]
    for path, schema in files:
        shown = display(path)
        if not path.exists():
            problems.append(Problem(shown, 1, 1, "", "required content file is missing",
                                    f"create it (schema: schemas/{schema})"))
            continue
        doc, probs = yamlio.load(path, shown, memo, root=project)
        problems += probs
        if doc is None:
            continue
        problems += _schema_line(doc, shown, schema)
        schema_probs = schema_checked(doc, path, schema, memo)
        problems += schema_probs
        key = path.name if schema != CARD_SCHEMA else f"cards/{path.name}"
        if schema != CARD_SCHEMA:
            if not schema_probs:
                content.docs[key] = doc
            else:
                content.broken[key] = doc
            continue
        whole_file_bad = not isinstance(doc.data, dict) or any(
            not p.field.startswith("cards[") for p in schema_probs)
        if whole_file_bad:
            content.broken[key] = doc
            continue
        content.docs[key] = doc
        content.card_docs.append(key)
        content.bad_cards[key] = {i for i in range(len(doc.data["cards"]))
                                  if any(p.field.startswith(f"cards[{i}]") for p in schema_probs)}
    content.complete = all(name in content.docs for name in CORE)
    for key in content.card_docs:
        data = content.docs[key].data
        for i, card in enumerate(data["cards"]):
            if i in content.bad_cards[key]:
                continue
            line, _ = content.docs[key].locate(("cards", i))
            content.cards.append({**card, "deck": data["deck"],
                                  "_src": {"doc": key, "index": i,
                                           "file": content.docs[key].path, "line": line}})
    return content, problems
