"""reads.py: a Tracked dict of game constants notes what is read of it, and a computation's
kept result is reused only while every constant it read still has its value."""

from __future__ import annotations

import copy
import json

from tether_build.check.reads import Log, Tracked, still_hold

CONSTANTS = {"hand": {"size": 6, "limit": 10}, "victory": {"round_cap": 10, "vp_to_win": 8},
             "slots": {"3": ["C0", "C2"]}, "max_mana": 5}


def _tracked() -> tuple[Tracked, Log]:
    log = Log()
    return Tracked(json.loads(json.dumps(CONSTANTS)), log), log


def _holds(log: Log, **changes) -> bool:
    now = json.loads(json.dumps(CONSTANTS))
    for path, value in changes.items():
        *parents, last = path.split("__")
        here = now
        for key in parents:
            here = here[key]
        here[last] = value
    return still_hold(json.loads(json.dumps(log.reads())), now)   # (kept as JSON)


def test_only_what_was_read_must_hold():
    game, log = _tracked()
    assert game["hand"]["size"] == 6 and game["max_mana"] == 5
    assert _holds(log, victory__round_cap=11, hand__limit=9)
    assert not _holds(log, hand__size=5)
    assert not _holds(log, max_mana=5.0)    # JSON tells 5 from 5.0 (and 1 from true)


def test_a_missing_key_read_must_stay_missing():
    game, log = _tracked()
    assert game["slots"].get(3) is None and "4" not in game["slots"]
    assert _holds(log, slots__3=["C1"])
    assert not _holds(log, slots__4=["C1"])


def test_a_dict_read_whole_must_hold_whole():
    for read_whole in (lambda d: list(d), len, lambda d: d.items(), lambda d: d == {},
                       repr, copy.deepcopy, lambda d: json.dumps(d), lambda d: {**d},
                       lambda d: d.copy(), lambda d: d | {}):
        game, log = _tracked()
        read_whole(game["victory"])
        assert _holds(log, hand__size=4), read_whole
        assert not _holds(log, victory__round_cap=11), read_whole


def test_it_reads_as_the_dict_it_holds():
    game, _ = _tracked()
    assert game == CONSTANTS and json.loads(json.dumps(game)) == CONSTANTS
    assert copy.deepcopy(game) == CONSTANTS and type(copy.deepcopy(game)) is dict
    assert game["hand"] is game["hand"]   # a nested dict keeps its identity
    assert sorted(game["hand"].items()) == [("limit", 10), ("size", 6)]


def test_a_write_notes_the_whole_dict():
    game, log = _tracked()
    game["hand"]["size"] = 7
    assert not _holds(log, hand__limit=9)
