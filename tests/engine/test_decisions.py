"""The decision table: every kind the engine asks is in it, and every option fits its shape."""

from __future__ import annotations

import re
from pathlib import Path

from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.decisions import DECISIONS, check_option
from tether_build.engine.play import run
from tether_build.engine.setup import new_game

ROOT = Path(__file__).resolve().parents[2]


class _Recorder(RandomAgent):
    """A random agent that checks the shape of every option it is offered."""

    def __init__(self, seen: dict, inner=None):
        self.seen, self.inner = seen, inner
        self.whole_plays = getattr(inner, "whole_plays", False)  # offered as inner would be

    def seed(self, value: int) -> None:
        super().seed(value)
        if self.inner is not None:
            self.inner.seed(value)

    def choose(self, g, p, kind, options, ctx=None) -> int:
        bad = [o for o in options if not check_option(kind, o)]
        assert not bad, f"{kind}: {bad[:3]} do not fit {DECISIONS.get(kind, ('', '?'))[1]}"
        self.seen[kind] = self.seen.get(kind, 0) + 1
        if self.inner is not None:
            return self.inner.choose(g, p, kind, options, ctx)
        return super().choose(g, p, kind, options, ctx)


def test_every_asked_option_fits_the_table(rules):
    seen: dict = {}
    for seed in range(10):
        n = 2 + seed % 5
        agents = [_Recorder(seen, HeuristicAgent() if seed % 2 else None) for _ in range(n)]
        run(new_game(rules, n, seed, agents, log=None))
    # the everyday kinds are all met in ten fixture games
    for kind in ("action", "bid", "mine", "move", "hex", "capital", "start_bridge",
                 "free_card", "power_pick"):
        assert seen.get(kind), kind


def test_the_checks_reject_wrong_shapes():
    assert check_option("action", ("card", 3)) and not check_option("action", ("card", "x"))
    assert check_option("move", ("stack", 4, 0, None, (5, 6))) and check_option("move", None)
    assert not check_option("move", ("stack", 4, 0, None, ()))
    assert check_option("bid", ("buy", 2)) and not check_option("bid", ("buy",))
    assert not check_option("no_such_kind", 1)


def test_every_kind_the_engine_asks_is_in_the_table_and_the_docs():
    src = "\n".join(p.read_text() for p in (ROOT / "tether_build" / "engine").glob("*.py"))
    asked = set(re.findall(r"decide\([^,]+, \"(\w+)\"", src))
    asked |= set(re.findall(r"choose\([^,]+, \"(\w+)\"", src))
    asked |= set(re.findall(r"choose_cards\([^,]+, \"(\w+)\"", src))
    asked |= set(re.findall(r"_hand_choice\(\"(\w+)\"", src))
    asked |= set(re.findall(r"\"(\w+_(?:draft|pick)|free_card)\"", src))
    assert asked and asked <= set(DECISIONS), asked - set(DECISIONS)
    doc = (ROOT / "docs" / "decisions.md").read_text()
    documented = set(re.findall(r"^\| `(\w+)` \|", doc, re.MULTILINE))
    assert documented == set(DECISIONS)
