"""Battles and sieges (§12.7, §13, §14): combat rounds to the death, random hit
assignment, Champion damage and bounty, and every combat modifier."""

from __future__ import annotations

import itertools

from . import rand
from .mods import battle_applies, bind_battle

MAX_COMBAT_ROUNDS = 500


class Battle:
    """One battle in progress."""

    __slots__ = ("attacker", "bid", "defender", "hex", "redirected", "round", "siege")

    def __init__(self, bid: int, h: int, attacker: int, defender: int, siege: bool):
        self.bid, self.hex, self.attacker, self.defender = bid, h, attacker, defender
        self.siege, self.round = siege, 0
        self.redirected: dict[int, int] = {}

    @property
    def sides(self) -> tuple[int, int]:
        """(attacker, defender)."""
        return self.attacker, self.defender


class CombatMixin:
    """Combat rules of the Game."""

    def battle(self, h: int, attacker: int, defender: int, siege: bool) -> int | None:
        """Fight a battle to the death in hex h; returns the winner's seat or None."""
        s = self.s
        self.battle_seq += 1
        b = Battle(self.battle_seq, h, attacker, defender, siege)
        champs = list(s.champs_at[h])
        bind_battle(self.hooks, b, b.sides, champs)
        if self.events is not None:
            self.log("battle", hex=s.topo.name(h), att=attacker, dfn=defender, siege=siege)
        info = {"battle": b, "hex": h, "sides": b.sides, "champs": champs}
        if self.hooks.mods.get("retreat_from_battle") and self._retreats(b):
            self._end_battle(b, None, info)
            return None
        self.fire("battle_start", info)
        self.fire("others_battle", info)
        # a side is alive while it has a unit in h (State.ucount: its units per hex)
        a_units, d_units = s.ucount[attacker], s.ucount[defender]
        while h in a_units and h in d_units:
            b.round += 1
            if b.round > MAX_COMBAT_ROUNDS:
                break
            self.combat_round(b)
        a_alive, d_alive = h in a_units, h in d_units
        winner = attacker if a_alive and not d_alive else (
            defender if d_alive and not a_alive else None)
        info["champs"] = champs
        self.last_battle_rounds = b.round
        self._end_battle(b, winner, info)
        return winner

    def _alive(self, p: int, h: int) -> bool:
        return h in self.s.ucount[p]  # the seat's units per hex, kept by State

    def _end_battle(self, b: Battle, winner, info: dict) -> None:
        info["winner"] = winner
        if winner is not None:
            pl = self.s.players[winner]
            pl.won_battle = True
            loser = b.defender if winner == b.attacker else b.attacker
            if self.hooks.trigs.get("battle_won"):
                self.fire("battle_won", {**info, "battle_enemy": loser}, only={winner})
        if self.events is not None:
            self.log("battle_end", hex=self.s.topo.name(b.hex), winner=winner, rounds=b.round)
        if self.hooks.trigs.get("battle_end"):
            for p in b.sides:
                enemy = b.defender if p == b.attacker else b.attacker
                self.fire("battle_end", {**info, "battle_enemy": enemy}, only={p})
        self.hooks.remove_where(lambda a: a.battle == b.bid)

    def _retreats(self, b: Battle) -> bool:
        """retreat_from_battle: a side whose modifier covers the hex leaves before combat."""
        for p in b.sides:
            for act in self.hooks.of("retreat_from_battle"):
                if act.owner == p and b.hex in act.mod.hexsel.candidates(act.ctx(self)):
                    self._retreat(p, b.hex)
                    return True
        return False

    def _retreat(self, p: int, h: int) -> None:
        s = self.s
        free = [n for n in s.topo.nbrs[h] if not s.occupants(n)]
        champs = [c for c in s.champs_at[h] if c.owner == p]
        if not free:
            self.destroy_forces(p, h, s.forces[h].get(p, 0))
            for ch in champs:
                self.kill(ch, None)
            self.log("retreat", p=p, to=None)
            return
        to = self.rng.choice(free)
        self._relocate_group(p, h, to, champs, s.forces[h].get(p, 0))
        self.dirty.pop(to, None)
        self.log("retreat", p=p, to=s.topo.name(to))

    # ---- one combat round ----------------------------------------------------------------
    def unit_stats(self, b: Battle, p: int, champ) -> tuple[int, int]:
        """(dice, hit-on) of one of p's units in battle b (champ None = a Force)."""
        if champ is None:
            f = self.rules.game["units"]["force"]
            dice, hit = f["dice"], f["hit"]
        else:
            dice, hit = champ.defn.champion["dice"], champ.defn.champion["hit"]
        mods = self.hooks.mods
        if not (mods.get("hit_on") or mods.get("extra_dice") or mods.get("set_dice")):
            return max(0, dice), min(hit, 6)  # no combat modifier in play
        own_hit, cap_hit, extra, setd = hit, 6, 0, None
        for kind in ("hit_on", "extra_dice", "set_dice"):
            for act in self.hooks.of(kind):
                if not battle_applies(act, b) or not self.unit_matches(act, champ,
                                                                       champ is None, p):
                    continue
                ctx = act.ctx(self, b)
                if not act.limit_ok(self, b) or not act.mod.when(ctx):
                    continue
                act.mark_used(self, b)
                if kind == "hit_on":
                    v = act.mod.params["value"]
                    if act.owner == p:
                        own_hit = max(own_hit, v)
                    else:
                        cap_hit = min(cap_hit, v)
                elif kind == "extra_dice":
                    extra += act.mod.amount(ctx)
                else:
                    v = act.mod.params["value"]
                    setd = v if setd is None else min(setd, v)
        dice = setd if setd is not None else dice + extra
        return max(0, dice), min(own_hit, cap_hit)

    def _roll_side(self, b: Battle, p: int) -> tuple[int, list]:
        """Roll every die of p's units: (hits scored by Forces, as a count; the Champions
        that scored the other hits, one entry per hit). Forces are counted, never listed,
        so a large stack costs no memory; the dice are drawn in the same order as ever."""
        s, rng = self.s, self.rng
        nf = s.forces[b.hex].get(p, 0)
        force_hits = 0
        rnd = rng.random
        tally = self.tally if self.events is not None else None  # faces rolled, for the log
        if nf:
            dice, hit = self.unit_stats(b, p, None)
            for _ in range(nf * dice):
                r = rnd()
                if tally is not None:
                    tally[int(r * 6)] += 1
                if r * 6 < hit:  # d6 <= hit
                    force_hits += 1
        champ_hits: list = []
        here = s.champs_at[b.hex]
        if here:
            for ch in [c for c in here if c.owner == p]:
                dice, hit = self.unit_stats(b, p, ch)
                for _ in range(dice):
                    r = rnd()
                    if tally is not None:
                        tally[int(r * 6)] += 1
                    if r * 6 < hit:
                        champ_hits.append(ch)
        return force_hits, champ_hits

    def combat_round(self, b: Battle) -> None:
        """§14.1-14.3: both sides roll, hits are assigned, casualties removed together."""
        att, dfn = b.attacker, b.defender
        self.tally = [0] * 6
        a_roll = self._roll_side(b, att)
        a_dice, self.tally = self.tally, [0] * 6
        d_roll = self._roll_side(b, dfn)
        a_plan = self._assign(b, att, dfn, *a_roll)
        d_plan = self._assign(b, dfn, att, *d_roll)
        if self.events is not None:
            self.log("round", hex=self.s.topo.name(b.hex), n=b.round,
                     hits={str(att): a_roll[0] + len(a_roll[1]),
                           str(dfn): d_roll[0] + len(d_roll[1])},
                     dice={str(att): a_dice, str(dfn): self.tally})
        for p, enemy, (forces_hit, champ_hits) in ((att, dfn, a_plan), (dfn, att, d_plan)):
            if forces_hit:
                self.destroy_forces(enemy, b.hex, forces_hit)
            for ch, (n, src) in champ_hits.items():
                self.damage(ch, n, p, src, b)

    def _assign(self, b: Battle, p: int, enemy: int, force_hits: int, champ_hits: list):
        """Assign p's hits to enemy units: chosen (assign_hits) or random (§14.2). The hits
        are taken Forces' first, then each Champion's, as they were rolled."""
        s = self.s
        nf = s.forces[b.hex].get(enemy, 0)
        here = s.champs_at[b.hex]
        champs = [c for c in here if c.owner == enemy] if here else []
        chosen = self._chosen_hits(b, p, force_hits + len(champ_hits)) if (
            self.hooks.mods.get("assign_hits")) else 0
        if not nf and not champs:
            return 0, {}
        if not chosen and self.opt.hit_assignment == "at_roll" and type(self.rng) is rand.PLAIN:
            return self._assign_at_random(b, enemy, nf, champs, force_hits, champ_hits)
        forces_hit: set[int] = set()
        champ_hits_on: dict = {}
        for k, src in enumerate(itertools.chain(itertools.repeat(None, force_hits),
                                                champ_hits)):
            if k < chosen:
                options = ([("force",)] if len(forces_hit) < nf else []) + [
                    ("champion", c.cid) for c in champs]
                if not options:
                    break
                pick = options[0] if len(options) == 1 else self.decide(p, "assign_hit",
                                                                        options)
                tgt = -1 if pick[0] == "force" else champs.index(s.champions[pick[1]]) + nf
                if tgt == -1:
                    tgt = min(set(range(nf)) - forces_hit)
            else:
                tgt = self._random_unit(nf, champs, forces_hit, champ_hits_on)
                if tgt is None:
                    break
            if tgt >= nf:
                ch = champs[tgt - nf]
                if self._redirect(b, enemy, ch, nf, forces_hit):
                    continue
                n, _ = champ_hits_on.get(ch, (0, None))
                champ_hits_on[ch] = (n + 1, src)
            else:
                forces_hit.add(tgt)
        return len(forces_hit), champ_hits_on

    def _assign_at_random(self, b: Battle, enemy: int, nf: int, champs: list,
                          force_hits: int, champ_hits: list):
        """`_assign` when every hit goes to a random unit alive at the roll (no chosen hits;
        option hit_assignment=at_roll): the same draws as `rand.below`, written out."""
        forces_hit: set[int] = set()
        champ_hits_on: dict = {}
        total = nf + len(champs)
        getrandbits, k = self.rng.getrandbits, total.bit_length()
        if not champs:  # only Forces to hit
            for _ in range(force_hits + len(champ_hits)):
                r = getrandbits(k)
                while r >= total:
                    r = getrandbits(k)
                forces_hit.add(r)
            return len(forces_hit), champ_hits_on
        redirect = self.hooks.mods.get("redirect_hit")
        for src in itertools.chain(itertools.repeat(None, force_hits), champ_hits):
            r = getrandbits(k)
            while r >= total:
                r = getrandbits(k)
            if r < nf:
                forces_hit.add(r)
                continue
            ch = champs[r - nf]
            if redirect and self._redirect(b, enemy, ch, nf, forces_hit):
                continue
            got = champ_hits_on.get(ch)
            champ_hits_on[ch] = (1 if got is None else got[0] + 1, src)
        return len(forces_hit), champ_hits_on

    def _random_unit(self, nf: int, champs: list, forces_hit: set, champ_hits_on: dict):
        """One random enemy unit for a hit (§14.2; option `hit_assignment`): any unit alive
        at the roll, or with `surviving` only those earlier hits of this roll left alive."""
        if self.opt.hit_assignment == "at_roll":
            return rand.below(self.rng, nf + len(champs))
        alive = [k for k in range(nf) if k not in forces_hit] + [
            nf + i for i, c in enumerate(champs) if champ_hits_on.get(c, (0,))[0] < c.hp]
        return alive[rand.below(self.rng, len(alive))] if alive else None

    def _chosen_hits(self, b: Battle, p: int, n: int) -> int:
        best = 0
        for act in self.hooks.of("assign_hits"):
            if act.owner != p or not battle_applies(act, b):
                continue
            ctx = act.ctx(self, b)
            if act.limit_ok(self, b) and act.mod.when(ctx):
                act.mark_used(self, b)
                count = act.mod.params.get("count")
                best = max(best, n if count is None else count)
        return min(best, n)

    def _redirect(self, b: Battle, enemy: int, ch, nf: int, forces_hit: set) -> bool:
        """redirect_hit (Bodyguard): a hit on a friendly Champion goes to a Force instead."""
        free = [i for i in range(nf) if i not in forces_hit]
        if not free:
            return False
        for act in self.hooks.of("redirect_hit"):
            if act.owner != enemy or not battle_applies(act, b):
                continue
            key = id(act)
            count = act.mod.params.get("count", 1)
            if b.redirected.get(key, 0) >= count or not act.mod.when(act.ctx(self, b)):
                continue
            if act.champ is not None and act.champ.hex != b.hex:
                continue
            b.redirected[key] = b.redirected.get(key, 0) + 1
            forces_hit.add(free[0])
            self.log("redirect", p=enemy, card=ch.defn.id)
            return True
        return False

    # ---- sieges ---------------------------------------------------------------------------
    def sieges(self) -> None:
        """§13: each Capital holding two players' units: a battle to the death."""
        s = self.s
        for h in sorted(s.capital_of):
            occ = s.occupants(h)
            if len(occ) != 2:
                continue
            owner = s.capital_of[h]
            dfn = owner if owner in occ else min(occ)
            (att,) = occ - {dfn}
            self.battle(h, att, dfn, siege=True)
            self.checkpoint("siege")
