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

from ..content.paths_guard import RECORD_MAX, Refused, out_path, out_path_ok, read_bytes
from ..errors import TetherError
from ..fsutil import write_atomic

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
    """Whether `path` is a regular file (not a link) holding exactly `data`."""
    try:
        return path.lstat().st_size == len(data) and not path.is_symlink() \
            and path.is_file() and path.read_bytes() == data
    except OSError:
        return False


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


def _why(exc: OSError, out: Path) -> str:
    if exc.errno == errno.ENOSPC:
        return f"the disk holding {out}/ is full"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"{out}/ cannot be written ({exc.strerror})"
    return f"cannot write into {out}/: {exc.strerror or exc}"


def _finish(out: Path, staging: Path, record: dict) -> None:
    """Carry out a decided commit (idempotent: safe to repeat after a kill). Every path is
    checked again right before it is used (paths_guard.out_path): no symlink on the way."""
    for rel in record["moves"]:
        src = out_path(out, f"{STAGING}/files/{rel}")
        if src.exists():
            target = out_path(out, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, out_path(out, rel))
    for rel in record["removals"]:
        out_path(out, rel).unlink(missing_ok=True)
    shutil.rmtree(staging, ignore_errors=True)


def _record_ok(out: Path, record) -> bool:
    """A commit record as commit() writes it, every path of which stays in `out` (no `..`,
    no absolute path, no symlink on the way: a restored cache or an unpacked archive of the
    build folder may hold one pointing anywhere)."""
    return isinstance(record, dict) and all(
        isinstance(record.get(k), list) and all(
            out_path_ok(out, r) and (k == "removals" or out_path_ok(out, f"{STAGING}/files/{r}"))
            for r in record[k])
        for k in ("moves", "removals"))


def recover(out: Path) -> str | None:
    """Finish or discard what a killed build left; returns what was done, if anything."""
    staging = out / STAGING
    if staging.is_symlink():
        staging.unlink()   # never ours: the tool makes a real folder
        return f"removed {staging}: a symlink, not an interrupted build's outputs"
    if not staging.is_dir():
        return None
    try:
        record = json.loads(read_bytes(staging / RECORD, staging, RECORD_MAX))
    except (OSError, ValueError, RecursionError, Refused):
        shutil.rmtree(staging, ignore_errors=True)
        return "discarded the unfinished outputs of an interrupted build"
    if not _record_ok(out, record):
        shutil.rmtree(staging, ignore_errors=True)
        return ("discarded the outputs of an interrupted build: its commit record names a "
                "path outside the output folder (a symlink, `..` or an absolute path)")
    try:
        _finish(out, staging, record)
    except Refused as exc:   # a symlink made between the check and the move
        shutil.rmtree(staging, ignore_errors=True)
        return f"discarded the outputs of an interrupted build: {exc}"
    return "completed the outputs of an interrupted build"


def commit(out: Path, pending: dict[str, bytes], removals: list[str],
           manifest: tuple[str, bytes] | None) -> tuple[list[str], int]:
    """Swap in `pending` (rel -> bytes), the manifest (None: unchanged) and drop `removals`;
    returns (written, unchanged count). Nothing is touched when nothing changed."""
    changed = {rel: data for rel, data in pending.items() if not _same(out / rel, data)}
    removals = [rel for rel in removals if (out / rel).exists() or (out / rel).is_symlink()]
    if not changed and not removals and manifest is None:
        return [], len(pending)
    for rel in [*changed, *removals]:
        target = out_path(out, rel)   # Refused (one line) for a symlink on the way
        if rel in changed and target.is_dir():
            raise TetherError(f"cannot write {target}: a folder of that name is in the way "
                              "(move it away and build again)")
    if out.exists() and not out.is_dir():
        raise TetherError(f"the output folder {out} is a file (choose another --out)")
    staging = out / STAGING
    try:
        if staging.is_symlink():
            staging.unlink()   # a link left there: never written through
        shutil.rmtree(staging, ignore_errors=True)
        for rel, data in changed.items():
            _write(staging / "files" / rel, data)
        moves = sorted(changed)
        if manifest is not None:
            _write(staging / "files" / manifest[0], manifest[1])
            moves.append(manifest[0])
        # On disk before the record that makes them the outputs: one sync for all of them
        # (a clean build stages ~430 files; an fsync each cost 3 s on the 2-core machine,
        # one sync 0.05 s). A kill never loses written data; a power cut before this line
        # leaves no record, so the staged files are discarded.
        os.sync()
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
