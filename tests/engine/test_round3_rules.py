"""Issue 41's engine contradictions, on the fixture content: Column Advance and an empty
enemy Capital (§4.3), Ward against a Champion's ability, Tempest's adjacent hexes, "a hex
you occupy that contains a Champion" read alike on both cards, and Scry's look that never
reshuffles. Each scenario runs in the Python engine through the card-example runner; the
native engine plays the same rules in tests/engine/test_native.py (kitchen sink)."""

from __future__ import annotations

import pytest

from tether_build.check.examples import run_example
from tether_build.engine.core import Ctx
from tether_build.engine.scenario import put_champion, scenario
from tether_build.engine.select import ChampSel, Within

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


# ---- Ward against a Champion's ability (its source is the Champion card) ------------------
def _edge_on_titan(ward: bool) -> dict:
    """The enemy Shadeblade attacks a Titan: Assassin's Edge before combat round 1, then
    every die a 2 (the Titan hits on 1-3, the Shadeblade on 1): the Shadeblade dies."""
    ex = {"players": CIPHER2,
          "units": [{"hex": "center", "player": 0, "champion": "titan_vanguard"},
                    {"hex": "center", "player": 1, "champion": "shadeblade"}],
          "battle": {"hex": "center", "attacker": 1}, "dice": [2] * 14,
          "expect": {"units": [{"hex": "center", "player": 0, "champion": "titan_vanguard",
                                "hp": 10 if ward else 9},
                               {"hex": "center", "player": 1, "champion": "shadeblade",
                                "hp": 0}]}}
    if ward:
        battle = {"battle": ex.pop("battle")}
        ex.update(play="ward", then=[battle])  # the Titan, its only Champion
    return ex


def test_assassins_edge_strikes_an_unwarded_titan(rules):
    assert run_example(rules, None, _edge_on_titan(False)) is None


def test_ward_stops_assassins_edge(rules):
    """Ward's `by` lists champion: the Shadeblade's ability is its card's effect."""
    assert "champion" in rules.by_id["ward"].effect[1].params["modifier"]["by"]
    assert run_example(rules, None, _edge_on_titan(True)) is None


def _tempest_on_brute(ward: bool) -> dict:
    ex = {"players": [{"faction": "cipher", "mana": 1}, {"faction": "cipher", "mana": 1}],
          "units": [{"hex": "path2", "player": 0, "champion": "brute"},
                    {"hex": "path3", "player": 1, "champion": "stormcaller"}],
          "ability": "Tempest", "seat": 1,
          "expect": {"units": [{"hex": "path2", "player": 0, "champion": "brute",
                                "hp": 6 if ward else 5}]}}
    if ward:
        tempest = {"ability": ex.pop("ability"), "seat": ex.pop("seat")}
        ex.update(play="ward", then=[tempest])  # the Brute, its only Champion
    return ex


@pytest.mark.parametrize("ward", [False, True])
def test_ward_stops_tempest(rules, ward):
    assert run_example(rules, None, _tempest_on_brute(ward)) is None


def test_immunity_field_lets_a_champion_ability_through(rules):
    """Immunity Field names enemy spells only: Tempest still hits."""
    ex = _tempest_on_brute(False)
    ex.update(play="immunity_field", players=CIPHER2, then=[{"ability": ex.pop("ability"),
                                                             "seat": ex.pop("seat")}])
    assert run_example(rules, None, ex) is None


def test_a_champion_ability_reads_its_card_as_source(rules):
    g = scenario(rules, 2, 0)
    ch = put_champion(g, 1, "stormcaller", g.s.players[1].capital)
    act = next(a for a in g.hooks.all() if a.champ is ch)
    assert act.ctx(g).source_type == "champion"
    assert Ctx(g, 0).source_type is None, "a faction passive is no card"


