"""Cards do what their text says: the mechanisms behind Column Advance, Bridge Trap,
War Chronicle and "move N stacks ... each" (issue: engine semantics)."""

from __future__ import annotations

from tests.engine.test_rules_fixes import _card
from tether_build.engine.scenario import give, scenario
from tether_build.engine.topo import edge_key


def _line(g, start, n):
    """A straight-ish chain of n free hexes from `start`, bridged together."""
    path, at = [], start
    for _ in range(n):
        nxt = next(b for b in g.s.topo.nbrs[at] if b not in path and b != start
                   and not g.s.occupants(b) and b not in g.s.capital_of)
        g.s.bridges.add(edge_key(at, nxt))
        path.append(nxt)
        at = nxt
    return path


def _play(g, p, defn, iid=None):
    iid = give(g, p, "supply_cache") if iid is None else iid
    inst = g.s.cards[iid]
    inst.defn = defn
    plan = {"p": p, "inst": inst, **g.declare_card(p, inst, False)}
    g.s.players[p].hand.remove(iid)
    g.s.players[p].played.append(iid)
    g.resolve_card(plan)


def _farthest(kind, options, ctx):
    if kind == "move":
        real = [o for o in options if o is not None]
        return options.index(max(real, key=lambda o: len(o[4])))
    return 0


def test_stop_on_occupied_stops_at_the_movers_own_stack(rules, scripted):
    offered = []

    def fn(kind, options, ctx):
        if kind == "move":
            offered.extend(o for o in options if o is not None)
        return _farthest(kind, options, ctx)
    for flag in (True, False):
        offered.clear()
        g = scenario(rules, 2, 3, passives=False, agents=[scripted(fn), scripted()])
        cap = g.s.players[0].capital
        a, _b, _c = _line(g, cap, 3)
        g.s.add_forces(0, cap, 3)
        g.s.add_forces(0, a, 1)  # our own stack one hex out
        _play(g, 0, _card([{"step": "move", "stacks": 1, "distance": 3,
                            "stop_on_occupied": flag}]))
        through = [o for o in offered if o[1] == cap and a in o[4][:-1]]
        assert bool(through) is not flag  # with the flag nothing goes on past our stack


def test_each_unit_moves_at_most_once_per_card(rules, scripted):
    g = scenario(rules, 2, 3, passives=False, agents=[scripted(_farthest), scripted()])
    cap = g.s.players[0].capital
    a, b = _line(g, cap, 2)
    g.s.add_forces(0, cap, 2)
    _play(g, 0, _card([{"step": "move", "stacks": 2, "distance": 1}]))
    # the first stack went cap -> a; it may not be carried on a -> b by the second move
    assert g.s.forces[a].get(0) == 2 and not g.s.forces[b]


TRAP = [{"step": "choose_target", "as": "trap", "bridge": {"touching": {"occupied_by": "you"}}},
        {"step": "add_trigger", "trigger": "enemy_crosses_bridge", "target": "trap",
         "duration": "end_of_round", "limit": "once",
         "steps": [{"step": "destroy_forces", "count": 1, "hex": {"event_hex": True},
                    "side": "mover"}]}]


def _trapped(rules, scripted, crossing_champion: bool):
    """Seat 0 traps the Bridge out of seat 1's Capital; seat 1 already has 1 Force in the
    hex beyond and sends 2 Forces (or a Champion alone) across."""
    from tether_build.engine.scenario import put_champion

    g = scenario(rules, 2, 3, passives=False, agents=[scripted(), scripted(_farthest)])
    cap1 = g.s.players[1].capital
    (a,) = _line(g, cap1, 1)
    g.s.add_forces(0, cap1, 0)
    g.s.add_forces(1, a, 1)
    champ = next(c.id for c in rules.by_id.values() if c.type == "champion")
    if crossing_champion:
        put_champion(g, 1, champ, cap1)
    else:
        g.s.add_forces(1, cap1, 2)
    g.s.add_forces(0, cap1, 1)  # seat 0 touches the only Bridge out of cap1 while it sets
    _play(g, 0, _card(TRAP, category="bridges", type="spell"))  # the trap on it
    g.s.remove_forces(0, cap1, 1)
    _play(g, 1, _card([{"step": "move", "stacks": 1, "distance": 1, "unit": "champion"
                        if crossing_champion else "stack"}]))
    return g, a


