"""`tether print-cards`: print-and-play sheets, per-card PNGs and Tabletop Simulator decks."""

from __future__ import annotations

import json
from pathlib import Path

import click


def _ids(value: str | None) -> list[str] | None:
    if not value:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


@click.command("print-cards")
@click.option("--content", "content_dir", type=click.Path(path_type=Path),
              default=Path("content"), show_default=True, help="Folder of the content files.")
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both",
              show_default=True, help="Paper size of the print sheets.")
@click.option("--deck", help="Print one deck only (deck id from ages.yaml).")
@click.option("--faction", help="Print one faction's cards only (faction id).")
@click.option("--cards", "card_ids", metavar="ID,ID", help="Print only these card ids.")
@click.option("--fronts-only", is_flag=True, help="No backs pages (single-sided printing).")
@click.option("--gutter-fold", is_flag=True,
              help="Also write print/cards-<paper>-gutter-fold.pdf: fronts and their backs "
              "side by side on one landscape page, to fold and glue (no duplex needed).")
@click.option("--png", "png", type=click.Choice(["tgc", "mpc", "none"]), default="tgc",
              show_default=True,
              help="PNG preset at 300 DPI: tgc 825x1125 (The Game Crafter), "
                   "mpc 822x1122 (MakePlayingCards), none.")
@click.option("--tts/--no-tts", default=True, show_default=True,
              help="Write Tabletop Simulator deck sheets and JSON.")
@click.option("--tts-url", metavar="URL",
              help="Web address where the out/tts/ folder is uploaded, for multiplayer "
                   "(step by step: docs/tts.md) [default: file:// of out/tts, this machine "
                   "only].")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Output folder (default: build/, or build/print/subsets/<selection>/ for "
                   "a selection, so a subset never overwrites the full build's files).")
@click.option("--changed-since", "since", metavar="REV",
              help="Only the cards whose face changed since git revision REV (and new cards); "
                   "also writes print/errata.pdf with each changed card's old and new text.")
@click.option("--players", type=click.IntRange(1, 12), default=None,
              help="Starter sets to print, one per player (default: the most players the "
              "game takes, game.yaml players.max).")
@click.option("--option", "rule_opts", multiple=True, metavar="initiative=VALUE",
              help="The rules option the faces follow: initiative=first|second|lower|higher "
              "prints that initiative number large (both are always printed). A value other "
              "than the default writes to build/print/subsets/initiative-<value>/.")
@click.option("--ink-saver", is_flag=True,
              help="For home printers: white card bodies, outline frames, no full-bleed "
              "colour. Writes print/cards-<paper>-ink-saver.pdf (and png-ink-saver/).")
@click.option("--grayscale", is_flag=True,
              help="Every colour in gray. Writes print/cards-<paper>-grayscale.pdf (and "
              "png-grayscale/); with --ink-saver, -ink-saver-grayscale.")
@click.option("--quiet", is_flag=True, help="Print nothing on success.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary.")
def print_cards(content_dir, paper, deck, faction, card_ids, fronts_only, gutter_fold, png,
                tts, tts_url,
                out, since, players, rule_opts, ink_saver, grayscale, quiet, as_json):
    """Card sheets (A4 3x3, Letter 4x2 landscape; bleed, crop marks), PNGs and TTS decks."""
    from ..commands.printing import build_print
    from ..print.cards.build import PAPER_CHOICES, PrintOptions, shrunk

    errata = None
    if since:
        card_ids, errata = _changed(content_dir, since, card_ids)
    opts = PrintOptions(papers=PAPER_CHOICES[paper], deck=deck, faction=faction,
                        cards=_ids(card_ids), fronts_only=fronts_only, gutter_fold=gutter_fold,
                        png=None if png == "none" else png, tts=tts, tts_url=tts_url,
                        players=players, initiative=_initiative(rule_opts),
                        modes=print_modes(ink_saver=ink_saver, grayscale=grayscale))
    say = (lambda msg: None) if quiet or as_json else (lambda msg: click.echo(msg, err=True))
    if out is None:
        out = Path("build") / _subset_folder(deck, faction, opts.cards, since,
                                             players=players, initiative=opts.initiative)
    if since and not card_ids:
        say(f"no card face changed since {since}: nothing to print")
        _write_errata(out, errata, say)
        return
    result = build_print(content_dir, out, opts, progress=say)
    _write_errata(out, errata, say)  # only once the reprint succeeded: never one without it
    small = shrunk(result.fits)
    if as_json:
        click.echo(json.dumps({"faces": result.faces, "cards": result.cards,
                               "decks": result.decks, "written": result.written,
                               "unchanged": result.unchanged, "removed": result.removed,
                               "shrunk": small, "sizes": result.sizes,
                               "seconds": {k: round(v, 3) for k, v in result.seconds.items()}},
                              indent=2))
    elif not quiet:
        pdfs = [p for p in result.sizes if p.endswith(".pdf")]
        for path in pdfs:
            click.echo(f"{path}  {result.sizes[path] / 1e6:.1f} MB")
        for cid, fit in small.items():
            note = "" if fit["reminders"] else ", reminder text left out"
            click.echo(f"shrunk to fit: {cid} (text {fit['text_pt']} pt, "
                       f"name level {fit['name_level']}{note})")
        markers = f", {len(result.markers)} pile markers" if result.markers else ""
        click.echo(f"ok: {result.faces} faces of {result.cards} cards in "
                   f"{len(result.decks)} decks{markers}; {len(result.written)} files written, "
                   f"{len(result.unchanged)} unchanged; {result.seconds['total']:.1f} s")


