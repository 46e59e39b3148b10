"""Card `examples:` run by `tether check`: a broken example fails the check, located."""

from __future__ import annotations

from tether_cli import run_cli

STARTER = "cards/starter.yaml"
EXPECT = "players: [{gold: 3, mana: 0, discard: 1}]"


def _edit(content_dir, old: str, new: str) -> None:
    path = content_dir / STARTER
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def _example_line(content_dir) -> int:
    lines = (content_dir / STARTER).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if "- players: [{gold: 1, mana: 1}]" in line)


def test_fixture_examples_pass(content_copy):
    result = run_cli("check", "--content", str(content_copy), "--games", "0")
    assert result.exit_code == 0, result.output
    assert "2 card examples run" in result.output


def test_broken_example_fails_check_naming_card_and_line(content_copy):
    _edit(content_copy, EXPECT, "players: [{gold: 4, mana: 0, discard: 1}]")
    result = run_cli("check", "--content", str(content_copy), "--games", "0")
    assert result.exit_code == 1, result.output
    line = _example_line(content_copy)
    want = (f"{STARTER}:{line}: supply_cache: example 1: expected player 0 "
            "{'gold': 4, 'mana': 0, 'discard': 1}, got player 0 {'gold': 3, 'mana': 0, "
            "'discard': 1}")
    assert want in result.output, result.output


def test_bad_example_is_a_located_schema_error(content_copy):
    _edit(content_copy, EXPECT, "players: [{gold: -1}]")
    result = run_cli("check", "--content", str(content_copy), "--games", "0")
    assert result.exit_code == 1, result.output
    assert "starter.yaml:48:28: cards[2].examples[0].expect.players[0].gold: -1 is less" \
        in result.output, result.output
    assert "Traceback" not in result.output


def test_broken_passive_example_names_the_passive_and_line(content_copy):
    path = content_copy / "factions.yaml"
    text = path.read_text()
    old = "units: [{hex: capital, player: 0, cohorts: 3}]"
    assert text.count(old) == 1
    path.write_text(text.replace(old, "units: [{hex: capital, player: 0, cohorts: 2}]"))
    line = next(i for i, s in enumerate(text.splitlines(), 1)
                if "players: [{faction: leadbound, gold: 1, mana: 1}]" in s)
    result = run_cli("check", "--content", str(content_copy), "--games", "0")
    assert result.exit_code == 1, result.output
    assert (f"factions.yaml:{line}: leadbound.Home Guard: example 1: expected player 0 "
            "{'gold': 0, 'mana': 0}; player 0 on capital: cohorts 2, got player 0 "
            "{'gold': 0, 'mana': 0}; player 0 on capital: cohorts 3") in result.output, \
        result.output
