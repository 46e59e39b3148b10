"""The `tether` command line: each command parses flags and calls one plain function."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

CONTENT = click.option("--content", "content_dir", type=click.Path(path_type=Path),
                       default=Path("content"), show_default=True,
                       help="Folder of the game's content files.")


class _Main(click.Group):
    """The command group: a file-system failure anywhere reaches the user as one line."""

    def invoke(self, ctx):
        from ..errors import os_error

        try:
            return super().invoke(ctx)
        except OSError as exc:
            raise os_error(exc) from None


def _print_version(ctx, _param, value) -> None:
    """--version: the installed package's version (looked up only when asked)."""
    if not value or ctx.resilient_parsing:
        return
    from .. import __version__

    click.echo(f"tether, version {__version__}")
    ctx.exit()


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and exit.")
def main() -> None:
    """The Last Tether content pipeline: validate, compile, simulate and print the game."""


@main.command()
@CONTENT
@click.option("--quiet", is_flag=True, help="Print nothing on success.")
def validate(content_dir: Path, quiet: bool) -> None:
    """Check every content file: schemas, ids, references, text tokens."""
    from ..commands import load as run
    from ..content.walk import deck_counts
    from ..print.cache import CACHE_DIR, Cache

    build = (content_dir.parent if content_dir.name else content_dir) / "build"
    # a file found schema-valid by an earlier run or build, byte for byte, is not checked
    # again: the memo lives in the default build folder's render cache, once there is one
    memo = Cache(build / CACHE_DIR) if build.is_dir() else None
    content = run(content_dir, memo)
    _validate_rules(content, content_dir, memo)
    if quiet:
        return
    click.echo(f"{'deck':<14} {'cards':>5} {'copies':>6} {'document':>8}")
    for deck, distinct, copies, stated in deck_counts(content):
        mark = "" if stated in (None, distinct, copies) else "  (differs: see the warning)"
        shown = "-" if stated is None else str(stated)
        click.echo(f"{deck:<14} {distinct:>5} {copies:>6} {shown:>8}{mark}")
    from ..content.consistency import warnings

    found = warnings(content)
    for problem in found:
        click.echo(f"warning: {problem}")
    shown = f", {len(found)} warning{'s' * (len(found) != 1)}" if found else ""
    click.echo(f"ok: {len(content.cards)} cards, {len(content.factions)} factions, "
               f"{len(content.terms)} terms, {len(content.keywords)} keywords{shown}")


def _validate_rules(content, content_dir: Path, memo=None) -> None:
    """The rules chapters and designer-notes.yaml, checked like every other content file.

    memo: as validate's; a clean verdict is kept under everything the check reads (every
    content and template file, the tool's code and schemas), so it is not worked out again
    until one of them changes. Problems are always looked for afresh."""
    from ..errors import ContentError

    key = _rules_key(content_dir) if memo is not None else None
    if key is not None and memo.get("valid", key) == b"valid":
        return
    from ..content.report import load_designer_notes
    from ..print.rulebook.chapters import check_chapters

    rules = content_dir / "rules"
    base = content_dir.parent if content_dir.name else content_dir
    problems = check_chapters(content, rules, base)
    notes = rules / "designer-notes.yaml"
    if notes.exists():
        problems += load_designer_notes(notes, str(notes.relative_to(base)), memo)[1]
    if problems:
        raise ContentError(problems)
    if key is not None:
        memo.put("valid", key, b"valid")


def _rules_key(content_dir: Path) -> str:
    """What the rules check reads: content files by their bytes, template files (the images a
    chapter may show) by name, size and time, and the tool's code, schemas and libraries."""
    import os
    from importlib import metadata

    from ..fsutil import tree_version
    from ..print.cache import digest, files_digest

    package = Path(__file__).resolve().parent.parent
    content_dir = Path(os.path.abspath(content_dir))
    return digest("rules-valid/2", str(content_dir),
                  files_digest(content_dir.parent, (content_dir.name,)),
                  files_digest(package.parent, ("tether_build", "schemas")),
                  tree_version(package.parent / "templates"),
                  [metadata.version(n) for n in ("markdown-it-py", "jsonschema", "pyyaml")])


