"""The digests of the files the stage keys hash, kept beside each file's stat (git's index).

A build with nothing changed still has to show that nothing changed: every content file,
template, font and code file the keys name (about 350) was read and hashed, and each key's
folders globbed. Here each file's SHA-256 is kept with its identity and times (device,
inode, size, modification and change time in ns), and each globbed folder's listing with its
own; the next build reuses a digest or a listing when the file's or every folder's stat is
the same, and reads and hashes it again otherwise.

Why a same stat means the same bytes: writing a file changes its modification time and its
change time (ctime); an editor that saves by renaming makes a new inode; a tool that writes
and then sets the old modification time back (`touch -r`, `os.utime`, `cp -p`, `rsync -a`)
still changes the ctime, which no program can set. Adding, removing or renaming an entry of
a folder changes the folder's times the same way. What remains is an edit inside the
clock's step: the kernel stamps files with a coarse clock (a few ms), so a file hashed and
edited again within the same step, keeping its size, would keep its stat. As in git ("racy
git"), a file or folder whose times are less than MARGIN_NS older than the start of the build
that records it is not kept: it is hashed again next time, until it is old enough to trust.

Not kept (always hashed): links (the path guard decides what a link may reach), anything
that is not a regular file or folder, and everything under `--force`. The record lives in the
render cache folder (out/.cache/stats.json): a record that cannot be read, of another format
or shape, is ignored (everything is hashed, as without it), and removing it is always safe.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

from ..content.paths_guard import RECORD_MAX, Refused, read_bytes
from ..fsutil import write_atomic

NAME = "stats.json"          # in the render cache folder (print.cache.CACHE_DIR)
FORMAT = 1
MARGIN_NS = 2_000_000_000    # a stat younger than this at the build's start is not kept


def stat_sig(st: os.stat_result) -> list[int]:
    """A stat as the record keeps it: device, inode, size, mtime and ctime (ns)."""
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _dir_sig(path: str) -> list[int] | None:
    """The stat of a folder (None when it is not there); ["link"] style refusals are a
    kind the record never matches (-1)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return [-1]
    if not stat.S_ISDIR(st.st_mode):
        return [-1]
    return stat_sig(st)


def _prefix(pattern: str) -> tuple[str, bool]:
    """The literal folder a glob pattern starts in and whether it looks below that folder
    (a wildcard before the last part, or `**`)."""
    parts = pattern.split("/")
    literal = []
    for part in parts[:-1]:
        if any(c in part for c in "*?["):
            return "/".join(literal), True
        literal.append(part)
    return "/".join(literal), "**" in parts[-1]


