"""Agents: every decision goes through `choose(game, seat, kind, options, ctx) -> index`."""

from __future__ import annotations

from . import weights as W
from .agent import Agent, RandomAgent  # noqa: F401  (RandomAgent: re-exported)
from .appraise import Aim, attack_odds, card_value, group, side_at, strength
from .intent import ctx_intent, target_intent


class HeuristicAgent(Agent):
    """Plays sensibly: expands to Mines/Forges/Center, fights when stronger, deploys,
    builds Bridges toward objectives, bids what a card is worth and it can afford."""

    name = "heuristic"
    whole_plays = True  # a card is chosen together with its targets ("Zap that Champion")

    _obj_memo: tuple | None = None    # (state, objectives) (no __init__: subclasses
    _close_memo: tuple | None = None  # (state, decisions, seat, end-game?) need none)
    _near_memo: tuple | None = None   # (state, decisions, seat, unheld objectives, by hex)
    _near_tables: tuple | None = None  # (board tiles, {unheld objectives: by hex})
    _bid_memo: tuple | None = None    # (state, decisions, seat, the Gold to bid)

    _bounding = False  # set while choose scores a fight by its best case (see choose)
    _fights = False    # set by _attack when it gave that best case

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The best-scoring option (random tie-break): the first of the highest scores.

        A move that ends in a battle is first scored as if the battle were won for sure
        (`_attack` with odds 1, its most), which costs no battle odds. Its true score, with
        the odds, is computed only if that best case could still beat the best option found,
        highest best case first. The pick is the one scoring every option in full gives:
        each score adds the same terms in the same order, so the best case is never below
        the true score, and each option draws its random tie-break once, in order."""
        score = getattr(self, "_" + kind, None) or self._default
        best, pick = None, 0
        skip = W.SKIP if kind in ("hex", "champion", "bridge", "may") else None
        fights = []  # (best-case score, index, tie-break) of the moves into a battle
        self._bounding = True
        try:
            for i, opt in enumerate(options):
                self._fights = False
                v = skip if opt is None and skip is not None else score(g, p, opt, ctx)
                tie = self.rng.random() * 0.01
                if self._fights:
                    fights.append((v + tie, i, tie))
                elif best is None or v + tie > best:
                    best, pick = v + tie, i
        finally:
            self._bounding = self._fights = False
        fights.sort(key=lambda f: (-f[0], f[1]))
        for most, i, tie in fights:
            if best is not None and (most < best or most == best and i > pick):
                break  # no move left can beat the pick, or tie it before it
            v = score(g, p, options[i], ctx) + tie
            if best is None or v > best or v == best and i < pick:
                best, pick = v, i
        return pick

    # ---- scoring helpers ------------------------------------------------------------------
    def _default(self, g, p, opt, ctx) -> float:
        return 0.0

    def _closing(self, g, p: int) -> bool:
        """End-game mode: seat p's own Permanence (known to it) is within CLOSE_GAP of
        vp_to_win, or the round cap is CLOSE_ROUNDS away: what scores at the next Scoring
        (the Center, Forges, enemy Capitals) comes first."""
        s = g.s
        got = self._close_memo
        if got is None or got[0] is not s or got[1:3] != (g.decisions, p):
            vic = g.rules.game["victory"]
            near = s.players[p].pvp + g.control_vp(p) >= vic["vp_to_win"] - W.CLOSE_GAP
            late = vic["round_cap"] - s.round < W.CLOSE_ROUNDS
            got = self._close_memo = (s, g.decisions, p, near or late)
        return got[3]

    def _hex_value(self, g, p: int, h: int) -> float:
        s = g.s
        tile = s.tile[h]
        v = W.OBJECTIVE.get(tile, 0.0)
        if (tile in ("center", "forge") or h in s.capital_of and s.capital_of[h] != p) and (
                self._closing(g, p)):
            v += W.CLOSE_BONUS
        if tile == "mine":
            v += 0.3 * s.mine_value[h]
        if h in s.capital_of and s.capital_of[h] != p:
            v += 3.0
        enemies = [o for o in s.occupants(h) if o != p]
        if enemies:  # held by an enemy: taking it is worth more than an empty one
            v += 2.0
        elif s.occupies(p, h):
            v *= 0.2
        return v

    def _attack(self, g, p: int, opt, enemies) -> float:
        """Worth of fighting at the end of a move: win odds against the strongest enemy
        (while choose bounds the options: the best case, odds 1, without the odds)."""
        s, src, dst = g.s, opt[1], opt[4][-1]
        stake = 5.0 + (4.0 if dst in s.capital_of else 0.0)
        if self._bounding:
            self._fights = True
            return stake  # stake * (2.0 * 1.0 - 1.0): the most the odds can make it
        champs, forces = group(g, p, opt)
        foe = max(enemies, key=lambda o: strength(g, o, dst))
        win = attack_odds(g.rules, side_at(g, p, src, champs, forces), side_at(g, foe, dst),
                          dst in s.capital_of)
        return stake * (2.0 * win - 1.0) - (6.0 if win < 0.35 else 0.0)

    def _near_objective(self, g, p: int, h: int) -> float:
        """Potential of a hex: the best (objective value - distance) not yet held by p.
        Each option of a move or Bridge asks it of two hexes. It depends on the board and
        the objectives p does not hold: kept per set of those, which changes seldom."""
        s = g.s
        got = self._near_memo
        if got is None or got[0] is not s or got[2] != p or got[1] != g.decisions:
            occupies = s.occupies
            unheld = tuple([(t, worth) for t, worth in self._objectives(g, p)
                            if not occupies(p, t)])
            tables = self._near_tables  # a hex's potential depends on the unheld set only:
            if tables is None or tables[0] is not s.tile:  # kept while that set recurs
                tables = self._near_tables = (s.tile, {})
            known = tables[1].get(unheld)
            if known is None:
                known = tables[1][unheld] = {}
            got = self._near_memo = (s, g.decisions, p, unheld, known)
        known = got[4]
        v = known.get(h)
        if v is None:
            row = s.topo.dist[h]
            v = known[h] = max([-9.0] + [worth - 1.2 * row[t] for t, worth in got[3]])
        return v

    def _objectives(self, g, p: int) -> list[tuple]:
        """(hex, worth) of the tiles worth heading for: Mines, Forges, the Center."""
        tiles = g.s.tile  # the game's own list (a view lends it): set once, at setup
        memo = self._obj_memo
        if memo is None or memo[0] is not tiles:
            memo = self._obj_memo = (
                tiles, [(h, W.OBJECTIVE[t]) for h, t in enumerate(tiles) if t in W.OBJECTIVE])
        return memo[1]

    def _move(self, g, p, opt, ctx) -> float:
        if opt is None:
            return 0.5
        _, src, cid, _nf, path = opt
        s = g.s
        dst = path[-1]
        v = self._hex_value(g, p, dst)
        enemies = [o for o in s.occupants(dst) if o != p]
        if enemies:  # a battle: judged by the engine's odds, not by the rough strength
            v += self._attack(g, p, opt, enemies)
        if not cid and _nf is None and s.tile[src] in W.OBJECTIVE:  # the stack leaves the tile
            v -= W.OBJECTIVE[s.tile[src]] + 0.3 * s.mine_value[src]
        gain = self._near_objective(g, p, dst) - self._near_objective(g, p, src)
        v += self._approach(g, p, opt) * gain
        if src == s.players[p].capital and not cid and _nf is None:
            v -= 1.0 if s.forces[src].get(p, 0) > 3 else 2.5
        return v

    def _approach(self, g, p: int, opt) -> float:
        """Worth of each hex this move brings its group nearer an objective: more for a
        group strong enough to take and hold it (a lone Cohort is sent less eagerly)."""
        champs, forces = group(g, p, opt)
        n = forces + 2 * len(champs)
        return W.APPROACH_MOVE + W.APPROACH_ARMY * min(1.0, n / W.ARMY)

    def _bridge_edge(self, g, p, e) -> float:
        s = g.s
        a, b = e >> 8, e & 255
        near, far = (a, b) if s.occupies(p, a) else (b, a)
        gain = self._near_objective(g, p, far) - self._near_objective(g, p, near)
        toward = 0.0 if s.occupies(p, far) else W.OBJECTIVE.get(s.tile[far], 0)
        return 1.0 + W.APPROACH_BRIDGE * gain + 0.4 * toward

    # ---- decisions ------------------------------------------------------------------------
    def _action(self, g, p, opt, ctx) -> float:
        kind = opt[0]
        pl = g.s.players[p]
        if kind == "done":
            return 0.2
        if kind == "card":
            inst = g.s.cards[opt[1]]
            defn = inst.defn
            base = 1.5 + 0.5 * W.CATEGORY.get(defn.category, 1.0) + (
                1.5 if defn.type == "champion" else 0.0)
            if len(opt) == 3:
                return base + self._play(g, p, inst, opt[2])
            return base - self._misaimed(g, p, inst)
        if kind == "march":
            return W.MARCH_BASE + self._move(g, p, opt[1], ctx)
        if kind == "bridge":
            return self._bridge_edge(g, p, opt[1])
        if kind == "reinforce":
            return 0.5 + (3.0 if g.capital_has_enemy(p) else 0.0) + min(pl.gold / 6.0, 1.5)
        return 2.5

    def _play(self, g, p, inst, play) -> float:
        """The worth of a whole play's targets: each scored as if asked alone (a small
        weight: they rank the plays of a card), and a heavy penalty for harm aimed where
        our own units stand or help aimed at an enemy."""
        s, v = g.s, 0.0
        for kind, value, key in play:
            ctx = Aim(key, inst)
            aim = ctx_intent(ctx)
            if kind == "champion":
                owner_is_us = value.owner == p
                v += 0.3 * self._champion(g, p, value, ctx)
                if (aim < 0 and owner_is_us) or (aim > 0 and not owner_is_us):
                    v -= 10.0
            elif kind == "hex":
                v += 0.3 * self._hex(g, p, value, ctx)
                if aim < 0 and s.occupies(p, value):
                    v -= 10.0
            elif kind == "bridge":
                v += 0.3 * self._bridge(g, p, value, ctx)
        return v

    def _misaimed(self, g, p, inst) -> float:
        """A penalty for a card whose first chosen Champion target could only be a friend
        when it harms, or only a foe when it helps (the card would be wasted or worse)."""
        st = next((x for x in inst.defn.effect if x.targets is not None), None)
        if st is None or ("champion" not in st.params):
            return 0.0
        aim = target_intent(st, inst.defn.raw.get("effect"))
        if not aim:
            return 0.0
        cands = g.card_targets(p, inst)
        if aim < 0 and cands and all(c.owner == p for c in cands):
            return 10.0
        if aim > 0 and cands and all(c.owner != p for c in cands):
            return 10.0
        return 0.0

    def _bid(self, g, p, opt, ctx) -> float:
        kind, x = opt
        target = self._bid_target(g, p, ctx)
        if kind == "pass":
            return (1.0 if target < 1 else -1.0) - x
        return 2.0 - abs(x - target) if target >= 1 else -2.0

    def _bid_target(self, g, p, ctx) -> float:
        """The Gold seat p means to bid for the card offered (the same for every option of
        the decision: kept with the view it was read from)."""
        s = g.s
        got = self._bid_memo
        if got is not None and got[0] is s and got[2] == p and got[1] == g.decisions:
            return got[3]
        defn = s.cards[ctx["card"]].defn
        gold = s.players[p].gold
        worth = card_value(defn) * (1.0 + gold / 8.0)
        # what the plan needs this round: the gold the hand's cards ask for
        need = max((s.cards[i].get("gold") for i in s.players[p].hand), default=0)
        target = min(worth - 1.0, gold - 1.0 - need, W.VICTORY_BID * defn.vp if defn.vp
                     else gold)
        if defn.vp and g.rules.game["victory"]["round_cap"] - s.round < W.LATE_ROUNDS:
            target = gold - need  # Gold left at the cap only breaks ties: buy Permanence
        self._bid_memo = (s, g.decisions, p, target)
        return target

    def _card_pick(self, g, p, opt, ctx) -> float:
        return 0.0 if opt is None else card_value(g.s.cards[opt].defn)

    _free_card = _forge_draft = _power_pick = _gain_card = _look_take = _card_pick

    def _mine_draft(self, g, p, opt, ctx) -> float:
        return 1.0 if opt is None else card_value(g.s.cards[opt].defn)

    def _discard(self, g, p, opt, ctx) -> float:
        return 1.5 if opt is None else 3.0 - card_value(g.s.cards[opt].defn)

    _scrap = _put_on_top = _look_bottom = _discard

    def _hex(self, g, p, h, ctx) -> float:
        s = g.s
        v = W.OBJECTIVE.get(s.tile[h], 0.0) * 0.5
        enemy = any(o != p for o in s.occupants(h))
        mine = s.occupies(p, h)
        aim = ctx_intent(ctx) if ctx is not None else 0
        if aim < 0:  # a harmful effect: where enemies stand and none of ours
            return v + (4.0 if enemy else 0.0) - (6.0 if mine else 0.0) + 0.1 * sum(
                n for q, n in s.forces[h].items() if q != p)
        if aim > 0:  # a helpful effect: our own hexes, the threatened first
            return v + (3.0 if mine else 0.0) + (1.0 if mine and enemy else 0.0)
        if enemy:
            v += 2.0
        if h == s.players[p].capital:
            v += 1.0
        return v - 0.2 * s.topo.dist[h][s.topo.center]

    def _champion(self, g, p, ch, ctx) -> float:
        aim = ctx_intent(ctx) if ctx is not None else 0
        if aim < 0:  # harm: enemies, the weakest (a kill) first; our own only if forced
            return 10.0 - ch.hp if ch.owner != p else -10.0 + ch.hp * 0.1
        if aim > 0:  # help: our own, the most hurt first; enemies only if forced
            return 1.0 + ch.max_hp - ch.hp if ch.owner == p else -10.0
        if ch.owner == p:
            return float(ch.max_hp - ch.hp)
        return 10.0 - ch.hp

    def _bridge(self, g, p, e, ctx) -> float:
        s = g.s
        if e in s.bridges:  # destroying: hurt the enemy nearest to us
            a, b = e >> 8, e & 255
            return 1.0 if any(o != p for o in s.occupants(a) | s.occupants(b)) else 0.0
        return self._bridge_edge(g, p, e)

    def _player(self, g, p, q, ctx) -> float:
        pl = g.s.players[q]
        return pl.gold + pl.cvp  # Permanent VP of others is hidden (§15.4)

    def _assign_hit(self, g, p, opt, ctx) -> float:
        if opt[0] == "force":
            return 1.0
        ch = g.s.champions[opt[1]]
        return 5.0 - ch.hp

    def _may(self, g, p, opt, ctx) -> float:
        return 1.0  # an optional step on all / random targets: do it (skip scores SKIP)

    def _mine(self, g, p, opt, ctx) -> float:
        """Gold, except in the last round: Gold left at the cap only breaks ties, and a
        Mine Draft may reveal a Victory card."""
        last = g.s.round >= g.rules.game["victory"]["round_cap"]
        return 2.0 if (opt[0] == "gold") != last else 1.0

    def _forge(self, g, p, opt, ctx) -> float:
        return 2.0 if opt[0] == "draft" else 1.0

    def _start_bridge(self, g, p, e, ctx) -> float:
        s = g.s
        cap = s.players[p].capital
        a, b = e >> 8, e & 255
        touches = cap in (a, b)
        far = b if a == cap else a
        return (2.0 if touches else 0.0) + 0.5 * self._near_objective(g, p, far)

    def _summon(self, g, p, opt, ctx) -> float:
        return g.rules.by_id[opt].champion["hp"]
