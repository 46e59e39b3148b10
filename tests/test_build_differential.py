"""The incremental build writes what a clean build writes, after any designer edit (issue 40).

A seeded series of designer edits (glossary renames, constants, card text and effect, a card
added or removed, a rules sentence, a template, style sheet or icon, card art) is applied to a
copy of the tool and a cut-down fixture project; after each, `tether build --verify` builds
incrementally, then from nothing in a temporary folder, and compares every output byte for
byte. benchmarks/differential.py runs longer series.
"""

from __future__ import annotations

import random

import pytest
from build_edits import EDITS, Project, apply, sequence
from tether_cli import run_cli


def test_every_edit_kind_builds_like_a_clean_build(tmp_path):
    """One series in which every kind of edit occurs once, a glossary rename first."""
    rng = random.Random(40)
    project = Project.make(tmp_path / "project")
    project.build()
    kinds = ["rename"] + rng.sample(sorted(set(EDITS) - {"rename"}), len(EDITS) - 1)
    for done, proc in apply(project, kinds, rng):
        assert proc.returncode == 0, f"after '{done}':\n{proc.stderr}"
        assert "byte-identical to a clean build" in proc.stderr, done


def test_a_rename_prints_the_new_word_everywhere(tmp_path):
    project = Project.make(tmp_path / "project")
    project.build()
    project.tether("rename", "--content", "content", "force", "Legionary", "--plural",
                   "Legionaries")
    project.build("--verify")
    html = (project.root / "build" / "rulebook.html").read_text(encoding="utf-8")
    assert "Legionaries" in html and "Cohort" not in html


def test_verify_names_what_a_stale_cache_printed(small_content, tmp_path, monkeypatch):
    """With the old bug put back (glossary words compiled into cached templates), --verify
    names the rulebook's files and fails."""
    from tether_build.render import templatecode

    monkeypatch.setattr(templatecode, "data_filter", lambda func: func)
    monkeypatch.setattr(templatecode, "foldable_content", lambda env: [])
    out = tmp_path / "build"
    args = ["build", "--content", str(small_content), "--out", str(out), "--paper", "a4",
            "--only", "rulebook", "--quiet"]
    assert run_cli(*args).exit_code == 0
    assert run_cli("rename", "--content", str(small_content), "force", "Legionary",
                   "--plural", "Legionaries").exit_code == 0
    result = run_cli(*args, "--verify")
    assert result.exit_code == 1
    assert "DIFFERS rulebook-a4.pdf: differs" in result.output
    assert "DIFFERS print/player-aid-a4.pdf: differs" in result.output


def test_verify_reports_the_builds_own_errors(content_copy, tmp_path):
    path = content_copy / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("max_mana: 5", "max_mana: five"),
                    encoding="utf-8")
    result = run_cli("build", "--content", str(content_copy), "--out", str(tmp_path / "b"),
                     "--verify")
    assert result.exit_code == 1
    assert "game.yaml:" in result.output and "max_mana" in result.output
    assert "verifying" not in result.output


@pytest.mark.parametrize("seed", [3])
def test_a_random_series_builds_like_a_clean_build(tmp_path, seed):
    rng = random.Random(seed)
    project = Project.make(tmp_path / "project")
    project.build()
    for done, proc in apply(project, sequence(rng, 3), rng):
        assert proc.returncode == 0, f"after '{done}':\n{proc.stderr}"
