"""Effect core: the step registry, compiled steps, and the effect context.

A compiled card effect is a list of `Step` objects. Each step kind of
`tether_build.effects.spec.STEPS` has exactly one factory in `REGISTRY`, which turns the
step's normalised parameters into closures once, at load time:
  select(ctx) -> target   (the choice part: may ask an agent; lockable at declaration)
  apply(ctx, target)      (the writer: changes the state)
"""

from __future__ import annotations

from collections.abc import Callable

ALL = 1_000_000  # "count: all"
NONE = object()  # no legal choice
OPEN_KINDS = ("move",)  # decisions a whole play leaves to the agent (asked when it resolves)
# Effect steps one game may run (issue 43). A game of the shipped content runs a few
# thousand; validate refuses an effect bounded above effects/bound.MAX_STEPS, and this stops
# whatever gets past that (a trigger that sets itself off, content not validated) with an
# error naming the card, instead of a game that never ends.
STEP_BUDGET = 1_000_000


class StepBudget(RuntimeError):
    """A game ran more effect steps than STEP_BUDGET: names the card running then (`card`,
    its id; None for a faction passive). The native engine words it the same (play.cpp)."""

    def __init__(self, message: str, card: str | None = None):
        super().__init__(message)
        self.card = card

    def __reduce__(self):   # raised in a worker process, re-raised in the caller
        return type(self), (str(self), self.card)

    @classmethod
    def at(cls, ctx, step) -> StepBudget:
        src = ctx.inst.defn if ctx.inst is not None else (
            ctx.champ.defn if ctx.champ is not None else None)
        who = f"card {src.id}" if src is not None else "a faction passive"
        budget = getattr(ctx.g, "step_budget", STEP_BUDGET)   # the game's own (check/world)
        return cls(f"{who}: its effect ran past the step budget ({budget} steps in one "
                   f"game, at a {step.kind} step): a repeat or a trigger without end?",
                   src.id if src is not None else None)


class Fizzle(Exception):
    """A locked target became illegal: the card fizzles (§12.4), costs stay paid."""


class NoTarget(Exception):
    """At declaration a required target has no legal choice: the card cannot be played."""


def shared(cls):
    """Mark a class of immutable definitions (compiled cards, steps, selectors, the board's
    topology): a cloned game shares them instead of copying them (`Game.clone`)."""
    cls.__copy__ = lambda self: self
    cls.__deepcopy__ = lambda self, memo: self
    cls.shared_definition = True  # a search fork's copy shares it too (engine/fork.py)
    return cls


@shared
class Step:
    """One compiled step: kind, unique id, and its select/apply closures."""

    __slots__ = ("apply", "exists", "kind", "may_fail", "options", "params", "select",
                 "targets", "uid")

    def __init__(self, kind: str, params: dict, apply, select=None):
        self.kind, self.params, self.apply, self.select = kind, params, apply, select
        self.uid = 0
        self.options = None  # choose_target: fn(ctx) -> candidates (for look-ahead)
        # can `select` find no legal choice while a card is declared (NoTarget)? Handlers
        # that know it never can say so; it spares the target look-ahead of such cards
        self.may_fail = True
        self.exists = None  # fn(ctx) -> bool: has `select` a choice (a quick look-ahead)
        self.targets = None  # a chosen-target step: fn(ctx) -> candidates (agents' preview)

    def run(self, ctx: Ctx) -> None:
        """Choose (or use the locked) target, then apply (within the game's step budget)."""
        g = ctx.g
        g.steps_left -= 1
        if g.steps_left < 0:
            raise StepBudget.at(ctx, self)
        if self.select is None:
            self.apply(ctx, None)
            return
        target = self.select(ctx)
        self.apply(ctx, target)

    def __repr__(self) -> str:
        return f"<step {self.kind}#{self.uid}>"


REGISTRY: dict[str, Callable] = {}


def handler(name: str):
    """Register the factory of one step kind: factory(params, compiler) -> Step."""
    def deco(fn):
        if name in REGISTRY:
            raise ValueError(f"duplicate handler for step {name!r}")
        REGISTRY[name] = fn
        return fn
    return deco


