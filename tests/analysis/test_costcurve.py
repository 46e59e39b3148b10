"""The fitted cost curve on synthetic games whose truth is known: a card's worth rises with
its price, and one cheap card plays like a dear one."""

from __future__ import annotations

from tether_build.analysis import cardmodel, costcurve

from . import synth

PRICE = {c: float(1 + i % 4) for i, c in enumerate(synth.CARDS)}   # 10 cards each at 1-4


def test_a_planted_under_priced_card_is_found_under_the_curve():
    power = {c: 0.2 * (p - 2.5) for c, p in PRICE.items()}
    power["card04"] = 0.2 * (6.5 - 2.5)   # costs 1, plays like a card costing 6.5
    recs = synth.games(2000, 1, card_power=power)
    eff = cardmodel.effects(recs, synth.POWER, {"card04": "Quick March"})
    kind = {c: "market" for c in synth.CARDS}
    kind.update({"card38": "rare", "card39": "rare"})      # a kind too small for a curve
    cc = costcurve.fit(eff["cards"], PRICE, kind, reps=400)
    market = cc["market"]
    assert market["curve"]["rising"] and market["curve"]["slope_ci95"][0] > 0
    top = market["cards"][0]
    assert top["card"] == "card04" and top["off_curve"]
    assert 0 < top["gap_ci95"][0] < 5.5 < top["gap_ci95"][1] + 1.5
    assert top["sentence"].startswith("Quick March (cost 1, market) is priced ")
    assert " under the curve [" in top["sentence"]
    flagged = [r["card"] for e in cc.values() for r in e["cards"] if r["off_curve"]]
    assert flagged == ["card04"], flagged
    assert cc["rare"]["curve"] is None and cc["rare"]["note"].startswith("small sample")


def test_a_flat_curve_gives_no_price_gap_and_every_card_within_the_noise():
    recs = synth.games(800, 2)
    eff = cardmodel.effects(recs, synth.POWER, {})
    cc = costcurve.fit(eff["cards"], PRICE, {c: "market" for c in synth.CARDS}, reps=200)
    rows = cc["market"]["cards"]
    assert not any(r["off_curve"] for r in rows)
    assert sum("gap" in r for r in rows) <= 4
    assert all("within the noise" in r["sentence"] for r in rows)
