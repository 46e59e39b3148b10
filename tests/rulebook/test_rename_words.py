"""`tether rename` respects language: singular and plural placed by context, quotations of
the design document kept, a dry run listing every changed sentence, grammar warnings."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tether_build.cli import main
from tether_build.content.text import render_plain
from tether_build.print.rulebook.rename_text import countable, form, quoted_spans


def rename(content_dir, *args):
    result = CliRunner().invoke(main, ["rename", "--content", str(content_dir), *args])
    assert "Traceback" not in result.output, result.output
    return result


def _snapshot(root):
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_names_take_the_singular_in_a_card_name_and_the_plural_after_a_number(content_copy):
    result = rename(content_copy, "gold", "Crown", "--plural", "Crowns", "--names")
    assert result.exit_code == 0, result.output
    cards = (content_copy / "cards" / "age2_market.yaml").read_text()
    assert "name: Crown Plated Armor\n" in cards and "Crowns Plated" not in cards
    notes = (content_copy / "cards" / "faction.yaml").read_text()
    assert "The +4 {gold} is paid" in notes
    assert render_plain("The +4 {gold} is paid", {"gold": {"singular": "Crown",
                                                            "plural": "Crowns"}},
                        {"gold": {"term": "gold"}}) == "The +4 Crowns is paid"


def test_quotations_of_the_design_document_are_never_rewritten(content_copy):
    result = rename(content_copy, "gold", "Crown", "--plural", "Crowns", "--names")
    assert result.exit_code == 0, result.output
    note = next(line for line in (content_copy / "cards" / "age2_market.yaml").read_text()
                .splitlines() if "Decision: the cost '2 mana" in line)
    # inside the quotes the document's words stay; the note's own words take the token
    assert "'2 mana + 1 gold mana' is read as 2 mana + 1 {gold};" in note
    assert "'2 mana + 2 gold')" in note
    setting = (content_copy / "setting.yaml").read_text()
    assert "Forces -> Cohorts, Aurum -> Gold." in setting     # the document's redefinition
    assert "'Gain +15 gold. Burn.Last Stand'" in \
        (content_copy / "cards" / "age3_power.yaml").read_text()
    assert "quotes the design document; kept as written" in result.output


def test_a_dry_run_lists_every_changed_sentence_and_writes_nothing(content_copy):
    before = _snapshot(content_copy)
    result = rename(content_copy, "gold", "Crown", "--plural", "Crowns", "--names",
                    "--dry-run")
    assert result.exit_code == 0, result.output
    assert _snapshot(content_copy) == before          # not even a lock file
    out = result.output
    assert "- Gain +4 Gold.\n    + Gain +4 Crowns." in out
    assert "- Gold Plated Armor\n    + Crown Plated Armor" in out
    assert "nothing was written" in out
    n = int(out.split(" sentence(s) would change")[0].rsplit("\n", 1)[-1])
    assert n == out.count("\n    + ") and n > 20
    # the real run changes exactly what the dry run listed
    real = rename(content_copy, "gold", "Crown", "--plural", "Crowns", "--names")
    assert f"{n} sentence(s) changed" in real.output


def test_a_counted_name_after_a_number_in_the_singular_is_flagged(content_copy):
    result = rename(content_copy, "gold", "Crown", "--plural", "Crowns", "--dry-run")
    line = next(n for n, text in enumerate((content_copy / "keywords.yaml").read_text(
        encoding="utf-8").splitlines(), 1) if "less than 2 [gold]" in text)
    assert f"warning: keywords.yaml:{line}: 'less than 2 [gold]' prints 'less than 2 Crown'" \
        in result.output
    assert "write [gold:pl] after a number" in result.output


def test_a_mass_noun_with_an_article_is_flagged(content_copy):
    result = rename(content_copy, "force", "Infantry", "--plural", "Infantry", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "rules/09-combat.md:22: '- A [force]' puts an article before 'Infantry'" \
        in result.output
    # numbers before a name with no plural of its own: one summary warning
    assert "put a number before 'Infantry', which has no plural of its own" in result.output


def test_a_name_kept_mass_by_the_designer_is_not_flagged(content_copy):
    result = rename(content_copy, "mana", "Aether", "--dry-run")   # countable: false
    assert result.exit_code == 0, result.output
    assert "warning:" not in result.output


def test_a_plural_of_its_own_makes_a_mass_term_counted(content_copy):
    assert rename(content_copy, "mana", "Crystal", "--plural", "Crystals").exit_code == 0
    text = (content_copy / "terms.yaml").read_text()
    block = text[text.index("  mana:"):text.index("  force:")]
    assert "countable: true" in block and "countable: false" not in block


@pytest.mark.parametrize("text, quoted", [
    ("the cost '2 mana + 1 gold mana' is read as 2 gold", ["'2 mana + 1 gold mana'"]),
    ("Document: 'it's in' read as 'it is in'.", ["'it's in'", "'it is in'"]),
    ("take a Mine's gold at Collection, the players' gold", []),
    ("Burn -> Entropy, Aurum -> Gold.", ["Aurum -> Gold"]),
    ("so the 1st/2nd/3rd gold costs '0/0/0' are read", ["'0/0/0'"]),
])
def test_what_counts_as_a_quotation(text, quoted):
    spans = quoted_spans(text, ["Aurum", "Gold"])
    assert [text[a:b] for a, b in spans] == quoted


@pytest.mark.parametrize("typed, before, after, expected", [
    ("Gold", "name: ", " Plated Armor", "singular"),
    ("gold", "pay 2 ", ", that damage", "plural"),
    ("gold", "pay 1 ", " now", "singular"),
    ("Cohorts", "", "", "plural"),
    ("Archive", "an ", " card", "adjective"),
])
def test_form_follows_the_words_around_the_name(typed, before, after, expected):
    olds = {"Gold": {"singular": "Gold", "plural": "Gold"},
            "gold": {"singular": "Gold", "plural": "Gold"},
            "Cohorts": {"singular": "Cohort", "plural": "Cohorts"},
            "Archive": {"singular": "The Archive", "plural": "The Archive",
                        "adjective": "Archive"}}
    assert form(typed, before, after, olds[typed]) == expected


def test_countable_defaults_to_a_plural_of_its_own():
    assert countable({"singular": "Cohort", "plural": "Cohorts"})
    assert not countable({"singular": "Gold", "plural": "Gold"})
    assert countable({"singular": "HP", "plural": "HP", "countable": True})
