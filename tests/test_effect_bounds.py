"""Issue 43: bounded work. An effect's steps have a static bound (nested repeats multiply),
refused with its place by validate and by the engines' loader; every game has a step budget
that ends in an error naming the card; the preview recovers once the content is fixed."""

from __future__ import annotations

import time

import pytest

from tether_build.effects.bound import MAX_STEPS, amount_bound, steps_bound, too_much
from tether_build.errors import ContentError


def _nest(depth: int, times=100) -> list[dict]:
    steps = [{"step": "gain_gold", "amount": 2}]
    for _ in range(depth):
        steps = [{"step": "repeat", "times": times, "steps": steps}]
    return steps


NESTED = "\n".join(" " * (6 + 4 * i) + f"- step: repeat\n{' ' * (8 + 4 * i)}times: 100\n"
                   f"{' ' * (8 + 4 * i)}steps:" for i in range(5)) + "\n" + " " * 26 + \
    "- {step: gain_gold, amount: 2}"
PLAIN = "    effect:\n      - {step: gain_gold, amount: 2}\n    examples:"


def _nested_content(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    text = path.read_text()
    assert PLAIN in text
    path.write_text(text.replace(PLAIN, f"    effect:\n{NESTED}\n    examples:", 1))
    return path, text


def test_nested_repeats_multiply():
    assert steps_bound(_nest(1))[0] == 1 + 100
    assert steps_bound(_nest(2, 10))[0] == 1 + 10 * (1 + 10)
    assert too_much(_nest(1)) is None and too_much(_nest(2, 50)) is None
    path, message = too_much(_nest(5))
    assert path == (0, "steps", 0, "steps", 0, "steps", 0) and "10101 steps" in message
    assert str(MAX_STEPS) in message
    # the largest branch of a choice counts; an amount from the game counts its max
    choice = [{"step": "choose_one", "options": [{"label": "a", "steps": _nest(1)},
                                                 {"label": "b", "steps": _nest(0)}]}]
    assert steps_bound(choice)[0] == 1 + 101
    assert amount_bound({"of": "last_count", "max": 3}) == 3
    assert amount_bound({"of": "last_count", "times": 2, "plus": 1}) == 201
    assert amount_bound("all") is None
    unbounded = too_much([{"step": "repeat", "times": "all", "steps": _nest(0)}])
    assert unbounded[0] == (0, "times") and "no bound" in unbounded[1]


def test_validate_refuses_five_nested_repeats_with_their_place(content_copy):
    from tether_build.content.validate import validate

    _nested_content(content_copy)
    start = time.monotonic()
    with pytest.raises(ContentError) as err:
        validate(content_copy)
    assert time.monotonic() - start < 30
    text = err.value.format_message()
    assert "starter.yaml:53:" in text and "effect[0].steps[0].steps[0].steps[0]" in text
    assert "nested repeats multiply" in text


def test_the_engines_loader_refuses_an_unbounded_effect_that_skipped_validate(content_copy):
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate
    from tether_build.effects.compile import compile_engine
    from tether_build.engine.ruleset import Ruleset

    content = validate(content_copy)
    files = compile_engine(normalized_cards(content), content)
    import json

    cards = json.loads(files["cards.json"])
    cards["cards"][0]["effect"] = _nest(5)   # a tampered build/engine/cards.json
    files["cards.json"] = json.dumps(cards)
    with pytest.raises(ValueError, match=f"card {cards['cards'][0]['id']}: effect.0.steps"):
        Ruleset.from_compiled(files)


def test_a_game_past_its_step_budget_ends_naming_the_card(content, monkeypatch):
    from tether_build.content.cards import normalized_cards
    from tether_build.effects.compile import compile_engine
    from tether_build.engine import core
    from tether_build.engine.agents import HeuristicAgent
    from tether_build.engine.play import play_game
    from tether_build.engine.ruleset import Ruleset

    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    assert play_game(rules, 4, 1, [HeuristicAgent() for _ in range(4)]).steps_left > 0
    monkeypatch.setattr(core, "STEP_BUDGET", 30)
    with pytest.raises(core.StepBudget, match=r"^(card [a-z0-9_]+|a faction passive): its "
                                             r"effect ran past the step budget \(30 steps"):
        play_game(rules, 4, 1, [HeuristicAgent() for _ in range(4)])


def test_the_cards_preview_shows_the_error_then_recovers(content_copy):
    from tether_build.serve.app import Site, default_pages

    path, fixed = _nested_content(content_copy)
    site = Site(content_copy, {"/cards": default_pages()["/cards"]})
    start = time.monotonic()
    status, body = site.render("/cards")
    assert status == 200 and "nested repeats multiply" in body
    path.write_text(fixed)
    status, body = site.render("/cards")
    assert "nested repeats multiply" not in body and "tether-error" not in body
    assert time.monotonic() - start < 60