@main.command()
@CONTENT
@click.option("--json", "as_json", is_flag=True, help="One JSON object per card (JSON lines).")
def cards(content_dir: Path, as_json: bool) -> None:
    """List every card, normalized (ids resolved, text with current glossary names)."""
    from ..commands import load as run
    from ..content.cards import normalized_cards
    from ..effects.describe import reading

    content = run(content_dir)
    normalized = normalized_cards(content)
    for card in normalized:
        card["reading"] = reading(card, content.terms)
        if as_json:
            sys.stdout.write(json.dumps(card, ensure_ascii=False, sort_keys=True) + "\n")
        else:
            cost = f"{card['mana']}m" + (f"+{card['gold']}g" if card["gold"] else "")
            click.echo(f"{card['id']:<28} {card['deck']:<12} {card['type']:<9} {cost:<6} "
                       f"x{card['copies']}  {card['name']}")


@main.command()
@CONTENT
@click.argument("card_id", required=False)
@click.option("--check", "check_all", is_flag=True,
              help="Read every card and faction passive and fail if a reading holds anything "
                   "but English in the glossary's words (ids, braces, old names).")
def explain(content_dir: Path, card_id: str | None, check_all: bool) -> None:
    """Show a card's printed text beside the engine's reading of its effect."""
    import difflib

    from ..commands import load as run
    from ..content.cards import normalized_cards
    from ..content.textcheck import card_drift
    from ..effects.describe import reading
    from ..errors import TetherError

    content = run(content_dir)
    cards = {c["id"]: c for c in normalized_cards(content)}
    if check_all:
        _check_readings(content, list(cards.values()))
        return
    if card_id is None:
        raise TetherError("give a CARD_ID (tether cards lists them), or --check")
    if card_id not in cards:
        close = difflib.get_close_matches(card_id, list(cards), n=5, cutoff=0.5)
        raise TetherError(f"unknown card {card_id!r}" + (
            f" (did you mean {', '.join(close)}?)" if close else
            " (card ids: tether cards lists them)"))
    card = cards[card_id]
    src = card["source"]
    click.echo(f"{card['name']}  ({card['deck']}, {src['file']}:{src['line']})")
    click.echo(f"  printed: {card['text'] or '-'}")
    click.echo(f"  engine:  {reading(card, content.terms)}")
    for d in card_drift(card):
        click.echo(f"  DRIFT {d.file}:{d.line}: {d.message}")
    from ..content.departures import collect as departures

    for dep in departures(content, list(cards.values()), readings=False):
        if dep.owner_id.split(".")[0] == card_id:
            click.echo(f"  departs, {dep.tag}: the document says "
                       f"{dep.document!r}; {dep.reason}")


def _check_readings(content, cards: list[dict]) -> None:
    """`tether explain --check`: every reading in words, or exit 1 listing what is not."""
    from ..effects.describe import every_reading
    from ..effects.words import non_words

    readings = every_reading(content, cards)
    bad = [(where, text, non_words(text, content.terms)) for where, text in readings]
    bad = [b for b in bad if b[2]]
    for where, text, words in bad:
        click.echo(f"{where}: not in the game's words: {', '.join(map(repr, words))}\n"
                   f"  {text}")
    click.echo(f"{len(readings) - len(bad)}/{len(readings)} readings in the glossary's words")
    if bad:
        raise SystemExit(1)


@main.command()
@click.option("--check", is_flag=True,
              help="Fail if schemas/ or docs/effects.md differs from the generated ones.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("schemas"),
              show_default=True)
@click.option("--docs", type=click.Path(path_type=Path), default=Path("docs"),
              show_default=True, help="Where the effect-language reference (effects.md) goes.")
def schemas(check: bool, out: Path, docs: Path) -> None:
    """Write the JSON Schemas and docs/effects.md, generated from the effect language."""
    from ..effects.reference import render
    from ..errors import TetherError
    from ..fsutil import write_atomic
    from ..schemas.generate import all_schemas, dump, write_all

    reference = docs / "effects.md"
    if check:
        stale = [name for name, schema in all_schemas().items()
                 if not (out / name).exists() or (out / name).read_text() != dump(schema)]
        if not reference.exists() or reference.read_text() != render():
            stale.append(str(reference))
        if stale:
            raise TetherError(f"out of date: {', '.join(stale)} (run 'tether schemas')")
        click.echo("schemas and the effect reference are up to date")
        return
    for path in write_all(out):
        click.echo(f"wrote {path}")
    write_atomic(reference, render().encode())
    click.echo(f"wrote {reference}")


@main.command()
@CONTENT
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"),
              show_default=True)
