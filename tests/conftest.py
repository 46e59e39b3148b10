"""Shared fixtures: the shipped content, and a writable copy of it per test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


@pytest.fixture(scope="session")
def content():
    """The shipped content, validated once per session."""
    from tether_build.validate import validate
    return validate(CONTENT)


@pytest.fixture
def content_copy(tmp_path) -> Path:
    """A copy of content/ (with schemas/ beside it) that a test may break."""
    dst = tmp_path / "content"
    shutil.copytree(CONTENT, dst)
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    return dst


def run_cli(*args: str):
    """Run the tether CLI in-process; returns click's Result."""
    from click.testing import CliRunner
    from tether_build.cli import main
    return CliRunner().invoke(main, list(args), catch_exceptions=False)
