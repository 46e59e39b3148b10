"""Atomic file writes (render into a temporary file beside the target, then rename) and a
cheap fingerprint of folders."""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
import time
from pathlib import Path

# A temporary file of write_atomic: `.<name>.<pid>~<random>.tmp` (the pid of its writer, so
# the next run can tell a killed writer's leftover from a file another process is writing)
TMP_MARK = "~"
_TMP = re.compile(r"^\..+\.(\d+)~[A-Za-z0-9_]+\.tmp$")
_OLD_TMP = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")   # before the pid was in the name
OLD_TMP_AGE = 600.0   # seconds: such a file is a leftover once it is this old


def write_atomic(path: Path, data: bytes, inside: Path | None = None,
                 durable: bool = True) -> bool:
    """Write `data` to `path` atomically. Returns False (and writes nothing) if unchanged.
    inside: the output folder `path` must stay in (paths_guard.out_path: no `..`, no
    symlink on the way; paths_guard.Refused otherwise). durable=False: not synced to disk
    before the rename (a cache entry, which is checked when read and only saves time)."""
    path = Path(path)
    if inside is not None:
        from .content.paths_guard import out_path

        try:
            rel = path.relative_to(inside).as_posix()
        except ValueError:
            from .content.paths_guard import Refused

            raise Refused(path, f"is not inside the output folder {inside}") from None
        out_path(inside, rel)
    try:   # compared only with a regular file of the same size (never a FIFO or device)
        st = path.lstat()
        if stat.S_ISREG(st.st_mode) and st.st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}{TMP_MARK}", suffix=".tmp",
                               dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True


def tree_version(*folders: Path) -> str:
    """A cheap fingerprint of every file under the folders (path, size, mtime)."""
    h = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if "__pycache__" in path.parts:
                continue
            try:
                st = path.stat()
            except OSError:
                continue   # gone while we looked (an editor's temporary file)
            if stat.S_ISREG(st.st_mode):
                h.update(f"{path}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True   # someone else's process: leave its file alone
    return True


def sweep_temps(folder: Path) -> list[Path]:
    """Remove the temporary files of write_atomic under `folder` whose writer is dead (a
    killed command's leftovers); returns them. Symlinks are not followed."""
    removed = []
    now = time.time()
    for root, dirs, files in os.walk(folder):
        for name in files:
            if not name.startswith("."):   # (both patterns: the render cache's ~1,300
                continue                   # entries pass here without a Path made)
            m = _TMP.match(name)
            path = Path(root) / name
            try:
                if m:
                    stale = not _alive(int(m.group(1)))
                elif _OLD_TMP.match(name):
                    stale = now - path.lstat().st_mtime > OLD_TMP_AGE
                else:
                    continue
                if stale:
                    path.unlink()
                    removed.append(path)
            except OSError:
                continue
    return removed
