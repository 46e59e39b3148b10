"""`tether validate`: shipped content passes; each kind of bad input gives one clear error."""

from __future__ import annotations

import re
import time

import pytest
from tether_cli import run_cli

LINE = re.compile(r"^(?P<file>[^:\s]+\.(?:yaml|md)):(?P<line>\d+):(?P<col>\d+): (?P<field>\S+): (?P<msg>.+)$")


def test_fixture_content_validates_and_prints_deck_counts():
    from tests.conftest import CONTENT

    result = run_cli("validate", "--content", str(CONTENT))
    assert result.exit_code == 0, result.output
    for deck in ("starter", "faction", "age1_market", "age2_market", "age3_market",
                 "age1_power", "age2_power", "age3_power"):
        assert re.search(rf"^{deck}\s+\d+\s+\d+\s+(\d+|-)", result.output, re.MULTILINE), deck
    assert "ok:" in result.output


def _edit(path, old, new, count=1):
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not found in {path}"
    path.write_text(text.replace(old, new, count))


def _errors(content_dir):
    result = run_cli("validate", "--content", str(content_dir))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [ln.removeprefix("Error: ") for ln in result.output.splitlines()]
    found = [m for m in map(LINE.match, lines) if m]
    assert found, result.output
    return found


STARTER = "cards/starter.yaml"
CASES = {
    # name: (file, old, new, expected message fragment, expected line)
    "yaml_syntax": ("game.yaml", "title: The Last Tether", "title: [The Last Tether",
                    "YAML syntax error", None),
    "tab_indentation": (STARTER, "    name: Supply Cache", "\tname: Supply Cache",
                        "tab", None),
    "duplicate_key": (STARTER, "    name: Supply Cache\n",
                      "    name: Supply Cache\n    name: Supply Cache 2\n",
                      "duplicate key 'name'", None),
    "wrong_type": (STARTER, "initiative: [55, 120]", "initiative: [55, fast]",
                   "is not of type 'integer'", None),
    "missing_required": (STARTER, "    category: economy\n", "", "'category' is required",
                         None),
    "unknown_field": (STARTER, "    category: economy\n",
                      "    category: economy\n    colour: red\n", "unknown field 'colour'", None),
    "duplicate_id": (STARTER, "id: zap", "id: recruit", "duplicate card id 'recruit'", None),
    "unknown_term_token": (STARTER, "Gain +2 {gold}.", "Gain +2 [goldd].",
                           "unknown term token [goldd]", None),
    "literal_glossary_name": (STARTER, "Gain +2 {gold}.", "Gain +2 Gold.",
                              "glossary name 'Gold' typed literally", None),
    "literal_design_name": (STARTER, "into your [capital], or 1 [force]",
                            "into your [capital], or 1 Force", "'Force' typed literally", None),
    "dangling_reference": ("factions.yaml", "spell: hold_the_line", "spell: hold_the_lime",
                           "unknown card 'hold_the_lime'", None),
    "unknown_effect_step": (STARTER, "step: gain_gold", "step: gain_glod",
                            "'gain_glod' is not allowed", None),
    "wrong_step_parameter": (STARTER, "{step: gain_gold, amount: 2}",
                             "{step: gain_gold, amout: 2}", "unknown field 'amout'", None),
    # a kind written as a list once raised TypeError (unhashable) in the schema dispatch
    "step_kind_not_text": (STARTER, "{step: gain_gold, amount: 2}",
                           "{step: [gain_gold], amount: 2}", "is not allowed here", None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_gives_one_line_error_with_place(name, content_copy):
    file, old, new, fragment, _ = CASES[name]
    _edit(content_copy / file, old, new)
    errors = _errors(content_copy)
    hits = [m for m in errors if fragment in m.group("msg")]
    assert hits, [m.group(0) for m in errors]
    hit = hits[0]
    assert hit.group("file").endswith(file)
    # the reported line holds the broken text (or its mapping, for a missing field)
    line = (content_copy / file).read_text().splitlines()[int(hit.group("line")) - 1]
    probe = new.strip().split("\n")[-1][:12] if new.strip() else "- id:"
    assert probe.strip() in line or name in ("missing_required", "yaml_syntax"), (line, probe)


def test_hints_suggest_the_closest_name(content_copy):
    _edit(content_copy / STARTER, "{step: gain_gold, amount: 2}", "{step: gain_gold, amout: 2}")
    _edit(content_copy / STARTER, "step: heal,", "step: heel,")
    out = "\n".join(m.group(0) for m in _errors(content_copy))
    assert "did you mean 'amount'?" in out
    assert "did you mean 'heal'?" in out


def test_all_errors_reported_in_one_run(content_copy):
    _edit(content_copy / STARTER, "Gain +2 {gold}.", "Gain +2 [goldd].")
    _edit(content_copy / "cards/age1_market.yaml", "category: movement", "category: walking")
    files = {m.group("file") for m in _errors(content_copy)}
    assert any(f.endswith("starter.yaml") for f in files)
    assert any(f.endswith("age1_market.yaml") for f in files)


def test_alias_bomb_is_refused_quickly(content_copy):
    bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        bomb.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    (content_copy / "cards" / "bomb.yaml").write_text("\n".join(bomb) + "\n")
    start = time.perf_counter()
    errors = _errors(content_copy)
    # a guard against expansion (9**9 nodes: it would run for hours), not a speed goal: the
    # refusal takes well under a second, the bound is issue 43's "within 60 s" on a machine
    # under any load
    assert time.perf_counter() - start < 60
    assert any("aliases" in m.group("msg") for m in errors)


def test_reference_to_unchosen_target_is_an_error(content_copy):
    _edit(content_copy / STARTER, "{step: heal, amount: 1, champion: {side: any}}",
          "{step: heal, amount: 1, champion: {ref: patient}}")
    assert any("unknown target 'patient'" in m.group("msg") for m in _errors(content_copy))


def test_an_area_nearer_than_its_minimum_is_an_error(content_copy):
    _edit(content_copy / "cards/age3_market.yaml", "within: {distance: 1, min_distance: 1, of: this}",
          "within: {distance: 1, min_distance: 2, of: this}")
    (m,) = [m for m in _errors(content_copy) if "min_distance" in m.group("field")]
    assert m.group("file").endswith("age3_market.yaml") and "above distance 1" in m.group("msg")


def test_schema_files_match_the_effect_language():
    result = run_cli("schemas", "--check")
    assert result.exit_code == 0, result.output


def test_every_content_file_points_at_its_schema(content_copy):
    path = content_copy / "tiles.yaml"
    path.write_text("\n".join(path.read_text().splitlines()[1:]) + "\n")
    assert any("schema" in m.group("msg") for m in _errors(content_copy))


def test_tile_text_takes_numbers_from_the_constants(content_copy):
    from tether_build.content.validate import validate
    path = content_copy / "game.yaml"
    path.write_text(path.read_text().replace("power_pick_reveal: 2", "power_pick_reveal: 4"))
    center = validate(content_copy).tiles["center"]
    assert any("reveal 4 cards" in line for line in center["collection"])


def test_unknown_constant_in_text_is_located(content_copy):
    _edit(content_copy / "tiles.yaml", "{{ market.power_pick_reveal }}",
          "{{ market.power_pick_reveel }}")
    errors = _errors(content_copy)
    assert any(m.group("file").endswith("tiles.yaml") and "unknown constant" in
               m.group("msg") and "did you mean 'market.power_pick_reveal'" in m.group("msg")
               for m in errors)


@pytest.mark.parametrize("expression", [
    "{{ cycler.__init__.__globals__.os.system('touch PWNED') }}",
    "{{ 'x' * 10**10 }}",
    "{% for i in range(10**10) %}x{% endfor %}",
    "{{ market.power_pick_reveal.__class__ }}",
    "{{ market }}",
])
def test_text_constants_are_looked_up_never_evaluated(content_copy, expression, tmp_path,
                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)
    _edit(content_copy / "tiles.yaml", "{{ market.power_pick_reveal }}", expression)
    errors = _errors(content_copy)
    assert any(m.group("file").endswith("tiles.yaml") for m in errors)
    assert not (tmp_path / "PWNED").exists()


def test_alias_bombs_are_refused_in_rules_front_matter_and_designer_notes(content_copy):
    """One YAML loader for every YAML the tool reads (17.4): a 'billion laughs' costs nothing."""
    bomb = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n"
                   for i in range(1, 10))
    (content_copy / "rules" / "01-overview.md").write_text(
        "---\nl0: &l0 [x]\n" + bomb + "title: t\nid: overview\n---\nBody.\n")
    notes = content_copy / "rules" / "designer-notes.yaml"
    notes.write_text("- &n {chapter: reset, note: x}\n- *n\n")
    start = time.perf_counter()
    errors = _errors(content_copy)
    assert time.perf_counter() - start < 30  # a bound against a hang, not a speed goal
    files = {(m.group("file").split("/")[-1], m.group("line")) for m in errors
             if "anchors and aliases" in m.group("msg")}
    assert ("01-overview.md", "2") in files and ("designer-notes.yaml", "1") in files


def test_validate_reads_rules_chapters_and_designer_notes(content_copy):
    notes = content_copy / "rules" / "designer-notes.yaml"
    notes.write_text("- chapter: reset\n  nite: typo\n")
    chapter = content_copy / "rules" / "01-overview.md"
    chapter.write_text(chapter.read_text() + "\nYou get {{ resources.max_mama }} mana.\n")
    msgs = [(m.group("file").split("/")[-1], m.group("msg")) for m in _errors(content_copy)]
    assert any(f == "designer-notes.yaml" and "nite" in msg for f, msg in msgs)
    assert any(f == "01-overview.md" and "max_mama" in msg for f, msg in msgs)


@pytest.mark.parametrize("old, new, expect", [
    ("copies: 2", "copies: 2.0", "integer"),
    ("copies: 2", "copies: !!int abc", "tags"),
    ("copies: 2", "copies: !custom 1", "tags"),
    ("copies: 2", "copies: !!python/name:os.system 1", "tags"),
    ("copies: 2", "copies: " + "9" * 5000, "cannot read this value"),
    ("copies: 2", "copies: " + "[" * 700 + "1" + "]" * 700, "levels deep"),
])
def test_hostile_yaml_values_are_located_errors(content_copy, old, new, expect):
    """Tags, huge integers, deep nesting and 2.0 for a count: located errors (17.6)."""
    _edit(content_copy / "cards" / "starter.yaml", old, new)
    errors = _errors(content_copy)
    assert any(m.group("file").endswith("starter.yaml") and expect in m.group("msg")
               for m in errors), [m.group(0) for m in errors]


def test_merge_keys_are_refused(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    text = path.read_text()
    first = text.index("  - id:")
    path.write_text(text[:first] + "  - <<: {copies: 2}\n  " + text[first + 3:].lstrip(" "))
    errors = _errors(content_copy)
    assert any("merge keys" in m.group("msg") for m in errors), [m.group(0) for m in errors]


@pytest.mark.parametrize("name, change, expect", [
    ("tiles.yaml", lambda t: t.replace("\ntiles:\n", "\ntiles:\n  bogus:\n    x: 1\n", 1),
     "tiles.yaml"),
    ("setting.yaml", lambda t: "", "empty"),
    ("setting.yaml", lambda t: t + "\nbroken: [\n", "YAML syntax error"),
    ("setting.yaml", None, "missing"),
    ("tiles.yaml", lambda t: t.replace("\n  ", "\n\t", 1), "tiles.yaml"),
])
def test_any_problem_in_tiles_or_setting_is_reported_not_a_keyerror(content_copy, name, change,
                                                                     expect):
    """Every single content file takes part in the 'all loaded' gate of the cross-checks."""
    path = content_copy / name
    if change is None:
        path.unlink()
    else:
        path.write_text(change(path.read_text()))
    errors = _errors(content_copy)
    assert any(m.group("file").endswith(name) for m in errors)
    assert any(expect in m.group(0) for m in errors), [m.group(0) for m in errors]


@pytest.mark.parametrize("file, old, new, expect", [
    ("cards/starter.yaml", "{step: gain_gold, amount: 2}",
     "{step: gain_gold, amount: 1000000000}", "cards[2].effect[0].amount"),
    ("game.yaml", "size: 6", "size: 1000000", "maximum"),
    ("game.yaml", "forces: 4", "forces: 1000000000", "maximum"),
    ("game.yaml", "hit: 2", "hit: 7", "die's 6 faces"),
    ("game.yaml", "{min: 2, max: 6}", "{min: 6, max: 2}", "players.min is above players.max"),
    ("cards/starter.yaml", "copies: 2", "copies: 5000", "maximum"),
])
def test_every_number_has_a_range(content_copy, file, old, new, expect):
    """Semantic nonsense that once hung or crashed the engine is a located error (17.13)."""
    _edit(content_copy / file, old, new)
    errors = _errors(content_copy)
    assert any(expect in m.group(0) for m in errors), [m.group(0) for m in errors]


def test_board_generates_at_the_largest_allowed_radius(content):
    """The schema allows a radius up to 8: every player count still gets a legal board."""
    import copy

    from tether_build.engine.board import generate_board
    from tether_build.schemas.kinds import game_schema

    largest = game_schema()["properties"]["board"]["properties"]["radius_by_players"][
        "additionalProperties"]["maximum"]
    game = copy.deepcopy(content.game)
    game["board"]["radius_by_players"] = {p: largest for p in range(2, 7)}
    for players in range(2, 7):
        board = generate_board(players, 1, game)
        assert len(board.slots) == players and board.mines


def test_a_memo_of_valid_files_never_hides_a_problem(content_copy, tmp_path, monkeypatch):
    """validate remembers files found schema-valid (by their bytes, the schemas and the
    checker): an unchanged file is not checked again, an edited one is, and a problem is
    reported every time (only valid verdicts are kept)."""
    from tether_build.content import load as content_mod
    from tether_build.content.validate import validate
    from tether_build.errors import ContentError
    from tether_build.print.cache import Cache

    memo = Cache(tmp_path / "memo")
    checked = []
    real = content_mod._schema_problems
    monkeypatch.setattr(content_mod, "_schema_problems",
                        lambda doc, schema: checked.append(doc.path) or real(doc, schema))
    validate(content_copy, memo)
    first = len(checked)
    assert first >= 10 and len(list((tmp_path / "memo" / "valid").iterdir())) == first
    checked.clear()
    validate(content_copy, memo)
    assert checked == []                       # nothing changed: nothing checked again
    game = content_copy / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("round_cap: 10", "round_cap: 0"),
                    encoding="utf-8")
    for _ in range(2):
        checked.clear()
        with pytest.raises(ContentError) as err:
            validate(content_copy, memo)
        assert [p for p in checked if p.endswith("game.yaml")] and len(checked) == 1
        assert any(p.field.endswith("round_cap") for p in err.value.problems)


def test_a_parse_memo_gives_the_same_document_and_never_hides_a_problem(content_copy, tmp_path):
    """Parsed files are remembered by their bytes (data and every line/column mark); a
    remembered document equals a fresh parse, a file with a problem is parsed and reported
    every time, and an entry that is not what the tool wrote is ignored."""
    from tether_build.content import yamlio
    from tether_build.print.cache import Cache

    memo = Cache(tmp_path / "memo")
    files = sorted(content_copy.rglob("*.yaml"))
    for path in files:
        fresh, problems = yamlio.load(path, path.name)
        assert not problems
        for _ in range(2):    # the first load stores, the second reads the entry
            doc, problems = yamlio.load(path, path.name, memo)
            assert not problems
            assert (doc.path, doc.data, doc.marks, doc.key_marks) == (
                fresh.path, fresh.data, fresh.marks, fresh.key_marks)
    entries = sorted((tmp_path / "memo" / "parsed").iterdir())
    assert len(entries) == len({p.read_bytes() for p in files})
    for entry in entries:
        entry.write_bytes(b"not marshal data")
    doc, problems = yamlio.load(files[0], files[0].name, memo)
    assert not problems and doc.data == yamlio.load(files[0])[0].data
    broken = content_copy / "game.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("round_cap: 10",
                                                                 "round_cap: [10"))
    for _ in range(2):
        doc, problems = yamlio.load(broken, "game.yaml", memo)
        assert doc is None and problems and problems[0].path == "game.yaml"


def test_a_clean_rules_verdict_is_kept_only_until_something_changes(content_copy):
    """`tether validate` keeps a clean verdict of the rules chapters and designer notes in
    the build folder's cache: an edit that breaks a chapter is reported, every run."""
    (content_copy.parent / "build").mkdir()
    assert run_cli("validate", "--content", str(content_copy), "--quiet").exit_code == 0
    assert run_cli("validate", "--content", str(content_copy), "--quiet").exit_code == 0
    assert list((content_copy.parent / "build" / ".cache" / "valid").iterdir())
    chapter = content_copy / "rules" / "01-overview.md"
    good = chapter.read_text()
    chapter.write_text(good + "\nYou get {{ resources.max_mama }} mana.\n")
    for _ in range(2):
        result = run_cli("validate", "--content", str(content_copy), "--quiet")
        assert result.exit_code == 1 and "max_mama" in result.output
    chapter.write_text(good)
    assert run_cli("validate", "--content", str(content_copy), "--quiet").exit_code == 0
