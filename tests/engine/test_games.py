"""Whole games: invariants after every step of many seeded random games (2-6 players), a
heuristic 4-player game to a winner whose log replays to the same final state."""

from __future__ import annotations

import json
import os

import pytest

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.invariants import Checker, InvariantError, problems_of
from tether_build.engine.play import ReplayError, play_game, read_log, replay, write_log
from tether_build.engine.scenario import scenario

# CI sample: 25 games per player count (125 games). TETHER_ENGINE_GAMES=1000 for the full run.
GAMES = int(os.environ.get("TETHER_ENGINE_GAMES", "125"))


def _factions(rules, seed, players):
    facs = sorted(rules.factions)
    return [facs[(seed + i) % len(facs)] for i in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_invariants_random_games(rules, players):
    checks = 0
    for seed in range(players * 1000, players * 1000 + GAMES // 5):
        chk = Checker()
        g = play_game(rules, players, seed, [RandomAgent() for _ in range(players)],
                      _factions(rules, seed, players), check=chk)
        assert g.s.winner and g.s.end_reason in ("vp", "round_cap")
        checks += chk.calls
    assert checks > 100 * (GAMES // 5)


def test_heuristic_game_wins_and_replays(rules, tmp_path):
    g = play_game(rules, 4, 2024, [HeuristicAgent() for _ in range(4)],
                  _factions(rules, 0, 4), log=True, check=Checker())
    assert g.s.winner and g.s.end_reason in ("vp", "round_cap")
    path = tmp_path / "game.jsonl"
    write_log(g.events, path)
    events = read_log(path)
    assert events[-1]["e"] == "end" and events[-1]["digest"] == g.s.digest()
    again = replay(rules, events)
    assert again.s.snapshot() == g.s.snapshot()
    # a tampered decision no longer replays
    i = next(k for k, e in enumerate(events) if e["e"] == "decide" and e["n"] > 2)
    events[i] = {**events[i], "i": (events[i]["i"] + 1) % events[i]["n"]}
    with pytest.raises(ReplayError):
        replay(rules, events)


def test_same_seed_same_game(rules):
    a = play_game(rules, 3, 77, [RandomAgent() for _ in range(3)], log=True)
    b = play_game(rules, 3, 77, [RandomAgent() for _ in range(3)], log=True)
    c = play_game(rules, 3, 78, [RandomAgent() for _ in range(3)], log=True)
    assert a.events == b.events and a.s.digest() == b.s.digest()
    assert a.s.digest() != c.s.digest()
    json.dumps(a.events, default=str)


def test_checker_catches_broken_states(rules):
    """The invariant checks can fail: break the state in each way and see them report."""
    g = scenario(rules, 3, 1, passives=False, forces=1)
    assert list(problems_of(g, "card")) == []
    g.s.players[0].gold = -1
    g.s.players[1].hand.append(g.s.players[1].hand[0] if g.s.players[1].hand else 0)
    h = g.s.players[2].capital
    g.s.add_forces(0, h, 1)
    g.s.add_forces(1, h, 1)
    msgs = " | ".join(problems_of(g, "collect"))
    for needle in ("gold -1", "cards created or lost", "holds 3 players"):
        assert needle in msgs
    with pytest.raises(InvariantError):
        Checker()(g, "collect")
    g2 = scenario(rules, 2, 1, passives=False)
    plain = next(i for i in range(g2.s.topo.n) if g2.s.tile[i] == "plain")
    g2.s.add_forces(0, plain, 1)
    g2.s.add_forces(1, plain, 1)
    assert any("unresolved battle" in m for m in problems_of(g2, "card"))
    chk = Checker()
    chk(g2, "battle")
    g2.s.players[0].pvp = -1
    with pytest.raises(InvariantError, match="Permanent VP decreased"):
        chk(g2, "battle")
