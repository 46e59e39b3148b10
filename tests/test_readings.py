"""The engine's reading of every card is English in the glossary's current words.

Rendered on the fixture content and on a copy whose glossary was renamed (a countable
term to a new singular/plural, a mass noun to a countable one): no braces, brackets, quoted
keys, snake_case ids or old names, and the singular after 1, the plural otherwise.
"""

from __future__ import annotations

import re

import pytest

from tether_build.cli.engine import odds_lines
from tether_build.commands.printing import rename_term
from tether_build.content.cards import normalized_cards
from tether_build.content.validate import validate
from tether_build.effects.describe import ability_reading, every_reading, reading
from tether_build.effects.words import non_words


def _readings(content) -> list[tuple[str, str]]:
    out = every_reading(content)
    assert len(out) > 100
    return out


def test_every_reading_on_the_fixture_is_in_the_games_words(content):
    bad = [(where, text, non_words(text, content.terms)) for where, text in _readings(content)]
    bad = [b for b in bad if b[2]]
    assert not bad, "\n".join(f"{w}: {words}: {t}" for w, t, words in bad[:10])


@pytest.mark.parametrize("text, found", [
    ("battle in: {'ref': 'held_hex'}.", ["{", "'ref'", "'held_hex'", "}"]),
    ("the rest go to the choose_bottom.", ["choose_bottom"]),
    ("Units hit on 1..value (units forces, value 3).", ["1.."]),
    ("Deploy 2 Forces.", ["Forces"]),            # a design name, not the glossary's
    ("Deploy 2 [force:pl].", ["[", "]"]),
    ("If you occupy a Axis Mundi, gain an Cohort.", ["a Axis", "an Cohort"]),
])
def test_the_check_finds_what_is_not_a_word(content, text, found):
    assert non_words(text, content.terms) == found


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    """A fixture copy with Cohort -> Legionary/Legionaries and Gold -> Crown/Crowns."""
    import shutil
    from pathlib import Path

    copy = tmp_path_factory.mktemp("renamed") / "content"
    shutil.copytree(Path(__file__).parent / "fixtures" / "content", copy)
    rename_term(copy, "force", "Legionary", "Legionaries")
    rename_term(copy, "gold", "Crown", "Crowns")
    return validate(copy)


def test_readings_follow_a_rename_in_number(renamed):
    stale = ("Cohort", "Cohorts", "Gold", "gold", "cohort", "cohorts")
    texts = _readings(renamed)
    bad = [(w, t, non_words(t, renamed.terms, stale)) for w, t in texts]
    bad = [b for b in bad if b[2]]
    assert not bad, "\n".join(f"{w}: {words}: {t}" for w, t, words in bad[:10])
    joined = "\n".join(t for _, t in texts)
    for one, many in (("Legionary", "Legionaries"), ("Crown", "Crowns")):
        assert re.search(rf"\b1 {many}\b", joined) is None, many
        assert re.search(rf"\b(?:[02-9]|\d\d+) {one}\b", joined) is None, one
    cards = {c["id"]: c for c in normalized_cards(renamed)}
    assert "deploy 2 Legionaries into your Capital" in reading(cards["recruit"], renamed.terms)
    assert "deploy 1 Legionary into" in reading(cards["recruit"], renamed.terms)
    assert reading(cards["supply_cache"], renamed.terms) == "Gain 2 Crowns."


def test_named_failures_read_as_english(content):
    cards = {c["id"]: c for c in normalized_cards(content)}

    def r(cid):
        return reading(cards[cid], content.terms)

    assert r("hold_the_line").endswith("your Cohorts hit on 1-3 when you are the Defender "
                                       "and the Battle is in that Hex.")
    assert "put any of them on the bottom of your Draw Pile" in r("center_relic")
    assert r("bridge_trap").startswith("Choose a Bridge touching a Hex you occupy; then")
    assert "that Bridge cannot be crossed" in r("bridge_lockdown")
    assert "in that Champion's next Battle this Round, that Champion rolls only 1 Die" \
        in r("slow")
    assert "Tactical Hand: Once per Round, you assign 3 of your hits" in r("grand_strategist")
    assert r("future_investment").startswith(
        "Deploy 2 Cohorts into your Capital, plus 1 for each point on this card's counter")


def test_the_preview_gallery_reads_in_the_renamed_words(renamed):
    from tether_build.serve.preview import _reading

    card = next(c for c in normalized_cards(renamed) if c["id"] == "supply_cache")
    assert "<b>Engine:</b> Gain 2 Crowns." in _reading(card, [], renamed.terms)


def test_a_passive_reads_without_a_champion(content):
    passive = {"name": "Contracts", "text": "x", "trigger": "kill_champion",
               "steps": [{"step": "gain_gold", "amount": 2}]}
    assert ability_reading(passive, content.terms, passive=True) == \
        "Contracts: When you kill an enemy Champion: gain 2 Gold."
    assert "(or this Champion)" in ability_reading(passive, content.terms)


def test_odds_print_the_glossary_words_in_number(renamed):
    r = {"attacker_wins": 0.5, "defender_wins": 0.4, "both_destroyed": 0.1,
         "attacker_survivors": {"forces": 2.25, "champion_hp": 0.0},
         "defender_survivors": {"forces": 1.04, "champion_hp": 1.0}}
    lines = odds_lines(r, 1, "center", 3, renamed.terms)
    assert lines[0] == "1 Battle at the Axis Mundi (seed 3)"
    assert lines[4] == "attacker survivors on average: 2.2 Legionaries, 0.0 Champion HP"
    assert lines[5] == "defender survivors on average: 1.0 Legionary, 1.0 Champion HP"
