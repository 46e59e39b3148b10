"""Conditions: compile a condition dict (all keys must hold) to fn(ctx) -> bool."""

from __future__ import annotations

from .select import HexSel, ref_hex


def _range(spec: dict):
    lo, hi = spec.get("min"), spec.get("max")
    return lambda v: (lo is None or v >= lo) and (hi is None or v <= hi)


def _battle_hex(ctx):
    if ctx.battle is not None:
        return ctx.battle.hex
    ch = ctx.champ
    return ch.hex if ch is not None and ch.cid in ctx.s.champions else None


def _occupies(spec):
    sel = HexSel(spec)
    return lambda ctx: any(ctx.s.occupies(ctx.p, h) for h in sel.candidates(ctx))


def _target_in(spec):
    name, sel = spec["target"], HexSel(spec["hex"])

    def fn(ctx):
        h = ref_hex(ctx, name)
        return h is not None and h in sel.candidates(ctx)
    return fn


def _adjacent_occupied(spec):
    name, need = spec["target"], spec["min"]

    def fn(ctx):
        h = ref_hex(ctx, name)
        if h is None:
            return False
        s = ctx.s
        return sum(1 for n in s.topo.nbrs[h] if s.occupies(ctx.p, n)) >= need
    return fn


def _battle_in(spec):
    sel = HexSel(spec)
    return lambda ctx: ctx.battle is not None and ctx.battle.hex in sel.candidates(ctx)


def _enemy_champ_present(ctx):
    h = _battle_hex(ctx)
    return h is not None and any(c.owner != ctx.p for c in ctx.s.champs_at[h])


def _friendly_forces_present(ctx):
    h = _battle_hex(ctx)
    return h is not None and ctx.s.forces[h].get(ctx.p, 0) > 0


def _victim_side(ctx):
    victim = (ctx.event or {}).get("victim")
    if victim is None:
        return None
    return "friendly" if victim == ctx.p else "enemy"


# key -> fn(value) -> fn(ctx) -> bool
def _flag(get):
    return lambda want: (lambda ctx: bool(get(ctx)) == bool(want))


def _ranged(get):
    def make(spec):
        r = _range(spec)
        return lambda ctx: r(get(ctx))
    return make


def _all(subs):
    fs = [condition(x) for x in subs]
    return lambda ctx: all(f(ctx) for f in fs)


def _any(subs):
    fs = [condition(x) for x in subs]
    return lambda ctx: any(f(ctx) for f in fs)


def _not(sub):
    f = condition(sub)
    return lambda ctx: not f(ctx)


COND_KEYS = {
    "occupies": _occupies,
    "target_in": _target_in,
    "won_battle_this_round": _flag(lambda ctx: ctx.s.players[ctx.p].won_battle),
    "hand_size": _ranged(lambda ctx: len(ctx.s.players[ctx.p].hand)),
    "draw_pile_size": _ranged(lambda ctx: len(ctx.s.players[ctx.p].draw)),
    "champions_in_play": _ranged(lambda ctx: len(ctx.s.players[ctx.p].champions)),
    "mana": _ranged(lambda ctx: ctx.s.players[ctx.p].mana),
    "last_count": _ranged(lambda ctx: ctx.last_count),
    "last_drawn_type": lambda want: (lambda ctx: ctx.s.players[ctx.p].last_drawn == want),
    "capital_has_enemy": _flag(lambda ctx: ctx.g.capital_has_enemy(ctx.p)),
    "adjacent_occupied": _adjacent_occupied,
    "defending": _flag(lambda ctx: ctx.battle is not None and ctx.battle.defender == ctx.p),
    "attacking": _flag(lambda ctx: ctx.battle is not None and ctx.battle.attacker == ctx.p),
    "battle_in": _battle_in,
    "siege": _flag(lambda ctx: ctx.battle is not None and ctx.battle.siege),
    "combat_round": _ranged(lambda ctx: ctx.battle.round if ctx.battle is not None else 0),
    "enemy_champion_present": _flag(_enemy_champ_present),
    "friendly_forces_present": _flag(_friendly_forces_present),
    "moving_alone": _flag(lambda ctx: (ctx.event or {}).get("moving_alone", False)),
    "first_move_this_round": _flag(lambda ctx: ctx.s.players[ctx.p].moves_this_round == 0),
    "on_board": _flag(lambda ctx: ctx.champ is not None and ctx.champ.cid in ctx.s.champions),
    "all": _all,
    "any": _any,
    "not": _not,
    "victim_side": lambda want: (lambda ctx: _victim_side(ctx) == want),
}


def condition(spec: dict | None):
    """Compile a condition; None compiles to 'always true'."""
    if not spec:
        return lambda ctx: True
    unknown = set(spec) - set(COND_KEYS)
    if unknown:
        raise ValueError(f"unknown condition key(s): {sorted(unknown)}")
    fs = [COND_KEYS[k](v) for k, v in spec.items()]
    if len(fs) == 1:
        return fs[0]
    return lambda ctx: all(f(ctx) for f in fs)
