"""A game that waits for its people: the table the Play page and `tether play` share.

A Table holds one game as a waiting state (engine/state_api.py) and plays it in a thread of
its own (the state's coroutine belongs to the thread that made it, so every action is
applied there) with the state API's game loop, `state_api.play`: an agent's seat answers at
once (after `delay` seconds, so a game of agents can be watched); a person's seat stops the
loop, and the decision waits here (`pending`: its serial number and the state's legal action
ids) until `act` answers it with one of those ids. A forged, stale or out-of-turn answer is
refused (`Refused`) and changes nothing.

Before a person's answer is applied the table keeps `state.clone()`: undo (`undo`) returns to
the clone taken before the seat's own last decision, where nothing hidden was revealed since.
Every answer is kept (`actions`: seat, kind, option index and action id), so a game is its
setup plus its answers: loading a saved game replays them (`script`: action ids, or option
indices for a game log).
"""

from __future__ import annotations

import threading
import time
import traceback

from .state_api import new_state, play

HUMAN = "human"
# events that reveal nothing hidden: a decision followed only by these (and no die roll or
# shuffle) may be taken back
QUIET = frozenset({"decide", "aim", "gold", "mana", "move", "deploy", "bridge", "unbridge",
                   "champion", "hp", "modifier", "add_trigger", "counter", "trigger",
                   "resolved", "fizzled", "fizzle", "relocate", "move_fail", "deploy_fail",
                   "discard", "scrap", "steal", "vp", "mine_value", "capital",
                   "start_bridges", "heal", "damage", "destroy", "champion_off", "bounty",
                   "retreat"})


class Refused(Exception):
    """An answer the table does not take (not that seat's turn, stale, not a legal action)."""


class _Closed(Exception):
    """The table was closed while its game waited."""


class Pending:
    """A person's decision the game waits for: its options and their action ids."""

    def __init__(self, serial: int, p: int, kind: str, options: list, ctx, ids: list[int]):
        self.serial, self.p, self.kind, self.options, self.ctx = serial, p, kind, options, ctx
        self.ids = ids


class _Agent:
    """An agent at the table: the state API's loop asks it; the table keeps its answer (and
    its reasons) and lets readers look at the game meanwhile (`t.lock` is released)."""

    def __init__(self, table: Table, agent):
        self.table, self.agent = table, agent
        self.whole_plays = bool(getattr(agent, "whole_plays", False))
        self.sees = getattr(agent, "sees", "seat")

    def seed(self, value: int) -> None:
        if hasattr(self.agent, "seed"):
            self.agent.seed(value)

    def choose(self, view, p, kind, options, ctx=None) -> int:
        t = self.table
        t.lock.release()
        try:
            if t.closed:
                raise _Closed
            if t.delay:
                time.sleep(t.delay)
            i = self.agent.choose(view, p, kind, options, ctx)
            why = t.explain(self.agent, view, p, kind, options, ctx) if t.explain else None
        finally:
            t.lock.acquire()
        if why and t.describe is not None:
            for row in why:
                row["text"] = t.describe(t.game, kind, options[row["i"]])
        t.record(i, why)
        return i


