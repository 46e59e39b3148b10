"""§8 setup, §10 Reset, §16 Collection, §17 Scoring and the win, §3.2 tie-breakers,
§18 Cleanup, §19 Ages and the Lead."""

from __future__ import annotations

from tether_build.engine.agents import RandomAgent
from tether_build.engine.mods import Active, ModDef
from tether_build.engine.scenario import give, hex_of_kind, scenario
from tether_build.engine.setup import bridge_candidates, new_game


def test_setup(rules):
    facs = ["leadbound", "cipher", "refiner", "vapourborn"]
    g = new_game(rules, 4, 11, [RandomAgent() for _ in range(4)], facs, log=[])
    s, game = g.s, rules.game
    caps = [e["p"] for e in g.events if e["e"] == "capital"]
    assert caps == [3, 2, 1, 0], "capital draft in reverse seating order"
    starter = sum(c.copies for c in rules.cards if c.deck == "starter")
    for p, pl in enumerate(s.players):
        assert s.forces[pl.capital] == {p: game["starting"]["forces"]}
        assert pl.gold == game["resources"]["start_gold"]
        assert len(pl.hand) == game["hand"]["size"]
        ids = [s.cards[i].defn.id for i in pl.hand + pl.draw]
        fac = rules.factions[facs[p]]
        assert fac.champion in [s.cards[i].defn.id for i in pl.hand]
        assert fac.spell in ids and len(ids) == starter + 2 + 1  # + free starting card
    reach = game["starting"]["bridge_reach"]
    for e in s.bridges:
        a, b = e >> 8, e & 255
        assert any(min(s.topo.dist[pl.capital][a], s.topo.dist[pl.capital][b]) <= reach
                   for pl in s.players)
    assert 1 <= len(s.bridges) <= 4 * game["starting"]["bridges"]
    assert set(bridge_candidates(g, 0)) <= set(s.topo.edges)


def test_reset_income_mana_draw(rules):
    g = scenario(rules, 2, 1, passives=False)
    pl = g.s.players[0]
    for _ in range(8):
        give(g, 0, "supply_cache", "draw")
    pl.gold, pl.mana = 3, 0
    g.reset_phase()
    assert pl.gold == 3 + rules.game["resources"]["base_income"]
    assert pl.mana == rules.game["resources"]["max_mana"]
    assert len(pl.hand) == rules.game["hand"]["size"]


def test_hand_limit_sends_draws_to_discard(rules):
    g = scenario(rules, 2, 1, passives=False)
    limit = rules.game["hand"]["limit"]
    for _ in range(limit):
        give(g, 0, "zap")
    top = give(g, 0, "supply_cache", "draw")
    assert g.draw(0, 1) == 1
    assert top in g.s.players[0].discard and len(g.s.players[0].hand) == limit


def test_collection_mine_gold_with_ore_cut(rules, scripted):
    gold_first = scripted(lambda k, o, c: 0 if k == "mine" else None)
    g = scenario(rules, 2, 2, factions=["refiner", "leadbound"], agents=[gold_first, scripted()])
    mine = hex_of_kind(g, "mine", set(g.s.capital_of))
    g.s.add_forces(0, mine, 1)
    before = g.s.players[0].gold
    g.collection_phase()
    assert g.s.players[0].gold == before + g.s.mine_value[mine] + 1


def test_collection_center_power_pick(rules):
    g = scenario(rules, 2, 2, passives=False)
    g.s.add_forces(0, g.s.topo.center, 1)
    deck = len(g.s.decks["age1_power"])
    g.collection_phase()
    gained = [e for e in g.events if e["e"] == "gain"]
    assert len(gained) == 1 and rules.by_id[gained[0]["card"]].deck == "age1_power"
    assert len(g.s.decks["age1_power"]) == deck - 1


def test_scoring_control_vp_and_win_condition(rules):
    g = scenario(rules, 2, 3, factions=["gatewright", "leadbound"], passives=True)
    s = g.s
    s.add_forces(0, s.topo.center, 1)
    s.add_forces(0, hex_of_kind(g, "forge"), 1)
    s.add_forces(0, s.players[1].capital, 1)  # Occupiers: 2 for an enemy Capital
    assert g.control_vp(0) == 1 + 1 + 2
    s.players[0].pvp = rules.game["victory"]["vp_to_win"] - 4
    assert g.scoring_phase() == [0]
    s.add_forces(1, s.players[0].capital, 1)
    assert g.scoring_phase() == [], "an enemy in your Capital blocks the win (§3.1)"


def test_vp_while_modifier(rules):
    g = scenario(rules, 2, 3, passives=False)
    from tether_build.engine.scenario import put_champion
    put_champion(g, 0, "bannerman", g.s.players[0].capital)
    assert g.control_vp(0) == 1


def test_tie_breakers(rules):
    g = scenario(rules, 3, 4, passives=False)
    s = g.s
    for pl, (pvp, cvp, gold) in zip(s.players, [(3, 2, 1), (4, 1, 0), (4, 1, 5)]):
        pl.pvp, pl.cvp, pl.gold = pvp, cvp, gold
    assert g.rank([0, 1, 2]) == [2]
    s.players[2].gold = 0
    assert g.rank([0, 1, 2]) == [1, 2], "all equal: shared (final_tie option)"


def test_cleanup_ends_round_effects(rules):
    g = scenario(rules, 2, 5, passives=False)
    s = g.s
    e = s.topo.edges[0]
    s.bridges.add(e)
    s.temp_bridges.add(e)
    keep = s.topo.edges[1]
    s.bridges.add(keep)
    g.hooks.add_mod(Active(0, "end_of_round"), ModDef({"modifier": "pick_extra", "amount": 1}))
    g.hooks.add_mod(Active(0, "permanent"), ModDef({"modifier": "pick_extra", "amount": 1}))
    give(g, 0, "zap")
    g.cleanup_phase()
    assert s.bridges == {keep} and len(g.hooks.of("pick_extra")) == 1
    assert not s.players[0].hand and len(s.players[0].discard) == 1


def test_ages_and_lead(rules):
    g = scenario(rules, 3, 6)
    seen = []
    for _ in range(9):
        g.advance_round()
        seen.append((g.s.round, g.s.age, g.s.lead))
    assert seen[2] == (4, "II", 0) and seen[6] == (8, "III", 1) and seen[0] == (2, "I", 1)
