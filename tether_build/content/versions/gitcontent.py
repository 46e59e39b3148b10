"""The content at a git revision, read without touching the work tree, and its version name.

`content_at(rev)` extracts the content folder as it was at `rev` (git archive) into a
temporary folder and validates it there; `describe()` names the work tree's content version
(`git describe --tags --always`, plus `+dirty` when the content has uncommitted edits).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click

from ...errors import ContentError, TetherError


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False,
                              timeout=60)
    except FileNotFoundError:
        raise TetherError("git is not installed (versions need git)") from None
    if done.returncode:
        raise TetherError(done.stderr.decode(errors="replace").strip().splitlines()[-1]
                          if done.stderr.strip() else f"git {' '.join(args)} failed")
    return done.stdout.decode("utf-8", errors="replace").strip()


def repo_of(content_dir: Path) -> tuple[Path, str]:
    """(repository root, the content folder's path inside it); TetherError outside git."""
    content_dir = Path(content_dir).resolve()
    if not content_dir.is_dir():
        raise TetherError(f"no content folder at {content_dir}")
    try:
        root = Path(_git(content_dir, "rev-parse", "--show-toplevel"))
    except TetherError:
        raise TetherError(f"{content_dir} is not in a git repository (versions need git)") \
            from None
    return root, content_dir.relative_to(root.resolve()).as_posix()


def describe(content_dir: Path, dirty: bool = True) -> str | None:
    """'v0.2', 'v0.2-3-g1a2b3c4' or, before any tag, 'g1a2b3c4'; with '+dirty' when the
    content folder has uncommitted edits (unless `dirty` is False: the last commit's name).
    None outside a git work tree or before the first commit."""
    try:
        root, rel = repo_of(content_dir)
    except TetherError:
        return None
    try:
        name = _git(root, "describe", "--tags", "--abbrev=7")
    except TetherError:
        try:
            name = "g" + _git(root, "rev-parse", "--short=7", "HEAD")
        except TetherError:
            return None
    if dirty and _git(root, "status", "--porcelain", "--", rel):
        name += "+dirty"
    return name


def resolve(content_dir: Path, rev: str) -> str:
    """The commit id of `rev` (a tag, branch or commit); TetherError naming it if unknown."""
    root, _ = repo_of(content_dir)
    if rev.startswith("-"):
        raise TetherError(f"not a revision: {rev!r}")
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", rev + "^{commit}")
    except TetherError:
        raise TetherError(f"unknown revision {rev!r} (a tag, branch or commit of "
                          f"{root.name})") from None


def last_tag(content_dir: Path) -> str | None:
    """The newest tag reachable from HEAD, or None."""
    root, _ = repo_of(content_dir)
    try:
        return _git(root, "describe", "--tags", "--abbrev=0")
    except TetherError:
        return None


def tags(content_dir: Path) -> list[str]:
    """Every tag, oldest first (by the date of its commit)."""
    root, _ = repo_of(content_dir)
    out = _git(root, "tag", "--sort=creatordate")
    return [t for t in out.splitlines() if t]


@contextlib.contextmanager
def content_at(content_dir: Path, rev: str) -> Iterator[Path]:
    """The content folder as it was at `rev`, extracted into a temporary folder."""
    root, rel = repo_of(content_dir)
    commit = resolve(content_dir, rev)
    try:
        data = subprocess.run(["git", "archive", "--format=tar", commit, rel], cwd=root,
                              capture_output=True, check=True, timeout=120).stdout
    except subprocess.CalledProcessError:
        raise TetherError(f"revision {rev!r} has no {rel}/ folder") from None
    with tempfile.TemporaryDirectory(prefix="tether-rev-") as tmp:
        skipped: list[str] = []
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(tmp, filter=_plain_files(skipped))
        if skipped:
            click.echo(f"warning: {rev}: skipped {len(skipped)} link(s) or special file(s) "
                       f"in {rel}/ (content files are plain files): "
                       + ", ".join(skipped[:5]), err=True)
        yield Path(tmp) / rel


def _plain_files(skipped: list[str]):
    """A tar filter that extracts folders and regular files only (tarfile's "data" rules):
    a symlink, hard link or device committed in the content is skipped and named."""
    def keep(member: tarfile.TarInfo, dest: str):
        if not (member.isfile() or member.isdir()):
            skipped.append(member.name)
            return None
        try:
            return tarfile.data_filter(member, dest)
        except tarfile.FilterError:
            skipped.append(member.name)
            return None
    return keep


def validated_at(content_dir: Path, rev: str):
    """(Content, normalized cards) of the content at `rev`; its own errors name the rev."""
    from ...commands import load
    from ..cards import normalized_cards

    with content_at(content_dir, rev) as old:
        try:
            content = load(old)
        except ContentError as exc:
            lines = [f"{rev}: {p}" for p in exc.problems[:20]]
            raise TetherError(f"the content at {rev} no longer validates:\n"
                              + "\n".join(lines)) from None
        return content, normalized_cards(content), rules_files(old)


def rules_files(content_dir: Path) -> dict[str, str]:
    """Rules chapters by file name -> text (compared as text)."""
    from ..paths_guard import Refused, project_of, read_text

    out = {}
    for p in sorted((content_dir / "rules").glob("*.md")):
        try:   # a link out of the project, a FIFO: named, never read
            out[p.name] = read_text(p, project_of(content_dir))
        except Refused as exc:
            out[p.name] = f"(not read: the file {exc.why})"
    return out
