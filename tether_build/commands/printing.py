"""The print commands from a content folder: load it once, hand the model to the print layer."""

from __future__ import annotations

from pathlib import Path

from . import load


def build_print(content_dir, out: Path, opts, progress=lambda msg: None, content=None):
    """`tether print-cards`: render.build.build_print on the content of content_dir
    (`content`: already loaded, to skip loading it again)."""
    from ..print.cards import build as render_build

    return render_build.build_print(content if content is not None else load(content_dir),
                                    out, opts, progress)


def build_board(content_dir, *args, **kwargs):
    """`tether board`: printing.build.build_board on the content of content_dir."""
    from ..print.tiles import build

    return build.build_board(load(content_dir), *args, **kwargs)


def build_prints(content_dir, *args, **kwargs):
    """`tether print-tiles`: printing.build.build_prints on the content of content_dir."""
    from ..print.tiles import build

    return build.build_prints(load(content_dir), *args, **kwargs)


def rename_term(content_dir, *args, **kwargs):
    """`tether rename`: rulebook.rename.rename_term, loading through this layer."""
    from ..print.rulebook import rename

    return rename.rename_term(content_dir, *args, load=load, **kwargs)
