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

What a seat knows: `seat_view(p)` is all that crosses from the native game to Python for
observations (nview.cpp's seat_view: the public board, every seat's public figures and
face-up piles, p's own hand, Permanent VP and draw pile contents, p's own answers, and p's
decision when p is to act). `observation_string`, `information_state_string` and the
tensors are built from it alone, equal to the Python state's for the same game (tested at
every step); `labels()` words the options as the Python state does (state_api.label on
the view). `resample_from_infostate(p, sampler)` deals the hidden things in the native
engine (nview.cpp's deal_hidden: from what p knows, every hidden list sorted before it is
dealt), at an Action Step choice from the start of the step, as the Python state does.
`snapshot()` and `events()` give the whole state and the log (for tests and tools, not
for agents).
"""

from __future__ import annotations

import ast
import ctypes
import json
import random
import re

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
    lib.tn_state_view.restype = vp
    lib.tn_state_view.argtypes = [vp, ctypes.c_int]
    lib.tn_state_deal.argtypes = [vp, ctypes.c_int, ctypes.c_int64]
    lib.tn_state_clone_dealt.restype = vp
    lib.tn_state_clone_dealt.argtypes = [vp, ctypes.c_int64, ctypes.c_int, ctypes.c_int64,
                                         ctypes.POINTER(vp)]
    _SIGNED = True


def _text(lib, ptr) -> str:
    try:
        return ctypes.string_at(ptr).decode()
    finally:
        lib.tn_free(ptr)


class NativeState:
    """One native game waiting at a decision (or finished). Create with `new_native_state`."""

    def __init__(self, native, handle: int, players: int, seed: int, rules=None):
        self._native = native          # keeps the loaded rules alive as long as the state
        self._lib = native.lib
        self._h = handle
        self.players, self.seed, self.rules = players, seed, rules
        self._ids: list[int] | None = None
        self._views: dict[int, str] = {}  # seat -> its view's JSON, until the state moves
        self._words: dict[tuple, list[str]] = {}  # (seat, reprs) -> the options' words
        self.words: dict | None = None  # the glossary for labels (state_api.glossary_words)

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
        self._views.clear()
        if self._lib.tn_state_player(self._h) == _ERROR:
            raise RuntimeError(f"the native rules stopped: {self.info()['error']}")

    def playout(self, seed: int, max_steps: int = 1 << 40) -> int:
        """Play on in the native engine with uniformly random answers (a generator seeded
        with `seed`), to the end or `max_steps` answers; returns the answers given."""
        n = self._lib.tn_state_playout(self._h, seed, max_steps)
        self._ids = None
        self._views.clear()
        if n < 0:
            raise RuntimeError(f"the native rules stopped: {self.info()['error']}")
        return n

    def clone(self) -> NativeState:
        """An exact, independent copy (the same future for the same actions)."""
        err = ctypes.c_void_p()
        h = self._lib.tn_state_clone(self._h, ctypes.byref(err))
        if not h:
            raise RuntimeError(_text(self._lib, err.value) if err.value else "clone failed")
        return self._wrap(h)

    def _wrap(self, h) -> NativeState:
        c = NativeState(self._native, h, self.players, self.seed, self.rules)
        c.words = self.words
        return c

    def __deepcopy__(self, memo) -> NativeState:
        """`copy.deepcopy` (pyspiel's Clone of a Python state) is `clone()`."""
        return self.clone()

    def info(self, full: bool = False) -> dict:
        """The decision (seat p, kind, reprs: each option as the Python engine's
        repr(option_key(option)), ids), history, finished, error, round, winner, end; with
        `full`, events (the log, when made with log=True), snapshot (the whole state) and
        cards (each instance's card id)."""
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

    # ---- what a seat knows (the seat view: nview.cpp) ---------------------------------------
    def seat_view(self, p: int) -> dict:
        """What seat p may know, as the native engine gives it (nview.cpp): its observation
        (`Game.observation`'s data), its own answers so far ("mine": (kind, id) pairs) and,
        when p is to act, its decision (kind, option texts and ids, the names of the cards
        the options name, the public board for the options' words). Nothing else of the
        game crosses to Python for observations."""
        if not 0 <= p < self.players:
            raise ValueError(f"no seat {p} in a {self.players}-player game")
        got = self._views.get(p)
        if got is None:
            ptr = self._lib.tn_state_view(self._h, p)
            if not ptr:
                raise ValueError("the game is not set up")
            got = self._views[p] = _text(self._lib, ptr)
        return json.loads(got)

    def observation(self, p: int) -> dict:
        """Seat p's observation (the Python state's: `Game.observation` with its waiting
        decision, in words, when p is to act)."""
        return _observation(self.seat_view(p), self.words, self._words)

    def observation_string(self, p: int) -> str:
        """Seat p's observation as canonical JSON (the Python state's string)."""
        return json.dumps(self.observation(p), sort_keys=True, default=str)

    def information_state_string(self, p: int) -> str:
        """Seat p's observation and its own answers so far, as canonical JSON."""
        view = self.seat_view(p)
        return json.dumps({"observation": _observation(view, self.words, self._words),
                           "mine": view["mine"]}, sort_keys=True, default=str)

    def observation_tensor(self, p: int) -> list[float]:
        """Seat p's observation as a fixed-size float vector (engine/tensors.py)."""
        from ..tensors import tensor_of
        return tensor_of(self._need_rules(), _observation(self.seat_view(p), None, None))

    def information_state_tensor(self, p: int) -> list[float]:
        """Seat p's observation tensor and a count of its own answers by kind."""
        from ..tensors import tensor_of
        view = self.seat_view(p)
        return tensor_of(self._need_rules(), _observation(view, None, None), view["mine"])

    def observation_tensor_size(self) -> int:
        """The length of `observation_tensor` for this game's player count."""
        from ..tensors import observation_size
        return observation_size(self._need_rules(), self.players)

    def labels(self) -> list[str]:
        """The waiting decision's options in words, in the engine's order (unique)."""
        p = self.current_player()
        if p < 0:
            raise ValueError("the game is over: no decision is waiting")
        return [o["label"] for o in _observation(self.seat_view(p), self.words, self._words)[
            "decision"]["options"]]

    def pending(self) -> dict | None:
        """The waiting decision for a UI (None at the end), as the Python state's
        `pending()`: seat, kind, prompt, secret (an Action Step choice the other seats do
        not see until the reveal) and options, each {id, label}, in the engine's order;
        made from the seat's view alone (its observation's decision)."""
        p = self.current_player()
        if p < 0:
            return None
        return _observation(self.seat_view(p), self.words, self._words)["decision"]

    def _need_rules(self):
        if self.rules is None:
            raise ValueError("a tensor needs the Ruleset (new_native_state gives it)")
        return self.rules

    # ---- worlds dealt for one seat -----------------------------------------------------------
    def resample(self, p: int, seed: int) -> None:
        """In place, deal again what seat p cannot see (nview.cpp: deal_hidden), from `seed`."""
        if self._lib.tn_state_deal(self._h, p, seed) != 0:
            raise ValueError("no decision is waiting (or no such seat) to deal at")
        self._ids = None
        self._views.clear()

    def resample_from_infostate(self, p: int, sampler, policy=None) -> NativeState:
        """A copy in which what seat p cannot see is dealt again from what p knows (never
        from the hidden truth: nview.cpp's deal_hidden sorts every hidden list before it
        deals it); `sampler()` returns uniform numbers in [0, 1), as pyspiel's samplers
        do. As the Python state's: at p's Action Step choice the copy goes back to the
        start of the step (the seats that chose before p chose from hands p cannot see,
        and their choices are secret until the reveal), deals there, lets those seats
        choose again in the dealt world (uniformly at random, or `policy(copy)` -> the
        option index) and p answer as it did: the copy waits at the same decision, with
        the same information state for p."""
        seed = int(sampler() * (1 << 53))
        info = self.info()
        n, hist, who = info["step_at"], info["history"], info["who"]
        snap = info["snap_n"]
        if (info["kind"] != "action" or n < 0 or n >= len(hist) or snap > n):
            c = self.clone()
            c.resample(p, seed)
            return c
        mine = [x for x, q in zip(hist[n:], who[n:]) if q == p]
        err = ctypes.c_void_p()
        h = self._lib.tn_state_clone_dealt(self._h, n, p, seed, ctypes.byref(err))
        if not h:
            raise RuntimeError(_text(self._lib, err.value) if err.value else "deal failed")
        c = self._wrap(h)
        if [n, p, seed, True] not in c.info()["deals"]:
            raise RuntimeError("the Action Step's deal was not made as it started")
        rng = random.Random(seed)
        for _ in range(len(hist) * 4 + 100):
            q = c.current_player()
            if q == p:
                if not mine:
                    return c
                c.apply_index(mine.pop(0))
            elif policy is not None:
                c.apply_index(policy(c))
            else:
                c.apply_index(int(rng.random() * len(c.action_ids())))
        raise RuntimeError("a resampled Action Step did not come back to the seat")

    def events(self) -> list[dict]:
        """The event log so far (empty unless made with log=True)."""
        return self.info(True).get("events", [])

    def snapshot(self) -> dict:
        """The whole state (the native engine's snapshot: every seat's cards and units),
        with each instance's card (`cards`, by instance number: a dealt world gives the
        hidden cards' numbers out again, so the numbers alone do not say which card is
        where)."""
        i = self.info(True)
        return {**i["snapshot"], "cards": i["cards"]}

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
    return NativeState(native, h, players, seed, rules)


class _Card:
    """A card by its name (an option's words)."""

    def __init__(self, name: str):
        self.defn = _Named(name)


class _Named:
    def __init__(self, name: str):
        self.name = name


class _Champ:
    """A Champion on the board as an option's words name it (public)."""

    def __init__(self, cid, owner, name, hp, hex_):
        self.cid, self.owner, self.hp, self.hex = cid, owner, hp, hex_
        self.defn = _Named(name)


class _Cards(dict):
    """The cards an option names, by id; its length: the game's card count."""

    def __init__(self, names: dict, n: int):
        super().__init__((int(k), _Card(v)) for k, v in names.items())
        self.n = n

    def __len__(self) -> int:
        return self.n


class _Topo:
    def __init__(self, names: list[str]):
        self.names = names

    def name(self, h: int) -> str:
        return self.names[h]


class _Board:
    """What the words of an option read (state_api.label, engine/human.py), from the seat
    view: the public board, and the cards the options name."""

    def __init__(self, d: dict):
        hexes = d["hexes"]
        self.topo = _Topo([x[0] for x in hexes])
        self.tile = [x[1] for x in hexes]
        self.mine_value = [x[2] for x in hexes]
        self.champions = {c[0]: _Champ(*c) for c in d["champions"]}
        self.cards = _Cards(d["cards"], d["n_cards"])


class _LabelGame:
    def __init__(self, d: dict):
        self.s = _Board(d)


_STEP = re.compile(r"<step [^>]*>")


def _option(text: str, kind: str, champs: dict):
    """An option back from its text (Python's repr(option_key(option))): a Champion option
    as the Champion the words name."""
    o = ast.literal_eval(_STEP.sub("'step'", text))
    if kind == "champion" and isinstance(o, tuple) and o[:1] == ("champion",):
        return champs[o[1]]
    if kind == "action" and isinstance(o, tuple) and len(o) == 3 and o[0] == "card":
        aims = tuple((k, champs[v[1]] if k == "champion" and isinstance(v, tuple) else v, st)
                     for k, v, st in o[2])
        return (o[0], o[1], aims)
    return o


def _observation(view: dict, words, memo: dict | None) -> dict:
    """The observation dict of a seat view (with its decision in words unless `memo` is
    None: the words of decisions already told, by the decision's view)."""
    obs = view["observation"]
    d = view["decision"]
    if d is None:
        return obs
    from ..state_api import PROMPTS, label
    kind, p = d["kind"], obs["seat"]
    texts: list[str] = []
    if memo is not None:
        key = json.dumps(d, sort_keys=True)
        texts = memo.get(key) or []
        if not texts:
            g = _LabelGame(d)
            seen: dict[str, int] = {}
            for r in d["reprs"]:
                text = label(g, kind, _option(r, kind, g.s.champions), words)
                k = seen[text] = seen.get(text, 0) + 1
                texts.append(text if k == 1 else f"{text} ({k})")
            if len(memo) > 64:
                memo.clear()
            memo[key] = texts
    obs["decision"] = {"seat": p, "kind": kind, "prompt": PROMPTS.get(kind, kind),
                       "secret": kind == "action",
                       "options": [{"id": a, "label": t} for a, t in zip(d["ids"], texts)]}
    return obs
