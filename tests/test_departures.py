"""Departures from the design document (tether_build/content/departures.py): recorded in content,
checked against the document by `tether check --design-document`, listed in the designer
report. Run on the fixture content and on copies of it, never on the designer's content/."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tether_build.cli import main
from tether_build.content.departures import _find, _norm, collect, locate_in_document, summary
from tether_build.content.designdoc import default_document, parse_document
from tether_build.content.report import render_html
from tether_build.content.validate import validate
from tether_build.errors import ContentError

DOC = default_document()
needs_doc = pytest.mark.skipif(DOC is None, reason="design document not beside the repo")

CARD = "cards/age2_market.yaml"
ANCHOR = '  - id: breakthrough_line\n'


def _record(content_dir, kind="rule_change", document="draw 2 at Cleanup", accepted=None,
            printed=None, anchor=ANCHOR, card_file=CARD):
    """Give a card (Breakthrough Line) a departure, written just after its `id:` line."""
    path = content_dir / card_file
    text = path.read_text()
    assert anchor in text
    block = (f"    departures:\n      - kind: {kind}\n        document: {json.dumps(document)}\n"
             "        reason: \"Cards drawn at Cleanup are discarded at once.\"\n")
    if printed is not None:
        block += f"        printed: {json.dumps(printed)}\n"
    if accepted is not None:
        block += f"        accepted: {str(accepted).lower()}\n"
    path.write_text(text.replace(anchor, anchor + block, 1))


def _check(content_dir, *extra):
    return CliRunner().invoke(main, ["check", "--content", str(content_dir),
                                     "--design-document", str(DOC), *extra])


def test_the_fixture_clarification_is_collected_and_not_open(content):
    deps = collect(content)
    skirmish = [d for d in deps if d.owner_id == "set_to_skirmish"]
    assert len(skirmish) == 1
    dep = skirmish[0]
    assert (dep.kind, dep.open, dep.status) == ("clarification", False, "clarification")
    assert dep.printed_part.startswith("if a ") and "would start there" in dep.printed_part
    assert dep.reading and dep.reading != dep.printed  # the engine's reading, generated
    assert dep.file.endswith(CARD) and dep.line > 1


def test_an_unaccepted_rule_change_is_an_open_question_with_both_wordings(content_copy):
    _record(content_copy)
    content = validate(content_copy)
    dep = next(d for d in collect(content) if d.owner_id == "breakthrough_line")
    assert dep.open and dep.status == "open designer question" and dep.label == "rule change"
    html = render_html(content).decode()
    section = html.split('id="departures"')[1].split("<h2")[0]
    assert "Breakthrough Line" in section and "open designer question" in section
    assert "draw 2 at Cleanup" in section  # the document's wording
    assert "draw 2 cards at Cleanup" in section  # the printed text beside it
    assert "Cards drawn at Cleanup are discarded at once." in section
    assert '<div class="dep open">' in section
    assert "1 open)" in html  # counted in the report's header


def test_an_accepted_rule_change_is_no_longer_open(content_copy):
    _record(content_copy, accepted=True)
    content = validate(content_copy)
    dep = next(d for d in collect(content) if d.owner_id == "breakthrough_line")
    assert not dep.open and dep.status == "accepted by the designer"
    html = render_html(content).decode()
    assert '<div class="dep open">' not in html
    assert "(0 open)" in html
    assert summary(collect(content)) == ("2 departures from the design document recorded: "
                                         "1 clarification, 1 rule change (0 open)")


def test_open_readings_and_rule_changes_are_counted_open_in_the_summary(content_copy):
    _record(content_copy, kind="open_reading")
    deps = collect(validate(content_copy))
    assert "1 reading of open wording (1 open)" in summary(deps)


@needs_doc
def test_check_lists_departures_beside_the_engine_reading(content_copy):
    _record(content_copy)
    result = _check(content_copy)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "DEPARTURE rule change (open designer question): Breakthrough Line" in out
    assert "document: draw 2 at Cleanup  (document line" in out
    assert "printed:  Move 1" in out and "engine:   " in out
    assert "DEPARTURE clarification: Set to Skirmish" in out
    assert "2 departures from the design document recorded" in out


@needs_doc
def test_a_document_wording_not_in_the_document_is_reported_located(content_copy):
    _record(content_copy, document="draw 3 at Dawn")
    result = _check(content_copy)
    assert result.exit_code == 1
    line = next(ln for ln in result.output.splitlines() if ln.startswith("DIFFERS "))
    assert f"{CARD}:" in line and ".departures[0].document: wording not found" in line
    assert "'draw 3 at Dawn'" in line
    assert "1 departure wording not in the document" in result.output


@needs_doc
def test_check_json_lists_each_departure(content_copy):
    _record(content_copy)
    result = _check(content_copy, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    byid = {d["id"]: d for d in data["departures"]}
    assert byid["breakthrough_line"]["open"] and byid["breakthrough_line"]["document_line"]
    assert byid["breakthrough_line"]["in_card_entry"] is True
    assert data["differs"] == []


def test_printed_words_not_in_the_text_are_a_located_error(content_copy):
    _record(content_copy, printed="draw 2 at the next Reset")
    with pytest.raises(ContentError) as err:
        validate(content_copy)
    msgs = [str(p) for p in err.value.problems]
    assert any(CARD in m and "departures[0].printed" in m and "not in the card's text" in m
               for m in msgs), msgs


def test_an_unknown_kind_is_a_schema_error(content_copy):
    _record(content_copy, kind="rule_tweak")
    with pytest.raises(ContentError) as err:
        validate(content_copy)
    assert any("departures[0].kind" in str(p) for p in err.value.problems)


def test_a_passive_and_a_keyword_may_carry_departures(content_copy):
    path = content_copy / "keywords.yaml"
    text = path.read_text()
    anchor = "  burn:\n"
    assert anchor in text
    path.write_text(text.replace(anchor, anchor + (
        "    departures:\n      - kind: open_reading\n        document: \"Burn\"\n"
        "        reason: \"r\"\n"), 1))
    deps = collect(validate(content_copy))
    kw = [d for d in deps if d.owner == "keyword"]
    assert kw and kw[0].owner_id == "burn" and kw[0].open and kw[0].reading is None


def test_wording_is_found_in_the_cards_own_entry_first():
    doc = ("22) Cards\nAlpha\nCost: 1 mana — Init: 1 / 2 — Type: Order\nDraw 2 at Cleanup.\n"
           "Beta\nCost: 1 mana — Init: 1 / 2 — Type: Order\nDraw 2 at Cleanup, then\n"
           "discard 1.\n")
    entries = [{"name": "Alpha", "line": 2}, {"name": "Beta", "line": 5}]

    class Dep:
        design_name = "Beta"
        document = "draw 2 at cleanup, then discard 1"

    (loc,) = locate_in_document([Dep()], doc, entries)
    assert (loc.line, loc.in_entry) == (7, True)  # across a line break, in Beta's entry
    assert _find([_norm(x) for x in doc.splitlines()], "nowhere", 0, 9) is None
    assert _norm("Alpha’s 1–3  hits") == "alpha's 1-3 hits"


@needs_doc
def test_every_fixture_departure_wording_is_in_the_document(content):
    located = locate_in_document(collect(content), DOC.read_text(encoding="utf-8"),
                                 parse_document(DOC))
    assert located and all(loc.line for loc in located)


def test_numbers_read_digits_and_words_but_not_pronouns():
    from tether_build.content.departures import numbers
    assert numbers("Build 1 Bridge; draw two, (1/round)") == {"1", "2"}
    assert numbers("Move one of your Champions to a Cohort if there is one") == set()
    assert numbers("50% chance; Gives +2 VP") == set()


@needs_doc
def test_a_changed_number_with_no_departure_is_listed_until_one_is_recorded(content_copy):
    result = _check(content_copy)
    assert result.exit_code == 0, result.output  # a hint, not a failure
    flagged = [ln for ln in result.output.splitlines() if ln.startswith("UNRECORDED? ")]
    assert any("scout_report: no departure recorded" in ln and "discard 2" in ln
               for ln in flagged), flagged
    _record(content_copy, kind="clarification", document="Put 1 into hand, discard 2.",
            anchor="  - id: scout_report\n", card_file="cards/starter.yaml")
    result = _check(content_copy)
    assert result.exit_code == 0, result.output
    assert "scout_report: no departure recorded" not in result.output
    assert "DEPARTURE clarification: Scout Report" in result.output


def test_explain_shows_a_cards_departures(content_copy):
    _record(content_copy)
    result = CliRunner().invoke(main, ["explain", "breakthrough_line", "--content",
                                       str(content_copy)])
    assert result.exit_code == 0, result.output
    assert ("departs, rule change (open designer question): the document says "
            "'draw 2 at Cleanup'") in result.output


@needs_doc
def test_a_champion_ability_may_carry_a_departure(content_copy):
    path = content_copy / "cards" / "age1_market.yaml"
    anchor = "        - name: Stitchwork\n"
    text = path.read_text()
    assert anchor in text
    path.write_text(text.replace(anchor, anchor + (
        "          departures:\n            - kind: open_reading\n"
        "              document: \"Stitchwork (1/round): Heal a friendly Champion in this hex 2.\"\n"
        "              printed: \"Heal a friendly [champion] in this [hex]\"\n"
        "              reason: \"No timing given.\"\n"), 1))
    (dep,) = [d for d in collect(validate(content_copy)) if d.owner == "ability"]
    assert dep.owner_id == "field_surgeon.Stitchwork" and dep.open
    assert dep.reading.startswith("Stitchwork: ")  # the ability's own reading
    result = _check(content_copy)
    assert result.exit_code == 0, result.output
    assert "DEPARTURE reading of open wording (open designer question): Field Surgeon: " \
           "Stitchwork" in result.output
    assert "field_surgeon: no departure recorded" not in result.output
