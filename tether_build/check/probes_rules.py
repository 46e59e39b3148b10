"""Modifier probes that play the consuming rule for real: Collection (mine_bonus), deploys
(deploy_bonus), drafts (pick_extra), paying for a card (cost_override) and damage
(prevent_damage_for_gold). Each isolates the modifier (no other of its kind and owner),
so what the rule does beyond its printed numbers is the modifier's doing."""

from __future__ import annotations

from .expect import amount
from .probes_base import Obs, arrange, isolate, spots
from .world import fresh_inst


def _mine_bonus(w, act) -> list:
    def attempt(w, act, spot):
        arrange(w, act, spot)
        isolate(w.g, act)
        g, s, p = w.g, w.s, act.owner
        if not any(s.tile[h] == "mine" for h in s.occupied_by(p)):
            s.add_forces(p, w.hexes["mine"], 1)
        mines = [(h, s.mine_value[h]) for h in s.occupied_by(p) if s.tile[h] == "mine"]
        n = amount(act.mod.params["amount"], act.ctx(g))
        mark = len(g.events)
        g.collection_phase()  # Collection visits the occupied hexes in order (§16)
        got = [e["gold"] for e in g.events[mark:] if e["e"] == "collect" and e["p"] == p
               and e.get("tile") == "mine"]
        extra = [(h, gold - v) for (h, v), gold in zip(mines, got)]
        probs = [f"Mine {s.topo.name(h)} gave {x} gold above its value, expected 0 or {n}"
                 for h, x in extra if x not in (0, n)]
        if len(got) != len(mines):
            probs.append(f"collected {len(got)} of {len(mines)} occupied Mines")
        return Obs(any(x == n and n for _, x in extra), probs)
    return [lambda w, act, sp=sp: attempt(w, act, sp) for sp in spots(w, act)]


def _deploy_bonus(w, act) -> list:
    def attempt(w, act):
        isolate(w.g, act)
        g, s, p = w.g, w.s, act.owner
        n = amount(act.mod.params["amount"], act.ctx(g))
        hexes = [h for h in act.mod.hexsel.candidates(act.ctx(g))
                 if len(s.occupants(h) - {p}) < 2][:2]
        probs, seen = [], False
        for h in hexes:
            before = s.forces[h].get(p, 0)
            g.deploy(p, h, 1)
            got = s.forces[h].get(p, 0) - before
            seen |= got == 1 + n
            if got != 1 + n:
                probs.append(f"deploying 1 into {s.topo.name(h)} gave {got}, expected "
                             f"{1 + n}")
        g.dirty.clear()
        return Obs(seen, probs)
    return [attempt]


def _pick_extra(w, act) -> list:
    def attempt(w, act):
        isolate(w.g, act)
        g, p = w.g, act.owner
        n = act.mod.params["amount"]
        deck = g.deck_for("market", g.s.age)
        agent = g.agents[p]
        mark = len(agent.asked)
        g.draft(p, deck, 2, "forge_draft")
        shown = [k for kind, k in agent.asked[mark:] if kind == "forge_draft"]
        probs = [] if shown == [min(2 + n, 2 + len(g.s.decks[deck]))] else [
            f"a draft of 2 showed {shown}, expected {2 + n} cards"]
        return Obs(bool(shown) and shown[0] > 2, probs)
    return [attempt]


def _cost_override(w, act) -> list:
    def attempt(w, act):
        g, s, p = w.g, w.s, act.owner
        f, d = act.mod.params["applies_to"], act.mod.params
        pool = [c for c in g.rules.cards if all(getattr(c, k) == v for k, v in f.items()
                                                if k in ("type", "mana", "deck"))]
        for card in sorted(pool, key=lambda c: (bool(c.triggers), c.mana, c.id)):
            inst = fresh_inst(g, card.id)
            base = g.card_cost(p, inst)
            want = (d.get("mana", base[0]), d.get("gold", base[1]))
            iid = w.card(p, card.id)
            s.players[p].mana, s.players[p].gold = 10, 30
            if not g.playable(p, iid):
                continue
            w.agent.play = iid
            mana, gold, uses = s.players[p].mana, s.players[p].gold, act.uses
            g.declare(p)
            paid = (mana - s.players[p].mana, gold - s.players[p].gold)
            probs = [] if paid == want else [(f"{card.id} cost {paid}, expected {want} "
                                             f"under the override")]
            if uses is not None and act.uses != uses - 1:
                probs.append(f"override uses {uses} -> {act.uses}, expected {uses - 1}")
            return Obs(paid != base[:2] or paid == want, probs)
        return Obs(False, [f"no card matching {f} could be played to see the override"])
    return [attempt]


def _prevent(w, act) -> list:
    def attempt(w, act):
        isolate(w.g, act)
        g, s = w.g, w.s
        cost = act.mod.params["gold"]
        payer = s.players[act.owner]
        for cid in list(s.champions):
            ch = s.champions.get(cid)
            if ch is None or not g.unit_matches(act, ch, is_force=False):
                continue
            payer.gold = max(payer.gold, cost)
            hp, gold = ch.hp, payer.gold
            foe = next(q for q in range(len(s.players)) if q != ch.owner)
            g.damage(ch, 1, foe)
            if ch.hp == hp and payer.gold == gold - cost:
                return Obs(True)
            return Obs(False, [(f"1 damage to {ch.defn.id} with {gold} gold: HP {hp} -> "
                                f"{ch.hp}, gold -> {payer.gold}; expected the damage "
                                f"prevented for {cost} gold")])
        return Obs(False)
    return [attempt]


RULE_PROBES = {"mine_bonus": _mine_bonus, "deploy_bonus": _deploy_bonus,
               "pick_extra": _pick_extra, "cost_override": _cost_override,
               "prevent_damage_for_gold": _prevent}
