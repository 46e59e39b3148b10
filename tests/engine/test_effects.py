"""Card effects through the real handlers: durations, triggers, modifiers, special steps."""

from __future__ import annotations

from tether_build.engine.combat import Battle
from tether_build.engine.scenario import give, hex_of_kind, put_champion, scenario
from tether_build.engine.topo import edge_key


def play(g, p, card_id):
    """Declare (agents choose) and resolve one card for seat p; returns the plan."""
    iid = give(g, p, card_id)
    pl = g.s.players[p]
    pl.mana, pl.gold = max(pl.mana, 10), max(pl.gold, 10)
    locks = g.declare_card(p, g.s.cards[iid], dry=False)
    assert locks is not None, f"{card_id} has no legal target"
    pl.hand.remove(iid)
    pl.played.append(iid)
    plan = {"p": p, "inst": g.s.cards[iid], "locks": locks["locks"], "refs": locks["refs"]}
    g.resolve_card(plan)
    return plan


def _plain(g, n=1):
    caps = set(g.s.capital_of)
    return [h for h in range(g.s.topo.n) if g.s.tile[h] == "plain" and h not in caps
            and g.s.topo.dist[h][g.s.topo.center] >= 2][:n]


def test_next_battle_modifier_binds_to_the_target_and_ends(rules):
    g = scenario(rules, 2, 1, passives=False)
    h = _plain(g)[0]
    ch = put_champion(g, 1, "shadeblade", h)
    g.s.add_forces(0, g.s.players[0].capital, 1)
    play(g, 0, "slow")
    b = Battle(50, h, 0, 1, False)
    b.round = 1
    from tether_build.engine.mods import bind_battle
    bind_battle(g.hooks, b, b.sides, [ch])
    assert g.unit_stats(b, 1, ch)[0] == 1, "Slow: exactly one die in its next battle"
    g.hooks.remove_where(lambda a: a.battle == b.bid)
    b2 = Battle(51, h, 0, 1, False)
    assert g.unit_stats(b2, 1, ch)[0] == ch.defn.champion["dice"]


def test_card_drawn_trigger_and_card_counter(rules):
    g = scenario(rules, 2, 1, passives=False)
    give(g, 0, "big_vp_gainer", "draw")
    g.s.players[0].gold = 3
    g.draw(0, 1)
    assert g.s.players[0].gold == 2
    iid = give(g, 0, "future_investment")
    g.discard_card(0, iid)
    assert g.s.cards[iid].counter == 1


def test_propaganda_counter_grows(rules):
    g = scenario(rules, 2, 1, passives=False)
    cap = g.s.players[0].capital
    iid = give(g, 0, "propaganda_recruitment", "draw")
    g.s.players[0].draw.remove(iid)
    for expected in (0, 1, 2):
        g.s.players[0].hand.append(iid)
        before = g.s.forces[cap].get(0, 0)
        pl = g.s.players[0]
        pl.mana = pl.gold = 10
        locks = g.declare_card(0, g.s.cards[iid], dry=False)
        pl.hand.remove(iid)
        pl.played.append(iid)
        g.resolve_card({"p": 0, "inst": g.s.cards[iid], **locks})
        pl.discard.remove(iid)
        assert g.s.forces[cap].get(0, 0) - before == expected


def test_bridge_trap_fires_on_enemy_crossing(rules, scripted):
    g = scenario(rules, 2, 2, passives=False)
    a, b = _plain(g, 1)[0], None
    b = next(n for n in g.s.topo.nbrs[a] if g.s.tile[n] == "plain")
    g.s.add_forces(0, a, 1)
    g.s.bridges.add(edge_key(a, b))
    play(g, 0, "bridge_trap")
    g.s.remove_forces(0, a, 1)
    g.s.add_forces(1, b, 3)
    g.do_move(1, ("stack", b, 0, None, (a,)), 1, False, False)
    assert g.s.forces[a] == {1: 2}
    g.s.add_forces(1, b, 3)
    g.do_move(1, ("stack", b, 0, None, (a,)), 1, False, False)
    assert g.s.forces[a] == {1: 5}, "limit once"


def test_link_hexes_block_bridge_and_tunnels(rules):
    g = scenario(rules, 2, 3, factions=["refiner", "leadbound"])
    s = g.s
    caps = set(s.capital_of)
    m1 = hex_of_kind(g, "mine", caps)
    m2 = hex_of_kind(g, "mine", caps | {m1})
    s.add_forces(0, m1, 1)
    s.add_forces(0, m2, 1)
    s.bridges.clear()
    assert any(o[4] == (m2,) for o in g.move_options(0, "stack", 1, False, False))
    assert not g.move_options(1, "stack", 1, False, False)
    a = _plain(g)[0]
    b = next(h for h in _plain(g, 91) if s.topo.dist[a][h] >= 3)
    put_champion(g, 1, "sergeant", a)
    g.s.add_forces(1, a, 1)
    ctx_refs = {"x": a, "y": b}
    from tether_build.engine.mods import Active, ModDef
    g.hooks.add_mod(Active(1, "end_of_round", refs=ctx_refs),
                    ModDef({"modifier": "link_hexes", "a": {"ref": "x"}, "b": {"ref": "y"}}))
    assert any(o[4] == (b,) for o in g.move_options(1, "stack", 1, False, False))
    n = next(x for x in s.topo.nbrs[a] if not s.occupants(x))
    s.bridges.add(edge_key(a, n))
    g.hooks.add_mod(Active(0, "end_of_round", refs={"e": edge_key(a, n)}),
                    ModDef({"modifier": "block_bridge", "bridge": {"ref": "e"}}))
    assert not any(o[4] == (n,) for o in g.move_options(1, "stack", 1, False, False))


