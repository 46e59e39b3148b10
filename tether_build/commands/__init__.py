"""The commands layer: the only code that loads and validates content.

A command (the CLI, the preview server, `tether diff`'s old revisions, a rename's trial copy)
loads the content once through `load` and hands the model to the stages: the print layer, the
checks and the engine receive a validated `Content` and never read content files themselves.
tests/test_layers.py holds every other module to that (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path


def load(content_dir, memo=None):
    """The validated content of `content_dir` (ContentError listing every problem if it is
    not valid), frozen: the stages receive a read-only model (content/frozen.py). memo: a
    render cache remembering files found schema-valid."""
    from ..content.frozen import freeze
    from ..content.validate import validate

    return freeze(validate(Path(content_dir), memo))


def load_game(content_dir) -> dict:
    """content/game.yaml alone, schema-checked, problems located (ContentError): the part of
    the model `tether board --json` reads, loaded without the rest (fast, for scripts)."""
    from ..content import schemacheck, yamlio
    from ..errors import ContentError, Problem

    path = Path(content_dir) / "game.yaml"
    shown = str(path)
    if not path.exists():
        raise ContentError([Problem(shown, 1, 1, "", "required content file is missing")])
    doc, problems = yamlio.load(path.resolve(), shown)
    if doc is not None:
        for where, message, hint in schemacheck.check(doc.data, "game.schema.json"):
            line, col = doc.locate(where)
            problems.append(Problem(shown, line, col, yamlio.dotted(where), message, hint))
    if problems:
        raise ContentError(problems)
    return doc.data
