"""Running whole games, the JSON-lines event log, and replay from a log."""

from __future__ import annotations

import json
from pathlib import Path

from .options import Options
from .rounds import _finish, play_round, run  # noqa: F401  (the round loop, re-exported)


class ReplayError(Exception):
    """The log does not match what the engine does."""


def play_game(rules, players: int, seed: int, agents, factions=None, options=None,
              log: bool = False, check=None):
    """Set up and play one game; returns the Game (log in game.events if asked). The game
    is a state that waits for each action (engine/state_api.py) and the agents are asked
    by its game loop, `state_api.play`."""
    from .state_api import new_state, play  # (imports rounds, never this module)
    whole = [bool(getattr(a, "whole_plays", False)) for a in agents]
    st = new_state(rules, players, seed, factions, options, whole, log, check, snapshots=False)
    play(st, agents)
    return st.game


def write_log(events: list[dict], path: Path) -> None:
    """Write the event log as JSON lines."""
    with open(path, "w") as fh:
        fh.writelines(json.dumps(ev, sort_keys=True, default=str) + "\n" for ev in events)


MAX_LINE = 1_000_000  # characters: a logged event is a few hundred


def read_log(path: Path) -> list[dict]:
    """Read a JSON-lines event log; every line must be an event object ({"e": ...})."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"not a UTF-8 text file ({exc.reason})") from None
    return parse_log(text)


def parse_log(text: str) -> list[dict]:
    """The events of a JSON-lines log's text (see read_log)."""
    events = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise ReplayError(f"line {n}: longer than {MAX_LINE} characters")
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            raise ReplayError(f"line {n}: not a JSON event") from None
        if not isinstance(event, dict) or not isinstance(event.get("e"), str):
            raise ReplayError(f'line {n}: not an event object ({{"e": ...}})')
        events.append(event)
    return events


def _int(value, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ReplayError(f"{what} must be a whole number from {low} to {high}, "
                          f"got {str(value)[:40]!r}")
    return value


class ReplayAgent:
    """Answers every decision from the log, in order, checking kind and option count."""

    def __init__(self, decisions, whole_plays: bool = False):
        self.decisions = decisions
        self.whole_plays = whole_plays  # as the logged seat was offered its card plays

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The logged choice for this decision."""
        try:
            d = next(self.decisions)
        except StopIteration:
            raise ReplayError("log has fewer decisions than the replay needs") from None
        if d.get("p") != p or d.get("kind") != kind or d.get("n") != len(options):
            raise ReplayError(f"decision mismatch: log {str(d)[:200]}, engine p={p} "
                              f"kind={kind} n={len(options)}")
        return _int(d.get("i"), 0, len(options) - 1, "a decision's index 'i'")


def replay(rules, events: list[dict]):
    """Replay a logged game from its header and decisions; returns the Game.

    Raises ReplayError if a decision or the final state digest differs."""
    head = next((e for e in events if e["e"] == "setup"), None)
    end = next((e for e in events if e["e"] == "end"), None)
    if head is None:
        raise ReplayError("the log has no setup event")
    if end is None or not isinstance(end.get("digest"), str):
        raise ReplayError("the log has no end event with a digest: nothing to compare")
    game = rules.game["players"]
    players = _int(head.get("players"), game["min"], game["max"], "players")
    seed = _int(head.get("seed"), -(2**63), 2**63 - 1, "seed")
    factions = head.get("factions")
    if factions is not None and (not isinstance(factions, list) or len(factions) != players
                                 or not all(f in rules.factions for f in factions)):
        raise ReplayError(f"factions must be {players} known faction ids")
    if not isinstance(head.get("options"), dict):
        raise ReplayError("the setup event's options must be a mapping")
    try:
        opts = Options.from_dict(head["options"])
    except (TypeError, ValueError, KeyError) as exc:
        raise ReplayError(f"bad rules option in the log: {exc}") from None
    whole = head.get("whole_plays", [False] * players)
    if not isinstance(whole, list) or len(whole) != players or not all(
            isinstance(w, bool) for w in whole):
        raise ReplayError(f"whole_plays must be {players} true/false values")
    it = iter([e for e in events if e["e"] == "decide"])
    agents = [ReplayAgent(it, w) for w in whole]
    g = play_game(rules, players, seed, agents, factions, opts, log=True)
    if next(it, None) is not None:
        raise ReplayError("the log has more decisions than the game asked for")
    if g.s.digest() != end["digest"]:
        raise ReplayError("final state differs from the log")
    return g
