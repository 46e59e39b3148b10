"""Shared fixtures: the shipped content, and a writable copy of it per test."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "tests" / "fixtures" / "content"


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
