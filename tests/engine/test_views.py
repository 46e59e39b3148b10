"""Clone, observation and determinization: what a search agent needs from a game."""

from __future__ import annotations

import copy
import random

import pytest

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.play import play_round, run
from tether_build.engine.setup import new_game
from tether_build.engine.state import Bridges


def _mid_game(rules, players=3, seed=5, rounds=2):
    g = new_game(rules, players, seed, [HeuristicAgent() for _ in range(players)], log=[])
    for _ in range(rounds):
        assert not play_round(g)
        g.advance_round()
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
    def pools(w):   # by card: a dealt world renumbers the hidden instances
        return [sorted(w.s.cards[i].defn.id for i in pl.hand + pl.draw) for pl in w.s.players]
    assert pools(g) == pools(d1)
    others = [[x.s.cards[i].defn.id for i in x.s.players[1].draw]
              for x in (g.determinize(0, seed=n) for n in range(8))]
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

    for seed in (3, 4, 5):
        g = _mid_game(rules, players=3, seed=seed, rounds=2)
        g.reset_phase()  # the next round up to its Action Phase: hands drawn, mana full
        g.market_phase()
        for p in range(3):
            assert g.s.players[p].hand and g.s.players[p].mana
            picks = set()
            for world in range(4):
                d = g.determinize(p, 100 + world) if world else g.clone()
                assert d.observation(p) == g.observation(p)
                options = d.expand_plays(p, d.legal_actions(p, exact=False))
                assert len(options) > 2
                agent = HeuristicAgent()
                agent.seed(7)
                picks.add(repr(options[agent.choose(d, p, "action", options)]))
            assert len(picks) == 1, (seed, p, picks)


def _mid_round(rules, players=3, seed=5):
    """A game at the start of round 3's Action Phase (hands drawn, Market done)."""

    g = _mid_game(rules, players, seed)
    g.reset_phase()
    g.market_phase()
    return g


def test_an_agent_reading_hidden_data_through_its_view_gets_an_error(rules):
    """Every way at another seat's hand, any draw order, other seats' Permanent VP or the
    supply decks raises Hidden; what the seat may know reads as on the live game."""
    from tether_build.engine.game import Game
    from tether_build.engine.seatview import Hidden

    tried = []

    class Peeker(HeuristicAgent):
        def choose(self, g, p, kind, options, ctx=None):
            if kind == "action" and not tried:
                live = real
                assert not isinstance(g, Game) and not hasattr(g, "agents")
                other = (p + 1) % len(g.s.players)
                assert list(g.s.players[p].hand) == live.s.players[p].hand
                assert g.s.players[p].pvp == live.s.players[p].pvp
                assert g.s.players[other].gold == live.s.players[other].gold
                assert g.s.players[other].hand_size == len(live.s.players[other].hand)
                assert [g.s.cards[i].defn.id for i in g.s.players[p].hand]
                peeks = {
                    "other hand": lambda: g.s.players[other].hand,
                    "other pvp": lambda: g.s.players[other].pvp,
                    "other draw": lambda: g.s.players[other].draw_contents,
                    "own draw order": lambda: g.s.players[p].draw,
                    "decks": lambda: g.s.decks,
                    "card in other hand": lambda: g.s.cards[live.s.players[other].hand[0]],
                    "card in own draw": lambda: g.s.cards[live.s.players[p].draw[0]],
                    "other observation": lambda: g.observation(other),
                }
                for what, peek in peeks.items():
                    with pytest.raises(Hidden):
                        peek()
                    tried.append(what)
                for name in ("game", "rng", "agents", "pending", "hooks"):
                    assert not hasattr(g, name)  # the live Game's parts are not there
                    tried.append(name)
                with pytest.raises(AttributeError):
                    g.s.players[p].gold = 99  # read-only
            return super().choose(g, p, kind, options, ctx)

    real = _mid_round(rules)
    real.agents[1] = Peeker()
    real.agents[1].seed(1)

    real.action_phase()
    assert len(tried) == 13


