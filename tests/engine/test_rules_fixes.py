"""The rules gaps fixed after the first engine: optional ("you may") steps, the summon pool
of A Hero Joins the Battle, cards offered only with a legal target, and the look-ahead
classification that keeps that cheap."""

from __future__ import annotations

import random

import pytest

from tether_build.effects import spec
from tether_build.effects.compile import normalize_steps
from tether_build.engine import declare, rand
from tether_build.engine.agents import RandomAgent
from tether_build.engine.core import Ctx
from tether_build.engine.invariants import problems_of
from tether_build.engine.play import play_game
from tether_build.engine.ruleset import CardDef, Compiler
from tether_build.engine.scenario import give, put_champion, scenario
from tether_build.engine.topo import edge_key


def _card(effect: list[dict], **over) -> CardDef:
    """A compiled card definition with this effect (not in any deck)."""
    d = {"id": "probe_card", "name": "Probe", "deck": "starter", "age": None, "faction": None,
         "category": "movement", "type": "order", "mana": 1, "gold": 0, "copies": 1,
         "burn": False, "vp": 0, "champion": None, "requires": None, "triggers": [],
         "initiative": [50, 50], "effect": normalize_steps(effect, "test"), **over}
    return CardDef(999, d, Compiler())


def _bridge_out(g, p):
    """Bridge seat p's Capital to a free neighbour; returns that neighbour."""
    cap = g.s.players[p].capital
    n = next(b for b in g.s.topo.nbrs[cap] if not g.s.occupants(b))
    g.s.bridges.add(edge_key(cap, n))
    return n


# ---- (a) optional steps ------------------------------------------------------------------
def test_every_you_may_move_is_optional(rules):
    """Bridge Crew and Bridge Deed: 'Then you may move 1 stack' (spec and content)."""
    assert "optional" in spec.STEPS["move"][1]
    for cid in ("bridge_crew", "bridge_deed"):
        (_, mv) = rules.by_id[cid].effect
        assert mv.kind == "move" and mv.params["optional"] is True, cid


@pytest.mark.parametrize("skip", [True, False])
def test_bridge_crew_offers_a_skip(rules, scripted, skip):
    def fn(kind, options, ctx):
        if kind == "move":
            assert options[0] is None, "the skip comes first"
            return 0 if skip else 1
        return 0
    g = scenario(rules, 2, 3, passives=False, forces=2, agents=[scripted(fn), scripted()])
    cap = g.s.players[0].capital
    iid = give(g, 0, "bridge_crew")
    plan = {"p": 0, "inst": g.s.cards[iid], **g.declare_card(0, g.s.cards[iid], False)}
    g.s.players[0].hand.remove(iid)
    g.s.players[0].played.append(iid)
    g.resolve_card(plan)
    assert (g.s.forces[cap].get(0, 0) == 2) is skip
    assert any(e["e"] == "bridge" for e in g.events)


def test_an_optional_only_target_keeps_the_card_playable(rules):
    g = scenario(rules, 2, 4, passives=False)  # no units: no move at all
    inst = g.s.cards[give(g, 0, "supply_cache")]
    must = _card([{"step": "move", "distance": 1}])
    may = _card([{"step": "move", "distance": 1, "optional": True}])
    assert must.check == declare.CHEAP and may.check is None
    inst.defn = must
    assert not g.has_target(0, inst)
    inst.defn = may
    assert g.has_target(0, inst)
    locks = g.declare_card(0, inst, dry=False)["locks"]
    assert list(locks.values()) == [None], "the skip, locked (the only choice)"


def test_a_further_stack_is_up_to(rules):
    """'Move up to 2 stacks': one stack is enough to play it (and to move it)."""
    g = scenario(rules, 2, 5, passives=False, forces=2)
    _bridge_out(g, 0)
    inst = g.s.cards[give(g, 0, "supply_cache")]
    inst.defn = _card([{"step": "move", "stacks": 2, "distance": 1}])
    locks = g.declare_card(0, inst, dry=False)
    assert locks is not None and len(locks["locks"]) == 1


# ---- (b) A Hero Joins the Battle ------------------------------------------------------------
def test_hero_pool_is_every_two_mana_champion(rules):
    g = scenario(rules, 2, 6, passives=False, forces=1)
    for pile in g.s.decks.values():  # nothing left in the supply: still a Champion
        g.s.players[1].scrapped.extend(pile)
        pile.clear()
    n_cards = len(g.s.cards)
    iid = give(g, 0, "a_hero_joins_the_battle")
    plan = {"p": 0, "inst": g.s.cards[iid], **g.declare_card(0, g.s.cards[iid], False)}
    g.s.players[0].hand.remove(iid)
    g.s.players[0].played.append(iid)
    g.resolve_card(plan)
    (ch,) = g.s.champions.values()
    assert ch.defn.is_champion and ch.defn.mana == 2
    assert ch.iid == n_cards + 1, "a new copy of the card joined the game"
    assert list(problems_of(g, "card")) == []