def notes(content_dir: Path, out: Path) -> None:
    """Write the designer report (every open question, decision and rename) as HTML."""
    from ..commands import load as run
    from ..content.report import render_html
    from ..fsutil import write_atomic

    path = out / "designer-notes.html"
    write_atomic(path, render_html(run(content_dir), content_dir / "rules"))
    click.echo(f"wrote {path}")


@main.command()
@CONTENT
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"),
              show_default=True, help="Output folder.")
@click.option("--only", multiple=True, metavar="STAGE",
              help="Build only this stage (repeatable); see the README for the stage names.")
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both",
              show_default=True, help="Paper size of the print PDFs.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the board map the build prints.")
@click.option("--board-players", type=click.IntRange(2, 6), default=4, show_default=True,
              help="Player count of the board map the build prints.")
@click.option("--force", is_flag=True,
              help="Rebuild every stage, reading nothing from the render cache (its entries "
                   "are written anew).")
@click.option("--tts-url", metavar="URL", default=None,
              help="Web address where build/tts/ is uploaded: the Tabletop Simulator decks "
                   "and table name their pictures under it (docs/tts.md) [default: "
                   "file:// of the build folder, this machine only]")
@click.option("--ink-saver", is_flag=True,
              help="Also print the card sheets for home printers: white bodies, outline "
              "frames (print/cards-<paper>-ink-saver.pdf).")
@click.option("--grayscale", is_flag=True,
              help="Also print the card sheets in gray (print/cards-<paper>-grayscale.pdf; "
              "with --ink-saver, -ink-saver-grayscale).")
@click.option("--allow-unresolved", is_flag=True,
              help="Build even if a card does not resolve in the engine (loud warning).")
@click.option("--jobs", type=click.IntRange(1, 64), default=None,
              help="Stages run side by side at most [default: one per core; 1: one after "
                   "another]. The outputs are the same bytes either way.")
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
@click.option("--json", "as_json", is_flag=True, help="Print the build summary as JSON.")
@click.option("--watch", is_flag=True,
              help="Build, then build again whenever the content, the templates or the schemas "
                   "change, until Ctrl-C (each build starts with the code already loaded).")
@click.option("--verify", is_flag=True,
              help="After the build, build again from nothing in a temporary folder and "
                   "name every output that differs (exit 1 if any does).")
def build(content_dir: Path, out: Path, only: tuple[str, ...], paper: str, seed: int,
          board_players: int, force: bool, tts_url: str | None, ink_saver: bool,
          grayscale: bool, allow_unresolved: bool, jobs: int | None, quiet: bool,
          as_json: bool, watch: bool, verify: bool) -> None:
    """Validate, check and build every output; only what changed is rebuilt."""
    from functools import partial

    from ..commands.build import ROOT, refuse_out_inside

    refuse_out_inside(out, {"content": content_dir, "templates": ROOT / "templates",
                            "schemas": ROOT / "schemas"})
    run = partial(build_outputs, content_dir, out, only, paper, seed, board_players, force,
                  ink_saver, grayscale, allow_unresolved, jobs, quiet, as_json,
                  tts_url=tts_url)
    if verify and watch:
        raise click.UsageError("--verify builds once: it cannot be combined with --watch")
    if verify:
        run()
        return verify_build(out, only, partial(
            build_outputs, content_dir, only=only, paper=paper, seed=seed,
            board_players=board_players, force=False, ink_saver=ink_saver,
            grayscale=grayscale, allow_unresolved=allow_unresolved, jobs=jobs, quiet=True,
            as_json=False, tts_url=tts_url))
    if not watch:
        return run()
    from ..buildsys.watch import warm, warm_up
    from ..buildsys.watch import watch as keep_building
    from ..commands.build import select, stage_modules

    warm(stage_modules(select(only)))   # WeasyPrint, the engine, the print code: loaded once
    warm_up()
    keep_building(run, [content_dir, ROOT / "templates", ROOT / "schemas"],
                  ROOT / "tether_build", lambda line: click.echo(line, err=True))


