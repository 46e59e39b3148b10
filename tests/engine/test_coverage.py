"""The engine covers the whole effect language of spec.py, and compiled cards are complete."""

from __future__ import annotations

import json

import pytest

from tether_build.effects import spec
from tether_build.effects.compile import CompileError, compile_card, normalize_step
from tether_build.engine import conds, game, mods, select
from tether_build.engine.core import REGISTRY
from tether_build.engine.ruleset import Ruleset  # noqa: F401  (registers every handler)


def _enum(t: str) -> set[str]:
    return set(t.split(":", 1)[1].split("|"))


def test_one_handler_per_step_kind():
    assert set(REGISTRY) == set(spec.STEPS)


def test_every_condition_key():
    assert set(conds.COND_KEYS) == set(spec.CONDITIONS)


def test_every_selector_key():
    assert select.HEX_KEYS == set(spec.HEX_SELECTOR)
    assert select.CHAMPION_KEYS == set(spec.CHAMPION_SELECTOR)
    assert select.BRIDGE_KEYS == set(spec.BRIDGE_SELECTOR)
    assert select.WITHIN_OF == _enum(spec.WITHIN["of"].rstrip("!"))
    assert select.PLAYER_REFS == set(spec.PLAYERS)
    assert set(select._AMOUNT_OF) == set(spec.AMOUNT_OF)


def test_every_modifier_event_duration_limit_unit():
    assert set(mods.CONSUMERS) == set(spec.MODIFIERS)
    assert set(game.EVENTS_FIRED) == set(spec.EVENTS)
    assert set(mods.DURATIONS) == set(spec.DURATIONS)
    assert set(mods.LIMITS) == set(spec.LIMITS)
    assert set(game.UNIT_KINDS) == _enum(spec.UNITS)


def test_unknown_selector_key_is_an_error():
    with pytest.raises(ValueError, match="unknown hex selector"):
        select.HexSel({"occupied": "you"})
    with pytest.raises(ValueError, match="no rule consults"):
        mods.ModDef({"modifier": "fly_to_moon"})


def _walk_steps(steps):
    for st in steps:
        yield st
        for key in ("then", "else", "steps"):
            if isinstance(st.get(key), list):
                yield from _walk_steps(st[key])
        for o in st.get("options", []) if st["step"] == "choose_one" else []:
            yield from _walk_steps(o["steps"])
        for o in st.get("outcomes", []):
            yield from _walk_steps(o["steps"])


def test_compiled_steps_have_every_default(compiled):
    cards = json.loads(compiled["cards.json"])["cards"]
    n = 0
    for card in cards:
        abil = (card["champion"] or {}).get("abilities", []) + card["triggers"]
        for st in _walk_steps(card["effect"] + [s for a in abil for s in a["steps"]]):
            n += 1
            for name, t in spec.STEPS[st["step"]][1].items():
                _, required, default = spec.parse_type(t)
                if required or default is not None:
                    assert name in st, (card["id"], st["step"], name)
    assert n > 200


def test_compile_fills_defaults_and_rejects_unknown():
    st = normalize_step({"step": "move", "distance": 2}, "x")
    assert st["stacks"] == 1 and st["unit"] == "stack" and st["ignore_bridges"] is False
    assert normalize_step({"step": "look", "count": 3}, "x")["rest"] == "top"
    with pytest.raises(CompileError, match="unknown step"):
        normalize_step({"step": "teleport"}, "x")
    with pytest.raises(CompileError, match="missing required"):
        normalize_step({"step": "deploy", "count": 1}, "x")


def test_compile_card_shape():
    c = compile_card({"id": "x", "name": "X", "deck": "starter", "category": "economy",
                      "type": "order", "mana": 1, "gold": 0, "initiative": [1, 2],
                      "effect": [{"step": "gain_gold", "amount": 2}], "triggers": []})
    assert c["effect"] == [{"step": "gain_gold", "amount": 2, "player": "self"}]
    assert c["copies"] == 1 and c["burn"] is False and c["vp"] == 0


def test_factions_and_game_json(compiled, rules):
    fac = json.loads(compiled["factions.json"])
    assert fac["default"] in fac["factions"]
    for f in fac["factions"].values():
        assert f["spell"] in rules.by_id and f["champion"] in rules.by_id
    game_json = json.loads(compiled["game.json"])
    assert [a["numeral"] for a in game_json["ages"]] == ["I", "II", "III"]
    assert rules.age_of_round[1] == "I" and rules.age_of_round[10] == "III"


def test_compile_is_deterministic(compiled):
    from tests.engine.conftest import ROOT
    from tether_build.content.cards import normalized_cards
    from tether_build.content.load import load_content
    from tether_build.effects.compile import compile_engine
    content = load_content(ROOT / "tests" / "fixtures" / "content")
    assert compile_engine(normalized_cards(content), content) == compiled


def test_consumer_and_event_places_exist():
    """Every 'module.function' named in mods.CONSUMERS and game.EVENTS_FIRED exists."""
    import importlib
    for where in list(mods.CONSUMERS.values()) + list(game.EVENTS_FIRED.values()):
        module, name = where.split(".")
        m = importlib.import_module(f"tether_build.engine.{module}")
        assert hasattr(m, name) or any(hasattr(v, name) for v in vars(m).values()
                                       if isinstance(v, type)), where