def test_tailwind_once_per_round(rules):
    g = scenario(rules, 2, 4, factions=["vapourborn", "leadbound"])
    a, b, c = _plain(g, 1)[0], None, None
    b = next(n for n in g.s.topo.nbrs[a] if g.s.tile[n] == "plain")
    c = next(n for n in g.s.topo.nbrs[b] if n != a and g.s.topo.dist[n][a] == 2)
    g.s.bridges.update({edge_key(a, b), edge_key(b, c)})
    g.s.add_forces(0, a, 2)
    assert any(o[4] == (b, c) for o in g.move_options(0, "stack", 1, False, False))
    g.do_move(0, ("stack", a, 0, None, (b, c)), 1, False, False)
    assert g.s.forces[c] == {0: 2}
    assert not any(len(o[4]) == 2 for o in g.move_options(0, "stack", 1, False, False))


def test_wings_deploy_anchor(rules):
    g = scenario(rules, 2, 4, factions=["vapourborn", "leadbound"])
    assert g.deploy_anchors(0) == [g.s.players[0].capital]
    g.s.add_forces(0, g.s.topo.center, 1)
    assert g.s.topo.center in g.deploy_anchors(0)


def test_last_contract_cost_override(rules):
    g = scenario(rules, 2, 5, passives=False, forces=1)
    play(g, 0, "last_contract")
    pl = g.s.players[0]
    iid = give(g, 0, "titan_vanguard")
    assert g.card_cost(0, g.s.cards[iid])[:2] == (0, 0)
    other = give(g, 0, "zap")
    assert g.card_cost(0, g.s.cards[other])[:2] == (1, 0)
    pl.mana, pl.gold = 1, 0
    assert g.playable(0, iid)


def test_set_to_skirmish_retreats(rules, scripted):
    holder = []
    g = scenario(rules, 2, 6, passives=False, agents=[
        scripted(lambda k, o, c: o.index(holder[0]) if k == "hex" else None), scripted()])
    h = _plain(g)[0]
    holder.append(h)
    g.s.add_forces(0, h, 2)
    g.s.players[0].mana = 5
    play(g, 0, "set_to_skirmish")
    g.s.add_forces(1, h, 4)
    g.dirty[h] = 1
    g.resolve_contacts(1)
    assert 0 not in g.s.occupants(h) and any(e["e"] == "retreat" for e in g.events)


def test_traitor_on_death_sets_mana(rules):
    g = scenario(rules, 2, 7, passives=False)
    ch = put_champion(g, 0, "traitor", _plain(g)[0])
    g.s.players[0].mana = 4
    g.damage(ch, 99, 1)
    assert g.s.players[0].mana == 0 and ch.cid not in g.s.champions


def test_forge_miracle_overrides(rules):
    g = scenario(rules, 2, 8, passives=False)
    play(g, 0, "forge_miracle")
    hand = [g.s.cards[i] for i in g.s.players[0].hand]
    assert len(hand) == 3 and all(c.defn.age == "I" for c in hand)
    assert all(c.get("burn") and c.get("mana") == 1 and g._initiative(c) == 0
               for c in hand)


def test_exodia_sacrifices_others(rules):
    g = scenario(rules, 2, 9, passives=False, forces=1)
    cap = g.s.players[0].capital
    for _ in range(3):
        put_champion(g, 0, "sergeant", cap)
    play(g, 0, "exodia")
    assert [c.defn.id for c in g.s.champions.values()] == ["exodia"]


def test_mortar_shot_and_encirclement_resolve(rules):
    g = scenario(rules, 2, 10, passives=False, forces=3)
    for cid in ("mortar_shot", "encirclement", "a_hero_joins_the_battle", "black_market_pull",
                "civilizational_hero"):
        play(g, 0, cid)
    assert any(e["e"] == "scatter" for e in g.events)
    assert len(g.s.players[0].champions) == 1


def test_ward_untargetable(rules):
    g = scenario(rules, 2, 11, passives=False)
    h = _plain(g)[0]
    ch = put_champion(g, 0, "sergeant", h)
    g.s.add_forces(1, next(n for n in g.s.topo.nbrs[h]), 1)
    play(g, 0, "ward")
    iid = give(g, 1, "zap")
    g.s.players[1].mana = 3
    assert not g.playable(1, iid), "the only Champion in range is warded"
    assert ch.cid in g.s.champions
