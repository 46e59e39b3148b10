"""The content model the commands layer hands the stages is read-only (issue 40)."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

from tether_build.commands import build, load
from tether_build.content.frozen import FrozenModelError, frozen
from tether_build.content.validate import validate

FIXTURE = Path(__file__).parent / "fixtures" / "content"


@pytest.fixture(scope="module")
def content():
    return load(FIXTURE)


def test_every_part_of_the_model_refuses_a_change(content):
    card = content.cards[0]
    attempts = [lambda: content.game.__setitem__("title", "x"),
                lambda: content.terms.pop(next(iter(content.terms))),
                lambda: content.cards.append({}),
                lambda: card.update(name="x"),
                lambda: card.setdefault("new", 1),
                lambda: content.ages["decks"].clear(),
                lambda: content.docs.pop("game.yaml"),
                lambda: setattr(content, "cards", []),
                lambda: content.game["players"].__delitem__("max")]
    for attempt in attempts:
        with pytest.raises(FrozenModelError, match="read-only"):
            attempt()
    if isinstance(card.get("text"), list):
        with pytest.raises(FrozenModelError):
            card["text"].append("x")


def test_the_frozen_model_reads_as_the_plain_one(content):
    plain = validate(FIXTURE)
    assert content.cards == plain.cards and content.game == plain.game
    assert json.dumps(content.cards, sort_keys=True) == json.dumps(plain.cards, sort_keys=True)
    again = pickle.loads(pickle.dumps(content.game))   # (the preloaded process gets it so)
    assert again == content.game
    with pytest.raises(FrozenModelError):
        again["title"] = "x"
    mine = copy.deepcopy(content.game)   # a copy is the way to change it
    mine["title"] = "x"
    mine["players"]["max"] = 9
    assert content.game["title"] != "x" and type(mine["players"]) is dict


def test_shared_values_stay_shared():
    shared = {"a": 1}
    out = frozen({"x": shared, "y": [shared]})
    assert out["x"] is out["y"][0]


def mutating_stage(ctx) -> dict[str, bytes]:
    """A stage that changes the model it was handed (the bug the freeze catches)."""
    ctx.content.cards[0]["name"] = "Changed by a stage"
    return {}


def test_a_stage_that_mutates_the_model_fails(tmp_path):
    ctx = build.Context(content_dir=FIXTURE, out=tmp_path / "build")
    stage = build.Stage("mutates", "mutates the model", f"{__name__}:mutating_stage")
    with pytest.raises(FrozenModelError, match="read-only"):
        stage.render(ctx)
    assert ctx.content.cards[0]["name"] != "Changed by a stage"
