"""The native state API (engine/native/nstate.cpp, NativeState): the same decisions, the same
action ids and the same game as the Python state (engine/state_api.py) for the same
actions; clones exact and independent; no memory kept by dropped states."""

from __future__ import annotations

import json
import random

import pytest

from tether_build.engine.frozen import option_key
from tether_build.engine.state_api import TERMINAL, new_state


@pytest.fixture(scope="module")
def make(native_built):
    from tether_build.engine.native.nstate import new_native_state
    return new_native_state


def _same_observations(py, nat, players, every: bool = True):
    """Every seat's information state, as a string and as a tensor; with `every`, its
    observation too (in both states the information state's first part: checked every
    few steps to keep the test fast)."""
    for q in range(players):
        assert nat.information_state_string(q) == py.information_state_string(q)
        assert nat.information_state_tensor(q) == py.information_state_tensor(q)
        if every:
            assert nat.observation_string(q) == py.observation_string(q)
            assert nat.observation_tensor(q) == py.observation_tensor(q)


def _step_both(py, nat, rng, players):
    """One step of both states: every figure the API gives compared, then one action."""
    assert nat.current_player() == py.current_player()
    assert nat.is_terminal() == py.is_terminal()
    assert nat.returns() == py.returns()
    assert nat.legal_actions() == py.legal_actions()
    if py.is_terminal():
        return False
    p, kind, options, _ctx = py.asked()
    assert nat.asked() == (p, kind, [repr(option_key(o)) for o in options])
    for q in range(players):   # only the seat to act has actions
        assert nat.legal_actions(q) == py.legal_actions(q)
    _same_observations(py, nat, players, len(py.history()) % 5 == 0)
    if len(py.history()) % 5 == 0:   # what a UI shows of the decision: the same
        assert nat.pending() == py.pending() and nat.pending()["seat"] == p
    a = rng.choice(py.legal_actions())
    py.apply_action(a)
    nat.apply_action(a)
    return True


@pytest.mark.parametrize("players,seed", [(2, 3), (2, 40), (4, 7), (4, 41), (6, 11), (6, 12)])
def test_native_state_is_the_python_state_step_by_step(rules, make, players, seed):
    facs = sorted(rules.factions)
    seats = [facs[(seed + i) % len(facs)] for i in range(players)]
    py = new_state(rules, players, seed, seats, log=True)
    nat = make(rules, players, seed, seats, log=True)
    rng, steps = random.Random(seed), 0
    while _step_both(py, nat, rng, players):
        steps += 1
    _same_observations(py, nat, players)   # (at the end too)
    assert steps > 50 and nat.current_player() == TERMINAL
    assert nat.pending() is None and py.pending() is None
    assert sum(nat.returns()) == pytest.approx(1.0)
    assert nat.history() == py.history()
    # the whole game, line by line (the Python log ends with its "end" line)
    logged = [json.loads(json.dumps(e, sort_keys=True, default=str)) for e in py.events()]
    assert nat.events() == logged[:-1] and logged[-1]["e"] == "end"


def test_ids_differ_by_option_and_collide_nowhere(rules, make):
    nat = make(rules, 4, 9)
    rng, kinds = random.Random(9), set()
    while not nat.is_terminal():
        ids = nat.action_ids()
        assert len(set(ids)) == len(ids) and all(0 <= a < 1 << 20 for a in ids)
        kinds.add(nat.asked()[1])
        nat.apply_action(rng.choice(nat.legal_actions()))
    assert {"action", "bid", "capital", "start_bridge"} <= kinds


def _walk(st, rng, steps):
    for _ in range(steps):
        if st.is_terminal():
            return
        st.apply_action(rng.choice(st.legal_actions()))


def test_clone_mid_round_is_exact_and_independent(rules, make):
    st = make(rules, 4, 12, log=True)
    early = st.clone()              # before the first round: re-run from the setup
    _walk(st, random.Random(1), 170)
    info = st.info(True)
    assert info["round"] >= 2 and 0 < info["snap_n"] < len(info["history"])  # mid-round
    c = st.clone()
    assert c.history() == st.history() and c.events() == st.events()
    assert c.legal_actions() == st.legal_actions() and c.snapshot() == st.snapshot()
    _walk(c, random.Random(99), 10_000)   # the copy plays on with other actions
    assert c.is_terminal()
    assert st.info(True) == info          # the original has not moved
    d = st.clone()
    _walk(st, random.Random(5), 10_000)
    _walk(d, random.Random(5), 10_000)    # the same actions: the same game
    assert st.is_terminal() and d.is_terminal()
    assert d.events() == st.events() and d.snapshot() == st.snapshot()
    assert d.returns() == st.returns()
    e = early.clone()
    assert e.playout(8) > 100 and e.is_terminal() and e.history()[:0] == []
    assert early.history() == [] and early.current_player() >= 0


def test_a_clone_agrees_with_a_python_clone(rules, make):
    py, nat = new_state(rules, 2, 17), make(rules, 2, 17)
    rng = random.Random(17)
    for _ in range(60):
        _step_both(py, nat, rng, 2)
    pc, nc = py.clone(), nat.clone()
    rng = random.Random(4)
    while _step_both(pc, nc, rng, 2):
        pass


