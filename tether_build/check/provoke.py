"""Event provokers: make a trigger's event happen through the engine's own rules.

One provoker per event of the effect language (spec.EVENTS). A provoker lists attempts;
each arranges a situation on a fresh copy of the scenario and then lets the event happen
for real: a battle is fought, a Champion is killed, an enemy stack crosses the Bridge, a
Reset or Cleanup phase runs, an ability is activated. The trigger is observed when its
steps ran; what they did is checked by the step expectations as usual.
"""

from __future__ import annotations

from .probes_base import about, battle_sides, join, ref_hexes, set_battle


def _foe(w, me: int) -> int:
    return next(q for q in range(len(w.s.players)) if q != me)


def _wound_and_neighbour(w, act) -> None:
    """Wound the owner's Champions; put an enemy Champion beside the trigger's Champion."""
    s = w.s
    for cid in s.players[act.owner].champions:
        ch = s.champions[cid]
        ch.hp = max(1, ch.max_hp - 2)
    if act.champ is not None and act.champ.cid in s.champions:
        foe = _foe(w, act.owner)
        for n in s.topo.nbrs[act.champ.hex]:
            if not (s.occupants(n) - {foe}):
                w.champion(foe, n, hp=3)
                break


def _kill(w, ch, by, by_champ=None, battle=None) -> None:
    if ch is not None and ch.cid in w.s.champions:
        w.g.damage(ch, ch.hp + 50, by, by_champ, battle)


def _enemy_champ(w, me: int, h: int | None = None):
    s = w.s
    foe = _foe(w, me)
    for cid in s.players[foe].champions:
        ch = s.champions[cid]
        if h is None or ch.hex == h:
            return ch
    if h is None:
        h = w.hexes["enemy"]
    if len(s.occupants(h) - {foe}) >= 2:
        return None
    return w.champion(foe, h, hp=1)


def _battle_at(w, act, h: int, strong: bool) -> None:
    me, foe = battle_sides(w, act, h)
    join(w, act, h)
    set_battle(w, me, foe, h, alone=False, enemy_champ=True, keep=about(act))
    s = w.s
    for ch in s.champs_at[h]:
        if ch.owner == me:
            ch.hp = max(1, min(ch.hp, ch.max_hp - 2))
    if strong:
        s.add_forces(me, h, 9)
        for ch in s.champs_at[h]:
            if ch.owner == foe:
                ch.hp = 1
    owner = s.capital_of.get(h)
    dfn = owner if owner in (me, foe) else foe
    w.g.battle(h, me if dfn == foe else foe, dfn, siege=h in s.capital_of)


def _battles(strong: bool):
    def attempts(w, act):
        places = ref_hexes(w, act) + [w.hexes["enemy"], w.hexes["mine"]]
        return [lambda w, act, h=h, k=k: _battle_at(w, act, h, strong or k > 0)
                for h in dict.fromkeys(places) for k in range(2)][:8]
    return attempts


def _champion_dies(w, act) -> list:
    def in_battle(w, act):
        h = act.champ.hex if act.champ is not None else w.hexes["mine"]
        _battle_at(w, act, h, strong=True)

    def target(w, act):
        tgt = act.refs.get(act.target) if act.target else None
        _kill(w, tgt if hasattr(tgt, "cid") else _enemy_champ(w, act.owner), act.owner)

    def beside(w, act):
        h = act.champ.hex if act.champ is not None else None
        _kill(w, _enemy_champ(w, act.owner, h), act.owner)

    def friendly(w, act):
        pl = w.s.players[act.owner]
        mine = [w.s.champions[c] for c in pl.champions
                if act.champ is None or c != act.champ.cid]
        _kill(w, mine[0] if mine else None, _foe(w, act.owner))
    return [in_battle, in_battle, target, beside, friendly]


def _kill_champion(w, act) -> list:
    def attempt(w, act):
        _kill(w, _enemy_champ(w, act.owner), act.owner, act.champ)
    return [attempt]


def _on_death(w, act) -> list:
    return [lambda w, act: _kill(w, act.champ, _foe(w, act.owner))]


