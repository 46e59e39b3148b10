"""A stale render cache is caught (issue 40): with the old bug put back (glossary words
compiled into the cached templates), a rename leaves the incremental rulebook stale;
`tether build --verify` names its files and `--force` cures it.

A file of its own, apart from tests/test_build_differential.py: pytest-xdist deals whole files
to its workers (`--dist loadfile`), so the differential test's edit series and these two
tests run side by side instead of one after the other on one worker.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tether_cli import run_cli

from tests.conftest import make_small_content


def _put_the_bug_back(monkeypatch) -> None:
    """The old bug: glossary words compiled into the cached templates."""
    from tether_build.print import templatecode

    monkeypatch.setattr(templatecode, "data_filter", lambda func: func)
    monkeypatch.setattr(templatecode, "foldable_content", lambda env: [])


def _args(content: Path) -> list[str]:
    return ["build", "--content", str(content), "--paper", "a4", "--only", "rulebook",
            "--quiet"]


@pytest.fixture(scope="module")
def stale_book(tmp_path_factory) -> Path:
    """A folder of the small content (content/, schemas/) and build/, with the old bug put
    back: `tether build --paper a4 --only rulebook`, then `tether rename force Legionary
    --plural Legionaries`, then the same build again, the stale one (its rulebook still
    says "Cohort"). Made once for the two tests below (read-only: each copies it,
    stale_book_copy): the rename's incremental build is the same in both."""
    base = tmp_path_factory.mktemp("stale-book")
    content = make_small_content(base)
    args = [*_args(content), "--out", str(base / "build")]
    with pytest.MonkeyPatch.context() as patch:
        _put_the_bug_back(patch)
        assert run_cli(*args).exit_code == 0
        assert run_cli("rename", "--content", str(content), "force", "Legionary",
                       "--plural", "Legionaries").exit_code == 0
        assert run_cli(*args).exit_code == 0
    return base


@pytest.fixture
def stale_book_copy(stale_book, tmp_path, monkeypatch) -> tuple[Path, Path]:
    """(content, out): a copy of stale_book of this test's own, the bug still put back."""
    for name in ("content", "schemas", "build"):
        shutil.copytree(stale_book / name, tmp_path / name, symlinks=True)
    _put_the_bug_back(monkeypatch)
    return tmp_path / "content", tmp_path / "build"


def test_verify_names_what_a_stale_cache_printed(stale_book_copy):
    """With the old bug put back (glossary words compiled into cached templates), --verify
    after the rename names the rulebook's files and fails."""
    small_content, out = stale_book_copy   # built and renamed: the args below, --out out
    result = run_cli(*_args(small_content), "--out", str(out), "--verify")
    assert result.exit_code == 1
    assert "DIFFERS rulebook-a4.pdf: differs" in result.output
    assert "DIFFERS print/player-aid-a4.pdf: differs" in result.output


def test_force_reads_nothing_from_the_render_cache(stale_book_copy, tmp_path):
    """With the old bug put back, `--force` still prints the new word (the issue: `tether
    build --only rulebook --force` did not cure a stale rulebook), and writes what a clean
    build writes."""
    small_content, out = stale_book_copy   # built and renamed: the args below, --out out
    assert "Cohort" in (out / "rulebook.html").read_text(encoding="utf-8")  # the bug is back
    args = _args(small_content)
    assert run_cli(*args, "--out", str(out), "--force").exit_code == 0
    html = (out / "rulebook.html").read_text(encoding="utf-8")
    assert "Legionaries" in html and "Cohort" not in html
    clean = tmp_path / "clean"
    assert run_cli(*args, "--out", str(clean)).exit_code == 0
    for name in ("rulebook.html", "rulebook-a4.pdf", "print/player-aid-a4.pdf"):
        assert (out / name).read_bytes() == (clean / name).read_bytes(), name
