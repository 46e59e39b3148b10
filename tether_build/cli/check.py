"""`tether check`: every card, Champion ability and faction passive resolves in the engine,
and every card's text agrees with its effect in the numbers.

`register(group)` attaches the command; heavy imports happen inside it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import TetherError


class CheckFailed(TetherError):
    """Some card does not resolve, or its text drifted from its effect (exit 1)."""


def register(group: click.Group) -> None:
    """Attach `tether check` to the `tether` group."""
    group.add_command(check)


@click.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path),
              default=Path("content"), show_default=True,
              help="Folder of the game's content files.")
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON.")
@click.option("--games", type=click.IntRange(0), default=None,
              help="Games in the sweep (default: the tuned size; 0 skips the sweep).")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first sweep game.")
@click.option("--cache", "cache_dir", type=click.Path(path_type=Path),
              default=Path("build") / ".cache", show_default=True,
              help="The build's cache: results of unchanged definitions are reused from it "
                   "when it exists (tether build fills it).")
@click.option("--design-document", "design_document", is_flag=False, flag_value="default",
              default=None, metavar="[PATH]",
              help="Instead: compare every card's numbers with the design document "
                   "(default: shared/seeds/000_*.txt beside the repository).")
def check(content_dir: Path, as_json: bool, games: int | None, seed: int, cache_dir: Path,
          design_document: str | None) -> None:
    """Prove every card, ability and passive resolves; report text/effect drift."""
    if design_document is not None:
        _design_document(content_dir, design_document, as_json)
        return
    from ..check import DEFAULT_GAMES, run_check
    from ..commands import load
    from ..content.cards import normalized_cards
    from ..effects.compile import CompileError
    from ..print.cache import Cache

    content = load(content_dir)
    memo = Cache(cache_dir) if cache_dir.is_dir() else None
    try:
        report = run_check(content, normalized_cards(content),
                           games=DEFAULT_GAMES if games is None else games, seed=seed,
                           memo=memo)
    except CompileError as exc:
        raise CheckFailed(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(report.to_json(), indent=2, sort_keys=True) + "\n")
    else:
        for line in report.summary():
            click.echo(line)
    if not report.ok:
        raise CheckFailed(report.verdict())


def _design_document(content_dir: Path, path: str, as_json: bool = False) -> None:
    """`tether check --design-document`: the content's numbers against the document's, and
    every recorded departure from its wording (departures.py) beside the engine's reading."""
    from ..commands import load
    from ..content import departures as dep
    from ..content.cards import normalized_cards
    from ..content.designdoc import compare, default_document, parse_document

    doc = default_document() if path == "default" else Path(path)
    if doc is None or not doc.is_file():
        raise TetherError(f"design document not found: {doc or 'shared/seeds/000_*.txt'} "
                          "(pass its path: --design-document PATH)")
    content = load(content_dir)
    mismatches = compare(content, doc)
    parsed = parse_document(doc)
    entries = len(parsed)
    text = doc.read_text(encoding="utf-8")
    cards = normalized_cards(content)
    recorded = dep.collect(content, cards)
    located = dep.locate_in_document(recorded, text, parsed)
    unfound = [str(dep.not_found_problem(content, loc.departure)) for loc in located
               if loc.line is None]
    hints = dep.unrecorded(cards, recorded, text, parsed)
    if as_json:
        sys.stdout.write(json.dumps({
            "entries": entries, "differs": mismatches + unfound, "unrecorded": hints,
            "departures": [{**loc.departure.to_json(), "document_line": loc.line,
                            "in_card_entry": loc.in_entry} for loc in located]},
            indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        for line in dep.text_lines(located):
            click.echo(line)
        for line in mismatches + unfound:
            click.echo(f"DIFFERS {line}")
        for line in hints:
            click.echo(f"UNRECORDED? {line}")
        click.echo(dep.summary([loc.departure for loc in located]))
    if mismatches or unfound:
        parts = []
        if mismatches:
            parts.append(f"{len(mismatches)} of {entries} design-document cards differ")
        if unfound:
            parts.append(f"{len(unfound)} departure wording{'s' * (len(unfound) != 1)} "
                         "not in the document")
        raise CheckFailed("; ".join(parts))
    if not as_json:
        click.echo(f"{entries}/{entries} design-document cards are in the content with "
                   "their numbers as written")