class Ctx:
    """Everything a running effect sees: the game, who acts, this card / Champion, refs."""

    __slots__ = (
        "asking",
        "battle",
        "champ",
        "declaring",
        "dry",
        "event",
        "g",
        "inst",
        "last_count",
        "locks",
        "p",
        "preset",
        "quick",
        "refs",
        "s",
    )

    def __init__(self, g, p: int, inst=None, champ=None, battle=None, event=None,
                 locks: dict | None = None, declaring: bool = False, dry: bool = False):
        self.g, self.s, self.p, self.inst, self.champ = g, g.s, p, inst, champ
        self.battle, self.event = battle, event
        self.refs: dict = {}
        self.locks = locks
        self.declaring = declaring
        self.dry = dry
        self.last_count = 0
        self.quick = False  # a look-ahead that only asks whether targets exist (Step.exists)
        self.asking = None  # the key (step) of the choice being asked (agents read it)
        self.preset = None  # declare.Preset: a whole play's answers, asked of no agent

    @property
    def source_type(self) -> str | None:
        """Card type of the card running this effect (for 'untargetable'): a played card's,
        or for a Champion's ability its Champion card's ('champion'); None for a faction
        passive, which is no card."""
        if self.inst is not None:
            return self.inst.defn.type
        return self.champ.defn.type if self.champ is not None else None

    def child(self, p: int | None = None, champ=None, event=None) -> Ctx:
        """A context for a nested effect (trigger) sharing the game."""
        c = Ctx(self.g, self.p if p is None else p, self.inst, champ or self.champ,
                self.battle, event if event is not None else self.event)
        c.refs = dict(self.refs)
        return c

    def _log_aim(self, key, kind: str, value) -> None:
        """Log whose units a chosen Champion or hex target holds (for the agents' audit)."""
        step = key[0] if isinstance(key, tuple) else key
        if kind == "champion" and hasattr(value, "owner"):
            owners = [value.owner]
        elif kind == "hex" and isinstance(value, int):
            owners = sorted(self.s.occupants(value))
        else:
            return
        card = self.inst.defn.id if self.inst is not None else None
        params = getattr(step, "params", None) or {}
        side = (params.get("champion") or params.get("hex") or {}).get("side", "any")
        self.g.log("aim", p=self.p, step=getattr(step, "kind", ""), card=card, owners=owners,
                   side=side)

    def _log_target(self, key, kind: str, value, locked: bool) -> None:
        """Log whose units or seat a target holds as an effect resolves (the audit of
        analysis/aims.py): the Champion's owner, the hex's occupants, the seat."""
        if kind == "champion" and hasattr(value, "owner"):
            owners = [value.owner]
        elif kind in ("hex", "player") and isinstance(value, int) and value is not True:
            owners = sorted(self.s.occupants(value)) if kind == "hex" else [value]
        else:
            return
        step = key[0] if isinstance(key, tuple) else key
        src = self.inst.defn.id if self.inst is not None else (
            self.champ.defn.id if self.champ is not None else None)
        self.g.log("target", p=self.p, step=step.kind, uid=step.uid, card=src, kind=kind,
                   owners=owners, locked=locked)

    def choose(self, key, kind: str, options_fn, valid=None, optional: bool = False,
               required: bool = True):
        """Pick a target: the locked one (checked, else Fizzle), else ask the agent.
        `optional` ("you may"): None, the skip, is offered first and is always legal.
        Not `required` (a further stack or Bridge of one step): no choice is no target."""
        if optional:
            targets = options_fn
            options_fn = lambda: [None, *targets()]
        locks = self.locks
        if locks is not None and not self.declaring and key in locks:
            value = locks[key]
            ok = valid(value) if valid is not None else value in options_fn()
            if not ok:
                raise Fizzle(f"{kind} target no longer legal")
            if self.g.events is not None:
                self._log_target(key, kind, value, True)
            return value
        preset = self.preset  # a whole play: card and targets were chosen as one
        options = options_fn() if preset is None else preset.options(key, options_fn)
        if not options:
            if self.declaring and required:
                raise NoTarget(kind)
            return NONE
        if self.dry:
            value = options[0]
        elif preset is not None and preset.answers(kind) and (
                len(options) > 1 or kind not in OPEN_KINDS):
            # a whole play holds its forced targets too: the agent weighs "Zap my own
            # Champion" even when that Champion is the only one in range
            value = preset.answer(key, kind, options)
            if preset.replay and self.g.events is not None:
                self._log_aim(key, kind, value)
        elif len(options) == 1:
            value = options[0]
        else:
            self.asking = key
            value = self.g.decide(self.p, kind, options, self)
            if self.g.events is not None:
                self._log_aim(key, kind, value)
        if self.declaring:
            locks[key] = value
        elif not self.dry and self.g.events is not None:
            self._log_target(key, kind, value, False)
        return value
