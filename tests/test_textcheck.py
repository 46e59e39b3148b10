"""Card text and effect agree in their numbers; a drifted card is named with its file."""

from __future__ import annotations

from tether_build.cards import normalized_cards
from tether_build.textcheck import card_drift, drift


def test_shipped_cards_have_no_text_effect_drift(content):
    assert [str(d) for d in drift(normalized_cards(content))] == []


def _card(content, cid):
    return next(c for c in normalized_cards(content) if c["id"] == cid)


def test_text_number_missing_from_effect_is_reported(content):
    card = dict(_card(content, "supply_cache"), text_source="Gain +3 {gold}.")
    found = card_drift(card)
    assert any("text says 3" in d.message for d in found)
    assert any("effect has 2" in d.message for d in found)
    assert str(found[0]).startswith("content/cards/starter.yaml:")


def test_distances_and_durations_count(content):
    card = _card(content, "march_orders")
    assert card_drift(card) == []
    moved = dict(card, effect=[{**card["effect"][0], "distance": 3}])
    assert [d.message for d in card_drift(moved)] == [
        "text says 2 but no step of the effect has 2", "effect has 3 but the text never says 3"]


def test_spelled_numbers_satisfy_the_effect(content):
    card = _card(content, "civilizational_hero")
    assert "double" in card["text_source"]
    assert card_drift(card) == []
