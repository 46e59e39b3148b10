"""The Python search (engine/search.py) is the reference of the native one (nsearch,
engine/native/search.cpp): on the same observation, with the same stream and a small budget,
both grow the same tree, so both pick the same option.

A game is played by seeded heuristic agents on the Python state API. At every decision the
native search searches (a seat's Action Step choice and its bids, with two options or more)
the Python SearchAgent, its stream `Random(s)`, answers from the seat's view; the native
engine plays the same seeded game again by the answers so far (its `replay`) and answers the
same decision by nsearch with the stream `s` (SearchCfg::stream). Compared: the choice, and
every root option's visits and summed results (the native trace). The sums are added in the
same order from the same results on both sides, so they are compared exactly; nothing is
left to a tie rule (the choice's own ties, most visits then the better mean then the first
option, are the same rule on both sides).
"""

from __future__ import annotations

import random

import pytest

from tether_build.engine import native
from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.options import Options
from tether_build.engine.search import KINDS, Params, SearchAgent, iterations
from tether_build.engine.seatview import ask_view
from tether_build.engine.state_api import new_state

from .native_cases import kitchen_sink


@pytest.fixture(scope="module")
def sink(compiled):
    from tether_build.engine.ruleset import Ruleset
    return Ruleset.from_compiled(kitchen_sink(compiled))


def _native(rules, players, seed, seat, history, factions, search, single=False):
    way = "-single" if single else ""
    agents = ["heuristic" + way] * players
    agents[seat] = "nsearch" + way
    declined: list = []
    got = native.for_rules(rules).play(players, [(seed, factions, agents)], Options().to_dict(),
                                       search={**search, "replay": history},
                                       declined=declined)[0]
    assert got is not None, declined
    return got["search"]


def _native_root(trace: str) -> list:
    """The last searched decision's root: (option index, visits, summed results)."""
    rows = trace.rstrip(";").split(";")[-1].split(":")[2]
    return sorted((int(i), int(n), float(w)) for i, n, w in
                  (r.split(",") for r in rows.split("|")))


def _python_root(agent) -> list:
    ids = agent.root_ids
    return sorted((ids.index(a), c.n, c.w) for a, c in agent.root.children.items()
                  if c.n and a in ids)


def compare(rules, players: int, seed: int, sims: int, first: int = 0,
            count: int | None = None, kinds=("action", "bid"), same_worlds: bool = False,
            single: bool = False, tree_depth: int = 0) -> list:
    """The searched decisions `first` to `first + count` (all to the end: None) of a
    heuristic game: (kind, options, Python's choice and root, native's choice and root,
    whether another seat held a card gained unseen, whether it is a later Action Step
    choice of its seat: its first one's declaration failed, the Python tree's depth below
    its root). `single`: every seat is
    offered one decision at a time (a card, then its targets as it is declared; no whole
    plays), where a declaration can fail."""
    st = new_state(rules, players, seed, whole_plays=[not single] * players)
    factions = [pl.faction for pl in st.game.s.players]
    agents = [HeuristicAgent() for _ in range(players)]
    for a, s in zip(agents, st.agent_seeds):
        a.seed(s)
    out, k = [], 0
    while not st.is_terminal() and (count is None or k < first + count):
        p, kind, options, ctx = st.asked()
        if kind in kinds and len(options) > 1:
            k += 1
        if kind in kinds and len(options) > 1 and k > first:
            stream = seed * 1000 + k
            g = st.game
            g.prune_unseen()
            unseen = any(q != p for q, _deck in g.unseen.values())
            # the seat answered since the step began: its first choice's declaration failed
            later = kind == "action" and p in st._who[st._step_at:]
            a = SearchAgent(iterations=sims, same_worlds=same_worlds, tree_depth=tree_depth)
            a.rng = random.Random(stream)
            i = a.choose(g.seat_view(p).refresh(kind, options), p, kind, options,
                         ask_view(ctx))
            got = _native(rules, players, seed, p, st.history(), factions,
                          {"sims": sims, "stream": stream, "same_worlds": same_worlds,
                           "tree_depth": tree_depth, "nested": True}, single)
            assert (got["kind"], got["n"]) == (kind, len(options))
            out.append((kind, len(options), i, _python_root(a), got["answer"],
                        _native_root(got["trace"]), unseen, later, a.root.depth() - 1))
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    return out


ROOTS = ("action", "bid")
NESTED = tuple(k for k in KINDS if k not in ROOTS)   # targets, moves, modes, hit assignment


@pytest.mark.parametrize("which,players,seed,sims,first,count,kinds,same,single,depth", [
    ("fixture", 2, 3, 8, 0, 16, ROOTS, False, False, 0),
    ("fixture", 4, 5, 12, 0, 12, ROOTS, False, False, 0),
    ("sink", 2, 8, 8, 30, 10, ROOTS, False, False, 0),  # another seat holds cards gained unseen
    ("sink", 2, 8, 8, 0, 12, NESTED, False, False, 0),  # inside a card's or a phase's resolution
    ("fixture", 4, 5, 12, 0, 8, NESTED, False, False, 0),
    ("fixture", 2, 4, 10, 0, 12, ROOTS, True, False, 0),   # the same worlds for every root option
    ("fixture", 4, 6, 12, 6, 10, ROOTS, True, False, 0),
    # a tree of one level (the root's options), then of two: the seat's later choices the
    # heuristic's below that depth
    ("fixture", 2, 3, 16, 0, 12, ROOTS, False, False, 1),
    ("sink", 2, 8, 16, 30, 10, ROOTS, False, False, 2),
    # one decision at a time: decision 75 of each is a seat's second Action Step choice, its
    # first card's declaration having failed (round 6)
    ("fixture", 2, 0, 8, 70, 8, ROOTS, False, True, 0),
    ("sink", 2, 0, 8, 72, 5, ROOTS, False, True, 0),
])
def test_python_and_native_search_choose_alike(native_built, rules, sink, which, players,
                                               seed, sims, first, count, kinds, same, single,
                                               depth):
    """At every decision compared (its kind among `kinds`, two options or more) both
    searches grow the same root and pick the same option. The nested kinds are searched
    at a root of their own on both sides: Python deals the world in place at the decision
    (`TetherState.resample_from_infostate`), native re-runs the round from its start with
    the answers given so far and deals at the same decision (search.cpp, NESTED). A later
    Action Step choice of a step (after a failed declaration) is searched on both sides
    from the step's start, the seat's earlier answers of the step given again in each
    world. With a `tree_depth` the tree stops at that depth on both sides."""
    rs = rules if which == "fixture" else sink
    rows = compare(rs, players, seed, sims, first, count, kinds, same, single, depth)
    assert len(rows) == count
    if kinds != ROOTS:
        assert len({k for k, *_ in rows}) >= 2
    elif not single:
        assert {k for k, *_ in rows} == {"action", "bid"}
    for kind, n, py_pick, py_root, nat_pick, nat_root, _unseen, _later, _depth in rows:
        assert sum(v for _, v, _ in py_root) == iterations(Params(iterations=sims), players)
        assert py_root == nat_root, (kind, n)
        assert py_pick == nat_pick, (kind, n)
    # the searches are not trivially alike: visits spread over options
    assert any(len(r[3]) > 2 for r in rows)
    if which == "sink" and not single:
        assert any(r[6] for r in rows)
    if single:   # a later choice of its step is among them, searched on both sides
        assert any(r[7] for r in rows)
    if depth:    # the tree reaches its limit and goes no deeper
        assert max(r[8] for r in rows) == depth