class Table:
    """One game: setup, a thread that plays it, and the decisions it waits for."""

    def __init__(self, rules, players: int, seed: int, seats: list[str], factions=None,
                 options=None, script=(), delay: float = 0.0, agents=None, explain=None,
                 on_record=None, whole_plays=None, script_ids: bool = True):
        """`seats`: "human" or an agent name per seat; `agents`: name -> agent class;
        `script`: answers to replay first (action ids, or option indices if not
        `script_ids`)."""
        self.rules, self.players, self.seed = rules, players, seed
        self.seats, self.factions, self.options = list(seats), factions, options
        self.script, self.script_ids = list(script), script_ids
        self.delay = delay
        self.explain = explain  # (agent, view, p, kind, options, ctx) -> why, or None
        self.on_record = on_record  # (table, action, options, ctx) after each answer
        self.describe = None  # (game, kind, option) -> words, for an agent's reasons
        self.actions: list[dict] = []  # every answer: p, kind, n, i, id (+ why for an agent)
        self._before: dict[int, object] = {}  # action number -> the state before it (undo)
        self.pending: Pending | None = None
        self.answer: tuple | None = None  # ("act", id) or ("undo", keep), for the thread
        self.closed = False
        self.error: str | None = None
        self.over = False
        self.serial = 0
        self.cond = threading.Condition()
        # held by the game thread while the rules run; a reader of the game (a page's
        # state) takes it, so it sees the game between two steps, never in the middle
        self.lock = threading.Lock()
        agents = agents or {}
        self._agents = [None if name == HUMAN else _Agent(self, agents[name]())
                        for name in self.seats]
        self._whole = [bool(a and a.whole_plays) for a in self._agents]
        for p, whole in enumerate(whole_plays or ()):
            self._whole[p] = bool(whole)  # a replayed log: as its seats were offered
        self.state = self.game = None
        self.thread = threading.Thread(target=self._play, daemon=True,
                                       name="table")  # (never the seed: it may be secret)

    @property
    def events(self) -> list[dict]:
        """The game's event log so far."""
        g = self.game
        return g.events if g is not None and g.events is not None else []

    # ---- the game thread -------------------------------------------------------------------
    def start(self) -> Table:
        self.thread.start()
        return self

    def _play(self) -> None:
        with self.lock:
            self._play_locked()
        with self.cond:
            self.over = True
            self.pending = None
            self.cond.notify_all()

    def _play_locked(self) -> None:
        try:
            st = new_state(self.rules, self.players, self.seed, self.factions, self.options,
                           self._whole, log=True)
            self._publish(st)
            while not st.is_terminal():
                if len(self.actions) < len(self.script):
                    self._scripted(st)
                    continue
                play(st, self._agents)
                if not st.is_terminal():
                    st = self._person(st)
        except _Closed:
            return
        except Refused as exc:
            self.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - the page shows it; other games go on
            self.error = f"{type(exc).__name__}: {exc}"
            self.trace = traceback.format_exc()

    def _publish(self, st) -> None:
        g = st.game  # (a clone runs here, in the game thread, when first used)
        with self.cond:
            self.state, self.game = st, g
            self.cond.notify_all()

    def _scripted(self, st) -> None:
        """Apply the next saved answer (a saved game, a log) as it was given."""
        _p, kind, options, _ctx = st.asked()
        x = self.script[len(self.actions)]
        n = len(self.actions) + 1
        if self.script_ids:
            if isinstance(x, bool) or x not in st.action_ids():
                raise Refused(f"the saved game's decision {n} ({kind}) has no action {x!r}: "
                              "it does not fit these rules")
            i = st.option_index(x)
        else:
            i = x
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(options):
                raise Refused(f"the saved game's decision {n} ({kind}) has {len(options)} "
                              f"options, not {i!r}: it does not fit these rules")
        self.record(i, None)
        st.apply_index(i)

    def _person(self, st):
        """Wait for a person's answer (or an undo) to the waiting decision; the state to
        play on."""
        p, kind, options, ctx = st.asked()
        with self.cond:
            self.serial += 1
            self.pending = Pending(self.serial, p, kind, options, ctx, list(st.action_ids()))
            self.answer = None
            self.cond.notify_all()
            self.lock.release()
            try:
                while self.answer is None and not self.closed:
                    self.cond.wait()
            finally:
                self.lock.acquire()
            if self.closed:
                raise _Closed
            (what, value), self.answer = self.answer, None
        if what == "undo":
            back = self._before[value]
            del self.actions[value:]
            for k in [k for k in self._before if k >= value]:
                del self._before[k]
            self._publish(back)
            return back
        self._before[len(self.actions)] = st.clone()
        self.record(st.option_index(value), None)
        st.apply_action(value)
        return st

    def record(self, i: int, why) -> None:
        """Keep the answer `i` to the waiting decision (before it is applied)."""
        st = self.state
        p, kind, options, ctx = st.asked()
        g = st.game
        action = {"p": p, "kind": kind, "n": len(options), "i": i, "id": st.action_ids()[i],
                  "human": self.seats[p] == HUMAN,
                  "events": len(self.events), "rng": hash(g.rng.getstate())}
        if why is not None:
            action["why"] = why
        self.actions.append(action)
        if self.on_record is not None:
            self.on_record(self, action, options, ctx)

    # ---- the other side: pages, tests, the terminal ------------------------------------------
    def settle(self, timeout: float = 60.0) -> bool:
        """Wait until the game waits for a person or is over; False on timeout."""
        end = time.monotonic() + timeout
        with self.cond:
            while self.pending is None and not self.over:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
        return True

    def wait_started(self, timeout: float = 60.0) -> bool:
        """Wait until the game is set up (or over); False on timeout."""
        end = time.monotonic() + timeout
        with self.cond:
            while self.game is None and not self.over:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
        return True

    def _waiting(self, p: int, serial):
        """The pending decision if seat p may answer it as decision `serial` (else Refused)."""
        pend = self.pending
        if self.over:
            raise Refused("the game is over")
        if pend is None:
            raise Refused("no decision is waiting for a person now (agents are playing)")
        if pend.p != p:
            raise Refused(f"it is not seat {p + 1}'s decision: seat {pend.p + 1} decides now")
        if serial != pend.serial:
            raise Refused(f"that answer is for decision {serial!r}, the game is at decision "
                          f"{pend.serial} (stale: reload the page)")
        return pend

    def act(self, p: int, serial, action) -> None:
        """Answer the pending decision of seat p with a legal action id; Refused (and no
        change) if it is not."""
        with self.cond:
            pend = self._waiting(p, serial)
            if isinstance(action, bool) or not isinstance(action, int) \
                    or action not in pend.ids:
                raise Refused(f"{action!r} is not one of the {len(pend.ids)} legal actions "
                              "of this decision")
            self.answer, self.pending = ("act", action), None
            self.cond.notify_all()

    def undo(self, p: int) -> None:
        """Take back seat p's last decision (see `undo_point`); Refused (no change) if not."""
        with self.lock:
            keep, why = self.undo_point(p)
            serial = self.serial
        if keep is None:
            raise Refused(f"cannot undo: {why}")
        with self.cond:
            if self.pending is None or self.answer is not None or self.serial != serial:
                raise Refused("cannot undo: the game moved on meanwhile")
            self.answer, self.pending = ("undo", keep), None
            self.cond.notify_all()

    def close(self) -> None:
        """Stop the game thread (it ends at its next decision)."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def last_person(self) -> int | None:
        """The seat of the last decision a person made (None: none yet)."""
        return next((a["p"] for a in reversed(self.actions) if a["human"]), None)

    def undo_point(self, p: int) -> tuple[int | None, str]:
        """(how many actions to keep, "") to take back seat p's last decision, or
        (None, why not): it must be p's, no other person decided since, and nothing hidden
        was revealed since (no card drawn or shown, no die rolled, no shuffle)."""
        if self.pending is None and not self.over:
            return None, "the agents are still playing"
        if self.over:
            return None, "the game is over"
        for k in range(len(self.actions) - 1, -1, -1):
            a = self.actions[k]
            if not a["human"]:
                continue
            if a["p"] != p:
                return None, f"seat {a['p'] + 1} decided after you"
            if k not in self._before:
                return None, "that decision was loaded from a save"
            if hash(self.game.rng.getstate()) != a["rng"]:
                return None, "a die was rolled or cards were shuffled since"
            for ev in self.events[a["events"]:]:
                if ev["e"] not in QUIET and not (ev["e"] == "play" and ev.get("p") == p):
                    return None, f"something hidden was shown since ({ev['e']})"
            return k, ""
        return None, "you have made no decision to take back"
