"""All-or-nothing output swap: every build leaves all-old or all-new outputs.

1. Every new or changed output is written into a staging folder inside the output folder
   (same file system), flushed to disk. A full disk, a read-only folder or a kill here
   leaves the previous outputs untouched; the staging folder is removed (or, after a kill,
   by the next build).
2. A commit record (the list of moves and removals) is written atomically into the staging
   folder. From this point the build is decided.
3. The moves and removals are carried out, then the staging folder goes away.

A build that starts and finds a staging folder rolls it forward when its commit record
exists (the previous build was killed during step 3), and throws it away otherwise.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .errors import TetherError
from .fsutil import write_atomic

STAGING = ".tether-staging"
RECORD = "COMMIT.json"


@dataclass
class Outputs:
    """A stage's outputs as the build needs them: every file's SHA-256 (for the manifest)
    and the bytes of those that differ from the file in the output folder. Worked out where
    the stage ran: a stage in a worker process sends back the few files an edit changed,
    not every PNG of the deck (about 40 MB in all)."""

    digests: dict[str, str]
    changed: dict[str, bytes]
    reads: frozenset[str] = frozenset()   # what the stage opened and listed (reads.py)

    @classmethod
    def against(cls, out: Path, files: dict[str, bytes]) -> Outputs:
        """`files` (path relative to `out` -> bytes) compared with what `out` holds."""
        digests = {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
        changed = {rel: data for rel, data in files.items() if not _same(out / rel, data)}
        return cls(digests, changed)


def _same(path: Path, data: bytes) -> bool:
    """Whether `path` is a file holding exactly `data`."""
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _fsync_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _why(exc: OSError, out: Path) -> str:
    if exc.errno == errno.ENOSPC:
        return f"the disk holding {out}/ is full"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"{out}/ cannot be written ({exc.strerror})"
    return f"cannot write into {out}/: {exc.strerror or exc}"


def _finish(out: Path, staging: Path, record: dict) -> None:
    """Carry out a decided commit (idempotent: safe to repeat after a kill)."""
    for rel in record["moves"]:
        src = staging / "files" / rel
        if src.exists():
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, out / rel)
    for rel in record["removals"]:
        (out / rel).unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)


def recover(out: Path) -> str | None:
    """Finish or discard what a killed build left; returns what was done, if anything."""
    staging = out / STAGING
    if not staging.is_dir():
        return None
    try:
        record = json.loads((staging / RECORD).read_text())
        if not isinstance(record, dict) or not all(
                isinstance(record.get(k), list) and all(isinstance(r, str) and ".." not in
                                                        Path(r).parts and not
                                                        Path(r).is_absolute()
                                                        for r in record[k])
                for k in ("moves", "removals")):
            raise ValueError("bad record")
    except (OSError, ValueError):
        shutil.rmtree(staging, ignore_errors=True)
        return "discarded the unfinished outputs of an interrupted build"
    _finish(out, staging, record)
    return "completed the outputs of an interrupted build"


def commit(out: Path, pending: dict[str, bytes], removals: list[str],
           manifest: tuple[str, bytes] | None) -> tuple[list[str], int]:
    """Swap in `pending` (rel -> bytes), the manifest (None: unchanged) and drop `removals`;
    returns (written, unchanged count). Nothing is touched when nothing changed."""
    changed = {rel: data for rel, data in pending.items() if not _same(out / rel, data)}
    removals = [rel for rel in removals if (out / rel).exists()]
    if not changed and not removals and manifest is None:
        return [], len(pending)
    for rel in changed:
        target = out / rel
        if target.is_dir():
            raise TetherError(f"cannot write {target}: a folder of that name is in the way "
                              "(move it away and build again)")
    if out.exists() and not out.is_dir():
        raise TetherError(f"the output folder {out} is a file (choose another --out)")
    staging = out / STAGING
    try:
        shutil.rmtree(staging, ignore_errors=True)
        for rel, data in changed.items():
            _fsync_write(staging / "files" / rel, data)
        moves = sorted(changed)
        if manifest is not None:
            _fsync_write(staging / "files" / manifest[0], manifest[1])
            moves.append(manifest[0])
        write_atomic(staging / RECORD, json.dumps({"moves": moves,
                                                    "removals": removals}).encode())
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise TetherError(_why(exc, out) + "; the previous outputs are unchanged") from None
    try:
        _finish(out, staging, {"moves": moves, "removals": removals})
    except OSError as exc:
        raise TetherError(_why(exc, out) + "; the next build completes this one") from None
    return sorted(changed), len(pending) - len(changed)
