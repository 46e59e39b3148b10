"""Clone, observation and determinization: what a search agent needs from a game."""

from __future__ import annotations

import copy
import random

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.phases import advance_round
from tether_build.engine.play import play_round, run
from tether_build.engine.setup import new_game
from tether_build.engine.state import Bridges


def _mid_game(rules, players=3, seed=5, rounds=2):
    g = new_game(rules, players, seed, [HeuristicAgent() for _ in range(players)], log=[])
    for _ in range(rounds):
        assert not play_round(g)
        advance_round(g)
    return g


def test_bridges_copy_and_deepcopy_keep_edges_and_neighbours():
    b = Bridges(10, [1 * 256 + 2, 3 * 256 + 4])
    b.discard(3 * 256 + 4)
    for c in (copy.copy(b), copy.deepcopy(b)):
        assert set(c) == {1 * 256 + 2} and c.at == b.at and c.removals == 1
        c.add(5 * 256 + 6)
        assert 5 * 256 + 6 not in b


def test_clone_has_the_same_future(rules):
    g = _mid_game(rules)
    k = g.clone()
    run(g)
    run(k)
    assert g.s.digest() == k.s.digest() and g.events == k.events


def test_continuations_from_clones_never_change_the_original(rules):
    g = _mid_game(rules, players=2, seed=9)
    before, log_len = g.s.digest(), len(g.events)
    for i in range(1000):
        k = g.clone(agents=[RandomAgent(), RandomAgent()])
        for j, a in enumerate(k.agents):
            a.seed(i * 2 + j)
        k.rng = random.Random(i)
        k.events = None
        play_round(k)  # one round of a different, random future
    assert g.s.digest() == before and len(g.events) == log_len
    run(g)  # and the original still plays to its end
    assert g.s.winner


def test_observation_holds_no_other_seats_hidden_cards(rules):
    g = _mid_game(rules)
    s = g.s
    obs = g.observation(0)
    me, other = obs["players"][0], obs["players"][1]
    assert me["hand"] == sorted(s.cards[i].defn.id for i in s.players[0].hand)
    assert me["draw_contents"] == sorted(s.cards[i].defn.id for i in s.players[0].draw)
    assert other["hand"] is None and other["draw_contents"] is None
    assert other["permanent_vp"] is None and me["permanent_vp"] == s.players[0].pvp
    assert other["hand_size"] == len(s.players[1].hand)
    assert other["gold"] == s.players[1].gold  # Gold is public
    # no field anywhere lists the draw order or another seat's hand
    text = repr(obs)
    assert "'draw':" not in text and "decks" not in text


def test_determinization_is_consistent_with_the_observation_and_seeded(rules):
    g = _mid_game(rules)
    obs = g.observation(0)
    d1, d2 = g.determinize(0, seed=1), g.determinize(0, seed=1)
    assert d1.s.digest() == d2.s.digest()
    assert d1.observation(0) | {"players": None} == obs | {"players": None}
    for p, (a, b) in enumerate(zip(d1.observation(0)["players"], obs["players"])):
        if p == 0:
            assert a == b
        else:
            assert {k: v for k, v in a.items() if k != "permanent_vp"} == {
                k: v for k, v in b.items() if k != "permanent_vp"}
    pools = [sorted(pl.hand + pl.draw) for pl in g.s.players]
    assert pools == [sorted(pl.hand + pl.draw) for pl in d1.s.players]
    others = [g.determinize(0, seed=n).s.players[1].draw for n in range(8)]
    assert len({tuple(h) for h in others}) > 1  # hidden orders are really resampled
    run(d1)  # a determinized world plays on


def test_target_intent_reads_harm_and_help_from_the_steps(rules):
    from tether_build.engine.intent import target_intent

    zap = rules.by_id["zap"]
    assert target_intent(zap.effect[0], zap.raw["effect"]) == -1
    healers = [c for c in rules.by_id.values()
               if c.effect and c.effect[0].kind == "choose_target"
               and any(d.get("step") == "heal" for d in c.raw["effect"])
               and not any(d.get("step") in ("damage", "destroy_forces")
                           for d in c.raw["effect"])]
    assert healers
    for c in healers:
        assert target_intent(c.effect[0], c.raw["effect"]) == 1, c.id


def test_heuristic_never_aims_harm_at_its_own_champions(rules):
    from tether_build.engine.play import play_game

    harm = {"damage", "destroy_forces", "remove_champion"}
    for seed in range(6):
        g = play_game(rules, 4, seed, [HeuristicAgent() for _ in range(4)], log=True)
        aims = [e for e in g.events if e["e"] == "aim"]
        assert all(e["p"] not in e["owners"] for e in aims
                   if e["step"] in harm and e["side"] != "friendly")
        assert all(e["owners"] == [e["p"]] for e in aims if e["step"] == "heal")


def test_the_heuristic_decides_from_its_observation_alone(rules):
    """Dealing again what a seat cannot see (other hands, draw orders, Permanence) never
    changes the heuristic's choice: it reads only what its observation shows (§15.4)."""
    from tether_build.engine.actions import expand_plays, legal_actions
    from tether_build.engine.market import market_phase
    from tether_build.engine.phases import reset_phase

    for seed in (3, 4, 5):
        g = _mid_game(rules, players=3, seed=seed, rounds=2)
        reset_phase(g)  # the next round up to its Action Phase: hands drawn, mana full
        market_phase(g)
        for p in range(3):
            assert g.s.players[p].hand and g.s.players[p].mana
            picks = set()
            for world in range(4):
                d = g.determinize(p, 100 + world) if world else g.clone()
                assert d.observation(p) == g.observation(p)
                options = expand_plays(d, p, legal_actions(d, p, exact=False))
                assert len(options) > 2
                agent = HeuristicAgent()
                agent.seed(7)
                picks.add(repr(options[agent.choose(d, p, "action", options)]))
            assert len(picks) == 1, (seed, p, picks)
