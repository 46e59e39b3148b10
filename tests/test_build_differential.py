"""The incremental build writes what a clean build writes, after any designer edit (issue 40).

A seeded series of designer edits (glossary renames, constants, card text and effect, a card
added or removed, a rules sentence, a template, style sheet or icon, card art) is applied to a
copy of the tool and a cut-down fixture project; after each, `tether build --verify` builds
incrementally, then from nothing in a temporary folder, and compares every output byte for
byte. benchmarks/differential.py runs longer random series (`--seed`, `--steps`).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from build_edits import EDITS, Project, apply
from tether_cli import run_cli

from tests.conftest import make_small_content


def test_every_edit_kind_builds_like_a_clean_build(built_project, tmp_path):
    """The issue's rename and a second one, then every other kind of edit once in a seeded
    order; a build checked against a clean one after the renames and the next two edits,
    then after each three more (the suite's time: three builds each checked against a clean
    one). After the first, the issue's new word is in every output. Two edits share a build
    with a rename (which rebuilds nearly every output, so it may hide their own keys), as
    many as when the issue's rename had a build of its own and the second rename came with
    two others. benchmarks/differential.py checks every edit alone, on longer series. It
    starts from a copy of the run's built project (built once, the stock-layout test
    compares with the same build)."""
    rng = random.Random(40)
    project = Project.copy(built_project, tmp_path / "project")
    project.tether("rename", "--content", "content", "force", "Legionary", "--plural",
                   "Legionaries")
    project.state["renamed"] = ["force"]
    others = sorted(set(EDITS) - {"rename"})
    kinds = ["rename", *rng.sample(others, len(others))]
    (done, proc), = apply(project, kinds[:3], rng, per_build=3)
    assert proc.returncode == 0, f"after the issue's rename and '{done}':\n{proc.stderr}"
    assert "byte-identical to a clean build" in proc.stderr, done
    html = (project.root / "build" / "rulebook.html").read_text(encoding="utf-8")
    assert "Legionaries" in html and "Cohort" not in html
    for done, proc in apply(project, kinds[3:], rng, per_build=3):
        assert proc.returncode == 0, f"after '{done}':\n{proc.stderr}"
        assert "byte-identical to a clean build" in proc.stderr, done


def _put_the_bug_back(monkeypatch) -> None:
    """The old bug: glossary words compiled into the cached templates."""
    from tether_build.print import templatecode

    monkeypatch.setattr(templatecode, "data_filter", lambda func: func)
    monkeypatch.setattr(templatecode, "foldable_content", lambda env: [])


@pytest.fixture(scope="module")
def stale_book(tmp_path_factory) -> Path:
    """A folder of the small content (content/, schemas/) and build/, its `tether build
    --paper a4 --only rulebook` with the old bug put back: the first build of the two tests
    below, made once (read-only: each copies it, stale_book_copy)."""
    base = tmp_path_factory.mktemp("stale-book")
    content = make_small_content(base)
    with pytest.MonkeyPatch.context() as patch:
        _put_the_bug_back(patch)
        assert run_cli("build", "--content", str(content), "--out", str(base / "build"),
                       "--paper", "a4", "--only", "rulebook", "--quiet").exit_code == 0
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
    names the rulebook's files and fails."""
    small_content, out = stale_book_copy   # built: the args below
    args = ["build", "--content", str(small_content), "--out", str(out), "--paper", "a4",
            "--only", "rulebook", "--quiet"]
    assert run_cli("rename", "--content", str(small_content), "force", "Legionary",
                   "--plural", "Legionaries").exit_code == 0
    result = run_cli(*args, "--verify")
    assert result.exit_code == 1
    assert "DIFFERS rulebook-a4.pdf: differs" in result.output
    assert "DIFFERS print/player-aid-a4.pdf: differs" in result.output


def test_force_reads_nothing_from_the_render_cache(stale_book_copy, tmp_path):
    """With the old bug put back, `--force` still prints the new word (the issue: `tether
    build --only rulebook --force` did not cure a stale rulebook), and writes what a clean
    build writes."""
    small_content, out = stale_book_copy   # built: the args below, --out out
    args = ["build", "--content", str(small_content), "--paper", "a4", "--only", "rulebook",
            "--quiet"]
    assert run_cli("rename", "--content", str(small_content), "force", "Legionary",
                   "--plural", "Legionaries").exit_code == 0
    assert run_cli(*args, "--out", str(out)).exit_code == 0
    assert "Cohort" in (out / "rulebook.html").read_text(encoding="utf-8")  # the bug is back
    assert run_cli(*args, "--out", str(out), "--force").exit_code == 0
    html = (out / "rulebook.html").read_text(encoding="utf-8")
    assert "Legionaries" in html and "Cohort" not in html
    clean = tmp_path / "clean"
    assert run_cli(*args, "--out", str(clean)).exit_code == 0
    for name in ("rulebook.html", "rulebook-a4.pdf", "print/player-aid-a4.pdf"):
        assert (out / name).read_bytes() == (clean / name).read_bytes(), name


def test_the_card_sheets_follow_settings_outside_the_cards(small_cards_copy):
    """The pile markers' sentence (ages.yaml) and the player counts (game.yaml) are printed
    on card faces: the cards stage reads its view of the content and nothing else
    (build.cards_view), so an edit of either rebuilds the sheets (both were missed before)."""
    small_content, out = small_cards_copy   # built: the args below
    args = ["build", "--content", str(small_content), "--out", str(out), "--paper", "a4",
            "--only", "cards", "--quiet"]
    ages = small_content / "ages.yaml"
    text = ages.read_text(encoding="utf-8")
    assert "Never shuffle it in." in text
    ages.write_text(text.replace("Never shuffle it in.", "Never shuffle this marker in."),
                    encoding="utf-8")
    game = small_content / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("max: 6}", "max: 5}"),
                    encoding="utf-8")
    result = run_cli(*args, "--verify")
    assert result.exit_code == 0, result.output
    assert "byte-identical to a clean build" in result.output


def test_verify_reports_the_builds_own_errors(content_copy, tmp_path):
    path = content_copy / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("max_mana: 5", "max_mana: five"),
                    encoding="utf-8")
    result = run_cli("build", "--content", str(content_copy), "--out", str(tmp_path / "b"),
                     "--verify")
    assert result.exit_code == 1
    assert "game.yaml:" in result.output and "max_mana" in result.output
    assert "verifying" not in result.output


def test_differences_name_each_kind_of_mismatch():
    from tether_build.buildsys.verify import differences

    assert differences({"same": b"1", "gone": None, "edit": b"x", "extra": b""},
                       {"same": b"1", "gone": b"2", "edit": b"yy", "new": b""}) == [
        "edit: differs (1 bytes incremental, 2 bytes clean)",
        "extra: written by the incremental build only",
        "gone: listed by the incremental build's manifest, missing on disk",
        "new: written by the clean build only"]