def test_bridge_trap_takes_a_force_of_the_crossing_stack_only(rules, scripted):
    g, a = _trapped(rules, scripted, crossing_champion=False)
    trips = [e for e in g.events if e["e"] == "trigger" and e["ev"] == "enemy_crosses_bridge"]
    assert len(trips) == 1
    assert g.s.forces[a].get(1) == 2, "1 stood there + 2 crossed - 1 lost"


def test_bridge_trap_spares_a_champion_crossing_alone(rules, scripted):
    g, a = _trapped(rules, scripted, crossing_champion=True)
    assert any(e["e"] == "trigger" and e["ev"] == "enemy_crosses_bridge" for e in g.events)
    assert g.s.forces[a].get(1) == 1, "the Force that stood there is not in the crossing stack"


def test_look_never_shuffles_the_discard_pile_in(rules):
    g = scenario(rules, 2, 3, passives=False)
    pl = g.s.players[0]
    for _ in range(3):
        give(g, 0, "recruit", "discard")
    _play(g, 0, _card([{"step": "look", "count": 2, "take": 0, "rest": "top"}]))
    assert pl.draw == [] and len(pl.discard) == 4  # 3 + the card played
    assert not any(e["e"] == "reshuffle" for e in g.events)


def test_action_step_choices_are_simultaneous(rules, scripted):
    """§12.1: seat 1 chooses seeing seat 0's Mana, Gold and hand as they were at the start
    of the Action Step, though seat 0 chose a card first; costs are paid at the reveal."""
    seen = []

    def first_card(kind, options, ctx):
        return next((i for i, o in enumerate(options) if o[0] == "card"), 0) if (
            kind == "action") else 0

    class Watcher(scripted):
        sees = "game"  # a rules test: it reads seat 0's zones from the live game

        def choose(self, g, p, kind, options, ctx=None):
            if kind == "action":
                pl = g.s.players[0]
                seen.append((pl.mana, pl.gold, len(pl.hand), len(pl.played)))
            return super().choose(g, p, kind, options, ctx)


    g = scenario(rules, 2, 1, agents=[scripted(first_card), Watcher(first_card)],
                 passives=False, forces=1)
    for pl in g.s.players:
        pl.gold, pl.mana = 5, 1
    give(g, 0, "supply_cache")
    give(g, 1, "supply_cache")
    assert g.seat_order()[0] == 0
    g.action_phase()
    assert seen[0] == (1, 5, 1, 0), "seat 0's choice was not visible to seat 1"
    assert [e["p"] for e in g.events if e["e"] == "play"] == [0, 1]
    assert g.s.players[0].mana == 0 and g.s.players[1].mana == 0


def test_a_stack_may_send_its_champions_alone_or_its_cohorts_alone(rules, scripted):
    """§2.1 "a stack is any number of your units": everything, the Champions alone or the
    Cohorts alone, so "if moving alone" abilities can be used with Cohorts on the hex."""
    from tether_build.engine.paths import ALONE_FORCES
    from tether_build.engine.scenario import put_champion

    champ = next(c.id for c in rules.by_id.values() if c.type == "champion")
    for cid, nf, all_forces, moved_champion in ((0, None, True, True), (0, 0, False, True),
                                                (ALONE_FORCES, None, True, False)):
        g = scenario(rules, 2, 3, passives=False)
        cap = g.s.players[0].capital
        (a,) = _line(g, cap, 1)
        g.s.add_forces(0, cap, 3)
        ch = put_champion(g, 0, champ, cap)
        there = g.s.forces[cap][0]  # (a Champion may bring Cohorts when it arrives)
        opts = g.move_options(0, "stack", 1, False, False)
        assert ("stack", cap, cid, nf, (a,)) in opts
        g.do_move(0, ("stack", cap, cid, nf, (a,)), 1, False, False)
        assert g.s.forces[a].get(0, 0) == (there if all_forces else 0)
        assert (ch.hex == a) is moved_champion


