"""Running whole games, the JSON-lines event log, and replay from a log."""

from __future__ import annotations

import json
from pathlib import Path

from .options import Options
from .rounds import finish, play_round, run  # noqa: F401  (the round loop, re-exported)


class ReplayError(Exception):
    """The log does not match what the engine does."""


def play_game(rules, players: int, seed: int, agents, factions=None, options=None,
              log: bool = False, check=None):
    """Set up and play one game; returns the Game (log in game.events if asked). The game
    is a state that waits for each action (engine/state_api.py) and the agents are asked
    by its game loop, `state_api.play`."""
    from .state_api import new_state, play  # (imports rounds, never this module)
    whole = [bool(getattr(a, "whole_plays", False)) for a in agents]
    # round snapshots are taken only once the state is cloned (a search agent's worlds)
    st = new_state(rules, players, seed, factions, options, whole, log, check)
    play(st, agents)
    return st.game


def write_log(events: list[dict], path: Path) -> None:
    """Write the event log as JSON lines."""
    with open(path, "w") as fh:
        fh.writelines(json.dumps(ev, sort_keys=True, default=str) + "\n" for ev in events)


MAX_LINE = 1_000_000  # characters: a logged event is a few hundred
MAX_LOG = 64_000_000  # bytes: a whole game's log is well under a megabyte


def read_log(path: Path) -> list[dict]:
    """Read a JSON-lines event log; every line must be an event object ({"e": ...}).

    The file is looked at before it is read: a regular file (not a device, a FIFO or a
    folder) of at most MAX_LOG bytes, then read line by line."""
    import os
    import stat

    try:
        st = os.stat(path)
    except OSError as exc:
        raise ReplayError(f"cannot read it ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise ReplayError("not a regular file (a game log is a file written by "
                          "`tether play` or `tether simulate --log-dir`)")
    if st.st_size > MAX_LOG:
        raise ReplayError(f"{st.st_size} bytes: larger than any game log "
                          f"(at most {MAX_LOG} bytes)")
    events = []
    with open(path, "rb") as fh:
        for n, raw in enumerate(iter(lambda: fh.readline(MAX_LINE * 4 + 1), b""), 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ReplayError(f"line {n}: not UTF-8 text ({exc.reason})") from None
            if len(line.rstrip("\n")) > MAX_LINE or (len(raw) > MAX_LINE * 4):
                raise ReplayError(f"line {n}: longer than {MAX_LINE} characters")
            if line.strip():
                events.append(_event(line, n))
    return events


def parse_log(text: str) -> list[dict]:
    """The events of a JSON-lines log's text already in memory (a log the Play page was
    sent, bounded by its request size); read_log for a file."""
    events = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise ReplayError(f"line {n}: longer than {MAX_LINE} characters")
        events.append(_event(line, n))
    return events


def _event(line: str, n: int) -> dict:
    """Line n of a log as an event object ({"e": ...}), or a ReplayError saying why not."""
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):
        raise ReplayError(f"line {n}: not a JSON event") from None
    if not isinstance(event, dict) or not isinstance(event.get("e"), str):
        raise ReplayError(f'line {n}: not an event object ({{"e": ...}})')
    return event


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
    ends = [e for e in events if e["e"] == "end"]
    if len(ends) > 1 or (ends and events[-1] is not ends[0]):
        raise ReplayError("the log's end event must be its last line, and only one")
    end = ends[0] if ends else None
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
    _same_end(end, next(e for e in g.events if e["e"] == "end"))
    return g


END_FIELDS = ("winners", "reason", "round", "digest")


def _same_end(logged: dict, replayed: dict) -> None:
    """The log's end line says what the replay gives: winners, reason, round."""
    norm = lambda v: json.dumps(v, sort_keys=True, default=str)   # as write_log wrote it
    for key in END_FIELDS:
        if norm(logged.get(key)) != norm(replayed.get(key)):
            raise ReplayError(f"the log's end line says {key} {norm(logged.get(key))[:80]}, "
                              f"the replay gives {norm(replayed.get(key))[:80]}")
