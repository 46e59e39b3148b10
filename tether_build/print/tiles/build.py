"""The two print builds behind `tether board` and `tether print-tiles`: gather, render, write.

Everything is rendered in memory first and written last, all together by the `write` the
commands layer hands in (the build system's buildsys.lock.write_outputs: the output folder
locked, the files swapped in by commit.py), so an error or a kill leaves the previous outputs
untouched.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from . import boardmap, common, components, fitcheck, shrink, tiles, tokens

Echo = Callable[[str], None]
Write = Callable[..., list[str]]   # (out, {relpath: bytes}, removals, command) -> changed


def papers_for(choice: str) -> list[str]:
    """'a4', 'letter' or 'both' -> paper names."""
    return list(common.PAPERS) if choice == "both" else [choice]


def board_files(content, players: int, seed: int, papers: list[str],
                flat: float, overviews: bool = True) -> dict[str, bytes]:
    """{relative path: bytes} of a board: layout JSON, real-size map and overview per paper
    (not the overviews with `overviews` off: count_files draws them with the others)."""
    data = boardmap.layout(players, seed, content.game)
    stem = f"board/board-{players}-{seed}"
    files = {f"{stem}.json": boardmap.layout_json(data).encode()}
    for paper in papers:
        files[f"{stem}-map-{paper}.pdf"] = boardmap.render_map(content, data, paper, flat)
    return files | (overview_files(content, [data], papers, flat) if overviews else {})


def overview_files(content, layouts: list[dict], papers: list[str],
                   flat: float) -> dict[str, bytes]:
    """The overview of each layout on each paper, drawn together (boardmap.render_overviews:
    their hexes' pieces laid out once)."""
    jobs = [(data, paper) for data in layouts for paper in papers]
    pdfs = boardmap.render_overviews(content, jobs, flat)
    return {f"board/board-{data['players']}-{data['seed']}-overview-{paper}.pdf": pdf
            for (data, paper), pdf in zip(jobs, pdfs, strict=True)}


def every_count_files(content, seed: int, papers: list[str], flat: float,
                      skip: int | None = None) -> dict[str, bytes]:
    """The blank grid map of every board radius (Capital slots named with the player counts
    that use them, coordinates on every hex: only the special tiles are laid on it) and,
    for every player count, the layout and overview of `seed` that say where each special
    tile goes. `skip`: a count board_files covers already."""
    return grid_map_files(content, papers, flat) | count_files(content, seed, papers, flat,
                                                              skip)


def grid_map_files(content, papers: list[str], flat: float) -> dict[str, bytes]:
    """The blank grid map of every board radius (every_count_files' first part)."""
    files: dict[str, bytes] = {}
    for grid in boardmap.blank_layouts(content.game):
        for paper in papers:
            files[f"board/{boardmap.grid_name(grid)}-map-{paper}.pdf"] = boardmap.render_map(
                content, grid, paper, flat)
    return files


def count_files(content, seed: int, papers: list[str], flat: float,
                skip: int | None = None, skip_overview: bool = True) -> dict[str, bytes]:
    """The layout and overview of `seed` for every player count but `skip`
    (every_count_files' second part; with `skip_overview` off, the overviews of `skip` too:
    the build's board stage, whose board_files leaves them here)."""
    game = content.game
    files: dict[str, bytes] = {}
    layouts = []
    for players in range(int(game["players"]["min"]), int(game["players"]["max"]) + 1):
        if players == skip and skip_overview:
            continue
        data = boardmap.layout(players, seed, game)
        layouts.append(data)
        if players != skip:
            files[f"board/board-{players}-{seed}.json"] = boardmap.layout_json(data).encode()
    return files | overview_files(content, layouts, papers, flat)


def build_board(content, players: int, seed: int, out: Path, papers: list[str],
                flat: float, echo: Echo, *, write: Write) -> list[Path]:
    """Write build/board/board-P-S.json, the real-size map and the overview per paper, from
    the validated content (loaded by the commands layer)."""
    start = time.perf_counter()
    files = {Path(out) / rel: data
             for rel, data in board_files(content, players, seed, papers, flat).items()}
    _write(out, files, echo, write)
    radius = content.game["board"]["radius_by_players"][players]
    echo(f"board: {players} players, seed {seed}, radius {radius} "
         f"in {time.perf_counter() - start:.1f} s")
    return list(files)


def print_files(content, cards: list[dict], papers: list[str], flat: float,
                echo: Echo, square: bool = False) -> tuple[dict[str, bytes], dict]:
    """({relative path: bytes}, components data) of the tile and token sheets (square:
    also the token sheets with square tokens, print/tokens-<paper>-square.pdf)."""
    fit = tokens.tile_fit(flat)
    if not fit["ok"]:
        echo(f"warning: at {flat:g} mm a tile holds {fit['pocket_mm']:g} mm corner tokens and "
             f"a {fit['centre_mm']:g} mm centre; the tokens need {tokens.COHORT_MM:g} and "
             f"{tokens.CHAMPION_MM:g} mm (default {common.DEFAULT_TILE_MM:g} mm fits)")
    files: dict[str, bytes] = {}
    # tiles whose kind opts in to shrinking are laid out again smaller (print/tiles/shrink.py)
    sheets, shrunk = shrink.fit_tiles(content, papers, lambda paper, scales: tiles.render_tiles(
        content, paper, flat, scales))
    for paper in papers:
        echo(f"rendering {paper} tiles and tokens ...")
        files[f"print/tiles-{paper}.pdf"] = sheets[paper]
        files[f"print/tokens-{paper}.pdf"] = tokens.render_tokens(content, paper, cards)
        if square:
            files[f"print/tokens-{paper}-square.pdf"] = tokens.render_tokens(
                content, paper, cards, square=True)
    # every tile's words inside their boxes, every token's inside its disc: else an error
    # naming the piece and the field (print/tiles/fitcheck.py), nothing is written
    token_list = tokens.token_set(content, cards)
    fitcheck.check(content, [files[f"print/tiles-{p}.pdf"] for p in papers], token_list,
                   {name: pdf for name, pdf in files.items() if "/tokens-" in name})
    for warning in shrunk + shrink.token_warnings(content, token_list):
        echo(f"warning: {warning}")
    data = components.components(content, cards, flat)
    files["print/components.txt"] = components.manifest_text(data).encode()
    files["print/components.json"] = (json.dumps(data, indent=1, ensure_ascii=False)
                                      + "\n").encode()
    return files, data


def build_prints(content, out: Path, papers: list[str], flat: float,
                 echo: Echo, square: bool = False, *, write: Write) -> list[Path]:
    """Write the tile and token sheets per paper, components.txt and components.json, from
    the validated content (loaded by the commands layer)."""
    from ...content.cards import normalized_cards

    start = time.perf_counter()
    rel_files, data = print_files(content, normalized_cards(content), papers, flat, echo,
                                  square)
    files = {Path(out) / rel: blob for rel, blob in rel_files.items()}
    _write(out, files, echo, write)
    t = data["totals"]
    echo(f"print: {t['tiles']} tiles, {t['tokens']} tokens, {t['cards']} cards listed "
         f"in {time.perf_counter() - start:.1f} s")
    return list(files)


def _write(out: Path, files: dict[Path, bytes], echo: Echo, write: Write) -> None:
    written = set(write(Path(out), {p.relative_to(out).as_posix(): data
                                    for p, data in files.items()}, [], "tether print"))
    for path, data in files.items():
        for label, mm in getattr(data, "overflows", []):
            echo(f"warning: {path.name}: {label} text is {mm:g} mm too long for its box "
                 "(shorten it in content/tiles.yaml)")
        changed = path.relative_to(out).as_posix() in written
        pages = f" ({data.pages} pages)" if isinstance(data, common.Pdf) else ""
        echo(f"{'wrote' if changed else 'unchanged'} {path}{pages}")
