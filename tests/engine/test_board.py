"""§4, §5, §7: hex geometry and the procedural board generator over many seeds."""

from __future__ import annotations

import pytest

from tether_build.engine import board as B

SEEDS = range(60)


def test_geometry():
    assert B.distance((0, 0), (3, -1)) == 3
    assert B.distance((2, -2), (-2, 2)) == 4
    assert len(B.all_hexes(4)) == 61 and len(B.all_hexes(5)) == 91
    for k in range(1, 5):
        ring = B.ring((1, -1), k)
        assert len(ring) == 6 * k and len(set(ring)) == 6 * k
        assert all(B.distance(h, (1, -1)) == k for h in ring)
    assert sorted(B.neighbors((0, 0))) == sorted(B.ring((0, 0), 1))
    assert len(B.neighbors((4, 0), 4)) == 3  # a corner has three on-board neighbours


def test_capital_slots(game_cfg):
    assert B.capital_slots(2, game_cfg) == {"C0": (4, 0), "C3": (-4, 0)}
    assert B.capital_slots(4, game_cfg)["C1"] == (0, 5)
    assert B.capital_slots(5, game_cfg) == {"S1": (-5, 0), "S2": (-4, 5), "S3": (2, 2),
                                            "S4": (5, -3), "S5": (1, -5)}
    assert len(B.capital_slots(6, game_cfg)) == 6


def _check(b, game_cfg):
    cfg = game_cfg["board"]
    P = b.players
    place = cfg["placement"]
    assert b.radius == cfg["radius_by_players"][P]
    assert len(b.hexes) == len(B.all_hexes(b.radius))
    caps = list(b.capitals().values())
    assert len(caps) == P and set(b.capitals()) == set(B.capital_slots(P, game_cfg))
    counts = cfg["tile_counts"][P]
    mines, forges = b.of_kind("mine"), b.of_kind("forge")
    assert b.of_kind("center") == [(0, 0)]
    assert len(mines) == counts["mine"] and len(forges) == counts["forge"]
    for h in mines + forges:  # §7.2 eligibility
        assert all(B.distance(h, c) >= place["min_capital_distance"] for c in caps)
    for f in forges:
        assert B.distance(f, (0, 0)) in place["forge_center_distance"]
    homes = {c: [m for m in mines if B.distance(m, c) == 2] for c in caps}
    assert all(homes.values()), "every capital has a home mine at distance 2"
    others = [m for m in mines if B.distance(m, (0, 0)) not in place["other_mine_center_distance"]]
    assert len(others) <= P + (len(mines) - P if b.widened else 0)
    assert all(h.get("mine_value") in (4, 5, 6) for h in b.hexes if h["tile"] == "mine")
    assert B.access_spread(caps, mines) <= place["fairness_max_spread"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_placement_constraints_many_seeds(players, game_cfg):
    layouts = set()
    for seed in SEEDS:
        b = B.generate_board(players, seed, game_cfg)
        _check(b, game_cfg)
        layouts.add(tuple(sorted((h["q"], h["r"], h["tile"]) for h in b.hexes)))
    assert len(layouts) > 5, "seeds give different boards"


def test_forges_spread_maximin(game_cfg):
    """Maximin spread: no other choice of forges has a larger minimum pairwise distance
    given the first forge (greedy check against all candidates)."""
    for seed in SEEDS:
        b = B.generate_board(6, seed, game_cfg)
        forges = b.of_kind("forge")
        gaps = [B.distance(a, c) for i, a in enumerate(forges) for c in forges[i + 1:]]
        assert min(gaps) >= 3


def test_deterministic_json(game_cfg):
    a = B.generate_board(4, 123, game_cfg).to_json()
    assert a == B.generate_board(4, 123, game_cfg).to_json()
    assert set(a) == {"players", "radius", "seed", "hexes"}
    assert a["hexes"] == sorted(a["hexes"], key=lambda h: (h["r"], h["q"]))
    assert all(set(h) <= {"q", "r", "tile", "slot", "mine_value"} for h in a["hexes"])
    assert a != B.generate_board(4, 124, game_cfg).to_json()


def test_mine_value_distribution(game_cfg):
    import random
    rng = random.Random(5)
    values = B.assign_mine_values(20000, game_cfg["board"]["mine_values"], rng)
    share = {v: values.count(v) / len(values) for v in (4, 5, 6)}
    assert abs(share[4] - 0.5) < 0.02 and abs(share[5] - 0.3) < 0.02
    assert abs(share[6] - 0.2) < 0.02


def test_fairness_reroll_counted(game_cfg, monkeypatch):
    """An unfair first placement is rerolled and the reroll recorded (§7.3 sanity check)."""
    real = B._place
    calls = []

    def fake(radius, caps, counts, cfg, rng):
        calls.append(1)
        forges, mines, widened = real(radius, caps, counts, cfg, rng)
        if len(calls) == 1:  # first attempt: crowd all mines next to one capital -> unfair
            c = next(iter(caps.values()))
            mines = [m for m in B.all_hexes(radius) if B.distance(m, c) == 2][:len(mines)]
        return forges, mines, widened
    monkeypatch.setattr(B, "_place", fake)
    b = B.generate_board(4, 7, game_cfg)
    assert b.rerolls == 1 and len(calls) == 2


def test_unfair_forever_raises(game_cfg, monkeypatch):
    cfg = {**game_cfg, "board": {**game_cfg["board"], "placement": {
        **game_cfg["board"]["placement"], "fairness_max_spread": -1}}}
    monkeypatch.setattr(B, "MAX_REROLLS", 5)
    with pytest.raises(ValueError, match="no fair board"):
        B.generate_board(3, 1, cfg)


def test_access_spread():
    assert B.access_spread([(4, 0), (-4, 0)], [(2, 0), (-1, 0)]) == 1


def _forge_fair(game_cfg, limit):
    return {**game_cfg, "board": {**game_cfg["board"], "placement": {
        **game_cfg["board"]["placement"], "forge_fairness_max_spread": limit}}}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_fairness_check_covers_the_forges_when_asked(game_cfg, players):
    """forge_fairness_max_spread: no board whose Capitals are unequally far from the Forges
    (the Mines' check, on the Forges); without it the boards are those of before."""
    cfg = _forge_fair(game_cfg, game_cfg["board"]["placement"]["fairness_max_spread"])
    limit = cfg["board"]["placement"]["forge_fairness_max_spread"]
    spreads = []
    for seed in range(12):
        b = B.generate_board(players, seed, cfg)
        caps = B.capital_slots(players, cfg).values()
        assert B.access_spread(caps, b.forges) <= limit, (players, seed)
        assert B.access_spread(caps, b.mines) <= cfg["board"]["placement"]["fairness_max_spread"]
        old = B.generate_board(players, seed, game_cfg)
        spreads.append(B.access_spread(caps, old.forges))
    if players == 4:   # the unchecked generator does make such boards (seed 1: 2 vs 5 away)
        assert max(spreads) > limit


def test_an_impossible_forge_limit_raises(game_cfg, monkeypatch):
    monkeypatch.setattr(B, "MAX_REROLLS", 5)
    with pytest.raises(ValueError, match="no fair board"):
        B.generate_board(6, 1, _forge_fair(game_cfg, -1))