def test_hero_takes_the_supply_copy_when_there_is_one(rules):
    seen = set()
    for seed in range(40):
        g = scenario(rules, 2, seed, passives=False, forces=1)
        supply = {i for pile in g.s.decks.values() for i in pile}
        n_cards = len(g.s.cards)
        iid = give(g, 0, "a_hero_joins_the_battle")
        plan = {"p": 0, "inst": g.s.cards[iid],
                **g.declare_card(0, g.s.cards[iid], False)}
        g.s.players[0].hand.remove(iid)
        g.s.players[0].played.append(iid)
        g.resolve_card(plan)
        (ch,) = g.s.champions.values()
        seen.add(ch.defn.deck)
        if ch.defn.deck != "faction":
            assert ch.iid in supply and all(ch.iid not in p for p in g.s.decks.values())
        else:
            assert ch.iid == n_cards + 1
    assert "faction" in seen and len(seen) > 1, "faction and supply Champions both come up"


# ---- (c) only cards with a legal target are offered -------------------------------------------
def test_cards_without_a_target_are_not_offered(rules):
    g = scenario(rules, 2, 7, passives=False, forces=1)
    pl = g.s.players[0]
    pl.mana, pl.gold = 5, 5
    zap, cache = give(g, 0, "zap"), give(g, 0, "supply_cache")
    for exact in (False, True):
        offered = {o[1] for o in g.legal_actions(0, exact) if o[0] == "card"}
        assert offered == {cache}, "no Champion on the board: nothing to Zap"
    h = g.s.players[0].capital
    put_champion(g, 1, "sergeant", h)
    offered = {o[1] for o in g.legal_actions(0, False) if o[0] == "card"}
    assert offered == {zap, cache}


def test_exact_and_quick_offers_agree(rules):
    """Over random games: exact=False never drops a card exact=True offers, and differs
    only by PROBE cards; a card whose check is None always declares."""
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        g = play_game(rules, 3, seed, [RandomAgent() for _ in range(3)])
        s = g.s
        for p in range(3):
            pl = s.players[p]
            pl.mana, pl.gold = 9, 9
            pl.hand.extend(rng.sample(pl.discard + pl.draw, min(4, len(pl.discard))))
            pl.discard = [i for i in pl.discard if i not in pl.hand]
            pl.draw = [i for i in pl.draw if i not in pl.hand]
            quick = set(g.legal_actions(p, exact=False))
            exact = set(g.legal_actions(p, exact=True))
            assert exact <= quick
            assert all(o[0] == "card" and s.cards[o[1]].defn.check == declare.PROBE
                       for o in quick - exact)
            for iid in pl.hand:
                inst = s.cards[iid]
                if inst.defn.check is None:
                    assert g.declare_card(p, inst, dry=True) is not None
                    checked += 1
    assert checked > 20


def test_look_ahead_classes(rules):
    by = rules.by_id
    assert by["supply_cache"].check is None and by["recruit"].check is None
    assert by["zap"].check == declare.CHEAP and by["zap"].quick is not None
    assert by["bridge_pivot"].check == declare.PROBE and by["bridge_pivot"].quick is None


# ---- engine helpers that must not change a game ----------------------------------------------
def test_rand_twins_draw_what_random_draws():
    for seed in range(50):
        a, b = random.Random(seed), random.Random(seed)
        for n in (1, 2, 7, 64, 65):
            x, y = list(range(n)), list(range(n))
            a.shuffle(x)
            rand.shuffle(b, y)
            assert x == y
            assert a.randint(0, n) == rand.randint(b, 0, n)
            assert a.randrange(n) == rand.below(b, n)


def test_bridges_keep_their_neighbour_index():
    from tether_build.engine.state import Bridges
    from tether_build.engine.topo import topology
    topo, rng = topology(5), random.Random(4)
    b = Bridges(topo.n)
    for _ in range(400):
        es = rng.sample(topo.edges, 4)
        op = rng.randrange(8)
        if op == 7:  # many at once, some already built, one twice (the bulk path)
            b.update(rng.sample(topo.edges, 14) + es + es[:1])
        elif op == 0:
            b.add(es[0])
        elif op == 1:
            b.discard(es[0])
        elif op == 2:
            b.update(es[:2])
        elif op == 3:
            b -= set(es[:3])
        elif op == 4:
            b ^= set(es)
        elif op == 5 and b:
            b.pop()
        elif op == 6 and rng.random() < 0.1:
            b.clear()
        assert b.at == [tuple(x for x in topo.adj[h] if x[1] in b) for h in range(topo.n)]
    assert b == set(b) and isinstance(b, set)


def test_probe_context_is_reset(rules):
    g = scenario(rules, 2, 8, passives=False)
    a = g.probe(0, None)
    b = g.probe(1, None)
    assert a is b and b.p == 1 and b.dry and b.declaring and isinstance(b, Ctx)
