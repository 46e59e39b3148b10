"""Every stage's key names the font subsetter the layout would use (HarfBuzz's subset
library or fontTools: a system library that no Python distribution's version shows), found
without importing WeasyPrint (patches.subsetter_probe)."""

from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import pytest

from tether_build.commands import build
from tether_build.print.layout import patches

FIXTURE = Path(__file__).parent / "fixtures" / "content"


@pytest.fixture()
def fresh_probe(monkeypatch):
    real = patches.subsetter_probe
    real.cache_clear()
    monkeypatch.setattr(build, "_LIBRARIES", [])
    yield
    real.cache_clear()


def _without(monkeypatch, missing: tuple[str, ...]) -> None:
    real = ctypes.CDLL

    def cdll(name, *args, **kwargs):
        if name in missing:
            raise OSError(f"{name}: cannot open shared object file")
        return real(name, *args, **kwargs)
    monkeypatch.setattr(ctypes, "CDLL", cdll)


def test_the_probe_follows_the_libraries(fresh_probe, monkeypatch):
    found = patches.subsetter_probe()
    patches.subsetter_probe.cache_clear()
    _without(monkeypatch, patches._HARFBUZZ_SUBSET)
    no_subset = patches.subsetter_probe()
    patches.subsetter_probe.cache_clear()
    _without(monkeypatch, patches._HARFBUZZ + patches._HARFBUZZ_SUBSET)
    assert patches.subsetter_probe() == "fonttools"
    assert not no_subset.endswith("+subset")
    if found.endswith("+subset"):   # this machine has the subset library
        assert found != no_subset


def test_the_probe_imports_no_layout_library(tmp_path):
    import subprocess

    code = ("import sys; from tether_build.print.layout.patches import subsetter_probe; "
            "subsetter_probe(); print('weasyprint' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[1])
    assert out.stdout.strip() == "False"


def test_every_stage_key_names_it(fresh_probe, monkeypatch, tmp_path):
    ctx = build.Context(content_dir=FIXTURE, out=tmp_path / "build")
    stage = next(s for s in build.STAGES if s.name == "validate")
    keys = []
    for probe in ("harfbuzz-6.0.0+subset", "harfbuzz-6.0.0", "fonttools"):
        monkeypatch.setattr(patches, "subsetter_probe", lambda probe=probe: probe)
        monkeypatch.setattr(build, "_LIBRARIES", [])
        assert f"|subsetter={probe}|" in build.libraries()
        keys.append(build.stage_key(stage, ctx))
    assert len(set(keys)) == 3
