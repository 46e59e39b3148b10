"""§12.7, §13, §14, §21 combat: odds against an exact calculation, sieges, Champions, bounty,
and the combat passives/abilities."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb

import pytest

from tether_build.engine.odds import battle_odds, parse_side
from tether_build.engine.scenario import hex_of_kind, put_champion, scenario


def _distinct(k: int, n: int) -> list[Fraction]:
    """P(j distinct units hit) when k hits land uniformly on n units."""
    dist = [Fraction(0)] * (n + 1)
    dist[0] = Fraction(1)
    for _ in range(k):
        new = [Fraction(0)] * (n + 1)
        for j, pr in enumerate(dist):
            if pr:
                new[j] += pr * Fraction(j, n)
                if j < n:
                    new[j + 1] += pr * Fraction(n - j, n)
        dist = new
    return dist


def _hits(n: int, p: Fraction) -> list[Fraction]:
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


@cache
def exact(a: int, d: int, pa: Fraction = Fraction(1, 3), pd: Fraction = Fraction(1, 3)):
    """(P attacker wins, P defender wins, P both die), Forces only, random assignment."""
    if a == 0 and d == 0:
        return (Fraction(0), Fraction(0), Fraction(1))
    if d == 0:
        return (Fraction(1), Fraction(0), Fraction(0))
    if a == 0:
        return (Fraction(0), Fraction(1), Fraction(0))
    stay = Fraction(0)
    acc = [Fraction(0)] * 3
    for ka, pka in enumerate(_hits(a, pa)):
        kill_d = _distinct(ka, d)
        for kd, pkd in enumerate(_hits(d, pd)):
            kill_a = _distinct(kd, a)
            for i, pi in enumerate(kill_a):
                for j, pj in enumerate(kill_d):
                    pr = pka * pkd * pi * pj
                    if not pr:
                        continue
                    if i == 0 and j == 0:
                        stay += pr
                    else:
                        sub = exact(a - i, d - j, pa, pd)
                        for x in range(3):
                            acc[x] += pr * sub[x]
    return tuple(x / (1 - stay) for x in acc)


@pytest.mark.parametrize("a,d", [(3, 2), (2, 2), (5, 3)])
def test_forces_odds_match_exact(rules, a, d):
    r = battle_odds(rules, {"forces": a, "champions": []}, {"forces": d, "champions": []},
                    "plain", trials=6000, seed=a * 10 + d)
    ea, ed, eb = (float(x) for x in exact(a, d))
    tol = 0.03
    assert abs(r["attacker_wins"] - ea) < tol
    assert abs(r["defender_wins"] - ed) < tol
    assert abs(r["both_destroyed"] - eb) < tol


def test_shield_wall_first_round_defender(rules):
    """Leadbound Forces defending hit on 1-3 in combat round 1 only (§21.1)."""
    g = scenario(rules, 2, 1, factions=["gatewright", "leadbound"])
    b_hex = hex_of_kind(g, "plain", set(g.s.capital_of))
    from tether_build.engine.combat import Battle
    b = Battle(1, b_hex, 0, 1, False)
    b.round = 1
    assert g.unit_stats(b, 1, None) == (1, 3)
    assert g.unit_stats(b, 0, None) == (1, 2)
    b.round = 2
    assert g.unit_stats(b, 1, None) == (1, 2)
    b2 = Battle(2, b_hex, 1, 0, False)
    b2.round = 1
    assert g.unit_stats(b2, 1, None) == (1, 2), "attacking Leadbound gets no Shield Wall"


def test_mine_militia_and_gatecrashers(rules):
    from tether_build.engine.combat import Battle
    g = scenario(rules, 2, 1, factions=["refiner", "gatewright"])
    mine = hex_of_kind(g, "mine", set(g.s.capital_of))
    b = Battle(1, mine, 1, 0, False)
    b.round = 3
    assert g.unit_stats(b, 0, None)[1] == 3  # Refiner defends in a Mine
    siege = Battle(2, g.s.players[0].capital, 1, 0, True)
    siege.round = 1
    assert g.unit_stats(siege, 1, None)[1] == 3  # Gatewright in an enemy Capital


def test_champion_bounty_and_kill(rules):
    """A Champion at 0 HP leaves the board, its card is burnt, the killer gets the bounty."""
    g = scenario(rules, 2, 3, factions=["leadbound", "virteous_court"])
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    ch = put_champion(g, 0, "ironclad_warden", h, hp=1)
    g.s.add_forces(1, h, 30)
    g.s.players[1].gold = 0
    winner = g.battle(h, 1, 0, siege=False)
    assert winner == 1 and ch.cid not in g.s.champions
    assert ch.iid in g.s.players[0].burn
    bounty = rules.by_id["ironclad_warden"].champion["bounty"]
    # Virteous Court 'Contracts' adds +2 on a kill
    assert g.s.players[1].gold == bounty + 2


def test_bodyguard_redirects_first_hit(rules):
    """Ironclad Warden: the first hit on a friendly Champion goes to a Force instead."""
    g = scenario(rules, 2, 4, factions=["leadbound", "leadbound"], passives=False)
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    ch = put_champion(g, 0, "ironclad_warden", h)
    g.s.add_forces(0, h, 2)
    from tether_build.engine.combat import Battle
    b = Battle(9, h, 1, 0, False)
    forces_hit, _champ_hits = set(), {}
    assert g._redirect(b, 0, ch, 2, forces_hit) is True and forces_hit == {0}
    assert g._redirect(b, 0, ch, 2, forces_hit) is False  # only the first hit


def test_siege_defender_is_owner(rules):
    g = scenario(rules, 2, 5, factions=["leadbound", "leadbound"], passives=False)
    cap = g.s.players[0].capital
    g.s.add_forces(0, cap, 1)
    g.s.add_forces(1, cap, 6)
    g.sieges()
    battles = [e for e in g.events if e["e"] == "battle"]
    assert battles and battles[0]["dfn"] == 0 and battles[0]["att"] == 1 and battles[0]["siege"]
    assert len(g.s.occupants(cap)) == 1


def test_no_immediate_battle_in_capital(rules):
    g = scenario(rules, 2, 5, passives=False)
    cap = g.s.players[0].capital
    g.s.add_forces(0, cap, 2)
    g.deploy(1, cap, 3)
    g.resolve_contacts(1)
    assert g.s.occupants(cap) == {0, 1}, "a Capital waits for the siege phase (§12.7)"
    plain = hex_of_kind(g, "plain", set(g.s.capital_of))
    g.s.add_forces(0, plain, 1)
    g.deploy(1, plain, 5)
    g.resolve_contacts(1)
    assert len(g.s.occupants(plain)) == 1


def test_damage_prevented_for_gold(rules):
    from tether_build.engine.mods import Active, ModDef
    g = scenario(rules, 2, 6, passives=False)
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    ch = put_champion(g, 0, "ironclad_warden", h)
    act = Active(0, "end_of_round", target="t", refs={"t": ch})
    g.hooks.add_mod(act, ModDef({"modifier": "prevent_damage_for_gold", "units": "target",
                                 "gold": 2}))
    g.s.players[0].gold = 3
    assert g.damage(ch, 2, 1) == 1 and g.s.players[0].gold == 1
    assert ch.hp == ch.max_hp - 1


def test_parse_side_errors():
    assert parse_side("forces=3,champion=a,champion=b") == {"forces": 3,
                                                            "champions": ["a", "b"]}
    for bad in ("forces=x", "horses=2", "forces"):
        with pytest.raises(ValueError):
            parse_side(bad)


def test_a_huge_stack_fights_by_counts(rules):
    """Issue 17.13: Forces' hits are counted, not listed: 300,000 Cohorts against 40 end
    in one battle without one object per die, and the result is what the counts say."""
    import tracemalloc

    g = scenario(rules, 2, 7, passives=False)
    plain = hex_of_kind(g, "plain", set(g.s.capital_of))
    g.s.add_forces(0, plain, 40)
    tracemalloc.start()
    g.deploy(1, plain, 300_000)
    g.resolve_contacts(1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert g.s.occupants(plain) == {1}
    assert 299_000 < g.s.forces[plain][1] <= 300_000
    assert peak < 400_000  # bytes: ~100,000 hits listed one by one would need ~800 kB
