"""'Is this card above the curve?' asked sequentially, on synthetic games whose truth is
known: a planted strong card settles early, a neutral card ends with 'no detectable
difference', and the interval covers the truth at every look at the stated rate."""

from __future__ import annotations

import numpy as np

from tether_build.analysis import cardquestion, lab

from . import synth

MARKET = synth.CARDS[:20]


def _ask(card_power: dict, seed: int, budget: int):
    recs = synth.games(budget, seed, card_power=card_power, cards=MARKET)
    q = cardquestion.CardQuestion("card03", synth.POWER, {"card03": "Quick March"},
                                  margin=0.05)
    _got, trace = lab.sequential({"this": lambda s, n: recs[s:s + n]}, budget,
                                 lambda r: q.look(r["this"])["verdict"] != "not settled")
    return q.answer(budget), trace


def test_the_card_sequence_covers_at_every_look_at_the_stated_rate():
    """An estimate with a normal error, looked at the lab's looks (its information grows
    with the games): the share of runs whose interval misses the truth at any look stays
    under alpha (5 %)."""
    rng = np.random.default_rng(3)
    looks = np.array(lab.looks(6000))
    runs = 2000
    steps = rng.normal(0.0, 12.0, (runs, looks[-1]))   # one seat-game: information 1/144
    sums = np.cumsum(steps, axis=1)[:, looks - 1]
    est = sums / looks
    se = 12.0 / np.sqrt(looks)
    half = np.array([cardquestion.half_width(s) for s in se])
    miss = (np.abs(est) > half).any(axis=1).mean()
    fixed = (np.abs(est) > 1.96 * se).any(axis=1).mean()
    assert miss <= 0.05 and fixed > 0.1   # (a 95 % interval looked at 13 times is not)


def test_a_planted_strong_card_settles_above_the_curve_before_the_budget():
    ans, trace = _ask({"card03": 1.2}, 0, 3000)
    assert ans["verdict"] == "above the curve" and ans["answer"] == "yes"
    assert ans["ended"] == "settled" and ans["games"] < 3000 and trace[-1]["settled"]
    assert ans["sentence"].startswith("Quick March is above the curve: +")
    assert ans["interval"][0] > 0.05 and len(ans["looks"]) == len(trace)


def test_a_neutral_card_ends_with_no_detectable_difference_or_says_the_budget_is_spent():
    ans, _ = _ask({}, 2, 2000)
    assert ans["verdict"] == "no detectable difference" and ans["answer"] == "no"
    assert "no detectable difference (±5.0 points)" in ans["sentence"]
    assert ans["ended"] == "settled" and ans["games"] < 2000
    small, _ = _ask({}, 1, 500)
    assert small["verdict"] == "not settled" and small["ended"] == "budget of 500 games spent"
    assert "more games needed" in small["sentence"]


def test_a_card_is_found_by_its_name():
    names = {"quick_march": "Quick March", "x": "Other"}
    assert cardquestion.find("quick  march", names, names) == "quick_march"
    assert cardquestion.find("x", names, names) == "x"
    for bad in ("nothing", "Quick"):
        try:
            cardquestion.find(bad, names, names)
        except ValueError as exc:
            assert "no card" in str(exc)
        else:
            raise AssertionError(bad)
