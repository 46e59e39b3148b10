"""Per-subject scenarios: play the card (or set up the ability / passive) in constructed
states, probe every modifier and trigger it installs, and turn what was seen into
failures: a problem a step expectation found, a fizzle or error, a step that never took
effect, a branch never taken, a modifier never observed, a trigger that never fired."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import islice

from ..engine.core import Ctx
from .expectations import EXPECT
from .instrument import Recorder
from .model import Failure
from .probes import PROBES, Obs
from .provoke import PROVOKE
from .shapes import shape
from .subjects import RANDOM_SEEDS, plans
from .world import build

MAX_PLANS = 24        # scenarios per subject
MAX_REPLAYS = 60      # replays per scenario (one per probe attempt)


class CardTrigger:
    """A card's own trigger (card_drawn / card_discarded), shaped like an active one."""

    __slots__ = ("ability", "champ", "duration", "event", "inst", "mod", "owner", "refs",
                 "steps", "target")

    def __init__(self, owner: int, inst, ability):
        self.owner, self.inst, self.ability, self.champ = owner, inst, ability, None
        self.event, self.steps, self.mod = ability.event, ability.steps, None
        self.refs, self.target, self.duration = {}, None, "permanent"


@dataclass
class Tally:
    """What the scenarios of one subject showed, merged."""

    runs: Counter = field(default_factory=Counter)
    achieved: set = field(default_factory=set)
    tags: dict = field(default_factory=dict)
    problems: dict = field(default_factory=dict)      # (uid or None, message) -> spec
    outcomes: Counter = field(default_factory=Counter)
    why_not: Counter = field(default_factory=Counter)  # (outcome, step, why) -> times
    observed: set = field(default_factory=set)
    tried: Counter = field(default_factory=Counter)
    scenarios: int = 0
    replays: int = 0
    seeds: set = field(default_factory=set)           # seeds of resolved scenarios

    def merge(self, rec: Recorder, spec) -> None:
        """Add one recorder's findings."""
        self.runs.update(rec.runs)
        self.achieved |= rec.achieved
        for uid, tags in rec.tags.items():
            self.tags.setdefault(uid, set()).update(tags)
        for uid, msg in rec.problems:
            self.problems.setdefault((uid, msg), spec.describe())


