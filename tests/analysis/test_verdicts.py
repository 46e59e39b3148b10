"""The balance lab's statistics on synthetic games whose truth is known (no engine)."""

from __future__ import annotations

import numpy as np

from tether_build.analysis import cardmodel, figures, inference, lab, ladder, verdicts

from . import synth

OPPOSITE = {("too strong", "too weak"), ("too strong", "fair"), ("too weak", "fair")}


def test_the_confidence_sequence_covers_at_every_look_at_the_stated_rate():
    """Bernoulli(0.3), looked at 7 times each: the share of runs whose interval misses the
    truth at any look stays under alpha (0.1 here)."""
    rng = np.random.default_rng(7)
    misses = 0
    for _ in range(60):
        x = (rng.random(1600) < 0.3).astype(float)
        misses += any(not (lo <= 0.3 <= hi) for lo, hi in (
            inference.confidence_sequence(x[:n], 0.1) for n in (50, 100, 200, 400, 800, 1600)))
    assert misses <= 6
    lo, hi = inference.confidence_sequence(np.ones(40))
    assert hi == 1.0 and 0.8 < lo < 1.0
    lo, hi = inference.confidence_sequence([0.0, 1.0] * 500, 0.05, -1, 1)
    assert lo < 0.5 < hi and hi - lo < 0.2


def test_benjamini_hochberg_and_exact_intervals():
    q, hit = inference.benjamini_hochberg([0.01, 0.04, 0.03, 0.5])
    assert hit == [True, False, False, False]
    assert np.allclose(q, [0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])
    lo, hi = inference.clopper_pearson(3, 10)
    assert 0.066 < lo < 0.068 and 0.652 < hi < 0.653


def test_a_planted_strong_faction_is_found_and_the_others_are_fair():
    v = verdicts.factions(synth.light(4000, 2, strength={"a": 0.5}), 4, {"a": "Alpha"})
    assert v["answer"] == "yes"
    assert v["factions"]["a"]["verdict"] == "too strong"
    assert v["sentences"][0].startswith("Alpha wins 3") and "too strong" in v["sentences"][0]
    assert all(r["verdict"] in ("fair", "not settled") for f, r in v["factions"].items()
               if f != "a")


def test_a_fair_game_yields_no_detectable_difference_at_the_stated_rate():
    """25 fair runs of 4,500 games: at most 2 may call a faction too strong or too weak (the
    verdicts' error rate is at most 5 %, in practice far less); most answer 'no'."""
    answers = [verdicts.factions(synth.light(4500, s), 4, {})["answer"] for s in range(25)]
    assert answers.count("yes") <= 2
    assert answers.count("no") >= 18


def test_a_run_too_small_says_so_instead_of_ranking():
    v = verdicts.factions(synth.light(150, 3, strength={"a": 0.3}), 4, {})
    assert v["answer"] == "not settled" and not v["settled"]
    assert any("not settled" in s or "not yet known" in s for s in v["sentences"])
    open_ = [s.split(" wins")[0] for s, (f, r) in zip(
        v["sentences"], sorted(v["factions"].items(), key=lambda it: verdicts.order(it, {})))
        if r["verdict"] == "not settled"]
    assert open_ == sorted(open_)   # not ranked: by name


def test_two_runs_on_different_seeds_never_give_opposite_verdicts():
    """A faction near the margin's edge (~30 %), 20 pairs of seeds: settled verdicts of the
    two runs never contradict each other."""
    for s in range(20):
        a = verdicts.factions(synth.light(2500, 100 + s, strength={"a": 0.27}), 4, {})
        b = verdicts.factions(synth.light(2500, 500 + s, strength={"a": 0.27}), 4, {})
        for f in a["factions"]:
            pair = (a["factions"][f]["verdict"], b["factions"][f]["verdict"])
            assert pair not in OPPOSITE and pair[::-1] not in OPPOSITE, (s, f, pair)


def test_the_lab_stops_at_the_first_settled_look_and_the_same_games_whatever_the_stop():
    def play(start, n):
        return synth.light(start + n, 4, strength={"a": 0.8})[start:]

    recs, trace = lab.sequential({"this": play}, 4000,
                                 lambda r: verdicts.factions(r["this"], 4, {})["answer"] == "yes")
    assert trace[-1]["settled"] and len(recs["this"]) < 4000
    assert recs["this"] == synth.light(len(recs["this"]), 4, strength={"a": 0.8})
    recs, trace = lab.sequential({"this": play}, 600, lambda r: False)
    assert [t["games"] for t in trace] == [250, 500, 600] and len(recs["this"]) == 600


