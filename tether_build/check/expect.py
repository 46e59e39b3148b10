"""Step expectations: one function per step kind, like the engine's handler registry.

An expectation is a generator `fn(ctx, info, target, recorder)`: before its `yield` it
reads what the step's parameters declare and the state they act on; the step then runs;
after the `yield` (which receives the uids of the steps started meanwhile) it compares the
state with the declaration and returns an `Outcome`: the problems found, whether the step
acted fully (a deploy that deployed, a draw that drew), and tags (which branch ran).
Nothing here names a card: a new card is checked by the kinds of its steps.
"""

from __future__ import annotations

from collections import Counter

from ..engine.conds import condition
from ..engine.core import ALL, NONE
from ..engine.select import BridgeSel, ChampSel, HexSel
from .instrument import Outcome

EXPECT: dict = {}


def expect(kind: str):
    """Register the expectation of one step kind."""
    def deco(fn):
        EXPECT[kind] = fn
        return fn
    return deco


# ---- shared readings of the effect language (independent of the engine's closures) -------
_AMOUNT_OF = {
    "cards_in_hand": lambda ctx: len(ctx.s.players[ctx.p].hand),
    "cards_played_this_round": lambda ctx: ctx.s.players[ctx.p].played_count,
    "last_count": lambda ctx: ctx.last_count,
    "card_counter": lambda ctx: ctx.inst.counter if ctx.inst is not None else 0,
    "champions_in_play": lambda ctx: len(ctx.s.players[ctx.p].champions),
}


def amount(spec, ctx) -> int:
    """What an amount of the effect language is worth now ('all' is ALL)."""
    if isinstance(spec, bool):
        raise TypeError(f"bad amount {spec!r}")
    if isinstance(spec, int):
        return spec
    if spec == "all":
        return ALL
    v = _AMOUNT_OF[spec["of"]](ctx) * spec.get("times", 1) + spec.get("plus", 0)
    if spec.get("max") is not None:
        v = min(v, spec["max"])
    return max(0, v)


_SEL: dict = {}


def sel(cls, spec: dict, *args):
    """A compiled selector for a parameter dict (cached: the dicts live as long as the rules)."""
    key = (cls, id(spec), args)
    got = _SEL.get(key)
    if got is None:
        got = _SEL[key] = (cls(spec, *args), spec)
    return got[0]


def hexes(spec, ctx, deploy: bool = False) -> list[int]:
    """Candidate hexes of a hex selector now."""
    return sel(HexSel, spec, deploy).candidates(ctx)


def champs(spec, ctx) -> list:
    """Candidate Champions of a Champion selector now."""
    return sel(ChampSel, spec).candidates(ctx)


def bridges(spec, ctx, build: bool) -> list[int]:
    """Candidate edges of a Bridge selector now."""
    return sel(BridgeSel, spec, build).candidates(ctx)


def target_problems(targets, cands, pick: str, what: str, optional=False) -> list[str]:
    """Targets must be candidates; 'all' must take every candidate (unless the player
    skipped an optional step)."""
    out = [f"{what} target {t!r} does not match the selector" for t in targets
           if t not in cands]
    if pick == "all" and set(targets) != set(cands) and not (optional and not targets):
        out.append(f"'pick: all' took {len(targets)} of {len(cands)} matching {what}s")
    return out


def seat_problems(who: str, ctx, seats) -> list[str]:
    """Player parameters: which seats the step may act on."""
    n, p = len(ctx.s.players), ctx.p
    others = [q for q in range(n) if q != p]
    ev = ctx.event or {}
    allowed = {"self": [p], "each_opponent": others, "chosen_opponent": others,
               "owner": [ctx.champ.owner if ctx.champ is not None else p],
               "killer": [ev.get("killer")], "victim": [ev.get("victim")],
               "battle_enemy": [ev.get("battle_enemy")]}.get(who, [])
    out = [f"acted on seat {q}, but player is {who!r}" for q in seats if q not in allowed]
    if who in ("self", "each_opponent") and sorted(seats) != sorted(allowed):
        out.append(f"player {who!r} should act on seats {allowed}, acted on {list(seats)}")
    return out


