"""`tether rename`: in-place edit of terms.yaml that keeps comments; refusals change nothing."""

from __future__ import annotations

import difflib

import pytest
from click.testing import CliRunner

from tether_build.cli import main
from tether_build.commands import load


def rename(content_dir, *args):
    result = CliRunner().invoke(main, ["rename", "--content", str(content_dir), *args])
    assert "Traceback" not in result.output
    return result


def _changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_rename_edits_only_the_name_lines_and_keeps_comments(content_copy):
    terms = content_copy / "terms.yaml"
    before = terms.read_text()
    result = rename(content_copy, "force", "Legionary", "--plural", "Legionaries")
    assert result.exit_code == 0, result.output
    after = terms.read_text()
    assert _changed_lines(before, after) == [
        '-    singular: "Cohort"', '-    plural: "Cohorts"',
        '+    singular: "Legionary"', '+    plural: "Legionaries"']
    comments = [line for line in before.splitlines() if line.lstrip().startswith("#")]
    assert comments and all(c in after.splitlines() for c in comments)
    assert 'design_names: ["Force", "Forces"]' in after  # the design document's words stay


def test_plural_follows_the_old_rule_and_tied_keywords_follow(content_copy):
    assert rename(content_copy, "bridge", "Span").exit_code == 0
    text = (content_copy / "terms.yaml").read_text()
    assert 'singular: "Span"' in text and 'plural: "Spans"' in text
    assert rename(content_copy, "burn", "Decay").exit_code == 0  # mass noun: plural = singular
    text = (content_copy / "terms.yaml").read_text()
    assert 'singular: "Decay"' in text and 'plural: "Decay"' in text
    assert 'name: "Decay"' in (content_copy / "keywords.yaml").read_text()


@pytest.mark.parametrize("args, message", [
    (("force", "Gold"), "already the singular of term 'gold'"),
    (("force", "axis mundi", "--plural", "Axis Mundis"), "already the singular of term"),
    (("force", "Champions", "--plural", "Champions2"), "already the plural of term 'champion'"),
    (("mana", "Victory Points"), "a design name of term 'vp'"),
    (("manna", "Aether"), "unknown term id 'manna' (did you mean 'mana'?"),
    (("market", "The Vault"), "pass --adjective"),
    (("force", "  "), "empty"),
    (("stack", "Move"), "makes the content invalid"),  # 'Move' is typed in card text
])
def test_refusals_explain_and_change_nothing(content_copy, args, message):
    files = {p: p.read_bytes() for p in content_copy.rglob("*.yaml")}
    result = rename(content_copy, *args)
    assert result.exit_code == 1
    assert message in result.output, result.output
    assert result.output.startswith("Error: ")
    assert {p: p.read_bytes() for p in content_copy.rglob("*.yaml")} == files


def test_rename_checks_rules_chapters_too(content_copy):
    (content_copy / "rules" / "99-extra.md").write_text(
        "---\ntitle: Extra\nid: extra\n---\n\nPlay a Warband of [force:pl].\n")
    result = rename(content_copy, "stack", "Warband")
    assert result.exit_code == 1 and "99-extra.md:6" in result.output
    assert 'singular: "Stack"' in (content_copy / "terms.yaml").read_text()



@pytest.mark.parametrize("name", ["Co\nhort", "Coh\x00ort", "Co\u202ehort", "[force]",
                                  "<b>Cohort</b>", "{gold}", "C" * 41])
def test_names_with_control_characters_tokens_or_markup_are_refused(content_copy, name):
    """Issue 17.12: a name a player reads is plain text."""
    before = (content_copy / "terms.yaml").read_bytes()
    result = rename(content_copy, "force", name, "--plural", "Cohorts2")
    assert result.exit_code != 0
    assert (content_copy / "terms.yaml").read_bytes() == before


def test_rename_validates_before_writing_nothing_half_done_on_a_crash(content_copy,
                                                                     monkeypatch):
    """A crash between validation and writing leaves the files as they were (17.12)."""
    from tether_build.print.rulebook import rename as mod

    before = {p: p.read_bytes() for p in content_copy.rglob("*.yaml")}
    calls = []

    def dies(path, data):
        calls.append(path)
        raise KeyboardInterrupt  # a kill during the first write

    monkeypatch.setattr(mod, "write_atomic", dies)
    with pytest.raises(KeyboardInterrupt):
        mod.rename_term(content_copy, "bridge", "Span", load=load)
    assert calls, "validation ran on a copy, then the write was attempted"
    assert {p: p.read_bytes() for p in content_copy.rglob("*.yaml")} == before


def test_rename_refuses_when_the_file_changed_since_it_was_read(content_copy, monkeypatch):
    from tether_build.print.rulebook import rename as mod

    real = mod._validate_copy

    def meanwhile(content_dir, edits, load):
        real(content_dir, edits, load)
        path = content_dir / "terms.yaml"
        path.write_text(path.read_text() + "\n# another editor saved here\n")

    monkeypatch.setattr(mod, "_validate_copy", meanwhile)
    with pytest.raises(Exception, match="changed while the rename ran"):
        mod.rename_term(content_copy, "bridge", "Span", load=load)
    assert 'singular: "Span"' not in (content_copy / "terms.yaml").read_text()


def test_two_renames_at_once_both_land(content_copy):
    """Concurrent renames are serialised by a lock: neither edit is lost (17.12)."""
    import subprocess
    import sys

    code = ("import sys; from tether_build.commands.printing import rename_term; "
            "rename_term(sys.argv[1], sys.argv[2], sys.argv[3])")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(content_copy), tid, name])
             for tid, name in (("bridge", "Span"), ("champion", "Paragon"))]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    text = (content_copy / "terms.yaml").read_text()
    assert 'singular: "Span"' in text and 'singular: "Paragon"' in text


def test_rename_lists_card_names_and_notes_that_type_the_old_name(content_copy):
    """Issue 18.5: nothing keeps the old name silently."""
    before = (content_copy / "cards" / "age2_market.yaml").read_text()
    result = rename(content_copy, "gold", "Aurum")
    assert result.exit_code == 0, result.output
    assert "card name: Gold Plated Armor" in result.output
    assert "--names renames them" in result.output
    assert (content_copy / "cards" / "age2_market.yaml").read_text() == before


def test_rename_names_renames_card_names_keeping_the_design_name_and_tokenises_notes(
        content_copy):
    result = rename(content_copy, "gold", "Aurum", "--names")
    assert result.exit_code == 0, result.output
    cards = (content_copy / "cards" / "age2_market.yaml").read_text()
    assert "name: Aurum Plated Armor\n    design_name: \"Gold Plated Armor\"" in cards
    notes = (content_copy / "cards" / "age1_market.yaml").read_text()
    assert "Its {gold} cost is flat" in notes
    from tether_build.content.validate import validate
    validate(content_copy)  # still valid content
