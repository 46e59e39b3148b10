"""Shared helpers for the print tests (no conftest.py here: tests/ imports its own conftest
by name, and a second one would shadow it). Builds are made once for the whole test
run, shared by the xdist workers."""

from __future__ import annotations

from pathlib import Path

from run_once import once_per_run

ROOT = Path(__file__).resolve().parents[2]
CONTENT = str(ROOT / "tests" / "fixtures" / "content")


def cli(*args: str):
    """Run the tether CLI in-process; asserts a zero exit and returns click's Result."""
    from click.testing import CliRunner

    from tether_build.cli import main

    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


_BUILT: dict[str, Path] = {}   # this process's copy of the run's builds


def print_build(tmp_path_factory) -> Path:
    """`tether print-tiles` (both papers) once per test run, shared by the xdist workers
    (tests.conftest.once_per_run); returns build/print."""
    def make(base: Path) -> Path:
        out = base / "build"
        cli("print-tiles", "--content", CONTENT, "--out", str(out), "--quiet")
        return out / "print"
    if "print" not in _BUILT:
        _BUILT["print"] = once_per_run(tmp_path_factory, "tiles", make)
    return _BUILT["print"]


def board_build(tmp_path_factory) -> Path:
    """`tether board --players 4 --seed 11` once per test run; returns build/board."""
    def make(base: Path) -> Path:
        out = base / "build"
        cli("board", "--content", CONTENT, "--players", "4", "--seed", "11", "--out",
            str(out), "--quiet")
        return out / "board"
    if "board" not in _BUILT:
        _BUILT["board"] = once_per_run(tmp_path_factory, "board", make)
    return _BUILT["board"]