def _on_deploy(w, act) -> list:
    def attempt(w, act):
        ch = act.champ
        if ch is None or ch.cid not in w.s.champions:
            return
        h = ch.hex
        w.g.unplace_champion(ch, "hand")
        w.s.players[ch.owner].hand.remove(ch.iid)
        w.g.place_champion(ch.owner, ch.iid, h)
    return [attempt]


def _others_battle(w, act) -> list:
    def attempt(w, act):
        s = w.s
        a, b = [q for q in range(len(s.players)) if q != act.owner][:2]
        h = w.hexes["enemy2"]
        s.add_forces(a, h, 2)
        w.g.battle(h, a, b, siege=False)
    return [attempt]


def _move_in(w, mover: int, src: int, dst: int, n: int = 3) -> None:
    s = w.s
    e = src * 256 + dst if src < dst else dst * 256 + src
    s.bridges.add(e)
    s.add_forces(mover, src, n)
    w.g.do_move(mover, ("stack", src, 0, None, (dst,)), 1, False, False)


def _battle_entered(w, act) -> list:
    def attempt(w, act):
        s = w.s
        dst = w.hexes["enemy"]
        src = next((n for n in s.topo.nbrs[dst] if s.occupies(act.owner, n)
                    and not s.occupants(n) - {act.owner}), None)
        if src is not None:
            w.g.do_move(act.owner, ("stack", src, 0, None, (dst,)), 1, False, False)
    return [attempt]


def _enemy_enters_capital(w, act) -> list:
    def attempt(w, act):
        s = w.s
        cap = s.players[act.owner].capital
        src = next((n for n in s.topo.nbrs[cap] if n not in s.capital_of
                    and not s.champs_at[n]), None)
        if src is None:
            return
        for q in list(s.occupants(src)):
            s.remove_forces(q, src, s.forces[src].get(q, 0))
        _move_in(w, _foe(w, act.owner), src, cap)
    return [attempt]


def _enemy_crosses_bridge(w, act) -> list:
    def attempt(w, act, flip):
        s = w.s
        e = act.refs.get(act.target) if act.target else None
        if not isinstance(e, int):
            e = next(iter(sorted(s.bridges)))
        a, b = (e & 255, e >> 8) if flip else (e >> 8, e & 255)
        foe = _foe(w, act.owner)
        if s.champs_at[a] or len(s.occupants(a) - {foe}) or len(s.occupants(b) - {
                foe, act.owner}):
            return
        _move_in(w, foe, a, b)
    return [lambda w, act, f=f: attempt(w, act, f) for f in (False, True)]


def _phase(name: str):
    return lambda w, act: [lambda w, act: getattr(w.g, name)()]


def _activated(w, act) -> list:
    def attempt(w, act, prep):
        if prep:
            _wound_and_neighbour(w, act)
        w.s.players[act.owner].mana = 10
        cid = act.champ.cid if act.champ is not None else 0
        w.g.resolve_basic({"p": act.owner, "kind": "ability",
                           "choice": ("ability", cid, act.ability.name)})
    return [lambda w, act, k=k: attempt(w, act, k) for k in (False, True)]


def _card_event(event: str):
    def attempts(w, act):
        def attempt(w, act):
            g, pl = w.g, w.s.players[act.owner]
            iid = act.inst.iid
            for zone in pl.zones():
                if iid in zone:
                    zone.remove(iid)
            if event == "card_drawn":
                pl.draw.append(iid)
                g.draw(act.owner, 1)
            else:
                pl.hand.append(iid)
                g.discard_card(act.owner, iid)
        return [attempt]
    return attempts


# event -> attempts(world, active) (tested to cover spec.EVENTS)
PROVOKE = {
    "on_deploy": _on_deploy,
    "on_death": _on_death,
    "kill_champion": _kill_champion,
    "champion_dies": _champion_dies,
    "battle_start": _battles(False),
    "battle_won": _battles(True),
    "battle_end": _battles(False),
    "battle_entered": _battle_entered,
    "others_battle": _others_battle,
    "enemy_enters_capital": _enemy_enters_capital,
    "enemy_crosses_bridge": _enemy_crosses_bridge,
    "round_start": _phase("reset_phase"),
    "round_end": _phase("cleanup_phase"),
    "card_drawn": _card_event("card_drawn"),
    "card_discarded": _card_event("card_discarded"),
    "activated": _activated,
}
