"""TETHER_STOCK_LAYOUT=1: every layout through the stock libraries, the same outputs (issue 40).

The speed-ups that reach into WeasyPrint, cffi and fontTools live in print/layout/patches.py. With
the switch set (or with library versions they were not written for) none is installed, and
a clean build writes the same bytes as the patched one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tether_build.buildsys.verify import differences, outputs
from tether_build.commands.build import select
from tether_build.errors import TetherError
from tether_build.print.layout import patches

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, stock: bool, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop(patches.STOCK_ENV, None)
    if stock:
        env[patches.STOCK_ENV] = "1"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, timeout=900)


PROBE = """
import sys
from tether_build.print.layout import patches, pdf
from weasyprint.pdf import fonts
print(patches.mode(), type(fonts.ffi).__module__, "fontTools.subset" in sys.modules)
"""


def test_the_switch_installs_no_patch():
    """Stock: WeasyPrint imported as it is (its in-line cffi declarations, fontTools'
    subsetter loaded with it); patched: the parsed declarations, the subsetter not loaded."""
    stock = _run(PROBE, True)
    assert stock.returncode == 0, stock.stderr
    assert stock.stdout.split() == ["stock", "cffi.api", "True"]
    patched = _run(PROBE, False)
    assert patched.returncode == 0, patched.stderr
    assert patched.stdout.split()[0::2] == ["patched", "False"]
    assert patched.stdout.split()[1] != "cffi.api"


def test_other_library_versions_lay_out_stock(monkeypatch):
    monkeypatch.setattr(patches, "WRITTEN_FOR", {"weasyprint": ("65.",)})
    assert patches.versions_match.__wrapped__() is False
    monkeypatch.setattr(patches, "WRITTEN_FOR", {"weasyprint": ("66.",)})
    assert patches.versions_match.__wrapped__() is True


BUILD = "from tether_build.cli import run; run()"


def test_a_stock_build_writes_the_patched_builds_bytes(built_project, tmp_path):
    """A clean build of the cut-down fixture project, each way: every output the same bytes.
    The patched build is the run's shared one (built_project: the same command, patched)."""
    common = ["build", "--content", "content", "--paper", "a4", "--quiet"]
    proc = _run(BUILD, True, *common, "--out", str(tmp_path / "stock"), cwd=built_project)
    assert proc.returncode == 0, proc.stderr
    stages = [stage.name for stage in select(())]   # every stage a build runs
    patched = outputs(built_project / "build", stages)
    stock = outputs(tmp_path / "stock", stages)
    assert any(rel.endswith(".pdf") for rel in patched)
    assert differences(patched, stock) == []


def test_the_switch_takes_all_or_named_patches(monkeypatch):
    for value, off in (("", set()), ("0", set()), ("1", set(patches.PATCHES)),
                       ("import", {"import"}), (" import, ", {"import"})):
        monkeypatch.setenv(patches.STOCK_ENV, value)
        assert patches.stock_requested() == off
    monkeypatch.setenv(patches.STOCK_ENV, "lines,fonts")
    with pytest.raises(TetherError, match="unknown patch fonts"):
        patches.stock_requested()


def test_the_removed_patches_are_refused_by_name(monkeypatch):
    """sheets, lines, svg, derive and arrays saved under 5 % (docs/performance.md) and are
    gone: naming one is an error, not silently nothing."""
    monkeypatch.setenv(patches.STOCK_ENV, "derive")
    with pytest.raises(TetherError, match="unknown patch derive"):
        patches.stock_requested()
