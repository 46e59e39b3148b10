"""An instrumented compile of the engine rules: every compiled step reports to a Recorder.

The check compiles the content a second time with `Instrumenter`, a Compiler whose steps
call the Recorder around their `apply` (the writer part of a step). The Recorder asks the
step kind's expectation (expect.EXPECT) what the step must do, lets the step run, and
notes whether the state changed as declared. The game rules are untouched: with no
Recorder attached, an instrumented step runs exactly as a plain one.
"""

from __future__ import annotations

import json
from collections import Counter

from ..engine.ruleset import CardDef, Compiler, Faction, Ruleset


class StepInfo:
    """What the check knows of one compiled step: its data, children and readable path."""

    __slots__ = ("branches", "children", "kind", "params", "path", "step", "uid")

    def __init__(self, step, params: dict, children: list):
        self.step, self.uid, self.kind, self.params = step, step.uid, step.kind, params
        self.children = children
        self.branches = _branches(params, children)
        self.path = f"{self.kind}#{self.uid}"


def _branches(d: dict, kids: list) -> list[tuple[str, list]]:
    """Children grouped by the part of the step they belong to (then/else, options...)."""
    kind = d["step"]
    if kind == "if":
        n = len(d["then"])
        return [("then", kids[:n]), ("else", kids[n:])]
    groups = []
    if kind == "choose_one":
        groups = [(f"options[{o['label']}]", len(o["steps"])) for o in d["options"]]
    elif kind == "roll":
        groups = [(f"outcomes[{o['faces'][0]}-{o['faces'][1]}]", len(o["steps"]))
                  for o in d["outcomes"]]
    if not groups:
        return [("steps", kids)] if kids else []
    out, i = [], 0
    for name, n in groups:
        out.append((name, kids[i:i + n]))
        i += n
    return out


class Outcome:
    """What one run of a step showed: problems, whether it acted fully, and tags."""

    __slots__ = ("achieved", "problems", "tags")

    def __init__(self, problems=(), achieved: bool = True, tags=()):
        self.problems, self.achieved, self.tags = list(problems), achieved, set(tags)


class Instrumenter(Compiler):
    """A Compiler that indexes every step (with its children) and wraps its apply."""

    def __init__(self):
        super().__init__()
        self.info: dict[int, StepInfo] = {}
        self.recorder: Recorder | None = None
        self._frames: list[list] = []

    def steps(self, raw):
        """Compile steps one by one, noting which steps were compiled inside which."""
        out = []
        for d in raw or []:
            self._frames.append([])
            (st,) = super().steps([d])
            kids = self._frames.pop()
            self.info[st.uid] = StepInfo(st, d, kids)
            self._wrap(st)
            if self._frames:
                self._frames[-1].append(st)
            out.append(st)
        return out

    def _wrap(self, st) -> None:
        orig_apply, orig_select = st.apply, st.select
        comp = self

        def apply(ctx, target):
            rec = comp.recorder
            if rec is None or ctx.declaring or ctx.dry:
                return orig_apply(ctx, target)
            return rec.run(st, ctx, target, orig_apply)
        st.apply = apply
        if orig_select is not None:
            def select(ctx):
                rec = comp.recorder
                if rec is not None:
                    rec.selecting = st.uid
                return orig_select(ctx)
            st.select = select


def instrumented_rules(compiled: dict, log=None) -> tuple[Ruleset, Instrumenter]:
    """A Ruleset whose cards, abilities and passives are compiled by an Instrumenter.
    log: a reads.Log that notes every game constant the rules are asked for (reads.py).

    (Engine wish: `Ruleset.from_compiled(data, compiler=...)` would make this one line.)"""
    if log is not None:
        from .reads import Tracked

        game = _json(compiled["game.json"])
        compiled = dict(compiled, **{"game.json": dict(
            game, constants=Tracked(game["constants"], log))})
    rules = Ruleset.from_compiled(compiled)
    comp = Instrumenter()
    raw_cards = [c.raw for c in rules.cards]
    rules.cards = [CardDef(i, d, comp) for i, d in enumerate(raw_cards)]
    rules.by_id = {c.id: c for c in rules.cards}
    fdoc = _json(compiled["factions.json"])
    rules.factions = {k: Faction(k, v, comp) for k, v in fdoc["factions"].items()}
    return rules, comp


def _json(v):
    return json.loads(v) if isinstance(v, (bytes, str)) else v


def assign_paths(info: dict[int, StepInfo], steps, prefix: str) -> list[int]:
    """Give each step of a list (and its children) a readable path; return every uid."""
    uids = []
    for i, st in enumerate(steps):
        si = info[st.uid]
        si.path = f"{prefix}[{i}] {si.kind}"
        uids.append(st.uid)
        for name, kids in si.branches:
            uids += assign_paths(info, kids, f"{prefix}[{i}].{name}")
    return uids


class Recorder:
    """Collects, for one scenario, what each instrumented step did."""

    def __init__(self, info: dict[int, StepInfo], expectations: dict):
        self.info, self.expect = info, expectations
        self.runs: Counter = Counter()
        self.achieved: set[int] = set()
        self.tags: dict[int, set] = {}
        self.problems: list[tuple[int, str]] = []
        self.installed: list[tuple[int, object]] = []  # (uid of add_*, Active)
        self.after_cleanup: list[tuple[int, object]] = []  # (uid, fn(game) -> problems)
        self.started: list[int] = []
        self.stack: list[int] = []
        self.selecting: int | None = None
        self.failed_step: int | None = None

    def run(self, st, ctx, target, orig):
        """Run one step between the two halves of its expectation."""
        info = self.info[st.uid]
        fn = self.expect.get(info.kind)
        self.started.append(st.uid)
        self.runs[st.uid] += 1
        gen = None
        if fn is None:
            self.problems.append((st.uid, (f"the check has no expectation for step "
                                          f"kind {info.kind!r}")))
        else:
            gen = fn(ctx, info, target, self)
            try:
                next(gen)
            except Exception as exc:  # noqa: BLE001  (a checker bug is reported, not hidden)
                self.problems.append((st.uid, (f"expectation failed before the step: "
                                              f"{type(exc).__name__}: {exc}")))
                gen = None
        mark = len(self.started)
        self.stack.append(st.uid)
        try:
            orig(ctx, target)
        except BaseException:
            if self.failed_step is None:
                self.failed_step = st.uid
            raise
        finally:
            self.stack.pop()
        if gen is not None:
            self._finish(st.uid, gen, self.started[mark:])

    def _finish(self, uid: int, gen, ran: list[int]) -> None:
        try:
            gen.send(ran)
            out = Outcome(["expectation did not finish"], False)
        except StopIteration as stop:
            out = stop.value or Outcome()
        except Exception as exc:  # noqa: BLE001
            out = Outcome([f"expectation failed after the step: {type(exc).__name__}: {exc}"],
                          False)
        self.problems += [(uid, p) for p in out.problems]
        if out.achieved:
            self.achieved.add(uid)
        if out.tags:
            self.tags.setdefault(uid, set()).update(out.tags)

    def mark(self, uid: int, tag: str | None = None, achieved: bool = True) -> None:
        """Record, from outside a step run (a probe), that a step acted or showed a tag."""
        if achieved:
            self.achieved.add(uid)
        if tag:
            self.tags.setdefault(uid, set()).add(tag)
