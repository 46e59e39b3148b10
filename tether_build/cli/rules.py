"""`tether rulebook` and `tether rename`: the rulebook PDFs, and renaming a glossary term."""

from __future__ import annotations

import json
from pathlib import Path

import click

CONTENT = click.option("--content", "content_dir", type=click.Path(path_type=Path),
                       default=Path("content"), show_default=True,
                       help="Folder of the game's content files.")
PAPER_CHOICES = {"a4": ("a4",), "letter": ("letter",), "both": ("a4", "letter")}


@click.command()
@CONTENT
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"),
              show_default=True, help="Folder to write the rulebook into.")
@click.option("--paper", type=click.Choice(list(PAPER_CHOICES)), default="both",
              show_default=True, help="Paper size(s); rulebook.pdf is the first of them.")
@click.option("--quiet", is_flag=True, help="Print nothing on success.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary.")
def rulebook(content_dir: Path, out: Path, paper: str, quiet: bool, as_json: bool) -> None:
    """Write the rulebook: rulebook-a4.pdf, rulebook-letter.pdf, rulebook.pdf, rulebook.html."""
    from ..buildsys.lock import write_outputs
    from ..commands import load
    from ..print.rulebook.book import render_rulebook

    content = load(content_dir)
    if not quiet and not as_json:
        click.echo("laying out the rulebook...", err=True)
    book = render_rulebook(content, content_dir, PAPER_CHOICES[paper])
    write_outputs(out, book.files, command="tether rulebook")   # all or nothing, locked
    written = [str(out / name) for name in book.files]
    if as_json:
        click.echo(json.dumps({"files": written, "pages": book.pages,
                               "seconds": book.seconds}, indent=1))
    elif not quiet:
        pages = ", ".join(f"{p}: {n} pages" for p, n in book.pages.items())
        for path in written:
            click.echo(f"wrote {path}")
        click.echo(f"rulebook: {pages} in {book.seconds:.1f} s")


@click.command()
@CONTENT
@click.argument("term")
@click.argument("new_name")
@click.option("--plural", help="The new plural (default: same rule as the old name's plural).")
@click.option("--adjective", help="The new form before a noun, for terms that have one.")
@click.option("--names", is_flag=True,
              help="Also rename card names and notes that type the old name (a card's "
                   "design_name keeps the document's name; notes get the term's token; "
                   "quotations of the design document are kept).")
@click.option("--dry-run", is_flag=True,
              help="List every sentence the rename changes, and its warnings; write nothing.")
def rename(content_dir: Path, term: str, new_name: str, plural: str | None,
           adjective: str | None, names: bool, dry_run: bool) -> None:
    """Rename glossary TERM (its id in terms.yaml) to NEW_NAME everywhere.

    Edits content/terms.yaml in place, keeping comments and layout; every output follows
    on the next build. Example: tether rename force "Legionary" --plural "Legionaries"
    """
    from ..commands.printing import rename_term

    done = rename_term(content_dir, term, new_name, plural, adjective, names=names,
                       dry_run=dry_run)
    for field, name in done.new.items():
        click.echo(f"{term}.{field}: {done.old[field]!r} -> {name!r}")
    if done.uses:
        verb = ("would be renamed" if dry_run else "renamed") if names else \
            "still type the old name (--names renames them)"
        click.echo(f"{len(done.uses)} card name(s) and note(s) {verb}:")
        for use in done.uses:
            click.echo(f"  {use.file.name}:{use.line}: {use.kind}: {use.text[:90]}")
    for why in done.skipped or []:
        click.echo(f"  not renamed: {why}")
    if dry_run:
        click.echo(f"{len(done.changes)} sentence(s) would change:")
        for file, line, before, after in done.changes:
            click.echo(f"  {file}:{line}:\n    - {before}\n    + {after}")
    for warning in done.warnings or []:
        click.echo(f"warning: {warning}")
    if dry_run:
        click.echo("dry run: nothing was written (the content would validate).")
        return
    click.echo(f"updated {', '.join(done.files)}; content validates; {len(done.changes)} "
               "sentence(s) changed. Rebuild to see the new name in every output.")


def register(group: click.Group) -> None:
    """Attach `rulebook` and `rename` to the `tether` command group."""
    group.add_command(rulebook)
    group.add_command(rename)
