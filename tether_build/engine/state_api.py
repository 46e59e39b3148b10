"""The game as a state that waits for an action (OpenSpiel's convention).

The rules ask their questions from deep inside (`Game.decide`). Here they run as a coroutine
(a `greenlet`): each decision suspends the rules and hands the question to the caller; the
caller answers with `apply_action`. No agent is called by the rules: `play(state, agents)` is
the game loop that asks the agents.

- `current_player()`: the seat to act, or TERMINAL (-4, OpenSpiel's value) at the end. The
  Action Step (§12.1) is in turn-based form: the seats choose one after another from the
  step's starting state, and a seat's choice is not shown to the others (their observations
  and information states) until the reveal; `pending()["secret"]` marks such a choice.
- `legal_actions()`: stable action ids, ascending: a hash of the decision kind and the
  option (a card by its instance, a Champion by its id, a whole play "card + its locked
  targets" as one action), in [0, NUM_ACTIONS); the same option has the same id in every
  copy and every dealt world. `option_index(a)` maps one back to the engine's option.
- chance: OpenSpiel's SAMPLED_STOCHASTIC mode. Dice, shuffles and draws come from the
  game's one seeded Mersenne Twister stream inside the rules (draw for draw the native
  engine's: the two engines must play the same seeded games), so there are no chance nodes:
  `is_chance_node()` is always False and `chance_outcomes()` empty. A state's future is fixed
  by its seed and the actions; `resample_from_infostate` reseeds it.
- `clone()`: the game re-run from its last round-start snapshot (a pickled copy taken as
  each round starts) with this round's answers; exact (the same future for the same
  actions). `history()` is every answer so far.
- `returns()`: 1 shared among the winners (a shared win splits it), 0 for the others.
- `observation_string(p)`, `information_state_string(p)`: what seat p may know (JSON).
- `pending()`: the decision in words for a UI: seat, kind, a prompt, the options (id and
  label), whether it is a secret choice; `events()`: the event log so far (with log=True).
"""

from __future__ import annotations

import json
import random
import zlib

import greenlet

from .decisions import DECISIONS
from .fork import Frozen, option_key
from .human import describe, group
from .play import run
from .setup import new_game

TERMINAL = -4          # pyspiel.PlayerId.TERMINAL
NUM_ACTIONS = 1 << 20  # the action id space (ids are hashes of the option)
PROMPTS = {k: row[0] for k, row in DECISIONS.items()}


class _Wait:
    """A seat of the game in the coroutine: its decisions suspend the rules."""

    name = "wait"
    sees = "game"

    def __init__(self, st: TetherState, p: int, whole_plays: bool):
        self.st, self.p, self.whole_plays = st, p, whole_plays
        self.agent = None   # the agent `play` seats here (harnesses read its attributes)

    def seed(self, value: int) -> None:
        """Setup draws each seat's agent stream; `play` hands it to the seated agent."""
        self.st.agent_seeds[self.p] = value

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Suspend the rules until the caller answers."""
        return self.st._suspend(g, p, kind, options, ctx)

    def __getattr__(self, name):
        agent = self.__dict__.get("agent")
        if agent is None:
            raise AttributeError(name)
        return getattr(agent, name)


def option_id(kind: str, option) -> int:
    """The stable id of one option of a decision (before collisions are resolved)."""
    return zlib.crc32(f"{kind}|{option_key(option)!r}".encode()) % NUM_ACTIONS


def option_ids(kind: str, options: list) -> list[int]:
    """Each option's id; a collision within the decision takes the next free id."""
    seen: set[int] = set()
    out = []
    for o in options:
        a = option_id(kind, o)
        while a in seen:
            a = (a + 1) % NUM_ACTIONS
        seen.add(a)
        out.append(a)
    return out


_WORDS = {("mine", "draft"): "draft a card", ("forge", "draft"): "draft a card",
          ("forge", "reforge"): "reforge", ("assign_hit", "force"): "a Cohort takes the hit"}


def label(g, kind: str, option) -> str:
    """An option in words (a whole play names its targets too)."""
    head = option[0] if isinstance(option, tuple) and option else None
    if (kind, head) in _WORDS:
        return _WORDS[kind, head]
    if kind == "mine" and head == "gold":
        return f"take {option[1]} Gold"
    if kind == "assign_hit" and head == "champion":
        champ = g.s.champions.get(option[1])
        return f"{champ.defn.name if champ else 'a Champion'} takes the hit"
    if kind == "move" and head is not None:
        return "move " + group(g, option)
    text = describe(g, kind, option)
    if kind == "action" and isinstance(option, tuple) and len(option) == 3:
        aims = [describe(g, k, v) for k, v, _step in option[2]]
        if aims:
            text += ": " + ", ".join(aims)
    return text


