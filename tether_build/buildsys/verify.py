"""`tether build --verify`: the incremental build's outputs against a clean build's.

An incremental build reuses what the last one made (stage keys, the render cache, compiled
templates). This proves, on the designer's own project, that it wrote exactly what a build
from nothing writes: after the normal build, the same build runs into an empty temporary
folder with an empty cache, and every output of the stages built is compared byte for byte.
Only the output folder's own path may differ (the Tabletop Simulator decks name their
images by path); it is written the same way in both before the bytes are compared.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from .manifest import inside, load_manifest


def outputs(out: Path, stages: Iterable[str]) -> dict[str, bytes | None]:
    """The files the last build into `out` made for these stages (read from disk, as a
    player would find them; None for one its manifest lists that is not there), the output
    folder's path written as `<out>`."""
    manifest = load_manifest(out)
    files: dict[str, bytes] = {}
    for name in stages:
        for rel in manifest.get(name, {}).get("outputs", {}):
            if inside(out, rel):
                path = out / rel
                files[rel] = _neutral(path.read_bytes(), out) if path.is_file() else None
    return files


def _neutral(data: bytes, out: Path) -> bytes:
    root = out.resolve()
    for form in (root.as_uri(), str(root)):
        data = data.replace(form.encode(), b"<out>")
    return data


def differences(incremental: dict, clean: dict) -> list[str]:
    """One line per output that differs, is missing from one build, or is extra."""
    lines = []
    for rel in sorted(set(incremental) | set(clean)):
        if rel not in clean:
            lines.append(f"{rel}: written by the incremental build only")
        elif rel not in incremental:
            lines.append(f"{rel}: written by the clean build only")
        elif incremental[rel] is None or clean[rel] is None:
            build = "incremental" if incremental[rel] is None else "clean"
            lines.append(f"{rel}: listed by the {build} build's manifest, missing on disk")
        elif incremental[rel] != clean[rel]:
            lines.append(f"{rel}: differs ({len(incremental[rel]):,} bytes incremental, "
                         f"{len(clean[rel]):,} bytes clean)")
    return lines


def verify(out: Path, stages: list[str], build_clean: Callable[[Path], None]
           ) -> tuple[int, list[str]]:
    """Build clean into a temporary folder (build_clean(folder)) and compare its outputs
    with those already in `out`; returns (files compared, difference lines)."""
    with tempfile.TemporaryDirectory(prefix="tether-verify-") as tmp:
        clean_out = Path(tmp) / "build"
        build_clean(clean_out)
        clean = outputs(clean_out, stages)
    incremental = outputs(out, stages)
    return len(set(incremental) | set(clean)), differences(incremental, clean)
