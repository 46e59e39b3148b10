"""Declaring a card (§12.4, §15.1): its cost now, whether it can be played, and its locked
targets. Pure queries: nothing here changes the state (the caller pays the costs)."""

from __future__ import annotations

from .core import OPEN_KINDS, Ctx, NoTarget

CHEAP, PROBE = "cheap", "probe"  # the costs of a target look-ahead (see target_check)
PLAYS = 24  # the most whole plays (target combinations) offered for one card


class Preset:
    """The answers of a declaration given in advance (a whole play), asked of no agent:
    by index while enumerating the plays (`picks`; beyond them the first option), or by
    value when the chosen play is declared (`values`, then its aims are logged). A move is
    not part of a play: a move card's play holds its targets before the move, and the
    move itself is asked of the agent (its paths are many and scored as moves)."""

    def __init__(self, picks=(), values=None, memo: dict | None = None):
        self.picks, self.values, self.pos = picks, values, 0
        self.replay = values is not None
        self.seen: list[tuple[int, tuple]] = []  # (options offered, (kind, value, step key))
        self.taken: list[int] = []  # the index chosen at each decision so far
        self.memo = memo  # options already listed, shared by the runs of one enumeration

    def options(self, key, options_fn) -> list:
        """A choice's options; while enumerating, listed once per path (the state is the
        same in every run: only the earlier answers differ)."""
        if self.memo is None:
            return options_fn()
        k = (key, tuple(self.taken))
        got = self.memo.get(k)
        if got is None:
            got = self.memo[k] = options_fn()
        return got

    def answers(self, kind: str) -> bool:
        """Does the play answer this decision (else the agent is asked)."""
        if kind in OPEN_KINDS:
            return not self.replay  # enumerating: the first option stands in for it
        return not self.replay or self.pos < len(self.values)

    def answer(self, key, kind: str, options: list):
        """The option this play takes at its next decision."""
        pos = self.pos
        self.pos += 1
        if self.replay:
            if pos >= len(self.values) or self.values[pos] not in options:
                raise NoTarget(kind)  # the play no longer fits the state: not declarable
            return self.values[pos]
        if kind in OPEN_KINDS:
            self.pos -= 1
            return options[0]
        index = self.picks[pos] if pos < len(self.picks) else 0
        self.taken.append(index)
        self.seen.append((len(options), (kind, options[index], key)))
        return options[index]


def _lock_prefix(ctx, steps) -> None:
    """choose_target steps and the first targeted step are locked at declaration."""
    for idx, st in enumerate(steps):
        if st.kind == "choose_target":
            if st.options is not None:
                _lock_target(ctx, st, steps[idx + 1:])
            else:
                st.apply(ctx, st.select(ctx))
            continue
        if st.kind == "choose_one":
            subs = dict(st.params["_compiled"])
            if ctx.dry:  # a look-ahead: one viable option is enough
                if not any(_viable(ctx, sub) for sub in subs.values()):
                    raise NoTarget("option")
                return
            viable = [lab for lab in subs if _viable(ctx, subs[lab])]
            label = ctx.choose(st, "option", lambda viable=viable: viable)
            _lock_prefix(ctx, subs[label])
            return
        if st.select is None:
            return
        if ctx.dry and ctx.quick and st.exists is not None:  # is there one (a look-ahead)
            if not st.exists(ctx):
                raise NoTarget(st.kind)
            return
        st.select(ctx)
        return


def _lock_target(ctx, st, rest) -> None:
    """Offer only targets with which the rest of the declaration is still possible."""
    name = st.params["as"]

    def works(v) -> bool:
        probe = Ctx(ctx.g, ctx.p, ctx.inst, locks={}, declaring=True, dry=True)
        probe.refs, probe.quick = {**ctx.refs, name: v}, ctx.quick
        try:
            _lock_prefix(probe, rest)
        except NoTarget:
            return False
        return True

    def options():
        cands = st.options(ctx)
        if target_check(rest) is None:  # nothing after it can lack a target
            return cands[:1] if ctx.dry else cands
        if ctx.dry:
            return next(([v] for v in cands if works(v)), [])
        return [v for v in cands if works(v)]
    kind = next((k for k in ("hex", "champion", "bridge") if k in st.params), "player")
    ctx.refs[name] = ctx.choose(st, kind, options)


def _viable(ctx, steps) -> bool:
    """Would this option's leading targets have a legal choice (a dry walk)."""
    if target_check(steps) is None:
        return True
    probe = Ctx(ctx.g, ctx.p, ctx.inst, locks={}, declaring=True, dry=True)
    probe.refs, probe.quick = dict(ctx.refs), ctx.quick
    try:
        _lock_prefix(probe, steps)
    except NoTarget:
        return False
    return True


def _look_ahead(ctx, defn) -> bool:
    """The dry declaration walk in a declaring, dry, quick ctx (or its quick form)."""
    if defn.quick is not None:
        return defn.quick(ctx)
    ctx.refs, ctx.locks = {}, {}
    try:
        _lock_prefix(ctx, defn.effect)
    except NoTarget:
        return False
    return True


def quick_check(steps):
    """fn(ctx) -> bool deciding a CHEAP look-ahead from the first step alone (its target
    exists), when that step is the only one that can lack a target; else None."""
    if not steps or steps[0].exists is None or target_check(steps) != CHEAP:
        return None
    if steps[0].kind == "choose_target" and target_check(steps[1:]) is not None:
        return None
    if steps[0].kind != "choose_target" and not steps[0].may_fail:
        return None
    return steps[0].exists


