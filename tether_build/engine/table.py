"""A game that waits for its people: the table the Play page and `tether play` share.

A Table holds one game as a waiting state (engine/state_api.py) and plays it in a thread of
its own (the state's coroutine belongs to the thread that made it) with the state API's own
game loop, `state_api.play`, the loop `simulate` uses. Its seats are proxies: an agent's
seat answers at once (after `delay` seconds, so a game of agents can be watched), a person's
seat parks the decision here until `act` answers it with the decision's serial number (a
stale or forged answer is refused and changes nothing). Every answer is kept (`actions`), so
a game is its setup plus its answers: undo and loading a saved game replay them (`script`)
in a new Table.
"""

from __future__ import annotations

import threading
import time
import traceback

from .seatview import ask_view
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
    """An answer the table does not take (not that seat's turn, stale, not a legal option)."""


class _Closed(Exception):
    """The table was closed while its game waited (an undo replaced it)."""


class Pending:
    """A person's decision the game waits for."""

    def __init__(self, serial: int, p: int, kind: str, options: list, ctx):
        self.serial, self.p, self.kind, self.options, self.ctx = serial, p, kind, options, ctx


class _Seat:
    """One seat's agent as the game sees it: the script first, then the person or agent."""

    sees = "game"  # a person's seat is shown its observation by the page, never the game

    def __init__(self, table: Table, p: int, agent):
        self.table, self.p, self.agent = table, p, agent
        self.whole_plays = bool(getattr(agent, "whole_plays", False))

    def seed(self, value: int) -> None:
        if self.agent is not None and hasattr(self.agent, "seed"):
            self.agent.seed(value)

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The answer; the game stands still meanwhile, so readers may look (`t.lock`)."""
        t = self.table
        t.lock.release()
        try:
            return self._choose(t, g, p, kind, options, ctx)
        finally:
            t.lock.acquire()

    def _choose(self, t, g, p, kind, options, ctx) -> int:
        if t.closed:
            raise _Closed
        if len(t.actions) < len(t.script):
            i = t.script[len(t.actions)]
            if not isinstance(i, int) or not 0 <= i < len(options):
                raise Refused(f"the saved game's decision {len(t.actions) + 1} ({kind}) "
                              f"has {len(options)} options, not {i!r}: it does not fit "
                              "these rules")
            t.record(p, kind, options, i, None, ctx)
            return i
        if self.agent is None:
            return t.wait_for_person(p, kind, options, ctx)
        if t.delay:
            time.sleep(t.delay)
        view, seen_ctx = g.seat_view(p).refresh(kind, options), ask_view(ctx)
        i = self.agent.choose(view, p, kind, options, seen_ctx)
        why = t.explain(self.agent, view, p, kind, options, seen_ctx) if t.explain else None
        if why and t.describe is not None:
            for row in why:
                row["text"] = t.describe(g, kind, options[row["i"]])
        t.record(p, kind, options, i, why, ctx)
        return i


class Table:
    """One game: setup, a thread that plays it, and the decisions it waits for."""

    def __init__(self, rules, players: int, seed: int, seats: list[str], factions=None,
                 options=None, script=(), delay: float = 0.0, agents=None, explain=None,
                 on_record=None, whole_plays=None):
        """`seats`: "human" or an agent name per seat; `agents`: name -> agent class."""
        self.rules, self.players, self.seed = rules, players, seed
        self.seats, self.factions, self.options = list(seats), factions, options
        self.script = list(script)
        self.delay = delay
        self.explain = explain  # (agent, view, p, kind, options, ctx) -> why, or None
        self.on_record = on_record  # (table, action, options, ctx) after each answer
        self.describe = None  # (game, kind, option) -> words, for an agent's reasons
        self.actions: list[dict] = []  # every answer: p, kind, n, i (+ why for an agent)
        self.events: list[dict] = []
        self.pending: Pending | None = None
        self.answer: int | None = None
        self.closed = False
        self.error: str | None = None
        self.over = False
        self.serial = 0
        self.cond = threading.Condition()
        # held by the game thread while the rules run; a reader of the game (a page's
        # state) takes it, so it sees the game between two steps, never in the middle
        self.lock = threading.Lock()
        agents = self.agents = agents or {}
        self._proxies = [_Seat(self, p, None if name == HUMAN else agents[name]())
                         for p, name in enumerate(self.seats)]
        for proxy, whole in zip(self._proxies, whole_plays or (), strict=False):
            proxy.whole_plays = bool(whole)  # a replayed log: as its seats were offered
        self.game = self.state = None
        self.thread = threading.Thread(target=self._play, daemon=True,
                                       name=f"table-seed{seed}")

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
            whole = [proxy.whole_plays for proxy in self._proxies]
            st = new_state(self.rules, self.players, self.seed, self.factions, self.options,
                           whole, log=True, snapshots=False)
            with self.cond:
                self.state, self.events = st, st.game.events
                self.game = st.game
                self.cond.notify_all()
            play(st, self._proxies)
        except _Closed:
            return
        except Refused as exc:
            self.error = str(exc)
        except Exception as exc:  # noqa: BLE001 - the page shows it; other games go on
            self.error = f"{type(exc).__name__}: {exc}"
            self.trace = traceback.format_exc()

    def wait_for_person(self, p: int, kind: str, options: list, ctx) -> int:
        """Park a person's decision until `act` answers it (in the game thread)."""
        with self.cond:
            self.serial += 1
            self.pending = Pending(self.serial, p, kind, options, ctx)
            self.answer = None
            self.cond.notify_all()
            while self.answer is None and not self.closed:
                self.cond.wait()
            if self.closed:
                raise _Closed
            i, self.answer, self.pending = self.answer, None, None
        self.record(p, kind, options, i, None, ctx)
        return i

    def record(self, p: int, kind: str, options: list, i: int, why, ctx) -> None:
        g = self.game
        action = {"p": p, "kind": kind, "n": len(options), "i": i,
                  "human": self.seats[p] == HUMAN,
                  "events": len(self.events), "rng": hash(g.rng.getstate()) if g else 0}
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

    def act(self, p: int, serial, index) -> None:
        """Answer the pending decision of seat p; Refused (and no change) if it is not."""
        with self.cond:
            pend = self.pending
            if self.over:
                raise Refused("the game is over")
            if pend is None:
                raise Refused("no decision is waiting for a person now (agents are playing)")
            if pend.p != p:
                raise Refused(f"it is not seat {p + 1}'s decision: seat {pend.p + 1} decides now")
            if serial != pend.serial:
                raise Refused(f"that answer is for decision {serial}, the game is at decision "
                              f"{pend.serial} (stale: reload the page)")
            if isinstance(index, bool) or not isinstance(index, int) \
                    or not 0 <= index < len(pend.options):
                raise Refused(f"not one of the {len(pend.options)} legal options: {index!r}")
            if self.answer is not None:
                raise Refused("this decision was answered already")
            self.answer = index
            self.pending = None
            self.cond.notify_all()

    def close(self) -> None:
        """Stop the game thread (it ends at its next decision)."""
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def undo_point(self, p: int) -> tuple[int | None, str]:
        """(how many actions to keep, "") to take back seat p's last decision, or
        (None, why not): it must be p's, no other person decided since, and nothing hidden
        was revealed since (no card drawn or shown, no die rolled, no shuffle)."""
        if self.pending is None and not self.over:
            return None, "the agents are still playing"
        for k in range(len(self.actions) - 1, -1, -1):
            a = self.actions[k]
            if not a["human"]:
                continue
            if a["p"] != p:
                return None, f"seat {a['p'] + 1} decided after you"
            g = self.game
            if hash(g.rng.getstate()) != a["rng"]:
                return None, "a die was rolled or cards were shuffled since"
            for ev in self.events[a["events"]:]:
                if ev["e"] not in QUIET and not (ev["e"] == "play" and ev.get("p") == p):
                    return None, f"something hidden was shown since ({ev['e']})"
            return k, ""
        return None, "you have made no decision to take back"

    def replayed(self, keep: int) -> Table:
        """A new Table at the same setup, replaying the first `keep` answers."""
        t = Table(self.rules, self.players, self.seed, self.seats, self.factions, self.options,
                  [a["i"] for a in self.actions[:keep]], self.delay, self.agents, self.explain,
                  self.on_record)
        t.describe = self.describe
        t._proxies = [_Seat(t, p, s.agent.__class__() if s.agent is not None else None)
                      for p, s in enumerate(self._proxies)]
        for new, old in zip(t._proxies, self._proxies, strict=True):
            new.whole_plays = old.whole_plays
        return t
