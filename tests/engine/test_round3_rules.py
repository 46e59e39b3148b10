"""Issue 41's engine contradictions, on the fixture content: Column Advance and an empty
enemy Capital (§4.3), Ward against a Champion's ability, Tempest's adjacent hexes, "a hex
you occupy that contains a Champion" read alike on both cards, and Scry's look that never
reshuffles. Each scenario runs in the Python engine through the card-example runner; the
native engine plays the same rules in tests/engine/test_native.py (kitchen sink)."""

from __future__ import annotations

from tether_build.check.examples import run_example
from tether_build.engine.scenario import scenario

CIPHER2 = [{"faction": "cipher", "mana": 2}, {"faction": "cipher", "mana": 2}]


# ---- Column Advance: "must stop if it enters any occupied hex" ----------------------------
def _through_enemy_capital(enemy_units: int) -> dict:
    units = [{"hex": "enemy_path1", "player": 0, "cohorts": 2}]
    if enemy_units:
        units.append({"hex": "enemy_capital", "player": 1, "cohorts": enemy_units})
    return {"players": CIPHER2, "play": "column_advance", "units": units,
            "bridges": [["enemy_path1", "enemy_capital"], ["enemy_capital", "enemy_side"]],
            "choose": [{"move": {"from": "enemy_path1", "to": "enemy_side",
                                 "through": ["enemy_capital"]}}],
            "expect": {"units": [{"hex": "enemy_side", "player": 0, "cohorts": 2}]}}


def test_column_advance_passes_an_empty_enemy_capital(rules):
    """§4.3: a hex is occupied by the units in it; an empty Capital is not occupied."""
    assert run_example(rules, None, _through_enemy_capital(0)) is None


def test_column_advance_stops_in_a_held_enemy_capital(rules):
    why = run_example(rules, None, _through_enemy_capital(1))
    assert why is not None and "enemy_side" in why, why


def test_stop_on_occupied_asks_units_not_capitals(rules):
    g = scenario(rules, 2, 0)
    ecap = g.s.players[1].capital
    assert not g.stops_at(0, ecap, True), "an empty enemy Capital"
    g.s.add_forces(1, ecap, 1)
    assert g.stops_at(0, ecap, True), "an enemy Capital with a Cohort in it"
    own = g.s.players[0].capital
    assert not g.stops_at(0, own, True)
    g.s.add_forces(0, own, 1)
    assert g.stops_at(0, own, True), "your own other stack stops it too"
