"""Every card present in content/ declares and resolves through the real step handlers
from a rich constructed state (issue 4 adds per-effect proofs on top of this)."""

from __future__ import annotations

from tether_build.engine.cardcheck import try_card


def test_every_card_resolves(rules):
    bad = {}
    for c in rules.cards:
        outcome = try_card(rules, c.id, 0)
        if outcome != "resolved":
            outcome2 = try_card(rules, c.id, 1)
            if outcome2 != "resolved":
                bad[c.id] = (outcome, outcome2)
    assert not bad, bad
    assert len(rules.cards) >= 150