def _trigger(g, name):
    return next(a for acts in g.hooks.trigs.values() for a in acts
                if a.ability is not None and a.ability.name == name)


def test_once_per_round_is_spent_only_when_it_does_something(rules):
    """Assassin's Edge in a battle with no enemy Champion stays unused for the round."""
    from tether_build.engine.combat import Battle
    from tether_build.engine.mods import bind_battle
    from tether_build.engine.scenario import hex_of_kind, put_champion
    g = scenario(rules, 2, 3, passives=False)
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    put_champion(g, 0, "shadeblade", h)
    g.s.add_forces(1, h, 2)
    edge = _trigger(g, "Assassin's Edge")

    def start(bid):
        b = Battle(bid, h, 1, 0, False)
        champs = list(g.s.champs_at[h])
        bind_battle(g.hooks, b, b.sides, champs)
        g.fire("battle_start", {"battle": b, "hex": h, "sides": b.sides, "champs": champs})
    start(1)
    assert edge.used_round != g.s.round  # no enemy Champion: nothing done, not spent
    foe = put_champion(g, 1, "blood_banker", h)
    hp = foe.hp
    start(2)
    assert foe.hp == hp - 1 and edge.used_round == g.s.round
    foe.hp = hp
    start(3)
    assert foe.hp == hp  # spent for this round


def test_first_time_each_round_pays_once_in_one_battle(rules):
    """Blood Banker: two Champions dying in its hex in one battle pay +2 gold once."""
    from tether_build.engine.combat import Battle
    from tether_build.engine.scenario import hex_of_kind, put_champion
    g = scenario(rules, 2, 3, passives=False)
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    put_champion(g, 0, "blood_banker", h)
    victims = [put_champion(g, 1, "shadeblade", h), put_champion(g, 1, "stormcaller", h)]
    g.s.players[0].gold = 0
    b = Battle(7, h, 0, 1, False)
    for ch in victims:
        g.kill(ch, None, battle=b)
    assert g.s.players[0].gold == 2


def test_hit_assignment_option(rules):
    """§14.2: at the roll a second hit on the same Force is lost; `surviving` never wastes."""
    from tether_build.engine.combat import Battle
    from tether_build.engine.options import Options
    from tether_build.engine.scenario import hex_of_kind
    killed = {}
    for how in ("at_roll", "surviving"):
        g = scenario(rules, 2, 3, passives=False, options=Options(hit_assignment=how))
        h = hex_of_kind(g, "plain", set(g.s.capital_of))
        g.s.add_forces(1, h, 2)
        b = Battle(1, h, 0, 1, False)
        killed[how] = {g._assign(b, 0, 1, 2, [])[0] for _ in range(40)}
    assert killed == {"at_roll": {1, 2}, "surviving": {2}}


def test_collection_starts_at_the_lead(rules, scripted):
    """§16 Collection goes in seat order from the Lead, not always from seat 0."""
    from tether_build.engine.scenario import hex_of_kind
    seen = []

    def rec(seat):
        def fn(kind, options, ctx):
            seen.append((seat, kind))
            return 0
        return fn
    g = scenario(rules, 2, 3, passives=False, agents=[scripted(rec(0)), scripted(rec(1))])
    m0 = hex_of_kind(g, "mine", set(g.s.capital_of))
    m1 = hex_of_kind(g, "mine", set(g.s.capital_of) | {m0})
    g.s.add_forces(0, m0, 1)
    g.s.add_forces(1, m1, 1)
    g.s.lead = 1
    g.collection_phase()
    assert [s for s, k in seen if k == "mine"] == [1, 0]


