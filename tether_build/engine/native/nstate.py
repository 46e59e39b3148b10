"""The state API in the native engine: `NativeState`, a game that waits for an action, with
the method names of the Python state (engine/state_api.py's TetherState), so code can use
either.

The native rules run on a coroutine of their own (nstate.cpp: ucontext, its own stack); each
decision suspends them until `apply_action` answers. Action ids are the Python state's
(crc32 of the decision kind and repr(option_key(option)), ported exactly): the same option
has the same id in both engines. `clone()` copies the Game as the current round started
(kept as each round starts, shared by clones) and re-runs this round's answers. Every seat
is offered whole card plays (card + locked targets as one action), as the Python state's
default. No chance nodes: the seeded generator is inside the rules (SAMPLED_STOCHASTIC).

Not here (the Python state has them): observation and information-state strings and
tensors, resample_from_infostate, labels and pending() for a UI. `snapshot()` and
`events()` give the whole state and the log, the data to build them from.
"""

from __future__ import annotations

import ctypes
import json

from . import for_rules, library

TERMINAL = -4  # pyspiel.PlayerId.TERMINAL
_ERROR = -5    # tn_state_player: the rules stopped on an engine error
_SIGNED = False


def _bind(lib) -> None:
    global _SIGNED
    if _SIGNED:
        return
    vp, cp = ctypes.c_void_p, ctypes.c_char_p
    lib.tn_state_new.restype = vp
    lib.tn_state_new.argtypes = [vp, cp, ctypes.POINTER(vp)]
    lib.tn_state_clone.restype = vp
    lib.tn_state_clone.argtypes = [vp, ctypes.POINTER(vp)]
    lib.tn_state_free.argtypes = [vp]
    lib.tn_state_player.argtypes = [vp]
    lib.tn_state_ids.restype = ctypes.c_int64
    lib.tn_state_ids.argtypes = [vp, ctypes.POINTER(ctypes.c_int64), ctypes.c_int64]
    lib.tn_state_apply.argtypes = [vp, ctypes.c_int64, ctypes.c_int]
    lib.tn_state_playout.restype = ctypes.c_int64
    lib.tn_state_playout.argtypes = [vp, ctypes.c_int64, ctypes.c_int64]
    lib.tn_state_info.restype = vp
    lib.tn_state_info.argtypes = [vp, ctypes.c_int]
    _SIGNED = True


def _text(lib, ptr) -> str:
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        lib.tn_free(ptr)


