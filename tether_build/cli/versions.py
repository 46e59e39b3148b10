"""`tether diff` and `tether changelog`: what changed in the content between git revisions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import click

CONTENT = click.option("--content", "content_dir", type=click.Path(path_type=Path),
                       default=Path("content"), show_default=True,
                       help="Folder of the game's content files (inside a git repository).")


def side(content_dir: Path, rev: str | None):
    """(label, content, normalized cards, rules chapters) at `rev`, or of the work tree."""
    from ..commands import load
    from ..content.cards import normalized_cards
    from ..content.versions.gitcontent import describe, rules_files, validated_at

    if rev is None:
        content = load(content_dir)
        return (describe(content_dir) or "work tree", content, normalized_cards(content),
                rules_files(Path(content_dir)))
    content, cards, rules = validated_at(content_dir, rev)
    return rev, content, cards, rules


def changes(content_dir: Path, rev: str | None, to: str | None):
    """The Changes from `rev` (default: the last tag, else HEAD) to `to` (default: work tree),
    with both sides."""
    from ..content.versions.diff import diff
    from ..content.versions.gitcontent import last_tag, repo_of

    repo_of(content_dir)
    rev = rev or last_tag(content_dir) or "HEAD"
    old, new = side(content_dir, rev), side(content_dir, to)
    return diff(old[0], old[1], old[2], old[3], new[0], new[1], new[2], new[3]), old, new


def faces(old, new, ids: list[str]) -> dict[str, tuple[str | None, str | None]]:
    """Old and new card faces (HTML, drawn by the print templates) of the given cards: a
    new card has only its new face, a removed card only its old one."""
    from ..print.cards.context import Renderer
    from ..print.html import TEMPLATES, Pages

    out = {}
    pages = [Pages(Renderer(s[1], TEMPLATES)) for s in (old, new)]
    by_id = [{c["id"]: c for c in s[2]} for s in (old, new)]
    for cid in ids:
        pair = tuple(str(pages[i].face(by_id[i][cid], 1)) if cid in by_id[i] else None
                     for i in (0, 1))
        if pair != (None, None):
            out[cid] = pair
    return out


def changes_html(content_dir: Path, rev: str | None, to: str | None, base: str):
    """(Changes, the changes page with old and new faces; `base` locates templates/)."""
    from ..content.versions.report import page
    from ..print.cards.context import Renderer
    from ..print.html import TEMPLATES, Pages

    ch, old, new = changes(content_dir, rev, to)
    shown = [c.id for c in ch.edits] + [c["id"] for c in ch.added + ch.removed]
    html_page = page(ch, faces(old, new, shown))
    wrapper = Pages(Renderer(new[1], TEMPLATES)).document([])
    head = wrapper.split("</head>")[0].split("<head>")[-1]
    return ch, html_page.replace("</head>", f"<base href='{base}'>{head}</head>", 1)


@click.command("diff")
@CONTENT
@click.argument("rev", required=False)
@click.option("--to", "to", default=None, help="Compare with this revision instead of the "
                                              "work tree.")
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"),
              show_default=True, help="Where changes.html goes.")
def diff_cmd(content_dir: Path, rev: str | None, to: str | None, as_json: bool,
             out: Path) -> None:
    """What changed in the content since REV (default: the last tag, else HEAD)."""
    from ..content.versions.diff import summary
    from ..fsutil import write_atomic
    from ..print.html import TEMPLATES

    ch, html_page = changes_html(content_dir, rev, to, TEMPLATES.as_uri() + "/")
    write_atomic(out / "changes.html", html_page.encode(), out)
    if as_json:
        click.echo(json.dumps(ch.to_json(), indent=2, sort_keys=True, default=str))
        return
    for line in summary(ch):
        click.echo(line)
    click.echo(f"wrote {out / 'changes.html'}")


@click.command()
@CONTENT
@click.option("--out", type=click.Path(path_type=Path), default=Path("CHANGELOG.md"),
              show_default=True)
def changelog(content_dir: Path, out: Path) -> None:
    """Write a Markdown changelog of the content, tag to tag (newest first)."""
    from ..content.versions.diff import diff
    from ..content.versions.gitcontent import tags
    from ..content.versions.report import markdown
    from ..errors import TetherError
    from ..fsutil import write_atomic

    names = tags(content_dir)
    if not names:
        raise TetherError("no git tags yet: tag a version (git tag v0.1) to start a changelog")
    sides = [side(content_dir, t) for t in names] + [side(content_dir, None)]
    sections = []
    for older, newer in itertools.pairwise(sides):
        ch = diff(older[0], *older[1:], newer[0], *newer[1:])
        title = newer[0] if newer is not sides[-1] else f"Unreleased ({newer[0]})"
        if newer is not sides[-1] or not ch.empty:
            sections.append((title, ch))
    write_atomic(out, markdown(list(reversed(sections))).encode())
    click.echo(f"wrote {out} ({len(sections)} version(s))")


def register(group: click.Group) -> None:
    """Attach `diff` and `changelog` to the `tether` group."""
    group.add_command(diff_cmd)
    group.add_command(changelog)