def ran_any(uids, ran) -> bool:
    """Did any of these steps start."""
    return any(u in ran for u in uids)


# ---- resources ---------------------------------------------------------------------------
def _gold(ctx) -> list[int]:
    return [pl.gold for pl in ctx.s.players]


def _seat_delta(ctx, info, target, field: str, per_seat):
    seats = list(target or [])
    before = [getattr(pl, field) for pl in ctx.s.players]
    yield
    want = list(before)
    for q in seats:
        want[q] = per_seat(want[q])
    got = [getattr(pl, field) for pl in ctx.s.players]
    probs = seat_problems(info.params.get("player", "self"), ctx, seats)
    if got != want:
        probs.append(f"{field} {before} -> {got}, expected {want} (seats {seats})")
    return Outcome(probs, bool(seats))


@expect("gain_gold")
def _gain_gold(ctx, info, target, rec):
    n = amount(info.params["amount"], ctx)
    out = yield from _seat_delta(ctx, info, target, "gold", lambda v: v + n)
    out.achieved = out.achieved and n > 0
    return out


@expect("lose_gold")
def _lose_gold(ctx, info, target, rec):
    n = amount(info.params["amount"], ctx)
    out = yield from _seat_delta(ctx, info, target, "gold", lambda v: v - min(v, n))
    out.achieved = out.achieved and n > 0
    return out


@expect("set_mana")
def _set_mana(ctx, info, target, rec):
    n = amount(info.params["amount"], ctx)
    return (yield from _seat_delta(ctx, info, target, "mana", lambda v: n))


@expect("steal_gold")
def _steal_gold(ctx, info, target, rec):
    n, p = amount(info.params["amount"], ctx), ctx.p
    seats = list(target or [])
    before = _gold(ctx)
    yield
    want = list(before)
    for q in seats:
        if q != p:
            take = min(want[q], n)
            want[q] -= take
            want[p] += take
    got = _gold(ctx)
    probs = seat_problems(info.params["from"], ctx, seats)
    if got != want:
        probs.append(f"gold {before} -> {got}, expected {want} (steal {n} from {seats})")
    return Outcome(probs, got != before)


def _own(field: str, param: str):
    def fn(ctx, info, target, rec):
        n = amount(info.params[param], ctx)
        pl = ctx.s.players[ctx.p]
        before = getattr(pl, field)
        yield
        got = getattr(pl, field)
        probs = [] if got == before + n else [f"{field} {before} -> {got}, expected +{n}"]
        return Outcome(probs, n > 0)
    return fn


EXPECT["gain_mana"] = _own("mana", "amount")
EXPECT["gain_vp"] = _own("pvp", "amount")


@expect("noop")
def _noop(ctx, info, target, rec):
    before = _summary(ctx.s)
    yield
    return Outcome([] if _summary(ctx.s) == before else ["'noop' changed the state"])


def _summary(s):
    return ([(p.gold, p.mana, p.pvp, len(p.hand), len(p.draw), len(p.discard))
             for p in s.players], s.ver, len(s.champions), len(s.bridges))


# ---- control flow and durations ----------------------------------------------------------
_COND: dict = {}


@expect("if")
def _if(ctx, info, target, rec):
    spec = info.params["condition"]
    got = _COND.get(id(spec))
    if got is None or got[1] is not spec:  # (the entry keeps its dict alive: ids stay unique)
        got = _COND[id(spec)] = (condition(spec), spec)
    cond = got[0]
    holds = bool(cond(ctx))
    then, other = (kids for _, kids in info.branches)
    ran = yield
    took = [name for name, kids in info.branches if ran_any([k.uid for k in kids], ran)]
    want = ["then"] if holds and then else (["else"] if not holds and other else [])
    probs = [] if took == want else [f"condition was {holds}, but ran {took or 'nothing'}"]
    return Outcome(probs, True, {"true" if holds else "false"})


