"""§12 Action Phase and §20 Champions: initiative order, locked targets and fizzle,
multi-hex moves stopping on contact, two-players-per-hex, immediate battles, Nth-Champion
gold, the Champion limit."""

from __future__ import annotations

import itertools

from tether_build.engine.options import Options
from tether_build.engine.scenario import give, hex_of_kind, put_champion, scenario
from tether_build.engine.topo import edge_key


def _pick(pred):
    """Scripted choice: the first option satisfying pred, else random."""
    def fn(kind, options, ctx):
        for i, o in enumerate(options):
            if pred(kind, o):
                return i
        return None
    return fn


def _line(g, length=3):
    """A straight line of non-special hexes from near the Center, bridged together."""
    s = g.s
    start = next(h for h in range(s.topo.n) if s.tile[h] == "plain"
                 and s.topo.dist[h][s.topo.center] == 1)
    line = [start]
    while len(line) < length:
        nxt = [n for n in s.topo.nbrs[line[-1]] if n not in line and s.tile[n] == "plain"
               and all(s.topo.dist[n][x] > 1 for x in line[:-1])]
        line.append(nxt[0])
    for a, b in itertools.pairwise(line):
        s.bridges.add(edge_key(a, b))
    return line


def test_initiative_order_then_basic_actions(rules, scripted):
    a0 = scripted(_pick(lambda k, o: o[0] == "card"))
    a1 = scripted(_pick(lambda k, o: o[0] == "card"))
    a2 = scripted(_pick(lambda k, o: o[0] == "reinforce"))
    g = scenario(rules, 3, 1, agents=[a2, a0, a1], passives=False, forces=1)
    for pl in g.s.players:
        pl.gold, pl.mana = 5, 5
    give(g, 1, "supply_cache")     # 55 / 120
    give(g, 2, "scout_report")     # 25 / 85
    plans = [g.declare(p) for p in (0, 1, 2)]
    g.resolve_step(plans)
    order = [(e["e"], e.get("p")) for e in g.events if e["e"] in ("resolved", "deploy")]
    assert order == [("resolved", 2), ("resolved", 1), ("deploy", 0)]
    g2 = scenario(rules, 3, 1, agents=[a2, a0, a1], passives=False, forces=1,
                  options=Options(initiative="second"))
    assert g2._initiative(g2.s.cards[give(g2, 1, "scout_report")]) == 85


def test_locked_target_fizzles_costs_stay_paid(rules, scripted):
    """§12.4: Recruit's hex is locked at declaration; if it is no longer yours, fizzle."""
    g = scenario(rules, 2, 2, passives=False, forces=1, agents=[
        scripted(_pick(lambda k, o: (k == "action" and o[0] == "card") or
                       (k == "option" and o == "occupied_hex") or
                       (k == "hex" and g.s.tile[o] == "plain"))), scripted()])
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    g.s.add_forces(0, h, 1)
    g.s.players[0].gold, g.s.players[0].mana = 3, 5
    iid = give(g, 0, "recruit")
    plan = g.declare(0)
    assert plan["kind"] == "card" and list(plan["locks"].values())[-1] == h
    assert (g.s.players[0].mana, g.s.players[0].gold) == (4, 2)
    g.s.remove_forces(0, h, 1)   # the locked hex is lost before resolution
    g.resolve_card(plan)
    assert any(e["e"] == "fizzled" for e in g.events)
    assert iid in g.s.players[0].discard and g.s.forces[h] == {}
    assert (g.s.players[0].mana, g.s.players[0].gold) == (4, 2)


def test_multi_hex_move_stops_on_contact_and_battles(rules):
    g = scenario(rules, 2, 3, passives=False)
    a, b, c = _line(g)
    g.s.add_forces(0, a, 5)
    g.s.add_forces(1, b, 1)
    opts = g.move_options(0, "stack", 2, False, False)
    assert all(o[4] != (b, c) for o in opts), "no path continues through an enemy hex"
    end = g.do_move(0, ("stack", a, 0, None, (b, c)), 2, False, False)
    assert end == b and g.s.occupants(b) == {0, 1}
    g.resolve_contacts(0)
    assert len(g.s.occupants(b)) == 1 and g.events[-1]["e"] == "battle_end"


