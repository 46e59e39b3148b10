"""Issue 41.6-7: consistency rules across files, every error in one run, clearer hints."""

from __future__ import annotations

import re

from tether_cli import run_cli

LINE = re.compile(r"^(?P<file>[^:\s]+\.yaml):(?P<line>\d+):(?P<col>\d+): (?P<field>\S+): "
                  r"(?P<msg>.+)$")


def _edit(path, old, new):
    text = path.read_text()
    assert text.count(old) == 1, f"fixture text {old!r} not found once in {path}"
    path.write_text(text.replace(old, new))


def _line_of(path, needle: str) -> int:
    return next(n for n, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


def _errors(content_dir) -> list[re.Match]:
    result = run_cli("validate", "--content", str(content_dir))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [ln.removeprefix("Error: ") for ln in result.output.splitlines()]
    return [m for m in map(LINE.match, lines) if m]


# ---- ages against the round cap ----------------------------------------------------------
def test_a_round_cap_beyond_the_last_age_is_a_located_error(content_copy):
    _edit(content_copy / "game.yaml", "round_cap: 10", "round_cap: 12")
    found = _errors(content_copy)
    assert len(found) == 1
    m = found[0]
    assert m["file"].endswith("ages.yaml") and m["field"] == "ages.age3.rounds"
    assert int(m["line"]) == _line_of(content_copy / "ages.yaml", "rounds: [8, 9, 10]")
    assert "Rounds 8-10" in m["msg"] and "at most 12 Rounds" in m["msg"]
    assert f"game.yaml:{_line_of(content_copy / 'game.yaml', 'round_cap: 12')}" in m["msg"]


def test_a_round_cap_before_the_last_age_ends_is_a_warning(content_copy):
    _edit(content_copy / "game.yaml", "round_cap: 10", "round_cap: 6")
    result = run_cli("validate", "--content", str(content_copy))
    assert result.exit_code == 0, result.output
    line = _line_of(content_copy / "game.yaml", "round_cap: 6")
    warning = next(ln for ln in result.output.splitlines() if "victory.round_cap" in ln)
    assert warning.startswith(f"warning: content/game.yaml:{line}:")
    assert "ends after Round 6" in warning and "II 7; III 8-10" in warning


def test_the_round_cap_matching_the_last_age_validates(content_copy):
    _edit(content_copy / "game.yaml", "round_cap: 10", "round_cap: 11")
    _edit(content_copy / "ages.yaml", "rounds: [8, 9, 10]", "rounds: [8, 9, 10, 11]")
    result = run_cli("validate", "--content", str(content_copy))
    assert result.exit_code == 0, result.output


def test_a_gap_between_ages_and_a_preview_outside_its_age(content_copy):
    _edit(content_copy / "ages.yaml", "rounds: [4, 5, 6, 7]", "rounds: [5, 6, 7]")
    found = {m["field"]: m["msg"] for m in _errors(content_copy)}
    assert "gap" in found["ages.age2.rounds"] and "Round 4" in found["ages.age2.rounds"]
    assert "not one of Age II's Rounds (5-7)" in found["ages.age2.preview[4]"]


# ---- keywords --------------------------------------------------------------------------------
def test_a_printed_limit_needs_its_keyword(content_copy):
    path = content_copy / "keywords.yaml"
    text = path.read_text()
    start, end = text.index("  once_per_round:"), text.index("  on_deploy:")
    path.write_text(text[:start] + text[end:])
    found = _errors(content_copy)
    assert found and all(m["field"].endswith(".limit") for m in found)
    assert all("'once_per_round' prints as a keyword" in m["msg"] for m in found)
    assert any(m["file"].endswith("factions.yaml") for m in found)  # Tailwind's passive
    assert any("/cards/" in m["file"] for m in found)


def test_a_burn_card_needs_the_burn_keyword(content_copy):
    _edit(content_copy / "keywords.yaml", "    term: burn\n", "")
    found = _errors(content_copy)
    assert found and all(m["field"].endswith(".burn") for m in found)
    assert "no keyword of keywords.yaml has term: burn" in found[0]["msg"]


# ---- card examples -----------------------------------------------------------------------
def test_a_card_id_typo_in_an_example_gets_a_did_you_mean(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    _edit(path, "      - players: [{gold: 1, mana: 1}]\n",
          "      - players: [{gold: 1, mana: 1, hand: [field_medik]}]\n")
    found = _errors(content_copy)
    assert len(found) == 1
    m = found[0]
    assert m["field"].endswith(".examples[0].players[0].hand[0]")
    assert int(m["line"]) == _line_of(path, "field_medik")
    assert "unknown card 'field_medik'" in m["msg"] and "did you mean 'field_medic'?" in m["msg"]


def test_the_example_runner_names_the_closest_card_too():
    from types import SimpleNamespace

    import pytest

    from tether_build.check.example_agent import ExampleError
    from tether_build.check.examples import known

    game = SimpleNamespace(rules=SimpleNamespace(by_id={"field_medic": 1, "supply_cache": 2}))
    with pytest.raises(ExampleError, match="did you mean 'field_medic'"):
        known(game, "field_medik")


# ---- initiative ----------------------------------------------------------------------------
def test_a_card_with_one_initiative_number_is_told_to_give_both(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    _edit(path, "initiative: [55, 120]", "initiative: [55]")
    found = _errors(content_copy)
    assert len(found) == 1 and found[0]["field"].endswith(".initiative")
    assert "initiative needs both numbers" in found[0]["msg"] and "1 given" in found[0]["msg"]


# ---- warnings ------------------------------------------------------------------------------
def test_deck_counts_and_unused_terms_are_located_warnings(content_copy):
    _edit(content_copy / "terms.yaml", "terms:\n", "terms:\n  relic_dust:\n"
          "    singular: \"Relic Dust\"\n    plural: \"Relic Dust\"\n")
    result = run_cli("validate", "--content", str(content_copy))
    assert result.exit_code == 0, result.output
    warnings = [ln.removeprefix("warning: ") for ln in result.output.splitlines()
                if ln.startswith("warning: ")]
    decks = [w for w in warnings if "stated_count" in w]
    assert any(re.match(r"content/ages\.yaml:\d+:\d+: decks\.age2_market\.stated_count: "
                        r"deck age2_market has 50 cards .*states 47", w) for w in decks)
    unused = [w for w in warnings if "relic_dust" in w]
    assert len(unused) == 1 and "used nowhere" in unused[0]
    line = _line_of(content_copy / "terms.yaml", "relic_dust:")
    assert unused[0].startswith(f"content/terms.yaml:{line}:")
    assert re.search(r"ok: .*, \d+ warnings$", result.output.strip())


def test_a_term_used_only_in_a_rules_chapter_counts_as_used(content_copy):
    from tether_build.content.consistency import warnings
    from tether_build.content.validate import validate

    _edit(content_copy / "terms.yaml", "terms:\n", "terms:\n  relic_dust:\n"
          "    singular: \"Relic Dust\"\n    plural: \"Relic Dust\"\n")
    chapter = min((content_copy / "rules").glob("*.md"))
    chapter.write_text(chapter.read_text() + "\nSweep the [relic_dust] away.\n")
    assert not [w for w in warnings(validate(content_copy)) if "relic_dust" in str(w)]


# ---- every error in one run ----------------------------------------------------------------
def test_schema_reference_and_text_errors_in_one_run(content_copy):
    age3 = content_copy / "cards" / "age3_market.yaml"
    _edit(age3, "      - {step: move, stacks: 2, distance: 3}\n\n  - id: ghost_step",
          "      - {step: mvoe, stacks: 2, distance: 3}\n\n  - id: ghost_step")
    # two text errors in the card the schema rejects, one in another file
    _edit(age3, '"Move 2 [stack:pl] up to 3 [hex:pl] each along [bridge:pl]."',
          '"Move 2 Stacks up to 3 [hexx:pl] each along [bridge:pl]."')
    _edit(content_copy / "game.yaml", "  die_sides: 6", "  die_sides: six")
    keywords = content_copy / "keywords.yaml"
    _edit(keywords, 'reminder: "After this card resolves',
          'reminder: "[forcez] After this card resolves')
    found = [(m["field"], m["msg"]) for m in _errors(content_copy)]
    messages = " | ".join(msg for _f, msg in found)
    assert "'mvoe' is not allowed here" in messages
    assert "glossary name 'Stacks' typed literally" in messages
    assert "unknown term token [hexx]" in messages
    assert "'six' is not of type 'integer'" in messages
    assert "unknown term token [forcez]" in messages


def test_a_reference_error_in_a_card_the_schema_rejects_is_reported(content_copy):
    age3 = content_copy / "cards" / "age3_market.yaml"
    _edit(age3, "      - {step: move, stacks: 1, distance: 1, as: pushed}",
          "      - {step: move, stacks: 1, distance: 1, as: pushed, mvoe: 1}")
    _edit(age3, "{target_in: {target: pushed, hex:", "{target_in: {target: pushd, hex:")
    found = {m["field"]: m["msg"] for m in _errors(content_copy)}
    assert any(f.endswith("effect[0].mvoe") for f in found), found
    ref = [msg for f, msg in found.items() if f.endswith("target_in.target")]
    assert ref == ["reference to unknown target 'pushd' (did you mean 'pushed'?)"]


def test_a_rejected_cards_faction_and_keyword_references_are_checked_too(content_copy):
    path = content_copy / "cards" / "faction.yaml"
    _edit(path, "          keyword: bodyguard\n", "          keyword: bodygard\n")
    _edit(path, "      hp: 6\n", "      hp: six\n")  # the same card: rejected by the schema
    found = {m["field"]: m["msg"] for m in _errors(content_copy)}
    assert any(f.endswith("champion.hp") for f in found), found
    kw = [msg for f, msg in found.items() if f.endswith("abilities[0].keyword")]
    assert kw == ["unknown keyword 'bodygard' (did you mean 'bodyguard'?)"]


# ---- YAML indentation hints ----------------------------------------------------------------
def test_over_indentation_gets_an_indentation_hint_not_a_quoting_one():
    from tether_build.content.yamlio import parse

    _, problems = parse("cards:\n  - id: x\n    name: X\n      category: movement\n", "f.yaml")
    assert problems[0].line == 4
    assert "indented 6 spaces, more than line 3 (4)" in problems[0].hint
    assert "quote" not in problems[0].hint
    _, problems = parse("cards:\n  - id: x\n    effect:\n      - {step: move}\n"
                        "        - {step: draw}\n", "f.yaml")
    assert "list item on line 5 is indented 8 spaces" in problems[0].hint
    _, problems = parse("cards:\n  - id: x\n    name: X\n   category: movement\n", "f.yaml")
    assert "a column no line above uses (0, 2, 4)" in problems[0].hint


def test_a_colon_in_unquoted_text_still_gets_the_quoting_hint():
    from tether_build.content.yamlio import parse

    _, problems = parse("cards:\n  - id: x\n    text: Gain: 2 gold\n", "f.yaml")
    assert problems[0].hint == "quote text that contains ': '"
