"""The native search agent ("nsearch", engine/native/search.cpp): a copy of the game made at
an Action Step plays on exactly as the game itself; seeded games are the same games; the
search only ever picks an offered option; and it reads nothing its seat cannot see."""

from __future__ import annotations

import json

import pytest

from tether_build.engine import native
from tether_build.engine.options import Options

from .native_cases import kitchen_sink

SMALL = {"sims": 6, "width": 3, "horizon": 3}  # a small budget: the tests stay fast


@pytest.fixture(scope="module")
def sink(compiled):
    from tether_build.engine.ruleset import Ruleset
    return Ruleset.from_compiled(kitchen_sink(compiled))


def _play(rules, players, seed, agents, search=None, log=False, check=False):
    facs = sorted(rules.factions)
    game = (seed, [facs[(seed + i) % len(facs)] for i in range(players)], agents, check)
    declined: list = []
    got = native.for_rules(rules).play(players, [game], Options().to_dict(), log=log,
                                       declined=declined, search=search)[0]
    assert got is not None, declined
    return got


@pytest.mark.parametrize("which", ["fixture", "sink"])
@pytest.mark.parametrize("players,agents", [(2, ["heuristic"] * 2),
                                            (3, ["random", "heuristic", "random"]),
                                            (4, ["heuristic"] * 4)])
def test_a_copy_made_at_any_action_step_plays_out_the_same_game(native_built, rules, sink,
                                                                which, players, agents):
    """The copy is the search's footing: at the start of every Action Step of the game a
    copy (its raw pointers relinked) plays to the end with the same agents; its event log
    and final state are the game's own, every time."""
    rs = rules if which == "fixture" else sink
    for seed in (3, 8):
        got = _play(rs, players, seed, agents, search={"verify": True}, log=True)
        assert got["forks"] > 5
        assert got["forks_same"] == got["forks"]


def test_a_seeded_search_game_is_the_same_game(native_built, rules):
    a = _play(rules, 2, 5, ["nsearch", "heuristic"], search=SMALL, log=True)
    b = _play(rules, 2, 5, ["nsearch", "heuristic"], search=SMALL, log=True)
    assert a["search"]["searched"] > 0
    assert a["events"] == b["events"] and a["search"]["trace"] == b["search"]["trace"]
    c = _play(rules, 2, 5, ["nsearch", "heuristic"], search=dict(SMALL, sims=7), log=True)
    assert c["search"]["trace"] != a["search"]["trace"]  # the trace does show the search


@pytest.mark.parametrize("which", ["fixture", "sink"])
def test_the_search_picks_offered_options_and_keeps_the_rules(native_built, rules, sink,
                                                               which):
    """Every searched choice is one of the options offered (the log's decide lines), the
    rules invariants hold after every step (check), and every simulation ran on the same
    option list as the game (none mismatched)."""
    rs = rules if which == "fixture" else sink
    for players, seed in ((2, 1), (4, 2)):
        agents = ["nsearch"] + ["heuristic"] * (players - 1)
        got = _play(rs, players, seed, agents, search=dict(SMALL, limit=12), log=True,
                    check=True)
        asked = [e for e in got["events"] if e["e"] == "decide" and e["p"] == 0
                 and e["kind"] == "action"]
        assert asked and all(0 <= e["i"] < e["n"] for e in asked)
        assert got["search"]["searched"] > 0
        assert got["search"]["mismatched"] == 0


def _first_search(rules, seed, **cfg):
    got = _play(rules, 2, seed, ["heuristic", "nsearch"], search=dict(SMALL, limit=1, **cfg))
    assert got["search"]["searched"] == 1
    return got["search"]["trace"].split(";")[0]


@pytest.mark.parametrize("seed", [2, 13])
def test_the_search_does_not_read_what_its_seat_cannot_see(native_built, rules, seed):
    """Two games that differ only in what the searching seat cannot see (just before its
    first searched decision: another seat's hand and draw pile dealt differently, its own
    draw order, every supply deck's order, the dice and the other agents' generators;
    `perturb`) give that decision the same options, the same simulations (visits and
    summed values of every arm, exactly) and the same choice. Without the deal the same
    change shows: the test can fail."""
    plain = _first_search(rules, seed)
    assert plain.count(",") >= 3
    assert _first_search(rules, seed, perturb=True) == plain
    assert _first_search(rules, seed, perturb=True, deal=False) != \
        _first_search(rules, seed, deal=False)