def test_an_edit_is_detected_and_no_edit_is_no_detectable_difference():
    base = synth.light(3000, 9)
    same = verdicts.edit(base, synth.light(3000, 9), {}, 10)
    assert same["answer"] == "no"
    assert all(p["verdict"] == "no detectable difference" for p in same["parts"])
    assert "no detectable difference (±" in same["parts"][0]["sentence"]
    edited = verdicts.edit(synth.light(3000, 9, strength={"b": 1.0}, rounds_shift=1.5),
                           base, {}, 10)
    parts = {p["what"]: p for p in edited["parts"]}
    assert edited["answer"] == "yes"
    assert parts["b win rate"]["verdict"] == "changed" and parts["b win rate"]["change"] > 0
    assert parts["Game length"]["verdict"] == "changed"


def test_paired_bootstrap_says_whether_a_change_is_a_difference():
    facs = list(synth.FACTIONS)
    a = figures.Games(synth.light(1500, 1), facs)
    b = figures.Games(synth.light(1500, 1, strength={"c": 1.2}), facs)
    rows = {r["figure"]: r for r in figures.paired(b, a)}
    assert rows["win rate: c"]["differs"] and rows["win rate: c"]["ci95"][0] > 0
    assert not rows["average rounds"]["differs"]
    fair = a.fair_balance(reps=100)
    assert 0.85 < fair[0] < 0.98 and fair[1] <= fair[0] <= fair[2]
    ci = figures.intervals(a)
    assert ci["balance"][0] < a.figures()["balance"] < ci["balance"][1] + 1e-9


def test_a_planted_strong_card_is_found_and_the_center_is_not_credited_to_power_cards():
    recs = synth.games(2500, 1, strength={"b": 0.4}, card_power={"card07": 1.0}, center=1.0)
    eff = cardmodel.effects(recs, synth.POWER, {"card07": "Seventh Card"})
    rows = {r["card"]: r for r in eff["cards"]}
    assert rows["card07"]["verdict"] == "above the curve"
    assert rows["card07"]["name"] == "Seventh Card"
    assert eff["cards"][0]["card"] == "card07"
    flagged = [r["card"] for r in eff["cards"] if r["verdict"].endswith("curve")]
    assert flagged == ["card07"], flagged
    assert abs(eff["sum_of_effects"]) < 1e-9 and abs(eff["sum_of_log_odds"]) < 1e-9
    iwd = cardmodel.improvement_when_drawn(recs, {})
    assert iwd["card07"]["ci95"][0] > 0 and iwd["card07"]["iwd"] > 0.08


def test_small_samples_are_labelled_and_sorted_below():
    recs = synth.games(300, 2)
    recs[0]["seats"][0]["gained"].append("rare_card")
    eff = cardmodel.effects(recs, synth.POWER, {})
    assert eff["cards"][-1]["card"] == "rare_card"
    assert eff["cards"][-1]["verdict"].startswith("small sample")
    assert not any(r["small_sample"] for r in eff["cards"][:-1])


def test_the_agent_ladder_rates_the_stronger_agent_higher_and_judges_robustness():
    recs = synth.games(600, 3)
    for r in recs:   # seats 0 and 2: 'strong' agent, wins 70 % of the games
        for p, s in enumerate(r["seats"]):
            s["agent"] = "strong" if p % 2 == 0 else "weak"
        rng = np.random.default_rng(r["k"])
        r["winners"] = [int(rng.choice([0, 2])) if rng.random() < 0.7 else
                        int(rng.choice([1, 3]))]
    ratings = {x["agent"]: x for x in ladder.elo(recs, ["strong", "weak"], anchor="weak",
                                                 reps=50)}
    assert ratings["weak"]["rating"] == 0 and ratings["strong"]["ci95"][0] > 50
    base = verdicts.factions(synth.light(3000, 1, strength={"a": 0.6}), 4, {})
    from tether_build.analysis import stats
    steady = {n: stats.factions(synth.light(2000, s, strength={"a": 0.6}))
              for n, s in (("x", 1), ("y", 2))}
    rob = ladder.robustness(base, steady, {}, 0.25, 0.05)
    assert rob["factions"]["a"]["robustness"] == "robust"
    flip = dict(steady, z=stats.factions(synth.light(2000, 3, strength={"a": -0.8})))
    assert ladder.robustness(base, flip, {}, 0.25, 0.05)["factions"]["a"][
        "robustness"] == "agent-dependent"


def test_a_settled_verdict_stays_settled_as_the_run_goes_on():
    recs = synth.light(3000, 11, strength={"a": 0.45})
    seen: dict[str, str] = {}
    for n in lab.looks(3000):
        for f, r in verdicts.factions(recs[:n], 4, {})["factions"].items():
            if f in seen:
                assert r["verdict"] == seen[f], (n, f)
            elif r["verdict"] != "not settled":
                seen[f] = r["verdict"]
    assert seen.get("a") == "too strong"
