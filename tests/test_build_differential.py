"""The incremental build writes what a clean build writes, after any designer edit (issue 40).

A seeded series of designer edits (glossary renames, constants, card text and effect, a card
added or removed, a rules sentence, a template, style sheet or icon, card art) is applied to a
copy of the tool and a cut-down fixture project; after each, `tether build --verify` builds
incrementally, then from nothing in a temporary folder, and compares every output byte for
byte. benchmarks/differential.py runs longer random series (`--seed`, `--steps`).
"""

from __future__ import annotations

import random

from build_edits import EDITS, Project, apply
from tether_cli import run_cli


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