def test_last_stand_takes_forces_of_the_entering_stack_only(rules, scripted):
    """Last Stand's mechanism: up to 3 Forces of the stack that enters, not the enemy
    Forces already in the Capital."""
    g = scenario(rules, 2, 3, passives=False)
    cap0 = g.s.players[0].capital
    (a,) = _line(g, cap0, 1)

    def into_capital(kind, options, ctx):
        if kind == "move":
            return next(i for i, o in enumerate(options) if o is not None and o[4][-1] == cap0)
        return 0
    g.agents[1] = scripted(into_capital)
    g.s.add_forces(1, cap0, 2)  # already there before the stack enters
    g.s.add_forces(1, a, 2)
    _play(g, 0, _card([{"step": "add_trigger", "trigger": "enemy_enters_capital",
                        "limit": "once", "duration": "end_of_round",
                        "steps": [{"step": "destroy_forces", "count": 3,
                                   "hex": {"own_capital": True}, "side": "mover"}]}]))
    _play(g, 1, _card([{"step": "move", "stacks": 1, "distance": 1}]))
    assert g.s.forces[cap0].get(1) == 2 and not g.s.forces[a].get(1)


def test_costs_n_gold_includes_the_nth_champion_gold(rules):
    """One reading of "costs N gold" (Forge Miracle's gained cards, Last Contract): the
    whole gold paid, the §20.2 Nth-Champion gold included."""
    from tether_build.engine.scenario import hex_of_kind, put_champion
    from tether_build.engine.state import MappingProxyType
    g = scenario(rules, 2, 3, passives=False)
    h = hex_of_kind(g, "plain", set(g.s.capital_of))
    put_champion(g, 0, "shadeblade", h)
    put_champion(g, 0, "stormcaller", h)
    iid = give(g, 0, "blood_banker")
    inst = g.s.cards[iid]
    assert g.card_cost(0, inst)[1] > 0  # the third Champion's gold
    inst.over = MappingProxyType({"gold": 0, "mana": 1})
    assert g.card_cost(0, inst)[:2] == (1, 0)


def test_extra_draw_at_the_next_reset_is_kept(rules):
    """Breakthrough Line's reading: 2 extra cards at the next Reset, after the usual draw
    (drawn at Cleanup they would be discarded with the hand); once only."""
    g = scenario(rules, 2, 3, passives=False)
    pl = g.s.players[0]
    for _ in range(12):
        give(g, 0, "recruit", "draw")
    _play(g, 0, _card([{"step": "add_trigger", "trigger": "round_start",
                        "duration": "permanent", "limit": "once",
                        "steps": [{"step": "draw", "count": 2}]}]))
    size = rules.game["hand"]["size"]
    g.cleanup_phase()
    g.reset_phase()
    assert len(pl.hand) == size + 2
    g.cleanup_phase()
    g.s.round += 1
    g.reset_phase()
    assert len(pl.hand) == size


def test_capital_draft_comes_before_mines_and_forges(rules, scripted):
    """§8: players draft Capital slots before the Center, Mines and Forges are placed."""
    from tether_build.engine.setup import new_game
    seen = []

    class Watcher(scripted):
        def choose(self, g, p, kind, options, ctx=None):
            if kind == "capital":
                seen.append(sorted(set(g.s.tile.values()) if isinstance(g.s.tile, dict)
                                   else set(g.s.tile)))
            return super().choose(g, p, kind, options, ctx)
    g = new_game(rules, 3, 5, [Watcher(), Watcher(), Watcher()])
    assert len(seen) == 2  # the last seat takes the slot left
    assert not any({"mine", "forge", "center"} & set(tiles) for tiles in seen)
    assert {"mine", "forge", "center"} <= set(g.s.tile.values() if isinstance(g.s.tile, dict)
                                               else g.s.tile)
