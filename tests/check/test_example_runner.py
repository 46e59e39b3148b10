"""The example runner's language: named hexes, Bridges, doings, `choose:` answers, `then:`,
seat 1's doings, and the check that an ability's example fails without that ability."""

from __future__ import annotations

import pytest

from tether_build.check.examples import _abilities, _without, run_example


@pytest.fixture(scope="module")
def rules(content):
    """The fixture content's engine rules."""
    from tether_build.content.cards import normalized_cards
    from tether_build.effects.compile import compile_engine
    from tether_build.engine.ruleset import Ruleset
    return Ruleset.from_compiled(compile_engine(normalized_cards(content), content))


CIPHER = [{"faction": "cipher", "mana": 1}, {"faction": "cipher", "mana": 1}]
FLIGHT = {"players": CIPHER, "bridges": "none",
          "units": [{"hex": "path1", "player": 0, "champion": "skystriker_ace", "cohorts": 2}],
          "march": {"from": "path1", "to": "path2", "units": "champions"},
          "expect": {"units": [{"hex": "path2", "player": 0, "champion": "skystriker_ace",
                                "hp": 4},
                               {"hex": "path1", "player": 0, "cohorts": 2}]}}


def test_champion_marches_alone_without_bridge(rules):
    assert run_example(rules, None, FLIGHT) is None


def test_expected_state_mismatch_names_both_sides(rules):
    ex = {**FLIGHT, "expect": {"units": [{"hex": "path1", "player": 0, "cohorts": 1}]}}
    assert run_example(rules, None, ex) == ("expected player 0 on path1: cohorts 1, "
                                            "got player 0 on path1: cohorts 2")


def test_the_same_example_fails_without_flight(rules):
    assert _without(rules, ("skystriker_ace", "Flight"), FLIGHT, None) is None
    assert run_example(rules, None, FLIGHT, _abilities(rules, "skystriker_ace", "Flight")) \
        == ("expected the march {'from': 'path1', 'to': 'path2', 'units': 'champions'} "
            "to be legal, got it not offered")


def test_example_that_passes_without_its_ability_is_reported(rules):
    cache = {"players": [{"faction": "leadbound", "mana": 1, "gold": 0}], "play": "supply_cache",
             "expect": {"players": [{"gold": 2}]}}
    assert run_example(rules, None, cache) is None
    assert _without(rules, ("leadbound", "Home Guard"), cache, None) == (
        "expected a different result without Home Guard (else the example does not show "
        "what Home Guard does), got the same")
    assert _without(rules, ("leadbound", "Home Guard"), {**cache, "unaffected": True},
                    None) is None


def test_unaffected_example_must_not_depend_on_the_ability(rules):
    recruit = {"players": [{"faction": "leadbound", "mana": 1, "gold": 1}], "play": "recruit",
               "unaffected": True,
               "expect": {"units": [{"hex": "capital", "player": 0, "cohorts": 3}]}}
    assert run_example(rules, None, recruit) is None
    why = _without(rules, ("leadbound", "Home Guard"), recruit, None)
    assert why.startswith("expected the same result without Home Guard (unaffected: true), "
                          "got expected player 0 on capital: cohorts 3, got player 0 on "
                          "capital: cohorts 2"), why


def test_answer_not_among_the_options_is_reported(rules):
    zap = {"players": CIPHER, "play": "zap", "choose": [{"champion": "brute"}],
           "units": [{"hex": "path1", "player": 0, "cohorts": 1},
                     {"hex": "path2", "player": 1, "champion": "sergeant"},
                     {"hex": "path1", "player": 0, "champion": "sergeant"}],
           "expect": {}}
    assert run_example(rules, None, zap) == (
        "expected choice 1 (champion: brute) to be offered, got 2 other champion options")


def test_answer_never_asked_is_reported(rules):
    cache = {"players": CIPHER, "play": "supply_cache", "choose": [{"hex": "center"}],
             "expect": {}}
    assert run_example(rules, None, cache) == (
        "expected choice 1 (hex: center) to be asked, got no such decision")


def test_then_lets_seat_1_march_and_bridges_are_compared(rules):
    ex = {"players": CIPHER, "bridges": [["path2", "path3"]],
          "units": [{"hex": "path3", "player": 1, "cohorts": 2}],
          "play": "supply_cache",
          "then": [{"march": {"from": "path3", "to": "path2"}, "seat": 1}],
          "expect": {"units": [{"hex": "path2", "player": 1, "cohorts": 2}],
                     "bridges": [{"between": ["path2", "path3"], "bridged": True},
                                 {"between": ["path1", "path2"], "bridged": False}],
                     "players": [{"gold": 2, "mana": 0}, {"mana": 0}]}}
    assert run_example(rules, None, ex) is None


def test_two_doings_in_one_step_are_refused(rules):
    ex = {"players": CIPHER, "play": "supply_cache", "phase": "scoring", "expect": {}}
    assert run_example(rules, None, ex) == (
        "expected one of play, march, reinforce, ability, battle, phase, got play and phase")


def test_phase_scoring_and_named_mine(rules):
    ex = {"players": [{"faction": "cipher"}, {"faction": "cipher"}],
          "units": [{"hex": "center", "player": 0, "cohorts": 1},
                    {"hex": "mine", "player": 0, "cohorts": 1}],
          "phase": "collection", "then": [{"phase": "scoring"}],
          "expect": {"players": [{"control": 1}]}}
    assert run_example(rules, None, ex) is None


def test_unknown_card_id_is_named(rules):
    ex = {"players": [{"faction": "cipher", "hand": ["no_such_card"]}], "phase": "scoring",
          "expect": {}}
    assert run_example(rules, None, ex) == "expected a card id, got 'no_such_card'"


def test_decks_given_and_a_gained_card_played_from_hand(rules):
    ex = {"players": [{"faction": "cipher", "mana": 3}, {"faction": "cipher"}],
          "decks": {"age1_market": ["sergeant", "sergeant", "sergeant"]},
          "play": "forge_miracle", "then": [{"play": "sergeant"}],
          "expect": {"players": [{"mana": 0, "gold": 0, "hand_cards": ["sergeant", "sergeant"]}],
                     "units": [{"hex": "capital", "player": 0, "champion": "sergeant",
                                "hp": 3}]}}
    assert run_example(rules, None, ex) is None
    bad = {**ex, "decks": {"age9_market": ["sergeant"]}}
    assert run_example(rules, None, bad).startswith(
        "expected a Market or Power deck id, got 'age9_market' (decks: age1_market")


def test_a_bridge_between_hexes_apart_is_refused(rules):
    ex = {"players": CIPHER, "bridges": [["capital", "center"]], "phase": "scoring",
          "expect": {}}
    assert run_example(rules, None, ex) == (
        "expected capital and center to be adjacent (a Bridge joins two adjacent hexes), "
        "got hexes apart on this board")


def test_unknown_faction_is_named(rules):
    ex = {"players": [{"faction": "cypher"}], "phase": "scoring", "expect": {}}
    assert run_example(rules, None, ex).startswith(
        "expected a faction id (cipher, gatewright, leadbound, refiner, vapourborn, "
        "virteous_court), got 'cypher'")