def test_simulate_plays_nsearch_in_the_native_engine(native_built, rules, monkeypatch):
    from tether_build.engine.simulate import simulate

    monkeypatch.setattr(native, "SEARCH", SMALL)
    out = simulate(rules, 2, 2, 0, agents=["nsearch", "heuristic"], workers=1)
    assert set(out["agent_win_rate"]) == {"nsearch", "heuristic"}


def test_a_table_does_not_offer_nsearch():
    """nsearch plays whole games in the native engine: `tether play` refuses it with a
    sentence, and the browser table does not list it."""
    from tests.engine.test_play_cli import _run
    from tether_build.serve.play import _agents

    r = _run(["--agents", "nsearch"], "")
    assert r.exit_code != 0 and "native engine only" in r.output
    assert "nsearch" not in _agents() and "search" in _agents()


def test_the_balance_lab_plays_nsearch_in_the_native_engine(native_built, compiled,
                                                           monkeypatch):
    """`tether balance --agents nsearch,heuristic`: the lab's games are the native
    engine's (the Python side has no nsearch: it would refuse)."""
    from tether_build.analysis import runner

    monkeypatch.setattr(native, "SEARCH", dict(SMALL, limit=5))
    spec = {"games": 2, "players": 2, "seed": 0, "agents": ["nsearch", "heuristic"],
            "factions": None, "options": None}
    recs = runner.run_batch(compiled, spec, [0, 1])
    assert len(recs) == 2
    assert all("nsearch" in json.dumps(r) for r in recs)


def test_the_search_is_a_tree_over_its_seats_decisions(native_built, rules):
    """Each simulation adds a node below the root: the seat's later answers (its next
    Action Steps, bids, targets...) are nodes of the tree, several levels deep, and its
    bids are searched at a root of their own."""
    got = _play(rules, 2, 4, ["nsearch", "heuristic"], search=dict(SMALL, limit=8))
    s = got["search"]
    assert s["searched"] == 8 and s["mismatched"] == 0
    assert s["nodes"] > s["searched"] * 4      # a root and a node a simulation, mostly
    assert s["depth"] >= 2                      # below the root's children
    more = _play(rules, 2, 4, ["nsearch", "heuristic"], search=SMALL)["search"]
    assert more["bids"] > 0
    off = _play(rules, 2, 4, ["nsearch", "heuristic"], search=dict(SMALL, bids=False))
    assert off["search"]["bids"] == 0