def test_bad_answers_are_refused_and_the_state_kept(rules, make):
    nat = make(rules, 2, 5)
    legal = nat.legal_actions()
    bad = next(a for a in range(1 << 20) if a not in legal)
    with pytest.raises(ValueError, match="not legal"):
        nat.apply_action(bad)
    with pytest.raises(ValueError, match="not legal"):
        nat.apply_index(len(legal))
    assert nat.legal_actions() == legal and nat.history() == []
    _walk(nat, random.Random(0), 10_000)
    assert nat.is_terminal() and nat.legal_actions() == []
    with pytest.raises(ValueError):
        nat.apply_index(0)


def _rss_kb() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4


def test_thousands_of_clones_and_dropped_games_keep_memory_flat(rules, make):
    st = make(rules, 4, 21)
    _walk(st, random.Random(2), 150)
    rng = random.Random(3)
    for _ in range(300):             # warm the allocator
        _walk(st.clone(), rng, 10)
    before = _rss_kb()
    for k in range(2000):           # each dropped mid-game (its coroutine unwound)
        c = st.clone()
        _walk(c, rng, k % 40)
        del c
    grown = _rss_kb() - before
    assert grown < 4096, f"RSS grew {grown} kB over 2,000 clones"


def test_a_state_can_be_answered_from_another_thread(rules, make):
    import threading

    st, ref = make(rules, 2, 23), make(rules, 2, 23)
    _walk(st, random.Random(6), 30)
    _walk(ref, random.Random(6), 30)
    done = []
    t = threading.Thread(target=lambda: done.append(_walk(st, random.Random(7), 10_000)))
    t.start()
    t.join()
    _walk(ref, random.Random(7), 10_000)
    assert done and st.is_terminal() and st.history() == ref.history()
    assert st.returns() == ref.returns()


# ---- what a seat may know, and worlds dealt from it -----------------------------------------
def _to(nat, rng, kind):
    """Walk on to a decision of `kind` from round 2 (an Action Step choice with a seat that
    chose before it in the step)."""
    while not nat.is_terminal():
        i = nat.info()
        if i["round"] >= 2 and i["kind"] == kind and (
                kind != "action" or i["step_at"] < len(i["history"])):
            return nat.current_player()
        nat.apply_action(rng.choice(nat.legal_actions()))
    raise AssertionError(f"no {kind} decision from round 2")


def _sampler(seed):
    return random.Random(seed).random


def _hidden_from(snapshot: dict, p: int) -> list:
    """What seat p cannot see in a snapshot: the other hands and every draw order, each
    card as its instance and its card (a dealt world renumbers the hidden instances)."""
    cards = snapshot["cards"]

    def z(iids):
        return [(i, cards[i]) for i in iids]
    return [(q, z(pl["hand"]), z(pl["draw"])) for q, pl in enumerate(snapshot["players"])
            if q != p] + [{k: z(v) for k, v in snapshot["decks"].items()}]


@pytest.mark.parametrize("players,seed", [(2, 5), (4, 9), (6, 13)])
@pytest.mark.parametrize("kind", ["bid", "action"])
def test_a_world_is_dealt_from_what_the_seat_knows_only(rules, make, players, seed, kind):
    """The leak test: two games that differ only in what seat p cannot see give p the same
    view and information state, and the same dealt world for the same sampler (so the
    same distribution); the world keeps p's information state and legal actions, differs
    from the truth in what p cannot see, and another sampler deals another."""
    nat = make(rules, players, seed)
    p = _to(nat, random.Random(seed), kind)
    other = nat.clone()
    other.resample(p, 77)                   # what p cannot see dealt otherwise
    assert _hidden_from(other.snapshot(), p) != _hidden_from(nat.snapshot(), p)
    assert other.seat_view(p) == nat.seat_view(p)
    assert other.information_state_string(p) == nat.information_state_string(p)
    world = nat.resample_from_infostate(p, _sampler(1))
    assert other.resample_from_infostate(p, _sampler(1)).snapshot() == world.snapshot()
    assert world.information_state_string(p) == nat.information_state_string(p)
    assert world.information_state_tensor(p) == nat.information_state_tensor(p)
    assert world.legal_actions() == nat.legal_actions() and world.current_player() == p
    assert _hidden_from(world.snapshot(), p) != _hidden_from(nat.snapshot(), p)
    assert nat.resample_from_infostate(p, _sampler(2)).snapshot() != world.snapshot()
    deal = world.info()["deals"][-1]
    assert deal[:2] == [world.info()["step_at"] if kind == "action" else len(
        nat.history()), p] and deal[3] == (kind == "action")
    copy = world.clone()                    # a dealt world copies exactly (its deal re-run)
    assert copy.snapshot() == world.snapshot() and copy.history() == world.history()


def test_a_seat_view_holds_nothing_the_seat_cannot_see(rules, make):
    nat = make(rules, 4, 9)
    p = _to(nat, random.Random(9), "action")
    view = nat.seat_view(p)
    seats = view["observation"]["players"]
    for q, seat in enumerate(seats):
        hidden = [seat["hand"], seat["draw_contents"], seat["permanent_vp"]]
        if q == p:
            assert None not in hidden
        else:
            assert hidden == [None, None, None]
    assert set(view) == {"observation", "mine", "decision"}
    assert "decks" not in view["observation"] and "draw" not in seats[p]
    assert [nat.seat_view(q)["decision"] for q in range(4)].count(None) == 3
    assert len(view["mine"]) == nat.info()["who"].count(p)   # its own answers, no other's
