"""The files a build stage read, recorded as they are read, so its key cannot miss one.

A stage's key (build.stage_key) hashes the files it declares (content, templates, fonts,
icons, the tool's code) or its view of the content, which it cannot read past (a
stageviews.ContentView). What it reads besides is recorded here as it happens: every file
opened and every folder listed, through Python's audit hook, in the process the stage runs in
(a worker, or the building process) and, for what the building process reads for every stage
(a card's art, hashed while the cards are normalized), in that process. The manifest keeps the
record with the stage (`reads`: path -> SHA-256 of the file, or of the folder's names), and the
next build treats the stage as stale as soon as one of those files or folders differs
(`changed`). A file the stage read that its declaration forgot, a picture beside the content
folder, a template found by listing a folder: each is in the record.

Not recorded: the content folder's YAML and Markdown as `validate` loads them (the declared key
or the view covers the content by construction: `paused`), the tool's own code (every stage's
key hashes the whole package), the output folder (the build's own cache and manifest), and
Python's caches. C libraries open files the hook never sees (fontconfig's system fonts): the
library versions in the render cache's keys stand for those.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_ACTIVE: list[set[str]] = []   # the records open now (innermost last); the hook adds to all
_PAUSED = [0]
_INSTALLED = [False]
_EVENTS = {"open": "file", "os.listdir": "dir", "os.scandir": "dir"}


def _hook(event: str, args: tuple) -> None:
    if not _ACTIVE or _PAUSED[0] or event not in _EVENTS:
        return
    path = args[0] if args else None
    if isinstance(path, int) or path is None:
        return   # a file descriptor: the path it came from was recorded when it was opened
    try:
        name = os.path.abspath(os.fsdecode(path))
    except (TypeError, ValueError):
        return
    item = f"{_EVENTS[event]}:{name}"
    for record in _ACTIVE:
        record.add(item)


def _install() -> None:
    if not _INSTALLED[0]:
        sys.addaudithook(_hook)   # (cannot be removed: it does nothing outside recording())
        _INSTALLED[0] = True


@contextmanager
def recording() -> Iterator[set[str]]:
    """Within: every file opened and folder listed in this process is added to the set
    yielded ("file:/abs/path" or "dir:/abs/path"; filter it with `digests`)."""
    _install()
    record: set[str] = set()
    _ACTIVE.append(record)
    try:
        yield record
    finally:   # by identity: two records may hold the same items
        del _ACTIVE[next(i for i, r in enumerate(_ACTIVE) if r is record)]


def note(items: set[str]) -> None:
    """Add what another process read for this one (a part of a stage done in a forked
    process, recorded there with recording()) to every record open here."""
    for record in _ACTIVE:
        record.update(items)


@contextmanager
def paused() -> Iterator[None]:
    """Within: nothing is recorded (the content's own files, which keys cover otherwise)."""
    _PAUSED[0] += 1
    try:
        yield
    finally:
        _PAUSED[0] -= 1


def _ignored(path: str, skip: tuple[str, ...]) -> bool:
    return ((path + os.sep).startswith(skip) or f"{os.sep}__pycache__" in path
            or f"{os.sep}.git{os.sep}" in path + os.sep or path.endswith((".pyc", ".py")))


def digest_of(item: str) -> str:
    """The SHA-256 a recorded item has now: a file's bytes, a folder's sorted names, or
    "missing" (not there, or no longer a file / a folder)."""
    kind, _, path = item.partition(":")
    try:
        st = os.stat(path)
        if kind == "file" and stat.S_ISREG(st.st_mode):
            with open(path, "rb") as fh:   # (outside recording(): never recorded itself)
                return hashlib.sha256(fh.read()).hexdigest()
        if kind == "dir" and stat.S_ISDIR(st.st_mode):
            names = "\n".join(sorted(os.listdir(path)))
            return hashlib.sha256(names.encode("utf-8", "surrogateescape")).hexdigest()
    except OSError:
        pass
    return "missing"


def _roots(folders: tuple[Path, ...]) -> tuple[str, ...]:
    return tuple(str(Path(p).resolve()) + os.sep for p in folders)


def real_path(path: str, folders: dict[str, str]) -> str:
    """os.path.realpath(path), with the real path of its folder looked up in `folders` (a
    memo the caller keeps for a few hundred paths at most: one lstat a path, not one a
    folder on its way). A path that is a symlink itself, or whose last part is empty, `.`
    or `..`, is resolved whole, as are relative ones; a missing path keeps its name, as
    realpath keeps it."""
    head, name = os.path.split(path)
    if not head.startswith(os.sep) or name in ("", ".", ".."):
        return os.path.realpath(path)
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            return os.path.realpath(path)
    except OSError:
        pass   # not there (or not reachable): realpath keeps the name as it is
    real = folders.get(head)
    if real is None:
        real = folders[head] = os.path.realpath(head)
    return os.path.join(real, name)


def _kept(item: str, roots: tuple[str, ...], skips: tuple[str, ...],
          folders: dict[str, str] | None = None) -> str | None:
    """The item with its path resolved ("file:/real/path") if it lies in one of the roots
    and in none of the skipped folders, else None (folders: real_path's memo)."""
    kind, _, path = item.partition(":")
    real = real_path(path, {} if folders is None else folders)
    if not (real + os.sep).startswith(roots) or _ignored(real, skips):
        return None
    return f"{kind}:{real}"


def digests(record: set[str], within: tuple[Path, ...], skip: tuple[Path, ...],
            seen: dict | None = None, keyed: frozenset[str] = frozenset()) -> dict[str, str]:
    """The recorded items that lie in one of the `within` folders and in none of `skip`,
    with their digests now (seen: digests worked out already this build). keyed: real paths
    of files the stage's key hashes already; a read of one of them is left out (an edit to
    it changes the key: recording it too would only hash it twice a build)."""
    seen = {} if seen is None else seen
    roots, skips = _roots(within), _roots(skip)
    folders: dict[str, str] = {}   # (real_path's: the folders of this record, resolved once)
    out = {}
    for item in sorted(record):
        key = _kept(item, roots, skips, folders)
        if key is None or (key.startswith("file:") and key[5:] in keyed):
            continue
        if key not in seen:
            seen[key] = digest_of(key)
        if seen[key] != "missing" or key.startswith("file:"):
            out[key] = seen[key]
    return out


def changed(reads: dict[str, str], within: tuple[Path, ...], skip: tuple[Path, ...],
            seen: dict | None = None) -> str | None:
    """The first recorded item whose digest differs now ("file:/path"), or None. The record
    comes from the output folder, which may have been tampered with: an item outside the
    `within` folders (or in a skipped one) is never read, only counted as changed, so the
    stage runs again and its record is written anew."""
    seen = {} if seen is None else seen
    roots, skips = _roots(within), _roots(skip)
    folders: dict[str, str] = {}
    for item, was in sorted(reads.items()):
        if _kept(item, roots, skips, folders) != item:
            return item
        if item not in seen:
            seen[item] = digest_of(item)
        if seen[item] != was:
            return item
    return None
