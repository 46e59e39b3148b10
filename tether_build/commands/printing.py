"""The print commands from a content folder: load it once, hand the model to the print layer."""

from __future__ import annotations

from pathlib import Path

from . import load


def _writer():
    """The build system's writer the print layer is handed (it never imports buildsys): the
    output folder locked, every file swapped in together."""
    from ..buildsys.lock import write_outputs

    return write_outputs


def build_print(content_dir, out: Path, opts, progress=lambda msg: None, content=None):
    """`tether print-cards`: render.build.build_print on the content of content_dir
    (`content`: already loaded, to skip loading it again)."""
    from ..print.cards import build as render_build

    return render_build.build_print(content if content is not None else load(content_dir),
                                    out, opts, progress, write=_writer())


def board_json(content_dir, players: int, seed: int) -> dict:
    """`tether board --json`: the layout only, from game.yaml alone (load_game: fast, so
    scripts can call it)."""
    from ..print.tiles import boardmap
    from . import load_game

    return boardmap.layout(players, seed, load_game(content_dir))


def build_board(content_dir, *args, **kwargs):
    """`tether board`: printing.build.build_board on the content of content_dir."""
    from ..print.tiles import build

    return build.build_board(load(content_dir), *args, write=_writer(), **kwargs)


def build_prints(content_dir, *args, **kwargs):
    """`tether print-tiles`: printing.build.build_prints on the content of content_dir."""
    from ..print.tiles import build

    return build.build_prints(load(content_dir), *args, write=_writer(), **kwargs)


def rename_term(content_dir, *args, **kwargs):
    """`tether rename`: rulebook.rename.rename_term, loading through this layer."""
    from ..print.rulebook import rename

    return rename.rename_term(content_dir, *args, load=load, **kwargs)
