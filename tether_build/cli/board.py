"""`tether board` and `tether print-tiles`: flags in, one plain function each."""

from __future__ import annotations

import sys
from pathlib import Path

import click

CONTENT = click.option("--content", "content_dir", type=click.Path(path_type=Path),
                       default=Path("content"), show_default=True,
                       help="Folder of the game's content files.")
OUT = click.option("--out", type=click.Path(path_type=Path), default=Path("build"),
                   show_default=True, help="Build folder.")
TILE = click.option("--tile-mm", "flat", type=click.FloatRange(30, 120), default=52.0,
                    show_default=True, help="Hex size across the flats, in mm.")
QUIET = click.option("--quiet", is_flag=True, help="Print nothing but errors.")


def _echo(quiet: bool):
    return (lambda _msg: None) if quiet else (lambda msg: click.echo(msg, err=True))


@click.command()
@CONTENT
@click.option("--players", type=int, required=True, help="Player count (2-6).")
@click.option("--seed", type=int, default=0, show_default=True, help="Board seed.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the layout as JSON on standard output and write nothing.")
@OUT
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="a4",
              show_default=True)
@TILE
@QUIET
def board(content_dir: Path, players: int, seed: int, as_json: bool, out: Path, paper: str,
          flat: float, quiet: bool) -> None:
    """Generate the board for P players from a seed (section 7): JSON, real-size map, overview."""
    from ..print.tiles import build

    if as_json:
        from ..commands.printing import board_json
        from ..print.tiles.boardmap import layout_json

        sys.stdout.write(layout_json(board_json(content_dir, players, seed)))
        return
    from ..commands.printing import build_board

    build_board(content_dir, players, seed, out, build.papers_for(paper), flat,
                _echo(quiet))


@click.command("print-tiles")
@CONTENT
@OUT
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both",
              show_default=True)
@TILE
@click.option("--square-tokens", is_flag=True,
              help="Also print every round token as a square of its size, for a paper "
                   "trimmer alone (print/tokens-<paper>-square.pdf).")
@QUIET
def print_tiles(content_dir: Path, out: Path, paper: str, flat: float, square_tokens: bool,
                quiet: bool) -> None:
    """Hex tiles, tokens and tracks as cut-out sheets, and the components manifest."""
    from ..commands.printing import build_prints
    from ..print.tiles import build

    build_prints(content_dir, out, build.papers_for(paper), flat, _echo(quiet), square_tokens)


def register(group: click.Group) -> None:
    """Attach the board and print-tiles commands to the `tether` group."""
    group.add_command(board)
    group.add_command(print_tiles)