def target_check(steps) -> str | None:
    """How a card's declaration can lack a target (§12.4), read from its compiled steps:
    None: never (no look-ahead needed); CHEAP: one selector or move might have no choice;
    PROBE: a chosen target must be tried against the steps after it."""
    for idx, st in enumerate(steps):
        if st.kind == "choose_target":
            if st.options is not None:
                return PROBE if target_check(steps[idx + 1:]) else CHEAP
            if st.may_fail:
                return CHEAP
            continue
        if st.kind == "choose_one":
            kinds = [target_check(sub) for _, sub in st.params["_compiled"]]
            if None in kinds:
                return None
            return PROBE if PROBE in kinds else CHEAP
        return CHEAP if st.select is not None and st.may_fail else None
    return None


class DeclareMixin:
    """Declaring a card (§12.4, §15.1): queries of the Game, nothing changed."""

    def card_cost(self, p: int, inst, peek: bool = True):
        """(mana, gold, override) to play a card now (§20.2 Nth Champion gold, cost_override)."""
        defn, over = inst.defn, inst.over
        if over:
            mana, gold = over.get("mana", defn.mana), over.get("gold", defn.gold)
        else:
            mana, gold = defn.mana, defn.gold
        if defn.is_champion and not (over and "gold" in over):
            gold += self.champion_gold(p, defn)  # "costs N gold" is the whole gold paid (§20.2)
        overrides = self.hooks.mods.get("cost_override")
        if not overrides:
            return mana, gold, None
        for act in overrides:
            if act.owner != p or (act.uses is not None and act.uses <= 0):
                continue
            f = act.mod.params["applies_to"]
            if "type" in f and f["type"] != defn.type:
                continue
            if "mana" in f and f["mana"] != defn.mana:
                continue
            if "deck" in f and f["deck"] != defn.deck:
                continue
            params = act.mod.params
            return params.get("mana", mana), params.get("gold", gold), act
        return mana, gold, None

    def declare_card(self, p: int, inst, dry: bool, quick: bool = False,
                     preset: Preset | None = None) -> dict | None:
        """Walk the effect's leading targets and lock them (§12.4); None if no legal target.
        `quick`: its look-aheads only ask whether targets exist (Step.exists) instead of
        running each step's select (the same answer; `tether check` watches the selects)."""
        locks: dict = {}
        ctx = Ctx(self, p, inst, locks=locks, declaring=True, dry=dry)
        ctx.quick, ctx.preset = quick, preset
        try:
            _lock_prefix(ctx, inst.defn.effect)
        except NoTarget:
            return None
        return {"locks": locks, "refs": dict(ctx.refs)}

    def card_plays(self, p: int, iid: int, limit: int = PLAYS) -> list[tuple]:
        """Every way to declare this card now, each as the targets it locks: a tuple of
        (decision kind, chosen value, step key), one per choice the declaration asks (at most
        `limit` plays, in a fixed order: first options first). Nothing is logged or changed."""
        inst = self.s.cards[iid]
        out, todo, memo = [], [()], {}
        while todo and len(out) < limit:
            picks = todo.pop()
            pre = Preset(picks, memo=memo)
            if self.declare_card(p, inst, dry=False, quick=True, preset=pre) is None:
                continue
            out.append(tuple(aim for _, aim in pre.seen))
            for k in range(len(pre.seen) - 1, len(picks) - 1, -1):
                base = picks + (0,) * (k - len(picks))
                todo.extend(base + (alt,) for alt in range(pre.seen[k][0] - 1, 0, -1))
        return out

    def playable(self, p: int, iid: int) -> bool:
        """Can seat p play this card now (costs, requirement, Champion limit, a legal target)."""
        return self.affordable(p, iid) and self.has_target(p, self.s.cards[iid])

    def has_target(self, p: int, inst) -> bool:
        """Has the card a legal choice for each target locked at declaration (a dry walk)."""
        if inst.defn.check is None or self.opt.target_lock == "resolve":
            return True
        ctx = Ctx(self, p, inst, locks={}, declaring=True, dry=True)
        ctx.quick = True
        return _look_ahead(ctx, inst.defn)

    def affordable(self, p: int, iid: int) -> bool:
        """The cheap part of `playable`: costs, requirement and the Champion limit."""
        s = self.s
        inst, pl = s.cards[iid], s.players[p]
        if pl.mana < 1:
            return False
        mana, gold, _ = self.card_cost(p, inst)
        if pl.mana < mana or pl.gold < gold:
            return False
        defn = inst.defn
        if defn.is_champion and not self.can_field_champion(p):
            return False
        return defn.requires is None or bool(defn.requires(Ctx(self, p, inst)))

    def card_options(self, p: int, exact: bool) -> list[tuple]:
        """('card', iid) for every card in seat p's hand it can play now, in iid order: costs,
        requirement, and a legal target for each locked choice (exact=False skips the PROBE
        look-aheads: such a card may still turn out to have none)."""
        s = self.s
        pl = s.players[p]
        mana, gold = pl.mana, pl.gold
        if mana < 1:  # every card needs at least 1 mana available (§15.1)
            return []
        cards = s.cards
        plain = not self.hooks.mods.get("cost_override")
        look = self.opt.target_lock == "declare"
        probe = None
        out = []
        for iid in sorted(pl.hand):
            inst = cards[iid]
            defn = inst.defn
            if plain and defn.simple and not inst.over:  # `affordable`, inlined
                if defn.mana > mana or defn.gold > gold:
                    continue
            elif not self.affordable(p, iid):
                continue
            check = defn.check
            if check is not None and look and (exact or check is CHEAP):
                if probe is None:
                    probe = self.probe(p, inst)
                probe.inst = inst
                if not (defn.quick(probe) if defn.quick is not None else _look_ahead(probe, defn)):
                    continue
            out.append(("card", iid))
        return out