def _reachable(root, skip_types) -> list:
    """Every object reachable from root through public attributes, properties and items
    (names not starting with '_'; a Hidden property is not followed)."""
    from tether_build.engine.seatview import Hidden

    seen, todo, out = set(), [root], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (int, float, str, bytes, type(None))):
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, skip_types) or callable(obj):
            continue
        if isinstance(obj, dict) or hasattr(obj, "items") and hasattr(obj, "keys"):
            todo.extend(list(obj))
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        for name in dir(obj):
            if name.startswith("_"):
                continue
            try:
                todo.append(getattr(obj, name))
            except (Hidden, AttributeError):
                continue
    return out


def test_nothing_hidden_is_reachable_from_a_view(rules):
    """Walking everything an agent can reach from its view (and from a target choice's
    context) finds no Game, State, Player, hand, draw pile, supply deck or RNG."""
    from tether_build.engine.ruleset import CardDef, Ruleset
    from tether_build.engine.seatview import ask_view
    from tether_build.engine.topo import Topology

    g = _mid_round(rules)
    s = g.s
    view = g.seat_view(0).refresh("action", [])
    reached = _reachable(view, (Ruleset, CardDef, Topology))
    ctx = _reachable(ask_view(g.probe(0, s.cards[s.players[0].hand[0]])),
                     (Ruleset, CardDef, Topology))
    ids = {id(o) for o in reached + ctx}
    forbidden = {"game": g, "state": s, "rng": g.rng, "decks": s.decks}
    for pl in s.players:
        forbidden[f"player {pl.seat}"] = pl
        forbidden[f"draw {pl.seat}"] = pl.draw
        if pl.seat:
            forbidden[f"hand {pl.seat}"] = pl.hand
    forbidden.update({f"deck {k}": v for k, v in s.decks.items()})
    assert not [k for k, v in forbidden.items() if id(v) in ids]
    # and no card id reachable names a card in another hand or any draw pile / deck
    hidden = {i for pl in s.players for i in pl.draw + (pl.hand if pl.seat else [])}
    hidden |= {i for d in s.decks.values() for i in d}
    cards = {o.iid for o in reached if type(o).__name__ == "CardInst"}
    assert not cards & hidden
    assert len(reached) > 100  # the walk really went through the board


def test_a_views_state_is_built_at_its_first_read_and_new_at_each_decision(rules):
    """SeatView.s is built when an agent first reads it (a random agent never does): it
    shows the decision it was refreshed for, the same object within that decision, and a
    new one after the next refresh; before any decision it is None."""
    from tether_build.engine.seatview import SeatView

    g = _mid_round(rules)
    assert SeatView(g, 0).s is None
    pl = g.s.players[0]
    view = g.seat_view(0).refresh("discard", list(pl.hand))
    first = view.s
    assert first is view.s and first.round == g.s.round and first.lead == g.s.lead
    assert first.cards[pl.hand[0]] is g.s.cards[pl.hand[0]]
    assert first.players[0].hand == tuple(pl.hand)
    assert view.refresh("action", []).s is not first
    assert copy.deepcopy(g).seat_view(0).s is None  # a copy's view waits for its decision


def test_a_views_cards_answer_open_ids_at_once_and_hide_the_rest(rules):
    """The seat's own hand and the revealed Market row read at once; a card of its own
    draw pile reads only while the decision offers it (a look at its pile); any other
    hidden card raises Hidden, whether or not open ids were read before it."""
    from tether_build.engine.seatview import Hidden

    g = _mid_round(rules)
    s = g.s
    pl, other = s.players[0], s.players[1]
    if not s.revealed:
        deck = next(d for d in s.decks.values() if d)
        s.revealed.append(deck.pop())
    own_draw = pl.draw[0]
    view = g.seat_view(0).refresh("look_take", [own_draw, None])
    cards = view.s.cards
    assert [cards[i] for i in pl.hand] == [s.cards[i] for i in pl.hand]
    assert cards[s.revealed[0]] is s.cards[s.revealed[0]]
    assert cards[own_draw] is s.cards[own_draw]  # offered by this decision
    for hidden in (other.hand[0], pl.draw[-1], other.draw[0]):
        with pytest.raises(Hidden):
            cards[hidden]
    later = g.seat_view(0).refresh("action", []).s.cards
    with pytest.raises(Hidden):
        later[own_draw]  # no longer offered
    assert later[pl.hand[0]] is s.cards[pl.hand[0]]
