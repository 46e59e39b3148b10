"""Shared helpers for the print tests (no conftest.py here: tests/ imports its own conftest
by name, and a second one would shadow it). Builds are cached for the whole test run."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTENT = str(ROOT / "tests" / "fixtures" / "content")


def cli(*args: str):
    """Run the tether CLI in-process; asserts a zero exit and returns click's Result."""
    from click.testing import CliRunner

    from tether_build.cli import main

    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@cache
def _tmp() -> Path:
    path = Path(tempfile.mkdtemp(prefix="tether-print-tests-"))
    atexit.register(shutil.rmtree, path, True)
    return path


@cache
def print_build() -> Path:
    """`tether print-tiles` (both papers) once per test run; returns build/print."""
    out = _tmp() / "build"
    cli("print-tiles", "--content", CONTENT, "--out", str(out), "--quiet")
    return out / "print"


@cache
def board_build() -> Path:
    """`tether board --players 4 --seed 11` once per test run; returns build/board."""
    out = _tmp() / "build"
    cli("board", "--content", CONTENT, "--players", "4", "--seed", "11", "--out", str(out),
        "--quiet")
    return out / "board"