class NativeState:
    """One native game waiting at a decision (or finished). Create with `new_native_state`."""

    def __init__(self, native, handle: int, players: int, seed: int):
        self._native = native          # keeps the loaded rules alive as long as the state
        self._lib = native.lib
        self._h = handle
        self.players, self.seed = players, seed
        self._ids: list[int] | None = None

    def __del__(self):
        h, self._h = getattr(self, "_h", None), None
        if h:
            self._lib.tn_state_free(h)

    # ---- the state API ----------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act (TERMINAL at the end)."""
        p = self._lib.tn_state_player(self._h)
        if p == _ERROR:
            raise RuntimeError(f"the native rules stopped: {self.info()['error']}")
        return p

    def is_terminal(self) -> bool:
        """Has the game ended."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """Never: chance is sampled inside the rules (SAMPLED_STOCHASTIC)."""
        return False

    def chance_outcomes(self) -> list:
        """None: see is_chance_node."""
        return []

    def is_simultaneous_node(self) -> bool:
        """Never: the Action Step is in turn-based form, as in the Python state."""
        return False

    def action_ids(self) -> list[int]:
        """The waiting decision's option ids, in the engine's option order."""
        if self._ids is None:
            lib = self._lib
            n = lib.tn_state_ids(self._h, None, 0)
            buf = (ctypes.c_int64 * n)()
            lib.tn_state_ids(self._h, buf, n)
            self._ids = list(buf)
        return self._ids

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending ([] at the end or for a seat not to act)."""
        p = self.current_player()
        if p < 0 or (player is not None and player != p):
            return []
        return sorted(self.action_ids())

    def option_index(self, action: int) -> int:
        """The index in the engine's options of action id `action`."""
        try:
            return self.action_ids().index(action)
        except ValueError:
            raise ValueError(f"action {action} is not legal here") from None

    def apply_action(self, action: int) -> None:
        """Answer the waiting decision with action id `action`."""
        self._answer(action, 1, f"action {action} is not legal here")

    def apply_index(self, i: int) -> None:
        """Answer the waiting decision with the engine's option number i."""
        self._answer(i, 0, f"option {i} is not legal here")

    def _answer(self, x: int, by_id: int, why: str) -> None:
        if self._lib.tn_state_apply(self._h, x, by_id) != 0:
            raise ValueError(why)
        self._ids = None
        if self._lib.tn_state_player(self._h) == _ERROR:
            raise RuntimeError(f"the native rules stopped: {self.info()['error']}")

    def playout(self, seed: int, max_steps: int = 1 << 40) -> int:
        """Play on in the native engine with uniformly random answers (a generator seeded
        with `seed`), to the end or `max_steps` answers; returns the answers given."""
        n = self._lib.tn_state_playout(self._h, seed, max_steps)
        self._ids = None
        if n < 0:
            raise RuntimeError(f"the native rules stopped: {self.info()['error']}")
        return n

    def clone(self) -> NativeState:
        """An exact, independent copy (the same future for the same actions)."""
        err = ctypes.c_void_p()
        h = self._lib.tn_state_clone(self._h, ctypes.byref(err))
        if not h:
            raise RuntimeError(_text(self._lib, err.value) if err.value else "clone failed")
        return NativeState(self._native, h, self.players, self.seed)

    def __deepcopy__(self, memo) -> NativeState:
        """`copy.deepcopy` (pyspiel's Clone of a Python state) is `clone()`."""
        return self.clone()

    def info(self, full: bool = False) -> dict:
        """The decision (seat p, kind, reprs: each option as the Python engine's
        repr(option_key(option)), ids), history, finished, error, round, winner, end; with
        `full`, events (the log, when made with log=True) and snapshot (the whole state)."""
        return json.loads(_text(self._lib, self._lib.tn_state_info(self._h, int(full))))

    def asked(self) -> tuple:
        """The waiting decision: (seat, kind, option texts) (the native options are C++
        values: their texts are the Python engine's reprs of the same options)."""
        i = self.info()
        if i["p"] < 0:
            raise ValueError("the game is over: no decision is waiting")
        return i["p"], i["kind"], i["reprs"]

    def history(self) -> list[int]:
        """Every answer so far (option indices, as the Python state's history)."""
        return self.info()["history"]

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others (zeros until the end)."""
        if not self.is_terminal():
            return [0.0] * self.players
        won = self.info()["winner"]
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.players)]

    def rewards(self) -> list[float]:
        """The returns at the end, else zeros (no reward before the end)."""
        return self.returns()

    def events(self) -> list[dict]:
        """The event log so far (empty unless made with log=True)."""
        return self.info(True).get("events", [])

    def snapshot(self) -> dict:
        """The whole state (the native engine's snapshot: every seat's cards and units)."""
        return self.info(True)["snapshot"]

    def __str__(self) -> str:
        """The state as its setup and answers (what determines it)."""
        return json.dumps({"players": self.players, "seed": self.seed,
                           "history": self.history()})


def new_native_state(rules, players: int, seed: int, factions=None, options=None,
                     log: bool = False) -> NativeState:
    """A native game set up and waiting at its first decision (the Python state's
    new_state with every seat offered whole plays). Raises RuntimeError where there is no
    native engine, ValueError where it cannot set the game up."""
    from ..core import STEP_BUDGET
    from ..options import Options

    native = for_rules(rules)
    if native is None or library() is None:
        raise RuntimeError("no native engine (python3 -m tether_build.engine.native builds it)")
    lib = native.lib
    _bind(lib)
    facs = list(factions or [])
    facs += [rules.default_faction] * (players - len(facs))
    request = {"players": players, "seed": seed, "factions": facs[:players],
               "options": (options or Options()).to_dict(), "log": log,
               "step_budget": STEP_BUDGET}
    err = ctypes.c_void_p()
    h = lib.tn_state_new(native.handle, json.dumps(request).encode(), ctypes.byref(err))
    if not h:
        raise ValueError(_text(lib, err.value) if err.value else "the native state failed")
    return NativeState(native, h, players, seed)