class Runner:
    """Runs the scenarios of every subject against one instrumented ruleset."""

    def __init__(self, rules, comp):
        self.rules, self.comp, self.info = rules, comp, comp.info
        self.scenarios = self.replays = 0

    # ---- one replay ----------------------------------------------------------------------
    def replay(self, sub, spec, chain=()):
        """Build, shape, play; then redo the probe attempts of `chain`. Returns
        (world, recorder, outcome, (step, why), last attempt's Obs)."""
        w = build(self.rules, spec)
        rec = Recorder(self.info, EXPECT)
        self.comp.recorder = rec
        obs = None
        try:
            for cond, want in spec.shapes:
                shape(w, cond, want, sub.raw)
            outcome, *why = play_card(w, sub.card, rec) if sub.card else ("resolved", "", "")
            if outcome == "resolved":
                for k, i in chain:
                    obs = self.attempt(sub, w, rec, k, i)
        finally:
            self.comp.recorder = None
        return w, rec, outcome, why, obs

    def attempt(self, sub, w, rec, k: int, i: int) -> Obs:
        """Run attempt i on probe target k; a trigger is observed when its steps ran."""
        act = targets(sub, w, rec)[k]
        runs = Counter(rec.runs)
        try:
            got = attempts(w, act)[i](w, act)
        except Exception as exc:  # noqa: BLE001  (an engine error while probing is a finding)
            step = self.info[rec.failed_step].path if rec.failed_step else "probe"
            return Obs(False, [f"error at {step}: {type(exc).__name__}: {exc}"])
        if act.mod is not None:
            return got or Obs()
        fired = any(rec.runs[st.uid] > runs[st.uid] for st in act.steps)
        return Obs(fired, [])

    # ---- one subject -------------------------------------------------------------------
    def check(self, sub) -> tuple[Tally, list[Failure]]:
        """Try the plans until the subject is fully shown (or a problem turns up)."""
        tally = Tally()
        for spec in islice(plans(sub, self.info), MAX_PLANS):
            try:
                self.scenario(sub, spec, tally)
            except Exception as exc:  # noqa: BLE001  (reported against the subject)
                self.comp.recorder = None
                tally.problems.setdefault((None, (f"the check could not run this scenario: "
                                                 f"{type(exc).__name__}: {exc}")),
                                          spec.describe())
            if tally.problems or tally.outcomes["error"] or tally.outcomes["fizzled"]:
                break
            if complete(sub, tally, self.info) and (
                    not sub.random or len(tally.seeds) >= RANDOM_SEEDS):
                break
        return tally, failures(sub, tally, self.info)

    def scenario(self, sub, spec, tally: Tally) -> None:
        """One plan: play it, then probe every target it leaves, nested ones included."""
        w, rec, outcome, why, _ = self.replay(sub, spec)
        tally.scenarios += 1
        self.scenarios += 1
        tally.merge(rec, spec)
        tally.outcomes[outcome] += 1
        if outcome != "resolved":
            tally.why_not[(outcome, *why)] += 1
            return
        tally.seeds.add(spec.seed)
        if rec.after_cleanup:
            w.g.cleanup_phase()
            for uid, check in rec.after_cleanup:
                for msg in check(w.g):
                    tally.problems.setdefault((uid, msg), spec.describe())
            w, rec, *_ = self.replay(sub, spec)
        queue, done, budget = [((), w, rec)], set(), MAX_REPLAYS
        while queue and budget > 0:
            chain, w0, rec0 = queue.pop(0)
            for k, act in enumerate(targets(sub, w0, rec0)):
                key = target_key(sub, w0, rec0, k)
                if key in done or self.settled(key, act, tally):
                    continue
                done.add(key)
                for i in range(len(attempts(w0, act))):
                    budget -= 1
                    w1, rec1, _, _, obs = self.replay(sub, spec, chain + ((k, i),))
                    tally.replays += 1
                    self.replays += 1
                    tally.tried[key] += 1
                    tally.merge(rec1, spec)
                    for msg in obs.problems:
                        tally.problems.setdefault((key_uid(key, act), msg), spec.describe())
                    if obs.observed and key not in tally.observed:
                        tally.observed.add(key)
                        act1 = act_of(sub, w1, rec1, k)
                        self.limited(w1, rec1, act1, i, key, tally, spec)
                        if isinstance(key, int):
                            tally.achieved.add(key)
                            self.expiry(w1, act1, key, tally, spec)
                        queue.append((chain + ((k, i),), w1, rec1))
                    if self.settled(key, act, tally) or budget <= 0:
                        break

    def settled(self, key, act, tally: Tally) -> bool:
        """Shown working: a modifier observed; a trigger fired and all its steps acted."""
        if key not in tally.observed:
            return False
        return act.mod is not None or all(u in tally.achieved
                                          for u in deep_uids(self.info, act.steps))

    def limited(self, w, rec, act, i: int, key, tally: Tally, spec) -> None:
        """A trigger limited to once (per game or round) must not fire again this round
        when the same event happens again."""
        if act is None or act.mod is not None or getattr(act, "limit", "unlimited") not in (
                "once", "once_per_round"):
            return
        runs = Counter(rec.runs)
        self.comp.recorder = rec
        try:
            attempts(w, act)[i](w, act)
        except Exception:  # noqa: BLE001, S110  (the event could not happen again: no test)
            pass
        finally:
            self.comp.recorder = None
        if any(rec.runs[st.uid] > runs[st.uid] for st in act.steps):
            tally.problems.setdefault((key_uid(key, act), (f"fired again in the same round "
                                                     f"(limit '{act.limit}')")), spec.describe())

    def expiry(self, w, act, uid: int, tally: Tally, spec) -> None:
        """A card-added modifier or trigger must end when its duration says."""
        if act is None or act.duration == "permanent":
            return
        self.comp.recorder = Recorder(self.info, EXPECT)
        try:
            w.g.cleanup_phase()
        finally:
            self.comp.recorder = None
        if any(a is act for a in w.g.hooks.all()):
            tally.problems.setdefault((uid, (f"still active after Cleanup (declared "
                                            f"'{act.duration}')")), spec.describe())


def targets(sub, w, rec) -> list:
    """Probe targets: the subject's own ability / passive / card triggers, then whatever
    its steps installed, in order."""
    g = w.g
    base: list = []
    if sub.kind == "card":
        inst = g.s.cards[w.played] if getattr(w, "played", None) is not None else None
        base = [CardTrigger(w.p, inst, ab) for ab in (inst.defn.triggers if inst else [])]
    elif sub.kind == "ability":
        base = [a for a in g.hooks.all() if a.ability is sub.ability and a.champ is not None
                and a.champ.iid == getattr(w, "played", None)]
    else:
        base = [a for a in g.hooks.all() if a.ability is sub.ability][:1]
    return base + [act for _, act in rec.installed]


def target_key(sub, w, rec, k: int):
    """A target's identity across replays: the uid of the step that installed it, or its
    place among the subject's own."""
    n_base = len(targets(sub, w, rec)) - len(rec.installed)
    return rec.installed[k - n_base][0] if k >= n_base else ("own", k)


def key_uid(key, act=None):
    """Where a target's problems are reported: the uid of the step that installed it, or
    (for the subject's own ability, passive or card trigger) its kind."""
    if isinstance(key, int) or act is None:
        return key if isinstance(key, int) else None
    return f"modifier {act.mod.kind}" if act.mod is not None else f"trigger {act.event}"


def act_of(sub, w, rec, k: int):
    """Target k of a replay."""
    tg = targets(sub, w, rec)
    return tg[k] if k < len(tg) else None