# ---- Tempest: "every enemy Champion in adjacent hexes" ------------------------------------
def test_tempest_spares_an_enemy_in_its_own_hex(rules):
    """A siege: the enemy Brute shares the Stormcaller's hex, which is not adjacent to it."""
    ex = {"players": [{"faction": "cipher", "mana": 1}, {"faction": "cipher"}],
          "units": [{"hex": "enemy_capital", "player": 0, "champion": "stormcaller"},
                    {"hex": "enemy_capital", "player": 1, "champion": "brute"},
                    {"hex": "enemy_path1", "player": 1, "champion": "sergeant"},
                    {"hex": "center", "player": 1, "champion": "traitor"}],
          "ability": "Tempest",
          "expect": {"units": [
              {"hex": "enemy_capital", "player": 1, "champion": "brute", "hp": 6},
              {"hex": "enemy_path1", "player": 1, "champion": "sergeant", "hp": 2},
              {"hex": "center", "player": 1, "champion": "traitor", "hp": 5}]}}
    assert run_example(rules, None, ex) is None


def test_min_distance_is_a_ring(rules):
    """within {distance: 1, min_distance: 1}: the six hexes around, never the hex itself."""
    g = scenario(rules, 2, 0)
    h = g.s.topo.center
    ch = put_champion(g, 0, "stormcaller", h)
    ring = Within({"distance": 1, "min_distance": 1, "of": "this"})
    ball = Within({"distance": 1, "of": "this"})
    ctx = Ctx(g, 0, champ=ch)
    assert ring(ctx) == set(g.s.topo.nbrs[h]) and len(ring(ctx)) == 6
    assert ball(ctx) == ring(ctx) | {h}
    sel = ChampSel({"side": "enemy", "within": {"distance": 1, "min_distance": 1,
                                                 "of": "this"}})
    put_champion(g, 1, "brute", h)
    assert sel.candidates(ctx) == [] and not sel.exists(ctx)
    foe = put_champion(g, 1, "sergeant", g.s.topo.nbrs[h][0])
    assert sel.candidates(ctx) == [foe] and sel.exists(ctx)


# ---- "a hex you occupy that contains a Champion": one reading on both cards ---------------
PHRASE_CARDS = {"rally_where_you_stand": 3, "dispatch_to_front": 2}


def test_the_phrase_compiles_alike_on_both_cards(rules):
    wheres = {cid: rules.by_id[cid].effect[0].params["where"] for cid in PHRASE_CARDS}
    assert {w["contains"] for w in wheres.values()} == {"champion"}
    assert {w["occupied_by"] for w in wheres.values()} == {"you"}


@pytest.mark.parametrize("card", sorted(PHRASE_CARDS))
def test_the_phrase_counts_an_enemy_champion_in_a_siege(rules, card):
    """Besieging the enemy Capital, whose Champion is there: both cards deploy there."""
    n = PHRASE_CARDS[card]
    ex = {"players": [{"faction": "cipher", "mana": 1, "gold": 3}, {"faction": "cipher"}],
          "play": card,
          "units": [{"hex": "enemy_capital", "player": 0, "cohorts": 1},
                    {"hex": "enemy_capital", "player": 1, "champion": "brute"}],
          "expect": {"units": [{"hex": "enemy_capital", "player": 0, "cohorts": 1 + n}]}}
    assert run_example(rules, None, ex) is None


@pytest.mark.parametrize("card", sorted(PHRASE_CARDS))
def test_the_phrase_counts_your_own_champion(rules, card):
    n = PHRASE_CARDS[card]
    ex = {"players": [{"faction": "cipher", "mana": 1, "gold": 3}, {"faction": "cipher"}],
          "play": card, "units": [{"hex": "path2", "player": 0, "champion": "brute"}],
          "expect": {"units": [{"hex": "path2", "player": 0, "cohorts": n}]}}
    assert run_example(rules, None, ex) is None


# ---- Scry (Center Relic's look): no reshuffle ----------------------------------------------
def test_center_relic_scry_never_reshuffles(rules):
    """Away from the center Center Relic scries 2; with 1 card in the draw pile it looks at
    that one and the discard pile stays put (the Scry ruling says so)."""
    ex = {"players": [{"faction": "cipher", "mana": 1, "draw": ["supply_cache"],
                       "discard": ["supply_cache", "supply_cache"]}],
          "play": "center_relic",
          "expect": {"players": [{"draw": 1, "discard": 3, "hand": 0}]}}
    assert run_example(rules, None, ex) is None
    empty = {**ex, "players": [{"faction": "cipher", "mana": 1,
                                "discard": ["supply_cache", "supply_cache"]}],
             "expect": {"players": [{"draw": 0, "discard": 3}]}}
    assert run_example(rules, None, empty) is None
