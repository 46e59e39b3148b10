"""Card text and effect agree in their numbers; a drifted card is named with its file."""

from __future__ import annotations

from tether_build.content.cards import normalized_cards
from tether_build.content.textcheck import card_drift, drift


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


def test_a_promised_draw_without_a_draw_step_is_reported(content):
    """Issue 18.2: verbs and objects are compared, not only numbers."""
    card = dict(_card(content, "war_taxes"), text_source="Gain +4 {gold} and draw a card.")
    assert card["effect"] == [{"step": "gain_gold", "amount": 4}]
    assert [d.message for d in card_drift(card)] == [
        "text says 'draw' but no step of the effect does it"]


def test_a_step_the_text_never_mentions_is_reported(content):
    card = _card(content, "war_taxes")
    extra = dict(card, effect=card["effect"] + [{"step": "heal", "amount": 4,
                                                 "champion": {"side": "friendly"}}])
    assert [d.message for d in card_drift(extra)] == [
        "effect has a heal step but the text never says 'heal'"]


def test_check_reports_the_verb_drift_of_a_card(content_copy):
    from tether_cli import run_cli

    path = content_copy / "cards" / "age2_market.yaml"
    text = path.read_text()
    assert 'text: "Gain +4 {gold}."' in text
    path.write_text(text.replace('text: "Gain +4 {gold}."',
                                 'text: "Gain +4 {gold} and draw a card."', 1))
    result = run_cli("check", "--content", str(content_copy), "--games", "0")
    assert result.exit_code == 1
    assert any(ln.startswith("DRIFT") and "war_taxes" in ln and "'draw'" in ln
               for ln in result.output.splitlines()), result.output[-2000:]


def test_every_step_modifier_and_event_has_an_engine_reading(content):
    """The engine's reading (effects/describe.py) covers the whole language and every card."""
    from tether_build.effects import describe, reference, spec
    from tether_build.effects.words import Words, non_words

    for name, (_doc, params) in spec.STEPS.items():
        step = reference.example("step", name, params)
        text = describe.describe([step], content.terms)
        assert text != "something happens", name  # no fallback: a real phrase
        assert not non_words(text, content.terms), (name, text)
    words = Words(content.terms)
    for name, (_doc, params) in spec.MODIFIERS.items():
        text = words.modifier(reference.example("modifier", name, params))
        assert text != "a rule changes" and not non_words(text, content.terms), (name, text)
    for key, typ in spec.CONDITIONS.items():
        value = reference.sample(typ.split("=")[0].rstrip("!"))
        text = words.condition({key: value})
        assert not text.endswith(" holds") or key == "not", (key, text)
        assert not non_words(text, content.terms), (key, text)
    for event in spec.EVENTS:
        assert "it happens" not in words.event(event), event
    for card in normalized_cards(content):
        assert describe.reading(card, content.terms).endswith(".")
