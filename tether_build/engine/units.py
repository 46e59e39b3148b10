"""Units on the board: deploying Forces and Champions, damage, healing, death (§2.2, §14.4,
§20)."""

from __future__ import annotations

from .state import Champion


class UnitsMixin:
    """Unit rules of the Game."""

    def blocked(self, p: int, h: int) -> bool:
        """§12.6: a hex already holding units of two other players cannot be entered."""
        nocc = self.s.nocc[h]
        return nocc >= 3 or nocc == 2 and h not in self.s.ucount[p]

    def deploy(self, p: int, h: int, n: int) -> int:
        """Deploy n Forces of seat p into hex h (plus deploy bonuses); returns the number."""
        if n <= 0:
            return 0
        if self.blocked(p, h):
            self.log("deploy_fail", p=p, hex=self.s.topo.name(h))
            return 0
        for act in self.hooks.of("deploy_bonus"):
            if act.owner == p:
                ctx = act.ctx(self)
                if h in act.mod.hexsel.candidates(ctx):
                    n += act.mod.amount(ctx)
        self.s.add_forces(p, h, n)
        self.dirty[h] = p
        if self.events is not None:
            self.log("deploy", p=p, hex=self.s.topo.name(h), n=n)
        return n

    def champion_gold(self, p: int, defn) -> int:
        """§20.2: the gold cost of this Champion as seat p's next Champion."""
        n = len(self.s.players[p].champions)
        costs = defn.champion["gold"]
        return costs[min(n, len(costs) - 1)]

    def can_field_champion(self, p: int) -> bool:
        """§20.3: the Champion limit."""
        return len(self.s.players[p].champions) < self.rules.game["champions"]["limit"]

    def place_champion(self, p: int, iid: int, h: int):
        """Put a Champion card onto hex h as a Champion; installs its abilities."""
        s = self.s
        if self.blocked(p, h) or not self.can_field_champion(p):
            self.log("deploy_fail", p=p, hex=s.topo.name(h), card=s.cards[iid].defn.id)
            return None
        ch = Champion(s.next_cid, iid, p, h, s.cards[iid].defn)
        s.next_cid += 1
        s.champions[ch.cid] = ch
        s.put_champ(ch, h)
        s.players[p].champions.append(ch.cid)
        for ab in ch.defn.abilities:
            self.hooks.install_ability(ab, p, champ=ch)
        self.dirty[h] = p
        if self.events is not None:
            self.log("champion", p=p, card=ch.defn.id, hex=s.topo.name(h), hp=ch.hp)
        if self.hooks.trigs.get("on_deploy"):
            self.fire("on_deploy", {"champ": ch, "hex": h, "player": p})
        return ch

    def unplace_champion(self, ch, to: str = "burn_pile") -> None:
        """Take a Champion off the board: its card goes to the burn pile or the hand."""
        s = self.s
        if ch.cid not in s.champions:
            return
        s.take_champ(ch)
        del s.champions[ch.cid]
        pl = s.players[ch.owner]
        pl.champions.remove(ch.cid)
        (pl.hand if to == "hand" else pl.burn).append(ch.iid)
        self.hooks.remove_where(lambda a: a.champ is ch and a.duration == "permanent")
        if self.events is not None:
            self.log("champion_off", p=ch.owner, card=ch.defn.id, to=to)

    def heal(self, ch, n: int) -> int:
        """Heal a Champion up to its max HP; returns HP healed."""
        before = ch.hp
        ch.hp = min(ch.max_hp, ch.hp + n)
        if ch.hp != before:
            self.log("heal", card=ch.defn.id, p=ch.owner, n=ch.hp - before)
        return ch.hp - before

    def damage(self, ch, n: int, by: int | None, by_champ=None, battle=None) -> int:
        """Deal n damage to a Champion (gold may prevent it); kills it at 0 HP (§14.4)."""
        if ch.cid not in self.s.champions or n <= 0:
            return 0
        n = self._prevent_for_gold(ch, n)
        if n <= 0:
            return 0
        ch.hp -= n
        if self.events is not None:
            self.log("damage", card=ch.defn.id, p=ch.owner, n=n, hp=max(ch.hp, 0))
        if ch.hp <= 0:
            ch.hp = 0
            self.kill(ch, by, by_champ, battle)
        return n

    def _prevent_for_gold(self, ch, n: int) -> int:
        for act in self.hooks.of("prevent_damage_for_gold"):
            if self.unit_matches(act, ch, is_force=False):
                pl = self.s.players[act.owner]  # the player who set it up pays
                cost = act.mod.params["gold"]
                while n > 0 and pl.gold >= cost:
                    pl.gold -= cost
                    n -= 1
                    self.log("prevent", p=act.owner, card=ch.defn.id, gold=cost)
        return n

    def kill(self, ch, by: int | None, by_champ=None, battle=None) -> None:
        """A Champion dies: on_death, off the board, bounty to the killer, death triggers."""
        info = {"champ": ch, "hex": ch.hex, "victim": ch.owner, "killer": by,
                "killer_champ": by_champ, "battle": battle, "owner": ch.owner}
        self.fire("on_death", info)
        self.unplace_champion(ch, "burn_pile")
        bounty = ch.defn.champion["bounty"]
        if by is not None and by != ch.owner and bounty:
            self.s.players[by].gold += bounty
            self.log("bounty", p=by, gold=bounty, card=ch.defn.id)
        if by is not None and by != ch.owner:
            self.fire("kill_champion", info)
        self.fire("champion_dies", info)

    def destroy_forces(self, p: int, h: int, n: int) -> int:
        """Destroy up to n of seat p's Forces in hex h."""
        k = self.s.remove_forces(p, h, n)
        if k and self.events is not None:
            self.log("destroy", p=p, hex=self.s.topo.name(h), n=k)
        return k

    def resolve_contacts(self, actor: int) -> None:
        """§12.7: after an action, battle in every non-Capital hex holding two players."""
        s = self.s
        while self.dirty:
            h = min(self.dirty)
            entrant = self.dirty.pop(h)
            if h in s.capital_of:
                continue
            occ = s.occupants(h)
            if len(occ) == 2:
                att = entrant if entrant in occ else (actor if actor in occ else min(occ))
                (dfn,) = occ - {att}
                self.battle(h, att, dfn, siege=False)
                self.checkpoint("battle")
