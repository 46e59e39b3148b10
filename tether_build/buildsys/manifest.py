"""The build manifest (build/.tether-build.json): per stage its key and its outputs.

It is read defensively: an entry of the wrong shape, or one naming a path outside the output
folder, is dropped with a warning, so the build never touches a file it did not write. Each
output's size and time are noted after a build, so an output another command wrote over makes
its stage run again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from ..content.paths_guard import RECORD_MAX, Refused, out_paths_ok, read_bytes
from ..fsutil import write_atomic

MANIFEST = ".tether-build.json"


def inside(out: Path, rel) -> bool:
    """True when `rel` is a relative path that stays inside the output folder (no `..`, no
    absolute path, no symlink on the way: paths_guard.out_path)."""
    from ..content.paths_guard import out_path_ok

    # (out_path_ok is the whole test: a plain relative path, no `..`, through no symlink,
    # cannot resolve outside `out`; resolving each of a build's ~430 outputs again cost
    # about a third of a no-change build's 0.5 CPU-s)
    return out_path_ok(out, rel)


def _stat(path) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def untouched(out: Path, entry: dict) -> bool:
    """Every output of a stage is there as the build left it (size and time): another
    command that wrote over one (e.g. a subset print) makes the stage run again."""
    stats = entry.get("stats") or {}
    top = os.fspath(out)
    for rel in entry.get("outputs", {}):
        now = _stat(os.path.join(top, rel))
        if now is None or (rel in stats and stats[rel] != now):
            return False
    return True


def record_stats(out: Path, manifest: dict) -> None:
    """Note each output's size and time in the manifest, after the outputs are in place."""
    changed, top = False, os.fspath(out)
    for entry in manifest.values():
        stats = {rel: _stat(os.path.join(top, rel)) for rel in entry.get("outputs", {})}
        if entry.get("stats") != stats:
            entry["stats"], changed = stats, True
    if changed:
        write_atomic(out / MANIFEST,
                     (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())


def load_manifest(out: Path, warn: Callable[[str], None] = lambda _m: None) -> dict:
    """The previous build's manifest; entries of the wrong shape or pointing outside `out`
    are dropped with a warning (the build never touches a path it did not write)."""
    try:
        data = json.loads(read_bytes(out / MANIFEST, out, RECORD_MAX))
    except (OSError, ValueError, RecursionError, Refused):
        return {}
    if not isinstance(data, dict):
        warn(f"ignoring {MANIFEST}: not a mapping of stages")
        return {}
    clean = {}
    for name, entry in data.items():
        outputs = entry.get("outputs") if isinstance(entry, dict) else None
        if not isinstance(outputs, dict) or not isinstance(entry.get("key"), str):
            warn(f"ignoring {MANIFEST} entry {name!r}: not a stage record")
            continue
        bad = [rel for rel, ok in zip(outputs, out_paths_ok(out, list(outputs)), strict=True)
               if not ok]
        if bad:
            warn(f"ignoring {MANIFEST} entry {name!r}: path outside the build folder "
                 f"({str(bad[0])[:80]!r})")
            continue
        clean[name] = entry
    return clean
