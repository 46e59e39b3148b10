"""Whole plays: an agent with `whole_plays` chooses a card together with its targets in one
Action Step decision ("Zap that Champion"), and no target decision follows."""

from __future__ import annotations

from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.scenario import give, put_champion, scenario

from .conftest import Scripted


class Whole(Scripted):
    whole_plays = True


def _zap_board(rules, agents):
    g = scenario(rules, 2, 0, factions=["cipher", "cipher"], agents=agents)
    s = g.s
    cap = s.players[0].capital
    near = min(s.topo.nbrs[cap])
    g.s.add_forces(0, cap, 1)
    mine = put_champion(g, 0, "sergeant", cap)
    foe_a = put_champion(g, 1, "brute", near)
    foe_b = put_champion(g, 1, "sergeant", near)
    s.players[0].mana = 1
    return g, give(g, 0, "zap"), (mine, foe_a, foe_b)


def test_every_target_is_one_play(rules):
    g, zap, champs = _zap_board(rules, [Whole(), Scripted()])
    plays = g.card_plays(0, zap)
    assert sorted(play[0][1].cid for play in plays) == sorted(c.cid for c in champs)
    assert all(len(play) == 1 and play[0][0] == "champion" for play in plays)
    options = g.expand_plays(0, g.legal_actions(0, exact=False))
    assert [o for o in options if o[0] == "card"] == [("card", zap, p) for p in plays]


def test_the_chosen_play_is_declared_and_no_target_is_asked(rules):
    def pick_brute(kind, options, ctx):
        if kind == "action":
            return next(i for i, o in enumerate(options)
                        if o[0] == "card" and o[2][0][1].defn.id == "brute")
        return 0
    agent = Whole(pick_brute)
    g, _, (mine, brute, sergeant) = _zap_board(rules, [agent, Scripted()])
    g.resolve_card(g.reveal_action(g.choose_action(0)))
    assert [kind for kind, _ in agent.asked] == ["action"]
    assert (mine.hp, brute.hp, sergeant.hp) == (mine.max_hp, brute.max_hp - 1, sergeant.max_hp)


def test_without_whole_plays_the_target_is_its_own_decision(rules):
    agent = Scripted(lambda kind, options, ctx: next(
        (i for i, o in enumerate(options) if o[0] == "card"), 0) if kind == "action" else 0)
    g, _, _ = _zap_board(rules, [agent, Scripted()])
    g.resolve_card(g.reveal_action(g.choose_action(0)))
    assert [kind for kind, _ in agent.asked] == ["action", "champion"]


def test_the_heuristic_zaps_a_foe_not_its_own_champion(rules):
    for seed in range(5):
        h = HeuristicAgent()
        h.seed(seed)
        g, zap, (mine, _, _) = _zap_board(rules, [h, Scripted()])
        g.s.players[0].hand = [zap]
        plan = g.reveal_action(g.choose_action(0))
        assert plan["kind"] == "card"
        g.resolve_card(plan)
        assert mine.hp == mine.max_hp


def test_a_move_stays_a_decision_of_its_own(rules):
    def pick(kind, options, ctx):
        return next(i for i, o in enumerate(options) if o[0] == "card") if kind == "action" \
            else 0
    agent = Whole(pick)
    g = scenario(rules, 2, 0, factions=["cipher", "cipher"], agents=[agent, Scripted()])
    cap = g.s.players[0].capital
    g.s.add_forces(0, cap, 2)
    g.s.bridges.update(g.s.topo.edges)
    g.s.players[0].mana = 2
    card = give(g, 0, "quick_march")
    assert g.card_plays(0, card) == [()]
    g.resolve_card(g.reveal_action(g.choose_action(0)))
    assert [kind for kind, _ in agent.asked] == ["action", "move"]
    assert g.s.forces[cap].get(0, 0) == 0