def verify_build(out: Path, only: tuple[str, ...], build_clean) -> None:
    """`tether build --verify`: compare the build in `out` with a clean one (verify.py)."""
    from ..buildsys.verify import verify
    from ..commands.build import select
    from ..errors import TetherError

    click.echo("verifying: building again from nothing in a temporary folder ...", err=True)
    count, lines = verify(out, [s.name for s in select(only)],
                          lambda folder: build_clean(out=folder))
    if lines:
        for line in lines:
            click.echo(f"DIFFERS {line}", err=True)
        raise TetherError(f"{len(lines)} of {count} output(s) differ from a clean build "
                          "(the incremental build reused something stale: please report it; "
                          "`tether build --force` builds without reading the render cache)")
    click.echo(f"verified: all {count} output(s) are byte-identical to a clean build",
               err=True)


def build_outputs(content_dir: Path, out: Path, only: tuple[str, ...], paper: str, seed: int,
                  board_players: int, force: bool, ink_saver: bool, grayscale: bool,
                  allow_unresolved: bool, jobs: int | None, quiet: bool,
                  as_json: bool, tts_url: str | None = None) -> None:
    """One `tether build` (see build): every stale output built, a summary printed."""
    from ..commands.build import PAPERS, Context, run_build, select
    from .print_cards import print_modes

    stages = select(only)
    papers = PAPERS if paper == "both" else (paper,)
    ctx = Context(content_dir, out, papers, allow_unresolved, board_players, seed,
                  print_modes=print_modes(ink_saver, grayscale), jobs=jobs, tts_url=tts_url)
    width = max(len(s.name) for s in stages)

    def progress(stage: str, status: str) -> None:
        if not quiet and not as_json:
            click.echo(f"  {stage:<{width}}  {status}", err=True)

    result = run_build(ctx, stages, progress, force=force)
    for warning in ctx.warnings:
        click.secho(f"WARNING: {warning}", fg="red", bold=True, err=True)
    if as_json:
        click.echo(json.dumps({"stages": result.stages, "written": result.written,
                               "warnings": ctx.warnings,
                               "unchanged": result.unchanged, "removed": result.removed,
                               "seconds": result.seconds, "out": str(out)}, indent=2))
    elif not quiet:
        click.echo(f"{len(result.written)} file(s) written, {result.unchanged} unchanged, "
                   f"{len(result.removed)} removed, in {result.seconds:.2f} s -> {out}/")
        for rel in result.written[:20]:
            click.echo(f"  wrote {out / rel}")
        if len(result.written) > 20:
            click.echo(f"  ... and {len(result.written) - 20} more")


@main.command()
@CONTENT
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0 picks a free one).")
@click.option("--open-seeds", is_flag=True,
              help="Let Play page games with people use a typed seed (to replay a game while "
                   "testing a card: anyone with the seed can work out every hand).")
def serve(content_dir: Path, port: int, open_seeds: bool) -> None:
    """Preview cards and rules in a browser; pages reload when content changes."""
    from ..serve.app import Site, default_pages, make_server

    server = make_server(Site(content_dir, default_pages(), open_seeds), port)
    host, real_port = server.server_address[:2]
    click.echo(f"previewing {content_dir}/ at http://{host}:{real_port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _register_optional() -> None:
    """Attach command groups of stages that live in their own modules."""
    import importlib

    for module in ("tether_build.cli.engine", "tether_build.cli.print_cards", "tether_build.cli.board",
                   "tether_build.cli.rules", "tether_build.cli.check", "tether_build.cli.versions",
                   "tether_build.cli.play", "tether_build.cli.balance"):
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        mod.register(main)


_register_optional()


def run() -> None:
    """The `tether` command (the console script): `main`, then the process ends at once.

    A Python process that ends normally frees its objects one by one and tears its modules
    down: 30 to 90 ms for a command that has loaded the content (measured: `check` 80 ms,
    `validate` 30-60 ms), spent after the work is done and the output printed. Here the
    output is flushed, the exit handlers run (multiprocessing's, logging's, finalizers),
    and the process ends with the command's exit status; the system takes back the memory
    in one go. Every file the commands write is closed before they return, and what a
    process has handed to the system outlives it.
    Where anything is unusual (a thread still running, output that cannot be flushed, an
    exit status that is text), the process ends the ordinary way instead."""
    try:
        main()   # standalone: click ends every command with SystemExit
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    _end_now(0 if code is None else code)


def _end_now(code) -> None:
    import atexit
    import os
    import threading

    if not isinstance(code, int) or threading.active_count() > 1:
        raise SystemExit(code)
    atexit._run_exitfuncs()   # what the interpreter runs at exit before tearing down
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):   # e.g. a closed pipe: as Python reports it at exit
        raise SystemExit(code) from None
    os._exit(code)