@expect("choose_one")
def _choose_one(ctx, info, target, rec):
    ran = yield
    labels = [o["label"] for o in info.params["options"]]
    took = [name for name, kids in info.branches if ran_any([k.uid for k in kids], ran)]
    want = [name for name, kids in info.branches if name == f"options[{target}]" and kids]
    probs = [] if target in labels and took == want else [
        f"chose {target!r} but ran {took or 'nothing'}"]
    return Outcome(probs, True, {f"option:{target}"})


@expect("roll")
def _roll(ctx, info, target, rec):
    events = ctx.g.events
    mark = len(events) if events is not None else 0
    ran = yield
    if events is None:
        return Outcome()
    face = next((e["face"] for e in events[mark:] if e["e"] == "roll"), None)
    took = [name for name, kids in info.branches if ran_any([k.uid for k in kids], ran)]
    want = [f"outcomes[{o['faces'][0]}-{o['faces'][1]}]" for o in info.params["outcomes"]
            if o["faces"][0] <= (face or 0) <= o["faces"][1] and o["steps"]][:1]
    probs = [] if took == want else [f"rolled {face} but ran {took or 'nothing'}"]
    return Outcome(probs, face is not None, {f"face:{face}"})


@expect("repeat")
def _repeat(ctx, info, target, rec):
    t = amount(info.params["times"], ctx)
    ran = yield
    counts = Counter(ran)
    kids = [k.uid for _, group in info.branches for k in group]
    probs = [f"{rec.info[k].kind} ran {counts[k]} time(s), expected {t}" for k in kids
             if counts[k] != t]
    return Outcome(probs, t > 0)


def _installed(table: str, key_param: str, check):
    def fn(ctx, info, target, rec):
        d = info.params
        key = d["modifier"]["modifier"] if table == "mods" else d[key_param]
        lst = getattr(ctx.g.hooks, table)
        old = list(lst.get(key, ()))  # kept alive across the step, so no id is reused
        before = {id(a) for a in old}
        yield
        new = [a for a in lst.get(key, ()) if id(a) not in before]
        if len(new) != 1:
            return Outcome([f"installed {len(new)} {key} effect(s), expected 1"], False)
        act = new[0]
        probs = []
        if (act.owner, act.duration, act.target) != (ctx.p, d["duration"], d.get("target")):
            probs.append(f"installed for seat {act.owner}, {act.duration}, target "
                         f"{act.target}; declared seat {ctx.p}, {d['duration']}, "
                         f"target {d.get('target')}")
        probs += check(act, d)
        rec.installed.append((info.uid, act))
        return Outcome(probs, False)
    return fn


def _mod_check(act, d) -> list[str]:
    out = [] if act.mod.params == d["modifier"] else [("installed modifier differs from "
                                                      "the declared one")]
    if act.mod.kind == "cost_override" and act.uses != d["modifier"].get("uses", 1):
        out.append(f"cost override has {act.uses} use(s), declared "
                   f"{d['modifier'].get('uses', 1)}")
    return out


EXPECT["add_modifier"] = _installed("mods", "modifier", _mod_check)
EXPECT["add_trigger"] = _installed(
    "trigs", "trigger", lambda act, d: [] if act.limit == d["limit"] else [
        f"trigger limit {act.limit}, declared {d['limit']}"])


@expect("choose_target")
def _choose_target(ctx, info, target, rec):
    d = info.params
    yield
    if target is NONE:
        return Outcome([], False)
    probs = [] if ctx.refs.get(d["as"]) is target or ctx.refs.get(d["as"]) == target else [
        f"ref {d['as']!r} was not set to the chosen target"]
    if "hex" in d:
        probs += target_problems([target], hexes(d["hex"], ctx), "choose", "hex")
    elif "champion" in d:
        probs += target_problems([target], champs(d["champion"], ctx), "choose", "champion")
    elif "bridge" in d:
        probs += target_problems([target], bridges(d["bridge"], ctx, False), "choose",
                                 "bridge")
    else:
        probs += seat_problems(d.get("player", "chosen_opponent"), ctx, [target])
    return Outcome(probs)
