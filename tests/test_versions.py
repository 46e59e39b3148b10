"""Versions (issue 16): diff between git revisions, errata and reprints, changelog, stamps.

Each test builds a small git repository in a temp folder from the fixture content: v1, then
a commit v2 with a cost change, a text change, a renamed card id, an added and a removed card.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from tests.conftest import CONTENT
from tether_build.cli import main

GIT = ["git", "-c", "user.email=designer@example.org", "-c", "user.name=Designer"]


def _git(repo, *args):
    subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)


def _replace(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "game"
    shutil.copytree(CONTENT, root / "content")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "first print")
    _git(root, "tag", "v1")
    cards = root / "content" / "cards"
    age2 = cards / "age2_market.yaml"
    text = age2.read_text()
    war_taxes = text[text.index("  - id: war_taxes"):]
    war_taxes = war_taxes[:war_taxes.index("\n  - id:", 5) + 1]
    _replace(age2, war_taxes, war_taxes.replace("cost: {mana: 1}", "cost: {mana: 2}") +
             war_taxes.replace("id: war_taxes", "id: war_levy")
                      .replace("name: War Taxes", "name: War Levy"))
    _replace(cards / "starter.yaml", 'text: "Gain +2 {gold}."', 'text: "Gain +2 {gold} now."')
    _replace(cards / "starter.yaml", "id: quick_move", "id: quick_step")
    age1 = cards / "age1_market.yaml"
    text = age1.read_text()
    start = text.index("  - id: trade_caravan")
    end = text.index("\n  - id:", start + 5) + 1
    age1.write_text(text[:start] + text[end:])
    _git(root, "commit", "-qam", "second print")
    _git(root, "tag", "v2")
    return root


def _run(*args):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_diff_names_every_kind_of_change(repo, tmp_path):
    r = _run("diff", "v1", "--to", "v2", "--content", str(repo / "content"), "--json",
             "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["cards"]["added"] == ["war_levy"]
    assert d["cards"]["removed"] == ["trade_caravan"]
    assert d["cards"]["renamed"] == [{"from": "quick_move", "to": "quick_step"}]
    changed = {c["id"]: c for c in d["cards"]["changed"]}
    assert changed["war_taxes"]["fields"]["mana"] == {"old": 1, "new": 2}
    assert changed["supply_cache"]["text"] == "Gain +2 [-Gold.-] {+Gold now.+}"
    assert set(changed) == {"war_taxes", "supply_cache"}
    page = (tmp_path / "out" / "changes.html").read_text()
    assert page.count("class='faces'") == 4 and "<ins>Gold now.</ins>" in page
    # a new card shows its new face, a removed card its old one (issue 41.5)
    levy = page[page.index("id='war_levy'"):]
    levy = levy[:levy.index("<h2", 5)]
    assert "class='faces'" in levy and "<figcaption>v2</figcaption>" in levy
    assert "<figcaption>v1</figcaption>" not in levy


def test_default_revision_is_the_last_tag_and_the_work_tree_is_dirty(repo, tmp_path):
    _replace(repo / "content" / "cards" / "starter.yaml", "Gain +2 {gold} now.",
             "Gain +2 {gold} at once.")
    r = _run("diff", "--content", str(repo / "content"), "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    assert r.output.startswith("changes from v2 to v2+dirty:")
    assert "changed supply_cache" in r.output and "war_taxes" not in r.output


def test_reprint_only_what_changed_with_an_errata_sheet(repo, tmp_path):
    out = tmp_path / "reprint"
    r = _run("print-cards", "--content", str(repo / "content"), "--changed-since", "v1",
             "--paper", "a4", "--png", "none", "--no-tts", "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output)
    assert summary["cards"] == 4  # supply_cache, war_taxes, war_levy, quick_step
    from pypdf import PdfReader

    errata = PdfReader(out / "print" / "errata.pdf")
    text = " ".join(page.extract_text() for page in errata.pages)
    assert "Supply Cache" in text and "War Taxes" in text and "mana 1" in text
    assert "Trade Caravan" in text and "War Levy" in text


def test_changelog_from_tag_to_tag(repo, tmp_path):
    out = tmp_path / "CHANGELOG.md"
    r = _run("changelog", "--content", str(repo / "content"), "--out", str(out))
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.startswith("# Changelog") and "## v2" in text
    assert "**War Levy**" in text and "**Trade Caravan**" in text
    assert "**War Taxes**: mana 1 → 2" in text and "`quick_move` is now `quick_step`" in text


def test_face_stamp_shows_the_tag_and_dirty_only_on_the_edited_card(repo):
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate
    from tether_build.content.versions.stamp import stamps

    content = repo / "content"
    cards = normalized_cards(validate(content))
    clean = stamps(content, "0.1.0", cards)
    assert re.fullmatch(r"v0\.1\.0 v2 #[0-9a-f]{6}", clean["war_taxes"])
    _replace(content / "cards" / "age2_market.yaml", 'text: "Gain +4 {gold}."',
             'text: "Gain +4 {gold} now."')
    cards = normalized_cards(validate(content))
    dirty = stamps(content, "0.1.0", cards)
    assert "v2+dirty" in dirty["war_taxes"] and dirty["war_taxes"] != clean["war_taxes"]
    assert dirty["supply_cache"] == clean["supply_cache"]  # untouched: still the tag


@pytest.mark.parametrize("case", ["unknown_rev", "no_git", "invalid_at_rev"])
def test_bad_revisions_are_one_line_errors(repo, tmp_path, case):
    content = repo / "content"
    rev = "v9"
    if case == "no_git":
        content = tmp_path / "plain" / "content"
        shutil.copytree(CONTENT, content)
        rev = "v1"
    elif case == "invalid_at_rev":
        _replace(repo / "content" / "game.yaml", "round_cap: 10", "round_cap: [")
        _git(repo, "commit", "-qam", "broken")
        _git(repo, "tag", "broken")
        _git(repo, "revert", "--no-edit", "HEAD")
        rev = "broken"
    out = tmp_path / "out"
    r = _run("diff", rev, "--content", str(content), "--out", str(out))
    assert r.exit_code == 1, r.output
    assert r.output.startswith("Error:")
    expect = {"unknown_rev": "unknown revision 'v9'", "no_git": "not in a git repository",
              "invalid_at_rev": "the content at broken no longer validates"}[case]
    assert expect in r.output
    if case == "invalid_at_rev":
        assert "broken: content/game.yaml:" in r.output
    assert not out.exists()


def test_the_preview_has_a_changes_page(repo):
    from tether_build.serve.app import Site, default_pages

    _replace(repo / "content" / "cards" / "starter.yaml", "Gain +2 {gold} now.",
             "Gain +2 {gold} at once.")
    status, body = Site(repo / "content", default_pages()).render("/changes")
    assert status == 200 and "Changes from v2 to v2+dirty" in body
    assert "class='faces'" in body and "<base href='/templates/'>" in body


def test_json_outputs_and_tile_sheets_carry_the_content_version(repo, tmp_path):
    out = tmp_path / "build"
    r = _run("build", "--content", str(repo / "content"), "--out", str(out), "--only",
             "engine", "--only", "validate", "--quiet")
    assert r.exit_code == 0, r.output
    for name in ("cards.json", "game.json", "factions.json", "tiles.json"):
        assert json.loads((out / "engine" / name).read_text())["content_version"] == \
            "0.1.0 (v2)"
    first = json.loads((out / "cards.jsonl").read_text().splitlines()[0])
    assert first["content_version"] == "0.1.0 (v2)"

    from io import BytesIO

    from pypdf import PdfReader

    from tether_build.content.validate import validate
    from tether_build.print.tiles.tiles import render_tiles

    pdf = PdfReader(BytesIO(render_tiles(validate(repo / "content"), "a4")))
    assert "0.1.0 (v2)" in pdf.pages[0].extract_text()


def test_a_failed_reprint_leaves_no_errata_sheet(repo, tmp_path, monkeypatch):
    from tether_build.errors import TetherError
    from tether_build.print.cards import build as render_build

    def fails(*_args, **_kwargs):
        raise TetherError("the printer caught fire")

    monkeypatch.setattr(render_build, "build_print", fails)
    out = tmp_path / "reprint"
    r = _run("print-cards", "--content", str(repo / "content"), "--changed-since", "v1",
             "--paper", "a4", "--png", "none", "--no-tts", "--out", str(out))
    assert r.exit_code == 1 and "printer caught fire" in r.output
    assert not (out / "print" / "errata.pdf").exists()


def _new_card(repo):
    """Add a card (a copy of Supply Cache under a new id and name) to the work tree."""
    path = repo / "content" / "cards" / "starter.yaml"
    text = path.read_text()
    start = text.index("  - id: supply_cache")
    card = text[start:text.index("\n  - id:", start + 5) + 1]
    path.write_text(text + "\n" + card.replace("id: supply_cache", "id: supply_drop")
                    .replace("name: Supply Cache", "name: Supply Drop"))


def test_errata_show_a_new_card_a_rules_number_and_a_rules_chapter(repo, tmp_path):
    """Issue 41.5: the errata of an edit that adds a card and changes a constant show both,
    and a rules chapter's change as a line with its changed words."""
    content = repo / "content"
    _new_card(repo)
    _replace(content / "game.yaml", "round_cap: 10", "round_cap: 12")
    _replace(content / "ages.yaml", "rounds: [8, 9, 10]", "rounds: [8, 9, 10, 11, 12]")
    _replace(content / "rules" / "04-round.md", "draw up to a full [hand]",
             "draw up to a full [hand] of cards")
    out = tmp_path / "reprint"
    r = _run("print-cards", "--content", str(content), "--changed-since", "v2",
             "--paper", "a4", "--png", "none", "--no-tts", "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["cards"] == 1  # the new card: no other face changed
    from pypdf import PdfReader

    text = " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(out / "print" / "errata.pdf").pages)
    assert "Supply Drop" in text and "new card" in text
    assert "Round cap (victory.round_cap)" in text and "rules number" in text
    assert re.search(r"rules number 10 12", text), text
    assert "Rules: Round Structure" in text and "of cards" in text


def test_a_glossary_rename_is_one_line_after_the_real_edits(repo, tmp_path):
    """Issue 41.5: a rename's echoes on every card are grouped in one line; the one real
    edit comes first, with its faces; the echoed cards show none."""
    content = repo / "content"
    _replace(content / "terms.yaml", 'singular: "Gold"\n    plural: "Gold"',
             'singular: "Crown"\n    plural: "Crowns"')
    _replace(content / "cards" / "age2_market.yaml", "initiative: [60, 135]",
             "initiative: [61, 135]")
    out = tmp_path / "out"
    r = _run("diff", "--content", str(content), "--json", "--out", str(out))
    assert r.exit_code == 0, r.output
    changed = json.loads(r.output)["cards"]["changed"]
    real = [c["id"] for c in changed if not c["glossary_echo"]]
    echoes = [c["id"] for c in changed if c["glossary_echo"]]
    assert real == ["war_taxes"] and changed[0]["id"] == "war_taxes"
    assert len(echoes) > 10 and "supply_cache" in echoes
    page = (out / "changes.html").read_text()
    assert page.count("class='faces'") == 1
    assert page.index("id='war_taxes'") < page.index("Glossary: Gold → Crown")
    assert f"{len(echoes)} cards print the new name and change in nothing else" in page
    r = _run("diff", "--content", str(content), "--out", str(out))
    lines = r.output.splitlines()
    echo = [ln for ln in lines if "glossary echo:" in ln]
    assert len(echo) == 1 and "supply_cache" in echo[0]
    assert "(Gold -> Crown, plural Gold -> Crowns)" in echo[0]
    assert not any(ln.startswith("  changed supply_cache") for ln in lines)
    assert lines.index(echo[0]) > next(i for i, ln in enumerate(lines) if "war_taxes" in ln)


def test_a_real_edit_beside_a_rename_is_not_an_echo(repo, tmp_path):
    content = repo / "content"
    _replace(content / "terms.yaml", 'singular: "Gold"\n    plural: "Gold"',
             'singular: "Crown"\n    plural: "Crown"')
    _replace(content / "cards" / "starter.yaml", "Gain +2 {gold} now.", "Gain +2 {gold} later.")
    r = _run("diff", "--content", str(content), "--json", "--out", str(tmp_path / "out"))
    changed = {c["id"]: c for c in json.loads(r.output)["cards"]["changed"]}
    assert changed["supply_cache"]["glossary_echo"] is False
    assert changed["supply_cache"]["text"] == "Gain +2 [-Gold now.-] {+Crown later.+}"
