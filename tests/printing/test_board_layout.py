"""Section 7 constraints on `tether board --json`, for every player count and many seeds."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from tether_print_helpers import cli

from tether_build.engine.board import distance, generate_board

ROOT = Path(__file__).resolve().parents[2]
GAME = yaml.safe_load((ROOT / "tests" / "fixtures" / "content" / "game.yaml").read_text())
BOARD = GAME["board"]
SEEDS = range(40)
CENTER = (0, 0)


def _per(table, players):
    return table.get(players, table.get(str(players)))


def _slots(players: int, radius: int) -> dict[str, tuple[int, int]]:
    """Capital slots straight from game.yaml (§5), independent of the generator."""
    fixed = _per(BOARD["fixed_slots"], players)
    if fixed:
        return {k: tuple(v) for k, v in fixed.items()}
    return {name: (BOARD["corner_slots"][name][0] * radius, BOARD["corner_slots"][name][1] * radius)
            for name in _per(BOARD["capital_slots"], players)}


def _home_assignment(caps, mines, other_rings):
    """A distinct home Mine per Capital (§7.3) such that every other Mine is on the rings
    allowed for 'remaining Mines'; None if there is none."""
    home_d = BOARD["placement"]["home_mine_capital_distance"]
    min_cap = BOARD["placement"]["min_capital_distance"]
    options = [[m for m in mines if distance(m, c) == home_d
                and all(distance(m, o) >= min_cap for o in caps if o != c)] for c in caps]
    for choice in itertools.product(*options):
        if len(set(choice)) == len(choice):
            rest = [m for m in mines if m not in choice]
            if all(distance(m, CENTER) in other_rings for m in rest):
                return choice
    return None


@pytest.fixture(scope="module")
def boards():
    """{players: [layout JSON, ...]} from the CLI, for every seed."""
    out = {}
    for players in range(GAME["players"]["min"], GAME["players"]["max"] + 1):
        out[players] = [json.loads(cli("board", "--content", str(ROOT / "tests" / "fixtures" / "content"),
                                       "--players", str(players), "--seed", str(seed),
                                       "--json").output) for seed in SEEDS]
    return out


@pytest.mark.parametrize("players", range(2, 7))
def test_shape_and_counts(boards, players):
    radius = _per(BOARD["radius_by_players"], players)
    counts = _per(BOARD["tile_counts"], players)
    for seed, data in zip(SEEDS, boards[players]):
        assert (data["players"], data["radius"], data["seed"]) == (players, radius, seed)
        coords = [(h["q"], h["r"]) for h in data["hexes"]]
        assert len(coords) == len(set(coords)) == 3 * radius * (radius + 1) + 1
        assert all(distance(c, CENTER) <= radius for c in coords)
        kinds = Counter(h["tile"] for h in data["hexes"])
        assert set(kinds) <= {"capital", "center", "forge", "mine", "plain"}
        assert kinds["capital"] == players
        assert (kinds["center"], kinds["forge"], kinds["mine"]) == (
            counts["center"], counts["forge"], counts["mine"])
        for h in data["hexes"]:
            extra = set(h) - {"q", "r", "tile"}
            assert extra == {"capital": {"slot"}, "mine": {"mine_value"}}.get(h["tile"], set())


@pytest.mark.parametrize("players", range(2, 7))
def test_capitals_center_and_eligibility(boards, players):
    radius = _per(BOARD["radius_by_players"], players)
    slots = _slots(players, radius)
    min_cap = BOARD["placement"]["min_capital_distance"]
    for data in boards[players]:
        at = {(h["q"], h["r"]): h for h in data["hexes"]}
        assert at[CENTER]["tile"] == "center"
        assert {h["slot"]: (h["q"], h["r"]) for h in data["hexes"]
                if h["tile"] == "capital"} == slots
        for h in data["hexes"]:
            if h["tile"] in ("forge", "mine"):  # §7.2
                hx = (h["q"], h["r"])
                assert hx != CENTER
                assert all(distance(hx, c) >= min_cap for c in slots.values()), (data["seed"], h)


@pytest.mark.parametrize("players", range(2, 7))
def test_forges_and_mines_placement(boards, players):
    radius = _per(BOARD["radius_by_players"], players)
    caps = list(_slots(players, radius).values())
    rings = set(BOARD["placement"]["forge_center_distance"])
    other = set(BOARD["placement"]["other_mine_center_distance"])
    for data in boards[players]:
        forges = [(h["q"], h["r"]) for h in data["hexes"] if h["tile"] == "forge"]
        mines = [(h["q"], h["r"]) for h in data["hexes"] if h["tile"] == "mine"]
        assert all(distance(f, CENTER) in rings for f in forges)
        # spread: no two Forges within distance 2, no Capital strictly nearest to two Forges
        assert all(distance(a, b) >= 3 for a, b in itertools.combinations(forges, 2))
        owners = []
        for f in forges:
            d = sorted((distance(f, c), i) for i, c in enumerate(caps))
            if len(d) == 1 or d[0][0] < d[1][0]:
                owners.append(d[0][1])
        assert len(owners) == len(set(owners)), (data["seed"], forges)
        assert _home_assignment(caps, mines, other) is not None, (data["seed"], mines)


@pytest.mark.parametrize("players", range(2, 7))
def test_mine_values_and_fairness(boards, players):
    radius = _per(BOARD["radius_by_players"], players)
    caps = list(_slots(players, radius).values())
    allowed = {int(v) for v in BOARD["mine_values"]}
    spread = BOARD["placement"]["fairness_max_spread"]
    for data in boards[players]:
        mines = [h for h in data["hexes"] if h["tile"] == "mine"]
        assert {h["mine_value"] for h in mines} <= allowed == {4, 5, 6}
        nearest = [min(distance(c, (m["q"], m["r"])) for m in mines) for c in caps]
        assert max(nearest) - min(nearest) <= spread, (data["seed"], nearest)


def test_mine_value_odds(boards):
    """§7.1: 50 / 30 / 20 %, within a generous margin over all generated Mines."""
    values = Counter(h["mine_value"] for layouts in boards.values() for data in layouts
                     for h in data["hexes"] if h["tile"] == "mine")
    total = sum(values.values())
    for value, percent in BOARD["mine_values"].items():
        assert abs(100 * values[int(value)] / total - percent) < 8, values


def test_json_is_the_engine_board_and_deterministic(boards):
    """Same seed, same board: the CLI prints exactly what generate_board gives the engine."""
    for players, layouts in boards.items():
        for seed in (0, 17, 39):
            assert layouts[seed] == generate_board(players, seed, GAME).to_json()
    again = json.loads(cli("board", "--content", str(ROOT / "tests" / "fixtures" / "content"), "--players", "5",
                           "--seed", "3", "--json").output)
    assert again == boards[5][3]
    assert boards[4][1] != boards[4][2]


def test_bad_player_count_is_a_clean_error():
    from click.testing import CliRunner

    from tether_build.cli import main

    result = CliRunner().invoke(main, ["board", "--content", str(ROOT / "tests" / "fixtures" / "content"),
                                       "--players", "7", "--json"])
    assert result.exit_code == 1
    assert "--players must be 2-6" in result.output
    assert "Traceback" not in result.output
