"""Atomic file writes (render into a temporary file beside the target, then rename) and a
cheap fingerprint of folders."""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes, inside: Path | None = None) -> bool:
    """Write `data` to `path` atomically. Returns False (and writes nothing) if unchanged.
    inside: the output folder `path` must stay in (paths_guard.out_path: no `..`, no
    symlink on the way; paths_guard.Refused otherwise)."""
    path = Path(path)
    if inside is not None:
        from .paths_guard import out_path

        try:
            rel = path.relative_to(inside).as_posix()
        except ValueError:
            from .paths_guard import Refused

            raise Refused(path, f"is not inside the output folder {inside}") from None
        out_path(inside, rel)
    try:   # compared only with a regular file of the same size (never a FIFO or device)
        st = path.lstat()
        if stat.S_ISREG(st.st_mode) and st.st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
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