def print_modes(ink_saver: bool, grayscale: bool) -> tuple[str, ...]:
    """The print modes the flags ask for (print/modes.py), in file-name order."""
    from ..print.modes import GRAYSCALE, INK_SAVER

    return tuple(m for m, on in ((INK_SAVER, ink_saver), (GRAYSCALE, grayscale)) if on)


def _write_errata(out: Path, errata: bytes | None, say) -> None:
    """print/errata.pdf beside the reprinted sheets (--changed-since only)."""
    if errata is None:
        return
    from ..fsutil import write_atomic

    write_atomic(out / "print" / "errata.pdf", errata, out)
    say(f"wrote {out / 'print' / 'errata.pdf'}")


def _changed(content_dir: Path, since: str, card_ids: str | None) -> tuple[str, bytes]:
    """(ids of the cards whose face changed since `since`, the errata PDF)."""
    from ..content.versions.report import errata_html, write_pdf
    from ..print.html import TEMPLATES
    from .versions import changes

    ch, _old, new = changes(content_dir, since, None)
    ids = ch.face_changed_ids()
    if card_ids:
        ids = [i for i in ids if i in set(_ids(card_ids))]
    title = str(new[1].game.get("title", ""))
    return ",".join(ids), write_pdf(errata_html(ch, title), TEMPLATES)


def _initiative(pairs: tuple[str, ...]) -> str | None:
    """The `initiative` value of `--option initiative=VALUE` (None when not given or the
    default); any other option is refused: the faces print no other rules option."""
    from ..engine.options import CHOICES, Options

    value = None
    for pair in pairs:
        name, sep, val = pair.partition("=")
        if not sep or name.strip() != "initiative":
            raise click.BadParameter(f"print-cards takes only initiative=VALUE, got {pair!r}",
                                     param_hint="--option")
        val = val.strip()
        if val not in CHOICES["initiative"][0]:
            raise click.BadParameter(
                f"initiative={val!r}: choose one of {', '.join(CHOICES['initiative'][0])}",
                param_hint="--option")
        value = val
    return None if value in (None, Options().initiative) else value


def _subset_folder(deck: str | None, faction: str | None, cards: list[str] | None,
                   since: str | None = None, players: int | None = None,
                   initiative: str | None = None) -> Path:
    """'' for the whole game (every Starter set, the default initiative), else
    print/subsets/<selection> (a name made of the selection): a selection, a player count
    or another initiative never writes over the full build's sheets, PNGs or TTS files."""
    if since:
        return Path("print") / "subsets" / ("changed-since-" + "".join(
            ch if ch.isalnum() or ch in "-_." else "-" for ch in since)[:60])
    parts = [f"deck-{deck}" if deck else "", f"faction-{faction}" if faction else "",
             ("cards-" + "-".join(cards)) if cards else "",
             f"players-{players}" if players is not None else "",
             f"initiative-{initiative}" if initiative else ""]
    name = "_".join(p for p in parts if p)
    if not name:
        return Path()
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)[:80]
    return Path("print") / "subsets" / safe


def register(group: click.Group) -> None:
    """Attach `print-cards` to the `tether` command group."""
    group.add_command(print_cards)