def test_move_needs_bridges_unless_flying(rules):
    g = scenario(rules, 2, 3, passives=False)
    a, _b, c = _line(g)
    g.s.bridges.clear()
    g.s.add_forces(0, a, 2)
    assert g.move_options(0, "stack", 1, False, False) == []
    assert g.move_options(0, "stack", 1, True, False)
    ch = put_champion(g, 0, "skystriker_ace", c)  # Flight: ignores Bridges alone
    assert any(o[1] == c for o in g.move_options(0, "champion", 1, False, False))
    assert not any(o[1] == c for o in g.move_options(0, "force", 1, False, False))
    assert ch.hex == c


def test_two_players_per_hex(rules):
    g = scenario(rules, 3, 4, passives=False)
    cap = g.s.players[0].capital
    g.s.add_forces(0, cap, 1)
    g.s.add_forces(1, cap, 1)
    assert g.deploy(2, cap, 3) == 0 and 2 not in g.s.occupants(cap)
    assert g.blocked(2, cap) and not g.blocked(0, cap)


def test_nth_champion_gold_and_limit(rules, scripted):
    g = scenario(rules, 2, 5, passives=False, forces=2)
    cap = g.s.players[0].capital
    defn = rules.by_id["ironclad_warden"]
    gold = defn.champion["gold"]
    assert g.champion_gold(0, defn) == gold[0]
    put_champion(g, 0, "sergeant", cap)
    assert g.champion_gold(0, defn) == gold[1]
    put_champion(g, 0, "sergeant", cap)
    put_champion(g, 0, "sergeant", cap)
    assert g.champion_gold(0, defn) == gold[2]
    g.s.players[0].gold, g.s.players[0].mana = 20, 5
    iid = give(g, 0, "ironclad_warden")
    assert g.playable(0, iid)
    put_champion(g, 0, "sergeant", cap)
    assert len(g.s.players[0].champions) == rules.game["champions"]["limit"]
    assert not g.playable(0, iid)


def test_champion_card_deploys_and_is_burnt_when_it_dies(rules, scripted):
    g = scenario(rules, 2, 6, passives=False, forces=2, agents=[
        scripted(_pick(lambda k, o: k == "action" and o[0] == "card")), scripted()])
    pl = g.s.players[0]
    pl.gold, pl.mana = 10, 5
    iid = give(g, 0, "ironclad_warden")
    plan = g.declare(0)
    assert pl.gold == 10 - rules.by_id["ironclad_warden"].champion["gold"][0]
    g.resolve_card(plan)
    (ch,) = g.s.champions.values()
    assert ch.iid == iid and ch.hex == pl.capital
    assert iid not in pl.discard and iid not in pl.burn
    g.kill(ch, 1)
    assert iid in pl.burn


def test_action_phase_ends_when_all_done(rules):
    g = scenario(rules, 3, 7, forces=2)
    for pl in g.s.players:
        pl.mana, pl.gold = 5, 3
    g.action_phase()
    assert all(pl.done or pl.mana < 1 for pl in g.s.players)


def test_basic_bridge_fizzles_if_no_longer_touching(rules, scripted):
    g = scenario(rules, 2, 8, passives=False)
    a, b, _c = _line(g)
    g.s.bridges.clear()
    g.s.add_forces(0, a, 1)
    e = edge_key(a, b)
    g.s.remove_forces(0, a, 1)
    g.resolve_basic({"p": 0, "kind": "bridge", "choice": ("bridge", e)})
    assert e not in g.s.bridges and g.events[-1]["e"] == "fizzle"