class StatCache:
    """What one build hashed, and what the last one recorded (see the module docstring)."""

    def __init__(self, folder: Path | None, trust: bool = True):
        self.path = None if folder is None else Path(folder) / NAME
        self.start = time.time_ns()
        self.old_files: dict[str, list] = {}
        self.old_globs: dict[str, dict] = {}
        self.files: dict[str, list] = {}
        self.globs: dict[str, dict] = {}
        self.old_git: dict = {}   # the content's git names and their fingerprint (gitstate.py)
        self.git: dict = {}
        if trust and self.path is not None:
            self._load()

    def _load(self) -> None:
        try:
            data = json.loads(read_bytes(self.path, self.path.parent, RECORD_MAX))
        except (OSError, ValueError, RecursionError, Refused):
            return
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return
        files, globs = data.get("files"), data.get("globs")
        if not isinstance(files, dict) or not isinstance(globs, dict):
            return
        self.old_files = {p: v for p, v in files.items() if isinstance(v, list) and len(v) == 6
                          and all(isinstance(x, int) for x in v[:5]) and isinstance(v[5], str)
                          and len(v[5]) == 64}
        self.old_globs = {k: v for k, v in globs.items() if isinstance(v, dict)
                          and isinstance(v.get("dirs"), dict) and isinstance(v.get("files"), list)
                          and all(isinstance(f, str) for f in v["files"])}
        git = data.get("git")
        if isinstance(git, dict) and isinstance(git.get("fingerprint"), str) \
                and isinstance(git.get("names"), dict) and all(
                    isinstance(v, str | None) for v in git["names"].values()):
            self.old_git = git

    def _young(self, st: os.stat_result) -> bool:
        return max(st.st_mtime_ns, st.st_ctime_ns) > self.start - MARGIN_NS

    def young_sig(self, sig: list[int]) -> bool:
        """Whether a stat (as kept: device, inode, size, mtime, ctime) is too recent to
        trust (see the module docstring)."""
        return max(sig[3], sig[4]) > self.start - MARGIN_NS

    def digest(self, name: str, compute: Callable[[], bytes]) -> bytes:
        """compute() (the SHA-256 of the file `name`), or the one recorded when the file's
        stat is the recorded one."""
        try:
            st = os.lstat(name)
        except OSError:
            return compute()
        if not stat.S_ISREG(st.st_mode):
            return compute()
        sig = stat_sig(st)
        old = self.old_files.get(name)
        if old is not None and old[:5] == sig:
            self.files[name] = old
            return bytes.fromhex(old[5])
        digest = compute()   # (the stat above was taken before the read: an edit meanwhile
        if not self._young(st):   # leaves a stat that the next build will not match)
            self.files[name] = [*sig, digest.hex()]
        return digest

    def listing(self, base: Path, patterns: tuple[str, ...],
                compute: Callable[[], list[str]]) -> list[str]:
        """compute() (the files the patterns match under base), or the recorded list when
        every folder the patterns look in has its recorded stat."""
        key = "\0".join((str(base), *patterns))
        old = self.old_globs.get(key)
        if old is not None and old["dirs"] and all(
                _dir_sig(d) == sig for d, sig in old["dirs"].items()):
            self.globs[key] = old
            return list(old["files"])
        dirs = self.folders(base, patterns)   # (their stats before the listing: see digest)
        files = compute()
        if dirs is not None and not any(os.path.islink(f) for f in files):
            self.globs[key] = {"dirs": dirs, "files": list(files)}
        return files

    def folders(self, base: Path, patterns: tuple[str, ...], skip: str = "__pycache__"
                ) -> dict[str, list] | None:
        """The stat of every folder the patterns may list (a superset: every folder below
        a recursive pattern's start, but those named `skip`: Python's caches, which the
        keys never hash), or None when one is a link, is too young to trust or cannot be
        read."""
        out: dict[str, list | None] = {}
        for pattern in patterns:
            prefix, deep = _prefix(pattern)
            start = os.path.join(str(base), prefix) if prefix else str(base)
            todo = [start]
            while todo:
                folder = todo.pop()
                if folder in out:
                    continue
                try:
                    st = os.lstat(folder)
                except FileNotFoundError:
                    out[folder] = None   # (made later: its stat no longer None)
                    continue
                except OSError:
                    return None
                if not stat.S_ISDIR(st.st_mode) or self._young(st):
                    return None
                out[folder] = stat_sig(st)
                if not deep:
                    continue
                try:
                    with os.scandir(folder) as entries:
                        for entry in entries:
                            if entry.name != skip and entry.is_dir(follow_symlinks=False):
                                todo.append(entry.path)
                except OSError:
                    return None
        return out

    def save(self) -> None:
        """Write this build's record when it differs from the last one (and there is a
        folder for it)."""
        if self.path is None or (self.files == self.old_files and self.globs == self.old_globs
                                 and self.git == self.old_git):
            return
        if not self.path.parent.is_dir():
            return
        data = json.dumps({"format": FORMAT, "files": self.files, "globs": self.globs,
                           "git": self.git}, sort_keys=True, separators=(",", ":"))
        write_atomic(self.path, data.encode())
