"""Issue 43: the step budget in both engines. A card whose effect runs without end, though
its static bound passes (an amount read from the game grows past anything effects/bound.py
assumes), ends the game with one error naming the card, worded the same by the native engine
(play.cpp) as by the Python engine (core.StepBudget); the two engines count the same steps,
so a lowered budget stops both at the same card and step kind."""

from __future__ import annotations

import copy
import json
import time

import pytest

from tether_build.engine import core, native
from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.options import Options
from tether_build.engine.play import play_game

CARD = "supply_cache"   # a Starter card: every deck holds it, every game plays it soon
# 100 gold, then 100 x that, then 100 x that: a repeat of 10^6 steps, whose static bound is
# 1 + 100 x 1 (an amount read from the game counts 100: effects/bound.DYNAMIC)
RUNAWAY = [
    {"step": "gain_gold", "amount": 100},
    {"step": "gain_gold", "amount": {"of": "last_count", "times": 100}},
    {"step": "gain_gold", "amount": {"of": "last_count", "times": 100}},
    {"step": "repeat", "times": {"of": "last_count"},
     "steps": [{"step": "gain_gold", "amount": 1}]},
]
WORDS = (r"^card supply_cache: its effect ran past the step budget \({n} steps in one game, "
         r"at a gain_gold step\): a repeat or a trigger without end\?$")


@pytest.fixture(scope="module")
def runaway(compiled):
    """The fixture's rules with Supply Cache's effect replaced by RUNAWAY."""
    from tether_build.effects.bound import too_much
    from tether_build.effects.compile import normalize_steps
    from tether_build.engine.ruleset import Ruleset

    assert too_much(RUNAWAY) is None   # the static bound lets it through
    cards = json.loads(compiled["cards.json"])
    card = next(c for c in cards["cards"] if c["id"] == CARD)
    card["effect"] = normalize_steps(copy.deepcopy(RUNAWAY), CARD)
    return Ruleset.from_compiled({**compiled, "cards.json": json.dumps(cards)})


def _python(rules, players, seed, names):
    agents = [{"random": RandomAgent, "heuristic": HeuristicAgent}[n]() for n in names]
    return play_game(rules, players, seed, agents, sorted(rules.factions)[:players],
                     Options())


def _native(rules, players, seed, names, declined=None):
    games = [(seed, sorted(rules.factions)[:players], list(names))]
    return native.play_agents(rules, players, games, Options(), declined=declined)[0]


def test_the_native_engine_ends_a_runaway_game_at_the_real_budget(native_built, runaway):
    start = time.monotonic()
    with pytest.raises(core.StepBudget, match=WORDS.format(n=core.STEP_BUDGET)) as err:
        _native(runaway, 2, 2, ("random", "random"))
    assert err.value.card == CARD
    assert time.monotonic() - start < 30
    # the check's sweep asks for the reasons: the game is declined with the same words
    why: list = []
    assert _native(runaway, 2, 2, ("random", "random"), declined=why) is None
    assert why == [f"StepBudget: {err.value}"]


def test_both_engines_word_the_runaway_alike(native_built, runaway, monkeypatch):
    monkeypatch.setattr(core, "STEP_BUDGET", 20_000)   # the Python engine: 0.1 s, not 5 s
    for seed, names in ((2, ("random", "random")), (4, ("heuristic", "random"))):
        with pytest.raises(core.StepBudget, match=WORDS.format(n=20_000)) as py:
            _python(runaway, 2, seed, names)
        with pytest.raises(core.StepBudget) as nat:
            _native(runaway, 2, seed, names)
        assert str(nat.value) == str(py.value) and nat.value.card == py.value.card == CARD


@pytest.fixture(scope="module")
def sink(compiled):
    """The kitchen-sink rules (native_cases.py): every step, trigger and selector, often."""
    from tether_build.engine.ruleset import Ruleset

    from .native_cases import kitchen_sink

    return Ruleset.from_compiled(kitchen_sink(compiled))


@pytest.mark.parametrize("budget", [30, 60, 100, 400])
def test_both_engines_count_the_same_steps(native_built, rules, sink, monkeypatch, budget):
    """Ordinary content with a budget it runs past: both engines stop at the same step of
    the same card (or both finish the game); the kitchen sink's cards set off triggers,
    repeats and choices inside each other."""
    monkeypatch.setattr(core, "STEP_BUDGET", budget)
    stopped = 0
    for ruleset, players, seed, names in ((rules, 2, 3, ("random", "heuristic")),
                                          (rules, 4, 5, ("heuristic", "random") * 2),
                                          (sink, 3, 7, ("random", "heuristic", "random")),
                                          (sink, 4, 11, ("random",) * 4)):
        try:
            _python(ruleset, players, seed, names)
            py = None
        except core.StepBudget as exc:
            py = (str(exc), exc.card)
        try:
            got = _native(ruleset, players, seed, names)
            nat = None
            assert got is not None, "the native engine declined the game"
        except core.StepBudget as exc:
            nat = (str(exc), exc.card)
        assert nat == py
        stopped += py is not None
    assert stopped or budget > 100   # a small budget does stop games


def test_a_worker_process_raises_it_whole():
    import pickle

    err = pickle.loads(pickle.dumps(core.StepBudget("card x: its effect ran...", "x")))
    assert isinstance(err, core.StepBudget) and err.card == "x"
    assert str(err) == "card x: its effect ran..."


def test_the_sweep_reports_the_native_runaway_against_the_card(native_built, runaway):
    from tether_build.check.sweep import _play

    src = {CARD: {"file": "content/cards/starter.yaml", "line": 36}}
    counts, failures, _played, _checked = _play(runaway, [0], 4, src)
    assert len(failures) == 1
    fail = failures[0][1]
    assert fail.subject == CARD and fail.line == 36
    assert fail.why.startswith(f"StepBudget: card {CARD}: its effect ran past the step "
                                   f"budget ({core.STEP_BUDGET} steps")
    assert counts["errored"][CARD] == 1
