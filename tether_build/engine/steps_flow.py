"""Step handlers: control flow and durations (choose_target, choose_one, if, roll, repeat,
add_modifier, add_trigger)."""

from __future__ import annotations

from . import rand
from .conds import condition
from .core import NONE, Step, handler
from .mods import Active, ModDef
from .select import BridgeSel, ChampSel, HexSel, amount, players


@handler("choose_target")
def choose_target(d, comp):
    """Choose and lock a target; later steps use it as {ref: name}."""
    name = d["as"]
    st = Step("choose_target", d, None)
    if "hex" in d:
        sel, kind = HexSel(d["hex"]), "hex"
    elif "champion" in d:
        sel, kind = ChampSel(d["champion"]), "champion"
    elif "bridge" in d:
        sel, kind = BridgeSel(d["bridge"], build=False), "bridge"
    else:
        sel, kind = None, "player"
        who = players(d.get("player", "chosen_opponent"))

    def select(ctx):
        if sel is None:
            seats = who(ctx, st)
            return seats[0] if seats else NONE
        if sel.pick == "random":
            c = sel.candidates(ctx)
            return ctx.g.rng.choice(c) if c else NONE
        return ctx.choose(st, kind, lambda: sel.candidates(ctx))

    def apply(ctx, value):
        if value is not NONE:
            ctx.refs[name] = value
    st.select, st.apply = select, apply
    if sel is not None and sel.pick == "choose":
        st.options = st.targets = sel.candidates
    st.may_fail = st.options is not None or (sel is not None and sel.pick == "all")
    if st.may_fail:
        st.exists = sel.exists
    return st


@handler("choose_one")
def choose_one(d, comp):
    """The player chooses one option."""
    opts = [(o["label"], comp.steps(o["steps"])) for o in d["options"]]
    labels = [label for label, _ in opts]
    st = Step("choose_one", d, None)
    st.select = lambda ctx: ctx.choose(st, "option", lambda: labels)

    def apply(ctx, label):
        for lab, steps in opts:
            if lab == label:
                for s in steps:
                    s.run(ctx)
    st.apply = apply
    st.params = dict(d, _compiled=opts)
    return st


@handler("if")
def if_(d, comp):
    """Do 'then' if the condition holds, else 'else'."""
    cond, then, other = condition(d["condition"]), comp.steps(d["then"]), comp.steps(
        d.get("else") or [])

    def apply(ctx, _):
        for s in (then if cond(ctx) else other):
            s.run(ctx)
    return Step("if", d, apply)


@handler("roll")
def roll(d, comp):
    """Roll one die and do the matching outcome."""
    outcomes = [(o["faces"][0], o["faces"][1], comp.steps(o["steps"])) for o in d["outcomes"]]

    def apply(ctx, _):
        face = rand.randint(ctx.g.rng, 1, 6)
        ctx.g.log("roll", p=ctx.p, face=face)
        for lo, hi, steps in outcomes:
            if lo <= face <= hi:
                for s in steps:
                    s.run(ctx)
                break
    return Step("roll", d, apply)


@handler("repeat")
def repeat(d, comp):
    """Do the steps a number of times."""
    times, steps = amount(d["times"]), comp.steps(d["steps"])

    def apply(ctx, _):
        for _ in range(times(ctx)):
            for s in steps:
                s.run(ctx)
    return Step("repeat", d, apply)


def _new_active(ctx, d: dict, limit: str = "unlimited") -> Active:
    act = Active(ctx.p, d["duration"], limit, champ=ctx.champ, inst=ctx.inst, refs=ctx.refs,
                 target=d.get("target"))
    if d["duration"] == "this_battle" and ctx.battle is not None:
        act.battle = ctx.battle.bid
    return act


@handler("add_modifier")
def add_modifier(d, comp):
    """Add a modifier for a duration."""
    mod = ModDef(d["modifier"])

    def apply(ctx, _):
        act = _new_active(ctx, d)
        if mod.kind == "cost_override":
            act.uses = mod.params.get("uses", 1)
        ctx.g.hooks.add_mod(act, mod)
        ctx.g.log("modifier", p=ctx.p, kind=mod.kind, duration=d["duration"])
    return Step("add_modifier", d, apply)


@handler("add_trigger")
def add_trigger(d, comp):
    """Add a triggered effect for a duration."""
    cond, steps = condition(d.get("condition")), comp.steps(d["steps"])

    def apply(ctx, _):
        act = _new_active(ctx, d, d["limit"])
        ctx.g.hooks.add_trig(act, d["trigger"], cond, steps)
        ctx.g.log("add_trigger", p=ctx.p, ev=d["trigger"], duration=d["duration"])
    return Step("add_trigger", d, apply)