def deep_uids(info, steps) -> list[int]:
    """Uids of steps and of every step nested in them."""
    out = []
    for st in steps:
        out.append(st.uid)
        out += deep_uids(info, [k for _, kids in info[st.uid].branches for k in kids])
    return out


def attempts(w, act) -> list:
    """The attempts of the probe (modifier) or provoker (trigger) of a target."""
    if act.mod is not None:
        return PROBES[act.mod.kind](w, act)
    return PROVOKE[act.event](w, act)


def play_card(w, card_id: str, rec) -> tuple[str, str, str]:
    """Give the actor the card and play it as the Action Phase does: declare (costs paid,
    targets locked) and resolve. Returns (outcome, step, why)."""
    g, p = w.g, w.p
    iid = w.card(p, card_id)
    w.played = iid
    g.s.cards[iid].counter = w.spec.counter
    if not g.playable(p, iid):
        return ("unplayable", *why_unplayable(w, iid, rec))
    w.agent.play = iid
    plan = g.declare(p)
    if plan.get("kind") != "card" or plan["inst"].iid != iid:
        return "unplayable", "-", "the declaration did not take the card"
    before = g.stats["fizzled"].get(card_id, 0)
    mark = len(g.events)
    try:
        g.resolve_card(plan)
    except Exception as exc:  # noqa: BLE001  (reported with the step that raised)
        step = rec.info[rec.failed_step].path if rec.failed_step else "-"
        return "error", step, f"{type(exc).__name__}: {exc}"
    if g.stats["fizzled"].get(card_id, 0) > before:
        why = next((e.get("why", "") for e in reversed(g.events[mark:])
                    if e["e"] == "fizzle"), "")
        step = rec.info[rec.failed_step].path if rec.failed_step else "-"
        return "fizzled", step, why
    return "resolved", "", ""


def why_unplayable(w, iid: int, rec) -> tuple[str, str]:
    """(step, reason) a card cannot be played in this state."""
    g, p = w.g, w.p
    inst = g.s.cards[iid]
    if not g.affordable(p, iid):
        if inst.defn.requires is not None and not inst.defn.requires(Ctx(g, p, inst)):
            return "requires", "its play requirement does not hold"
        if inst.defn.type == "champion" and not g.can_field_champion(p):
            return "-", "the Champion limit is reached"
        return "cost", "it cannot be paid for"
    rec.selecting = None
    if g.declare_card(p, inst, dry=True) is None:
        step = rec.info[rec.selecting].path if rec.selecting else "-"
        return step, "no legal target"
    return "-", "not playable"


def complete(sub, tally: Tally, info) -> bool:
    """Every step took effect, every condition went both ways, own targets observed."""
    if any(u not in tally.achieved for u in sub.uids):
        return False
    if any(not {"true", "false"} <= tally.tags.get(u, set()) for u in sub.ifs):
        return False
    return sub.kind == "card" or ("own", 0) in tally.observed or not _needs_own(sub)


def _needs_own(sub) -> bool:
    return sub.ability is not None and sub.ability.mod is not None


def failures(sub, tally: Tally, info) -> list[Failure]:
    """Turn a tally into failures (empty when the subject resolves)."""
    out = []

    def fail(step: str, why: str) -> None:
        out.append(Failure(sub.id, sub.kind, sub.file, sub.line, step, why))
    n = tally.scenarios
    for (uid, msg), spec in sorted(tally.problems.items(), key=lambda kv: str(kv[0])):
        step = info[uid].path if isinstance(uid, int) else (uid or "-")
        fail(step, f"{msg} [{spec}]")
    verbs = {"error": "errored", "fizzled": "fizzled", "unplayable": "cannot be played"}
    never = sub.card and not tally.outcomes["resolved"]
    for (outcome, step, why), times in sorted(tally.why_not.items()):
        if never or outcome != "unplayable":
            fail(step, f"{why} ({verbs[outcome]} in {times} of {n} constructed states)")
    if out:
        return out
    for u in sub.uids:
        si = info[u]
        if u not in tally.achieved:
            what = "never ran" if not tally.runs[u] else "never took effect"
            fail(si.path, f"{what} in {n} scenario(s) ({tally.runs[u]} run(s))"
                 + (" (installed, but no situation showed it working)"
                    if si.kind in ("add_modifier", "add_trigger") and tally.runs[u] else ""))
    for u in sub.ifs:
        missing = {"true", "false"} - tally.tags.get(u, set())
        for m in sorted(missing):
            fail(info[u].path, f"the condition was never {m} in {n} scenario(s) (no state "
                               "shaper could make it so)")
    if _needs_own(sub) and ("own", 0) not in tally.observed:
        fail(f"{sub.kind} modifier {sub.ability.mod.kind}",
             f"never changed the rule it modifies in {tally.tried[('own', 0)]} situation(s)")
    if sub.kind != "card" and sub.ability is not None and sub.ability.mod is None and not (
            ("own", 0) in tally.observed or any(tally.runs[u] for u in sub.uids)):
        fail(f"trigger {sub.ability.event}", f"never fired in {tally.tried[('own', 0)]} "
                                             "situation(s)")
    return out
