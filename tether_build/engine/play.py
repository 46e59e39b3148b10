"""Running whole games, the JSON-lines event log, and replay from a log."""

from __future__ import annotations

import json
from pathlib import Path

from .actions import action_phase
from .market import market_phase
from .options import Options
from .phases import advance_round, cleanup_phase, collection_phase, rank, reset_phase, scoring_phase
from .setup import new_game


class ReplayError(Exception):
    """The log does not match what the engine does."""


def play_round(g) -> list[int]:
    """One full round (§9); returns the seats that won at Scoring (possibly none)."""
    reset_phase(g)
    market_phase(g)
    action_phase(g)
    g.sieges()
    collection_phase(g)
    winners = scoring_phase(g)
    if winners:
        return winners
    cleanup_phase(g)
    return []


def run(g) -> list[int]:
    """Play rounds until a VP win (§3.1) or the round cap (§3.2); returns the winners."""
    s = g.s
    cap = g.rules.game["victory"]["round_cap"]
    while True:
        winners = play_round(g)
        if winners:
            if len(winners) > 1 and g.opt.simultaneous_win == "tie_breakers":
                winners = rank(g, winners)
            return _finish(g, winners, "vp")
        if s.round >= cap:
            return _finish(g, rank(g, list(range(len(s.players)))), "round_cap")
        advance_round(g)


def _finish(g, winners: list[int], reason: str) -> list[int]:
    g.s.winner, g.s.end_reason = sorted(winners), reason
    if g.events is not None:  # the digest costs a canonical JSON dump: only for the log
        g.log("end", winners=g.s.winner, reason=reason, round=g.s.round,
              digest=g.s.digest())
    return g.s.winner


def play_game(rules, players: int, seed: int, agents, factions=None, options=None,
              log: bool = False, check=None):
    """Set up and play one game; returns the Game (log in game.events if asked)."""
    g = new_game(rules, players, seed, agents, factions, options, [] if log else None, check)
    run(g)
    return g


def write_log(events: list[dict], path: Path) -> None:
    """Write the event log as JSON lines."""
    with open(path, "w") as fh:
        fh.writelines(json.dumps(ev, sort_keys=True, default=str) + "\n" for ev in events)


def read_log(path: Path) -> list[dict]:
    """Read a JSON-lines event log."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


class ReplayAgent:
    """Answers every decision from the log, in order, checking kind and option count."""

    def __init__(self, decisions):
        self.decisions = decisions

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The logged choice for this decision."""
        try:
            d = next(self.decisions)
        except StopIteration:
            raise ReplayError("log has fewer decisions than the replay needs") from None
        if d["p"] != p or d["kind"] != kind or d["n"] != len(options):
            raise ReplayError(f"decision mismatch: log {d}, engine p={p} kind={kind} "
                              f"n={len(options)}")
        return d["i"]


def replay(rules, events: list[dict]):
    """Replay a logged game from its header and decisions; returns the Game.

    Raises ReplayError if a decision or the final state digest differs."""
    head = next(e for e in events if e["e"] == "setup")
    end = next((e for e in events if e["e"] == "end"), None)
    it = iter([e for e in events if e["e"] == "decide"])
    agents = [ReplayAgent(it) for _ in range(head["players"])]
    opts = Options.from_dict(head["options"])
    g = play_game(rules, head["players"], head["seed"], agents, head["factions"], opts,
                  log=True)
    if end is not None and g.s.digest() != end["digest"]:
        raise ReplayError("final state differs from the log")
    return g