def test_a_replay_stops_at_the_decision_after_its_answers(native_built, rules):
    """The replay (bench_nsearch_openspiel.py) plays a seeded game by the answers given,
    every seat's in the order asked, and answers the next decision: replaying a logged
    game's first k answers stops at its (k+1)-th decision, of the same kind and options;
    an answer out of range is refused."""
    got = _play(rules, 2, 6, ["heuristic", "heuristic"], log=True)
    asked = [e for e in got["events"] if e["e"] == "decide"]
    answers = [e["i"] for e in asked]
    for k in (0, 7, len(asked) // 2):
        s = _play(rules, 2, 6, ["heuristic", "nsearch"],
                  search=dict(SMALL, replay=answers[:k]))["search"]
        assert (s["kind"], s["n"]) == (asked[k]["kind"], asked[k]["n"])
        assert 0 <= s["answer"] < s["n"]
    facs = sorted(rules.factions)
    declined: list = []
    bad = native.for_rules(rules).play(2, [(6, [facs[6 % len(facs)], facs[7 % len(facs)]],
                                            ["heuristic", "nsearch"])], Options().to_dict(),
                                       declined=declined, search={"replay": [999]})[0]
    assert bad is None and "out of range" in declined[0]


def test_a_replay_of_the_state_apis_answers_waits_where_the_python_game_waits(native_built,
                                                                            rules):
    """bench_nsearch_openspiel.py's footing: a Python state API game (OpenSpiel's) answered
    by varied options, its history replayed in the native engine, waits at the same
    decision (kind and option count) as the Python game, at several points of the game."""
    import random

    from tether_build.engine.state_api import new_state

    st = new_state(rules, 2, 9)
    r = random.Random(3)
    twin = native.for_rules(rules)
    facs = [rules.default_faction] * 2
    checked = 0
    for k in range(400):
        if st.is_terminal():
            break
        q, kind, options, _ctx = st.asked()
        if k % 40 == 5 and len(options) > 1:
            agents = ["heuristic"] * 2
            agents[q] = "nsearch"
            got = twin.play(2, [(9, facs, agents)], Options().to_dict(),
                            search=dict(SMALL, replay=st.history()))[0]
            assert (got["search"]["kind"], got["search"]["n"]) == (kind, len(options))
            checked += 1
        st.apply_index(r.randrange(len(options)))
    assert checked >= 3


@pytest.mark.parametrize("which", ["fixture", "sink"])
def test_targets_moves_and_modes_are_searched_at_a_root_of_their_own(native_built, rules,
                                                                   sink, which):
    """The seat's decisions asked inside a resolution (targets, moves, mine and forge
    modes...) are searched at a root of their own (`nested`, as search.py does): each
    simulation re-runs the round from its start to the decision and reaches that very
    decision (none mismatched); `nested` is on by default. With it off they are the
    heuristic's."""
    rs = rules if which == "fixture" else sink
    got = _play(rs, 2, 8, ["nsearch", "heuristic"], search=dict(SMALL), check=True)
    s = got["search"]
    assert s["nested"] > 0 and s["mismatched"] == 0
    assert s["searched"] > s["nested"] + s["bids"]     # Action Step choices too
    off = _play(rs, 2, 8, ["nsearch", "heuristic"], search=dict(SMALL, nested=False))
    assert off["search"]["nested"] == 0


def _views(rules, seed, **cfg):
    got = _play(rules, 2, seed, ["heuristic", "nsearch"], search=dict(SMALL, views=True, **cfg))
    s = got["search"]
    return s["views"], s["trace"].split(";"), s.get("perturbed"), s["dealt"]


def _informed(v):
    """The seat's information at a search: its view, its own answers and what it saw
    shown from hidden places since the game began (revealed cards, drafted cards)."""
    return v["view"], v["mine"], v["seen"]


@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize("seed,rnd", [(19, 4), (3, 3), (7, 4)])
def test_a_difference_made_before_the_step_began_does_not_reach_the_search(native_built,
                                                                           sink, seed, rnd,
                                                                           nested):
    """The leak test with the difference made earlier: as round `rnd`'s first Action Step
    starts, what seat 1 (nsearch) cannot see is made otherwise in the game itself (another
    seat's draw pile reversed, a card it gained unseen rounds ago and still holds hidden
    swapped for another card of its deck, every supply deck reversed; `perturb_round`).
    At every search after it while the seat's information is the same (its view, its own
    answers, and what it saw revealed or drafted from a hidden place: a card drafted from a
    reversed deck is seen by all), the hidden truth differs and the search's visits and
    summed values are the same, exactly (the choice with them), at the Action Step and bid
    roots and, with `nested`, at the targets', moves', modes' and hits' roots, which re-run
    the round from a kept copy and deal at the decision. Without the deal they differ: the
    test can fail. (An earlier form compared the view alone; a card drafted in view from a
    reversed deck then made the games differ in what the seat saw, which read as a leak at
    a nested root.)"""
    plain, pt, _, _ = _views(sink, seed, nested=nested)
    cut, ct, counts, _ = _views(sink, seed, nested=nested, perturb_round=rnd, perturb_step=0)
    assert counts[2] > 0    # (counts[0]: unseen gains swapped, where one waits hidden)
    compared, kinds = 0, set()
    for k, (a, b) in enumerate(zip(plain, cut)):
        if not b["after"]:
            continue
        if _informed(a) != _informed(b):
            break
        assert a["hidden"] != b["hidden"]
        assert pt[k] == ct[k], k
        compared += 1
        kinds.add((a["kind"], a["nested"]))
    assert compared >= 3
    if nested:   # nested roots compared too (moves; hexes, Champions, forge; mine, forge)
        assert any(n for _kind, n in kinds)
    _blind, bt, _, _ = _views(sink, seed, nested=nested, deal=False)
    blind_cut, bct, _, _ = _views(sink, seed, nested=nested, deal=False, perturb_round=rnd,
                                  perturb_step=0)
    after = [k for k, b in enumerate(blind_cut) if b["after"]][:compared]
    assert any(bt[k] != bct[k] for k in after)


def _same_until_informed(plain, pt, cut, ct):
    """The searches after the change while the seat's information is the same: how many,
    and at how many of them the visits and summed values (the trace) differ."""
    compared = differ = 0
    for k, (a, b) in enumerate(zip(plain, cut)):
        if not b["after"]:
            continue
        if _informed(a) != _informed(b):
            break
        compared += 1
        differ += pt[k] != ct[k]
    return compared, differ


@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize("seed,rnd", [(19, 4), (3, 3)])
def test_which_copy_of_a_card_another_seat_holds_does_not_show_in_the_dealt_world(
        native_built, sink, seed, rnd, nested):
    """Two games that differ only in which copy of a card another seat holds (a card of its
    draw pile traded with another copy of the same card in the searching seat's own draw
    pile, `trade`; the seat knows its draw pile by card only): the first world dealt at the
    next search is the same, instance for instance in every hidden place (and the unseen
    gains). The deal orders hidden cards by card (then overrides and counter), not by
    instance number, and then gives the hidden cards' instance numbers out again in a
    canonical order (`renumber_hidden`); without that the copies keep their numbers and the
    worlds differ by instance (the test can fail)."""
    plain, _, _, pd = _views(sink, seed, nested=nested)
    cut, _, counts, cd = _views(sink, seed, nested=nested, perturb_round=rnd, perturb_step=0,
                                trade=True)
    assert counts[1] == 1
    k = next(k for k, b in enumerate(cut) if b["after"])
    assert _informed(plain[k]) == _informed(cut[k])
    assert plain[k]["hidden"] != cut[k]["hidden"]
    assert pd[k] == cd[k]
    old = {"nested": nested, "renumber": False}
    plain, _, _, pd = _views(sink, seed, **old)
    cut, _, _, cd = _views(sink, seed, perturb_round=rnd, perturb_step=0, trade=True, **old)
    k = next(k for k, b in enumerate(cut) if b["after"])
    assert _informed(plain[k]) == _informed(cut[k]) and pd[k] != cd[k]


@pytest.mark.parametrize("which,seed,rnd", [("sink", 5, 3), ("sink", 11, 3),
                                            ("fixture", 3, 3)])
def test_which_copy_of_a_card_is_where_does_not_change_the_search(native_built, rules, sink,
                                                                  which, seed, rnd):
    """Not only the first dealt world: two games that differ only in which copy of a card
    another seat holds (`trade`, as above) give every search after the change, while the
    seat's information is the same, the same root: visits and summed values, exactly, and
    the choice. Instance numbers steer tie-breaks inside a simulation (a seat's playable
    cards are listed by instance; an option's id names it), so without the canonical
    renumbering of the hidden cards (`renumber` off) some of those searches differ."""
    rs = rules if which == "fixture" else sink
    plain, pt, _, _ = _views(rs, seed)
    cut, ct, counts, _ = _views(rs, seed, perturb_round=rnd, perturb_step=0, trade=True)
    assert counts[1] == 1
    compared, differ = _same_until_informed(plain, pt, cut, ct)
    assert compared >= 3 and differ == 0
    plain, pt, _, _ = _views(rs, seed, renumber=False)
    cut, ct, _, _ = _views(rs, seed, perturb_round=rnd, perturb_step=0, trade=True,
                           renumber=False)
    assert _same_until_informed(plain, pt, cut, ct)[1] > 0


@pytest.mark.parametrize("seed,rnd", [(1, 3), (2, 5)])
def test_which_copy_is_in_a_supply_deck_does_not_show_in_the_dealt_world(native_built, sink,
                                                                         seed, rnd):
    """A copy of a card in a hidden hand or draw pile traded with another copy in a supply
    deck (`trade_deck`): the first world dealt at the next search is the same, instance for
    instance, and so is every search while the seat's information is the same. (A supply
    deck's copies of one card have neighbouring instance numbers, so before the renumbering
    such a trade changed the dealt world's numbers but no tie-break: the worlds differ by
    instance with `renumber` off, the searches did not.)"""
    plain, pt, _, pd = _views(sink, seed)
    cut, ct, counts, cd = _views(sink, seed, perturb_round=rnd, perturb_step=0,
                                 trade_deck=True)
    assert counts[1] == 1
    k = next(k for k, b in enumerate(cut) if b["after"])
    assert _informed(plain[k]) == _informed(cut[k]) and pd[k] == cd[k]
    compared, differ = _same_until_informed(plain, pt, cut, ct)
    assert compared >= 3 and differ == 0
    plain, _, _, pd = _views(sink, seed, renumber=False)
    cut, _, _, cd = _views(sink, seed, perturb_round=rnd, perturb_step=0, trade_deck=True,
                           renumber=False)
    k = next(k for k, b in enumerate(cut) if b["after"])
    assert _informed(plain[k]) == _informed(cut[k]) and pd[k] != cd[k]
