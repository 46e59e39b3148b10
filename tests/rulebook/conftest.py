"""Shared by the rulebook tests: the fixture content's rulebook, built once per session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tether_build.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "content"


@pytest.fixture(scope="session")
def guide_out(tmp_path_factory):
    """The rulebook of the fixture content, both papers (writes print/README.pdf too)."""
    base = tmp_path_factory.mktemp("guide")
    shutil.copytree(FIXTURE, base / "content")
    shutil.copytree(ROOT / "schemas", base / "schemas")
    out = base / "build"
    result = CliRunner().invoke(main, ["rulebook", "--content", str(base / "content"),
                                       "--out", str(out), "--quiet"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return out


