"""Round phases other than the Market and Action Phase: Reset (§10), Collection (§16),
Scoring and victory (§3, §17), Cleanup (§18), Ages (§19)."""

from __future__ import annotations

from .core import Ctx
from .mods import owned


class PhasesMixin:
    """Round phases of the Game: Reset, Collection, Scoring and victory, Cleanup, Ages."""

    def reset_phase(self) -> None:
        """§10: +income, mana to MAX_MANA, draw to hand size, discard down to the limit."""
        s, game = self.s, self.rules.game
        for p, pl in enumerate(s.players):
            pl.new_round()
            pl.gold += game["resources"]["base_income"]
            pl.mana = game["resources"]["max_mana"]
            self.draw(p, max(0, game["hand"]["size"] - len(pl.hand)))
            over = len(pl.hand) - game["hand"]["limit"]
            if over > 0:
                for iid in self.choose_cards(p, "discard", pl.hand, over, False):
                    self.discard_card(p, iid)
            if owned(self.hooks.trigs.get("round_start", ()), p):
                self.fire("round_start", {"player": p}, only={p})
        self.checkpoint("reset")

    def _mine_bonus(self, p: int, h: int) -> int:
        bonus = 0
        for act in self.hooks.of("mine_bonus"):
            if act.owner != p:
                continue
            ctx = act.ctx(self)
            ctx.event = {"hex": h}
            if act.mod.hexsel is not None and h not in act.mod.hexsel.candidates(ctx):
                continue
            if act.mod.when(ctx):
                bonus += act.mod.amount(ctx)
        return bonus

    def collection_phase(self) -> None:
        """§16: Mines (gold or a Mine Draft), Forges (Reforge or Forge Draft), Center (Power
        Pick), for every tile each player occupies, in seat order from the Lead (§16 says
        'simultaneous'; the order only matters for the shared decks, read as in §12.3)."""
        s, market = self.s, self.rules.game["market"]
        for p in list(self.seat_order()):
            for h in s.occupied_by(p):
                tile = s.tile[h]
                if tile == "mine":
                    gold = s.mine_value[h] + self._mine_bonus(p, h)
                    if self.decide(p, "mine", [("gold", gold), ("draft",)])[0] == "gold":
                        s.players[p].gold += gold
                        self.log("collect", p=p, tile="mine", gold=gold)
                    else:
                        self.draft(p, self.deck_for("market", s.age),
                                   market["mine_draft_reveal"], "mine_draft", optional=True)
                elif tile == "forge":
                    opts = [("draft",)] + ([("reforge",)] if s.players[p].hand else [])
                    if self.decide(p, "forge", opts)[0] == "reforge":
                        for iid in self.choose_cards(p, "scrap", s.players[p].hand, 1, False):
                            self.scrap_card(p, iid)
                    else:
                        self.draft(p, self.deck_for("market", s.age),
                                   market["forge_draft_reveal"], "forge_draft")
                elif tile == "center":
                    self.draft(p, self.deck_for("power", s.age), market["power_pick_reveal"],
                               "power_pick")
                self.checkpoint("collect")

    def control_vp(self, p: int) -> int:
        """§17 Control VP now: Center, Forges, enemy Capitals occupied, vp_while modifiers."""
        s = self.s
        value = dict(self.rules.game["scoring"]["control_vp"])
        for act in self.hooks.of("control_vp"):
            if act.owner == p:
                kind = act.mod.params["kind"]
                value[kind] = max(value[kind], act.mod.params["amount"])
        vp = 0
        for h in s.occupied_by(p):
            if s.tile[h] == "center":
                vp += value["center"]
            elif s.tile[h] == "forge":
                vp += value["forge"]
            elif h in s.capital_of and s.capital_of[h] != p:
                vp += value["enemy_capital"]
        for act in self.hooks.of("vp_while"):
            if act.owner == p and act.mod.when(act.ctx(self)):
                vp += act.mod.amount(act.ctx(self))
        return vp

    def scoring_phase(self) -> list[int]:
        """§17: recompute Control VP; return the seats that win now (§3.1)."""
        s = self.s
        goal = self.rules.game["victory"]["vp_to_win"]
        winners = []
        for p, pl in enumerate(s.players):
            pl.cvp = self.control_vp(p)
            if pl.pvp + pl.cvp >= goal and not self.capital_has_enemy(p):
                winners.append(p)
        if self.events is not None:
            self.log("score", vp={str(p): [pl.pvp, pl.cvp] for p, pl in enumerate(s.players)})
        return winners

    def rank(self, seats: list[int]) -> list[int]:
        """§3.2 tie-breakers (total VP, Permanent VP, gold); then the final_tie option."""
        s = self.s
        keys = {
            "total_vp": lambda p: s.players[p].pvp + s.players[p].cvp,
            "permanent_vp": lambda p: s.players[p].pvp,
            "gold": lambda p: s.players[p].gold,
        }
        order = self.rules.game["victory"]["tie_breakers"]
        best = max(tuple(keys[k](p) for k in order) for p in seats)
        top = [p for p in seats if tuple(keys[k](p) for k in order) == best]
        if len(top) > 1 and self.opt.final_tie == "die":
            top = [self.roll_off(top, "final_tie")]
        return top

    def cleanup_phase(self) -> None:
        """§18: discard hands, end-of-round triggers, end round effects, temporary Bridges."""
        s = self.s
        cards = s.cards
        for p, pl in enumerate(s.players):
            if self.events is None:
                for iid in pl.hand:
                    if cards[iid].defn.triggers:
                        break
                else:  # no card with a trigger: discard_card one by one, without the bookkeeping
                    pl.discard.extend(pl.hand)
                    pl.hand.clear()
                    continue
            for iid in list(pl.hand):
                self.discard_card(p, iid)
        for p in range(len(s.players)):
            if owned(self.hooks.trigs.get("round_end", ()), p):
                self.fire("round_end", {"player": p}, only={p})
        ending = {"end_of_round", "first_battle", "this_battle"}
        if self.opt.next_battle_expires:
            ending.add("next_battle")
        self.hooks.remove_where(lambda a: a.duration in ending)
        for e in sorted(s.temp_bridges):
            s.bridges.discard(e)
            self.log("unbridge", edge=e, temporary=True)
        s.temp_bridges.clear()
        self.checkpoint("cleanup")

    def advance_round(self) -> None:
        """§19: next round, its Age, and the next Lead."""
        s = self.s
        s.round += 1
        s.age = self.rules.age_of_round.get(s.round, s.age)
        if self.opt.lead == "rotate":
            s.lead = (s.round - 1) % len(s.players)

    def requirement_ok(self, p: int, inst) -> bool:
        """A card's play requirement (e.g. 'while you have 5 or more mana')."""
        return inst.defn.requires is None or inst.defn.requires(Ctx(self, p, inst))