class TetherState:
    """One game waiting at a decision (or finished). Create with `new_state`."""

    def __init__(self, rules, players: int, seed: int, factions=None, options=None,
                 whole_plays=None, log: bool = False, check=None, snapshots: bool = True):
        self.rules, self.players, self.seed = rules, players, seed
        self.factions, self.options = factions, options
        self.whole = list(whole_plays) if whole_plays is not None else [True] * players
        self.log, self.check, self.snapshots = log, check, snapshots
        self._history: list = []          # every answer (option index) and resample
        self._seen: list[list] = [[] for _ in range(players)]  # each seat's own answers
        self._snap: tuple | None = None   # (history length, Frozen game) at a round start
        self.agent_seeds: list[int | None] = [None] * players
        self.game = None
        self._ask: tuple | None = None    # (seat, kind, options, ctx) waiting
        self._ids: list[int] | None = None
        self._gl = None

    # ---- the coroutine -------------------------------------------------------------------
    def _seats(self) -> list[_Wait]:
        return [_Wait(self, p, w) for p, w in enumerate(self.whole)]

    def _start(self) -> None:
        def body(*_):
            g = new_game(self.rules, self.players, self.seed, self._seats(), self.factions,
                         self.options, [] if self.log else None, self.check)
            self.game = g
            self._run(g)
        self._gl = greenlet.greenlet(body)
        self._resume(None)

    def _start_from(self, snap) -> None:
        _n, frozen = snap
        g = frozen.thaw(self._seats())
        self.game = g
        self._gl = greenlet.greenlet(lambda *_: self._run(g))
        self._resume(None)

    def _run(self, g) -> None:
        g.on_round = self._on_round if self.snapshots else None
        run(g)
        self._ask = None

    def _on_round(self, g) -> None:
        """A round starts: keep a snapshot (clones re-run only this round from it)."""
        n = len(self._history)
        if self._snap is not None and self._snap[0] == n:
            return
        g.on_round = None
        try:
            frozen = Frozen(g)
        finally:
            g.on_round = self._on_round
        frozen.game = None  # (kept only for a state that cannot be pickled: not here)
        if frozen.data is not None:
            self._snap = (n, frozen)

    def _suspend(self, g, p, kind, options, ctx) -> int:
        self.game = g
        self._ask, self._ids = (p, kind, options, ctx), None
        return self._gl.parent.switch()

    def _resume(self, value) -> None:
        self._gl.parent = greenlet.getcurrent()
        self._ask = None
        self._gl.switch(value)
        if self._gl.dead:
            self._ask = None

    # ---- the state API -------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """Has the game ended."""
        return self._ask is None

    def current_player(self) -> int:
        """The seat to act (TERMINAL at the end)."""
        return TERMINAL if self._ask is None else self._ask[0]

    def is_chance_node(self) -> bool:
        """Never: chance is sampled inside the rules (SAMPLED_STOCHASTIC)."""
        return False

    def chance_outcomes(self) -> list:
        """None: see is_chance_node."""
        return []

    def is_simultaneous_node(self) -> bool:
        """Never: the Action Step is in turn-based form (see the module docstring)."""
        return False

    def asked(self) -> tuple:
        """The waiting decision: (seat, kind, options, ctx) as the engine asks it."""
        if self._ask is None:
            raise ValueError("the game is over: no decision is waiting")
        return self._ask

    def action_ids(self) -> list[int]:
        """The waiting decision's option ids, in the engine's option order."""
        if self._ids is None:
            _p, kind, options, _ctx = self.asked()
            self._ids = option_ids(kind, options)
        return self._ids

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending ([] at the end or for a seat not to act)."""
        if self._ask is None or (player is not None and player != self._ask[0]):
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
        self.apply_index(self.option_index(action))

    def apply_index(self, i: int) -> None:
        """Answer the waiting decision with the engine's option number i."""
        p, kind, options, _ctx = self.asked()
        if not 0 <= i < len(options):
            raise ValueError(f"option {i} of {len(options)}")
        self._seen[p].append((kind, options[i]))  # (its id is worked out when asked)
        self._history.append(i)
        self._resume(i)

    def history(self) -> list:
        """Every answer so far (option indices; ('resample', seat, seed) entries)."""
        return list(self._history)

    def clone(self) -> TetherState:
        """An exact, independent copy (the same future for the same actions)."""
        c = TetherState(self.rules, self.players, self.seed, self.factions, self.options,
                        self.whole, self.log, self.check, self.snapshots)
        c.agent_seeds = list(self.agent_seeds)
        snap = self._snap
        c._snap = snap
        if snap is None:
            c._start()
            c._replay(self._history)
        else:
            c._history = list(self._history[:snap[0]])
            c._start_from(snap)
            c._replay(self._history[snap[0]:])
        c._seen = [list(x) for x in self._seen]
        return c

    def _replay(self, entries) -> None:
        for x in entries:
            if isinstance(x, tuple):
                self._resample(x[1], x[2])
                self._history.append(x)
            else:
                self._history.append(x)
                self._resume(x)

    def resample(self, p: int, seed: int) -> None:
        """In place, deal again what seat p cannot see (`Game.resample`), from `seed`."""
        self._resample(p, seed)
        self._history.append(("resample", p, seed))

    def _resample(self, p: int, seed: int) -> None:
        self.game.resample(p, random.Random(seed))
        self._ids = None

    def resample_from_infostate(self, p: int, sampler) -> TetherState:
        """A copy in which what seat p cannot see is dealt again; `sampler()` returns
        uniform numbers in [0, 1), as pyspiel's samplers do."""
        c = self.clone()
        c.resample(p, int(sampler() * (1 << 53)))
        return c

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for the others (zeros until the end)."""
        if self._ask is not None:
            return [0.0] * self.players
        won = self.game.s.winner or []
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.players)]

    def rewards(self) -> list[float]:
        """The returns at the end, else zeros (no reward before the end)."""
        return self.returns()

    # ---- what a seat knows, in words -------------------------------------------------------
    def observation(self, p: int) -> dict:
        """Seat p's observation (`Game.observation`), with its waiting decision if any."""
        obs = self.game.observation(p)
        if self._ask is not None and self._ask[0] == p:
            obs["decision"] = self._decision()
        return obs

    def observation_string(self, p: int) -> str:
        """Seat p's observation as canonical JSON."""
        return json.dumps(self.observation(p), sort_keys=True, default=str)

    def information_state_string(self, p: int) -> str:
        """Seat p's observation and its own answers so far, as canonical JSON."""
        mine = [(kind, option_id(kind, o)) for kind, o in self._seen[p]]
        return json.dumps({"observation": self.observation(p), "mine": mine},
                          sort_keys=True, default=str)

    def _decision(self) -> dict:
        p, kind, options, _ctx = self._ask
        g = self.game
        return {"seat": p, "kind": kind, "prompt": PROMPTS.get(kind, kind),
                "secret": kind == "action",
                "options": [{"id": a, "label": label(g, kind, o)}
                            for a, o in zip(self.action_ids(), options)]}

    def pending(self) -> dict | None:
        """The waiting decision for a UI (None at the end): seat, kind, prompt, secret (an
        Action Step choice the other seats do not see until the reveal) and options, each
        {id, label}, in the engine's order."""
        return None if self._ask is None else self._decision()

    def events(self) -> list[dict]:
        """The event log so far (empty unless the state was made with log=True)."""
        return list(self.game.events or []) if self.game is not None else []

    def __str__(self) -> str:
        return json.dumps({"history": self._history, "pending": self.pending()}, default=str)


def new_state(rules, players: int, seed: int, factions=None, options=None,
              whole_plays=None, log: bool = False, check=None,
              snapshots: bool = True) -> TetherState:
    """A game set up and waiting at its first decision. `whole_plays`: per seat, offered
    card plays with their targets as one action (default: every seat)."""
    st = TetherState(rules, players, seed, factions, options, whole_plays, log, check,
                     snapshots)
    st._start()
    return st


def play(st: TetherState, agents) -> list[int]:
    """The game loop: ask each decision's agent (shown its seat's view, as `Game.ask`
    shows it) until the end; returns the winners. The agents are seeded with the streams
    setup drew for their seats."""
    if len(agents) != st.players:
        raise ValueError(f"{len(agents)} agents for {st.players} seats")
    for p, a in enumerate(agents):
        if hasattr(a, "seed") and st.agent_seeds[p] is not None:
            a.seed(st.agent_seeds[p])
        if st.game is not None:
            st.game.agents[p].agent = a
    while not st.is_terminal():
        p, kind, options, ctx = st.asked()
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    return st.game.s.winner
