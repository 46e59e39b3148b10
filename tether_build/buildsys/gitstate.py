"""The content's git names without running git when nothing git reads has changed.

A build names the content's version (`git describe`, `+dirty` from `git status`): three to
five git processes, 20-25 CPU-ms and more of wall time, for every build, even one with
nothing to do. The names depend on the repository's state (HEAD, the branch it names, the
tags, the index, the configuration, the ignore files) and on the content folder's files.
Here a fingerprint of those is kept with the names (in the stat record, statcache.py): the
stat of each of git's own files (git replaces them by renaming, so each write makes a new
inode) and the digest of every content file the build hashes anyway. With the same
fingerprint, the names are the ones recorded; otherwise git runs, and its names are kept
only when the fingerprint taken before and after the run agree (a commit meanwhile, or
git refreshing its index, leaves nothing recorded).

No fingerprint (git always runs): a GIT_* variable in the environment that may point git
elsewhere (GIT_DIR, GIT_CONFIG_*: _HARMLESS lists the others), a repository layout this
does not read, a file or folder changed less than statcache.MARGIN_NS ago. Outside any repository (no .git in
the content folder or any folder above it) git finds none, so it is not run at all.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .statcache import StatCache, stat_sig


def _read(path: Path) -> str | None:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return None


def _repo(content_dir: Path) -> tuple[Path, Path, Path] | None | bool:
    """(work tree root, git folder, common git folder) of the repository holding the
    folder; False when no folder above holds a .git; None when it cannot be read here."""
    here = Path(os.path.realpath(content_dir))
    for folder in (here, *here.parents):
        dot = folder / ".git"
        if dot.is_dir():
            gitdir = dot
        elif dot.is_file():
            line = _read(dot) or ""
            if not line.startswith("gitdir:"):
                return None
            gitdir = (folder / line[len("gitdir:"):].strip()).resolve()
        elif dot.exists() or dot.is_symlink():
            return None
        else:
            continue
        common = gitdir
        shared = _read(gitdir / "commondir")
        if shared is not None:
            common = (gitdir / shared).resolve()
        return folder, gitdir, common
    return False


def _sig(path: Path) -> list[int] | None:
    try:
        return stat_sig(os.stat(path))
    except FileNotFoundError:
        return None


# GIT_* variables that do not change which repository git finds nor what it reads of it
# (network, prompts, identities, tracing); any other (GIT_DIR, GIT_WORK_TREE, GIT_CONFIG_*,
# GIT_CEILING_DIRECTORIES ...) means git always runs.
_HARMLESS = ("GIT_SSL_", "GIT_HTTP_", "GIT_PROXY_", "GIT_TERMINAL_PROMPT", "GIT_ASKPASS",
             "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_AUTHOR_",
             "GIT_COMMITTER_", "GIT_TRACE")


def _steered() -> bool:
    """Whether a GIT_* variable may point git at another repository or state."""
    return any(name.startswith("GIT_") and not name.startswith(_HARMLESS)
               for name in os.environ)


def outside_git(content_dir: Path) -> bool:
    """True when no folder holding the content folder holds a .git and no GIT_* variable
    could point git elsewhere: git would find no repository, so there is no name."""
    return not _steered() and _repo(content_dir) is False


def fingerprint(content_dir: Path, content_digests: bytes, stats: StatCache) -> str | None:
    """A digest of everything the git names depend on (None: no fingerprint, run git).
    content_digests: the names and digests of the content folder's files; the stat of
    each of its folders stands for what they hold besides (a link, an empty folder)."""
    if _steered():
        return None
    repo = _repo(content_dir)
    if not repo:
        return None
    folders = stats.folders(content_dir, ("**/*",), skip="")
    if folders is None:
        return None
    h = hashlib.sha256(b"git-names-1\0" + content_digests)
    h.update(repr(sorted(folders.items())).encode())
    root, gitdir, common = repo
    head = _read(gitdir / "HEAD")
    if head is None:
        return None
    files = [gitdir / "HEAD", gitdir / "index", gitdir / "config.worktree",
             common / "packed-refs", common / "config", common / "shallow",
             common / "info" / "exclude", root / ".gitignore",
             Path.home() / ".gitconfig",
             Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "git"
             / "config"]
    if head.startswith("ref:"):
        ref = head[4:].strip()
        files += [gitdir / ref, common / ref]
    h.update(f"{root}\0{gitdir}\0{common}\0{head}\n".encode())
    for path in files:
        sig = _sig(path)
        if sig is not None and stats.young_sig(sig):
            return None
        h.update(f"{path}\0{sig}\n".encode())
    tags = common / "refs" / "tags"   # every tag: a new one changes its folder's stat
    for folder, dirs, names in os.walk(tags):
        for name in sorted(dirs + names):
            sig = _sig(Path(folder) / name)
            if sig is not None and stats.young_sig(sig):
                return None
            h.update(f"{folder}/{name}\0{sig}\n".encode())
    return h.hexdigest()
