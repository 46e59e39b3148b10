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
  each round starts, once a state has been cloned) with this round's answers; exact (the
  same future for the same actions). The copy runs when it is first used: until then it
  holds only the answers (OpenSpiel's tests clone at every move and compare histories).
  `history()` is every answer so far.
- `returns()`: 1 shared among the winners (a shared win splits it), 0 for the others.
- `observation_string(p)`, `information_state_string(p)`: what seat p may know (JSON);
  `observation_tensor(p)`, `information_state_tensor(p)`: the same as fixed-size float
  vectors per player count (engine/tensors.py).
- `pending()`: the decision in words for a UI: seat, kind, a prompt, the options (id and
  label), whether it is a secret choice; `events()`: the event log so far (with log=True).
"""

from __future__ import annotations

import json
import random
import threading
import zlib

import greenlet

from .decisions import DECISIONS
from .frozen import Frozen, option_key
from .human import describe, group, term_word
from .rounds import run
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


def label(g, kind: str, option, words=None) -> str:
    """An option in words (a whole play names its targets too); `words`: the glossary
    (term id -> (singular, plural), `glossary_words`), else the engine's default words."""
    head = option[0] if isinstance(option, tuple) and option else None
    if (kind, head) in _WORDS:
        return _WORDS[kind, head]
    if kind == "mine" and head == "gold":
        return f"take {option[1]} {term_word(words, 'gold', False, 'Gold')}"
    if kind == "assign_hit" and head == "champion":
        champ = g.s.champions.get(option[1])
        return f"{champ.defn.name if champ else 'a Champion'} takes the hit"
    if kind == "move" and head is not None:
        return "move " + group(g, option, words)
    text = describe(g, kind, option, words)
    if kind == "action" and isinstance(option, tuple) and len(option) == 3 and head == "card":
        aims = [describe(g, k, v, words) for k, v, _step in option[2]]
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
        self._who: list[int] = []         # the seat of each (-1: a resample)
        self._step_at: int | None = None  # len(_history) as the current Action Step began
        self._deals: dict[int, tuple] = {}  # history length -> (seat, seed): a deal as the
        #                                     Action Step starting there starts (see _on_step)
        self._seen: list[list] = [[] for _ in range(players)]  # each seat's own answers
        self._hashed = [0] * players      # how many of them hold their id already
        self._snap: tuple | None = None   # (history length, Frozen game) at a round start
        self._cloned = False              # has clone() been called (then keep snapshots)
        self.agent_seeds: list[int | None] = [None] * players
        self.seated: set[int] = set()     # ids of the agents `play` has seeded
        self.words: dict | None = None    # the glossary for labels (glossary_words)
        self._g = None                    # the Game (`game`)
        self._a: tuple | None = None      # (seat, kind, options, ctx) waiting (`_ask`)
        self._lazy = False                # a copy not run yet (see clone)
        self._ids: list[int] | None = None
        self._labels: list[str] | None = None
        self._gl = None
        self._thread: int | None = None    # the thread the coroutine runs in

    # ---- the coroutine -------------------------------------------------------------------
    def _seats(self) -> list[_Wait]:
        return [_Wait(self, p, w) for p, w in enumerate(self.whole)]

    def _start(self) -> None:
        def body(*_):
            g = new_game(self.rules, self.players, self.seed, self._seats(), self.factions,
                         self.options, [] if self.log else None, self.check)
            self._g = g
            self._run(g)
        self._gl, self._thread = greenlet.greenlet(body), threading.get_ident()
        self._resume(None)

    def _start_from(self, snap) -> None:
        _n, frozen = snap
        g = frozen.thaw(self._seats())
        self._g = g
        self._gl = greenlet.greenlet(lambda *_: self._run(g))
        self._thread = threading.get_ident()
        self._resume(None)

    def _run(self, g) -> None:
        g.on_round = _Hook(self._on_round) if self.snapshots else None
        g.on_step = g.on_auction = _Hook(self._on_step)
        run(g)
        self._a = None

    def _on_round(self, g) -> None:
        """A round starts: keep a snapshot (clones re-run only this round from it), once
        this state has been cloned (a copy that is only played on, e.g. a search's
        rollout, keeps none and copies from the last one it inherited)."""
        n = len(self._history)
        if not self._cloned or (self._snap is not None and self._snap[0] == n):
            return
        hooks = g.on_round, g.on_step, g.on_auction
        g.on_round = g.on_step = g.on_auction = None
        try:
            frozen = Frozen(g)
        finally:
            g.on_round, g.on_step, g.on_auction = hooks
        frozen.game = None  # (kept only for a state that cannot be pickled: not here)
        if frozen.data is not None:
            self._snap = (n, frozen)

    def _suspend(self, g, p, kind, options, ctx) -> int:
        self._g = g
        self._a, self._ids, self._labels = (p, kind, options, ctx), None, None
        return self._gl.parent.switch()

    def _resume(self, value) -> None:
        self._gl.parent = greenlet.getcurrent()
        self._a = None
        self._gl.switch(value)
        if self._gl.dead:
            self._a = None

    @property
    def game(self):
        """The Game being played (engine/game.py), at the waiting decision."""
        if self._lazy:
            self._wake()
        return self._g

    @property
    def _ask(self):
        if self._lazy:
            self._wake()
        return self._a

    def _wake(self) -> None:
        """Run a copy made by `clone` (until then it holds only the answers)."""
        self._lazy = False
        hist, seen, snap, who = self._history, self._seen, self._snap, self._who
        self._history, self._who = [], []
        self._seen = [[] for _ in range(self.players)]
        for k, x in enumerate(hist):   # deals made as an Action Step started (_on_step)
            if isinstance(x, tuple) and x[3:] == ("step",):
                self._deals[k] = (x[1], x[2])
        if snap is None:
            self._start()
            self._replay(hist)
        else:
            self._history = list(hist[:snap[0]])
            self._start_from(snap)
            self._replay(hist[snap[0]:])
        self._seen, self._who = seen, who

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

    def labels(self) -> list[str]:
        """The waiting decision's options in words, in the engine's order; each label is
        unique (a second copy of the same choice, e.g. a card held twice, reads "(2)")."""
        if self._labels is None:
            _p, kind, options, _ctx = self.asked()
            seen: dict[str, int] = {}
            out = []
            for o in options:
                text = label(self.game, kind, o, self.words)
                n = seen[text] = seen.get(text, 0) + 1
                out.append(text if n == 1 else f"{text} ({n})")
            self._labels = out
        return self._labels

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
        if self._thread != threading.get_ident() and not self._lazy:
            # a coroutine runs in the thread that made it: run the game again in this one
            # (e.g. a web server answering each request in a thread of its own)
            self._cloned = self._lazy = True
        p, kind, options, _ctx = self.asked()
        if not 0 <= i < len(options):
            raise ValueError(f"option {i} of {len(options)}")
        self._seen[p].append((kind, options[i]))  # (its id is worked out when asked)
        self._history.append(i)
        self._who.append(p)
        self._resume(i)

    def _on_step(self, g) -> None:
        """An Action Step, or a market card's auction, starts: where a resample for a seat
        choosing (bidding) in it goes back to (the choices and bids are secret)."""
        n = self._step_at = len(self._history)
        deal = self._deals.pop(n, None)
        if deal is not None:   # dealt before any seat is asked: their options are dealt too
            g.resample(deal[0], random.Random(deal[1]))
            self._history.append(("resample", deal[0], deal[1], "step"))
            self._who.append(-1)

    def history(self) -> list:
        """Every answer so far (option indices; ('resample', seat, seed) entries, with a
        fourth item "step" for a deal made as an Action Step started)."""
        return list(self._history)

    def clone(self) -> TetherState:
        """An exact, independent copy (the same future for the same actions)."""
        self._cloned = True
        c = TetherState(self.rules, self.players, self.seed, self.factions, self.options,
                        self.whole, self.log, self.check, self.snapshots)
        c.agent_seeds, c.words = list(self.agent_seeds), self.words
        c._snap, c._history, c._who = self._snap, list(self._history), list(self._who)
        c._step_at = self._step_at
        c._seen, c._hashed = [list(x) for x in self._seen], list(self._hashed)
        c._lazy = True   # run (from the snapshot, with this round's answers) when first used
        return c

    def _replay(self, entries) -> None:
        entries = list(entries)
        base = len(self._history)
        for k, x in enumerate(entries):
            if isinstance(x, tuple) and x[3:] == ("step",):
                self._deals[base + k] = (x[1], x[2])
        for x in entries:
            if isinstance(x, tuple) and x[3:] == ("step",):
                if self._history and self._history[-1] == x:
                    continue   # dealt by _on_step as its Action Step started
                self._deals = {}
                raise RuntimeError("a replayed Action Step deal was not reached")
            if isinstance(x, tuple):
                self._resample(x[1], x[2])
                self._history.append(x)
                self._who.append(-1)
            else:
                p, kind, options, _ctx = self.asked()
                self._seen[p].append((kind, options[x]))
                self._history.append(x)
                self._who.append(p)
                self._resume(x)

    def resample(self, p: int, seed: int) -> None:
        """In place, deal again what seat p cannot see (`Game.resample`), from `seed`."""
        self._resample(p, seed)
        self._history.append(("resample", p, seed))
        self._who.append(-1)

    def _resample(self, p: int, seed: int) -> None:
        self.game.resample(p, random.Random(seed))
        self._ids = self._labels = None

    def resample_from_infostate(self, p: int, sampler, policy=None) -> TetherState:
        """A copy in which what seat p cannot see is dealt again; `sampler()` returns
        uniform numbers in [0, 1), as pyspiel's samplers do. At p's Action Step choice the
        copy goes back to the start of the step (the seats that chose before p chose from
        hands p cannot see, and their choices are secret until the reveal), deals there,
        lets those seats choose again in the dealt world (uniformly at random, or
        `policy(copy)` -> the option index, e.g. a search's opponent model) and p answer as
        it did: the copy waits at the same decision, with the same information state for
        p."""
        seed = int(sampler() * (1 << 53))
        n = self._step_at
        if (self.asked()[1] not in ("action", "bid") or n is None or n >= len(self._history)
                or (self._snap is not None and self._snap[0] > n)):
            c = self.clone()
            c.resample(p, seed)
            return c
        mine = [x for x, q in zip(self._history[n:], self._who[n:]) if q == p]
        c = self._clone_at(n)
        c._deals[n] = (p, seed)   # dealt as the step starts, before any seat is asked
        if c.asked() and c._history[n:n + 1] != [("resample", p, seed, "step")]:
            raise RuntimeError("the Action Step's deal was not made as it started")
        rng = random.Random(seed)
        for _ in range(len(self._history) * 4 + 100):
            q, _kind, options, _ctx = c.asked()
            if q == p:
                if not mine:
                    return c
                c.apply_index(mine.pop(0))
            elif policy is not None:
                c.apply_index(policy(c))
            else:
                c.apply_index(int(rng.random() * len(options)))
        raise RuntimeError("a resampled Action Step did not come back to the seat")

    def _clone_at(self, n: int) -> TetherState:
        """A copy of this state as it was after its first n answers."""
        c = self.clone()
        c._history, c._who = c._history[:n], c._who[:n]
        for q in self._who[n:]:
            if q >= 0:
                c._seen[q].pop()
        c._hashed = [min(h, len(x)) for h, x in zip(c._hashed, c._seen)]
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
        mine = self._seen[p]
        for j in range(self._hashed[p], len(mine)):
            kind, o = mine[j]
            mine[j] = (kind, option_id(kind, o))
        self._hashed[p] = len(mine)
        return json.dumps({"observation": self.observation(p), "mine": mine},
                          sort_keys=True, default=str)

    def observation_tensor(self, p: int) -> list[float]:
        """Seat p's observation as a fixed-size float vector (engine/tensors.py)."""
        from .tensors import observation_tensor
        return observation_tensor(self.game, p, self._ask)

    def information_state_tensor(self, p: int) -> list[float]:
        """Seat p's observation tensor and a count of its own answers by kind."""
        from .tensors import information_state_tensor
        return information_state_tensor(self.game, p, self._ask, self._seen[p])

    def observation_tensor_size(self) -> int:
        """The length of `observation_tensor` for this game's player count."""
        from .tensors import observation_size
        return observation_size(self.rules, self.players)

    def _decision(self) -> dict:
        p, kind, _options, _ctx = self._ask
        return {"seat": p, "kind": kind, "prompt": PROMPTS.get(kind, kind),
                "secret": kind == "action",
                "options": [{"id": a, "label": t}
                            for a, t in zip(self.action_ids(), self.labels())]}

    def pending(self) -> dict | None:
        """The waiting decision for a UI (None at the end): seat, kind, prompt, secret (an
        Action Step choice the other seats do not see until the reveal) and options, each
        {id, label}, in the engine's order."""
        return None if self._ask is None else self._decision()

    def events(self) -> list[dict]:
        """The event log so far (empty unless the state was made with log=True)."""
        g = self.game
        return list(g.events or []) if g is not None else []

    def __reduce__(self):
        """Pickled as its setup and answers (the rules by a key of this process: a pickled
        state revives where the same Ruleset is loaded)."""
        key = _RULES.setdefault(id(self.rules), self.rules) and id(self.rules)
        return _revive, (key, self.players, self.seed, self.factions, self.options,
                         self.whole, self.log, self.snapshots, list(self._history))

    def __deepcopy__(self, memo) -> TetherState:
        """`copy.deepcopy` (pyspiel's Clone of a Python state) is `clone()`."""
        return self.clone()

    def __str__(self) -> str:
        """The state as its setup and answers (what determines it)."""
        return json.dumps({"players": self.players, "seed": self.seed,
                           "history": self._history}, default=str)


_RULES: dict[int, object] = {}   # the rules of pickled states, by id


class _Hook:
    """A callback from a state's game into the state; not copied with the game."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, g) -> None:
        self.fn(g)

    def __deepcopy__(self, memo):
        return None

    def __reduce__(self):
        return _nothing, ()


def _nothing() -> None:
    """What a _Hook becomes in a copy of its game."""


def _revive(key, players, seed, factions, options, whole, log, snapshots, history):
    """A pickled state: set up again and its answers re-run."""
    st = new_state(_RULES[key], players, seed, factions, options, whole, log, None, snapshots)
    st._replay(history)
    return st


def new_state(rules, players: int, seed: int, factions=None, options=None,
              whole_plays=None, log: bool = False, check=None,
              snapshots: bool = True) -> TetherState:
    """A game set up and waiting at its first decision. `whole_plays`: per seat, offered
    card plays with their targets as one action (default: every seat)."""
    st = TetherState(rules, players, seed, factions, options, whole_plays, log, check,
                     snapshots)
    st._start()
    return st


def glossary_words(terms: dict) -> dict:
    """The glossary for labels from content's terms (`Content.terms`: terms.yaml):
    term id -> (singular, plural)."""
    return {k: (v["singular"], v.get("plural", v["singular"])) for k, v in terms.items()}


def play(st: TetherState, agents) -> list[int] | None:
    """The game loop: ask each decision's agent (shown its seat's view, as `Game.ask`
    shows it) until the end; returns the winners. A seat whose agent is None is a person
    (a UI): the loop stops when that seat is to act and returns None; answer with
    `apply_action` and call `play` again. Each agent is seeded once, with the stream
    setup drew for its seat."""
    if len(agents) != st.players:
        raise ValueError(f"{len(agents)} agents for {st.players} seats")
    for p, a in enumerate(agents):
        if a is None:
            continue
        if id(a) not in st.seated and hasattr(a, "seed") and st.agent_seeds[p] is not None:
            a.seed(st.agent_seeds[p])
        st.seated.add(id(a))
        st.game.agents[p].agent = a
    while not st.is_terminal():
        p, kind, options, ctx = st.asked()
        if agents[p] is None:
            return None
        st.apply_index(st.game.ask(agents[p], p, kind, options, ctx))
    return st.game.s.winner
