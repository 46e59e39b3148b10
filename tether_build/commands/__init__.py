"""The commands layer: the only code that loads and validates content.

A command (the CLI, the preview server, `tether diff`'s old revisions, a rename's trial copy)
loads the content once through `load` and hands the model to the stages: the print layer, the
checks and the engine receive a validated `Content` and never read content files themselves.
tests/test_layers.py holds every other module to that (docs/architecture.md)."""

from __future__ import annotations

from pathlib import Path


def load(content_dir, memo=None):
    """The validated content of `content_dir` (ContentError listing every problem if it is
    not valid). memo: a render cache remembering files found schema-valid."""
    from ..content.validate import validate

    return validate(Path(content_dir), memo)
