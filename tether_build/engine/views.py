"""What search needs from a game: an exact copy, what one seat may know, and a sampled
world consistent with that knowledge.

- `clone()`: a deep copy sharing only the immutable definitions (compiled cards, steps,
  selectors, topology, options; see core.shared). The RNG and the agents' RNGs are copied,
  so a clone continued with the same agents has the same future as the original.
- `observation(p)`: seat p's information set (§15.4 and the Gold display rule): the public
  board, everyone's Gold, Mana, hand size and face-up piles; p's own hand and the contents
  (not the order) of p's draw pile. Not other seats' hands, any draw order, the supply
  decks' order, or other seats' Permanent VP.
- `determinize(p, seed)`: a clone in which everything p cannot know is resampled: each card
  another seat gained unseen by p is drawn again from its deck (that seat's Permanent VP
  follows), each other seat's hand and draw pile are shuffled together and dealt again
  (sizes kept), p's own draw pile and every supply deck are shuffled, and the dice stream
  is reseeded.
"""

from __future__ import annotations

import copy
import random

from .index import Index
from .topo import edge_ends


class ViewsMixin:
    """Clone, observation and determinization of a Game."""

    def clone(self, agents=None):
        """An independent copy of this game (agents copied too unless given)."""
        memo: dict = {}
        if self.check is not None:
            memo[id(self.check)] = self.check
        if agents is not None:
            memo[id(self.agents)] = list(agents)
        return copy.deepcopy(self, memo)

    def observation(self, p: int) -> dict:
        """Everything seat p may know now, as plain data (see the module docstring)."""
        s = self.s
        name = s.topo.name

        def cards(ids):
            return sorted(s.cards[i].defn.id for i in ids)

        seats = []
        for pl in s.players:
            mine = pl.seat == p
            seats.append({
                "seat": pl.seat, "faction": pl.faction, "gold": pl.gold, "mana": pl.mana,
                "control_vp": pl.cvp, "permanent_vp": pl.pvp if mine else None,
                "hand_size": len(pl.hand), "draw_size": len(pl.draw),
                "hand": cards(pl.hand) if mine else None,
                "draw_contents": cards(pl.draw) if mine else None,
                "discard": cards(pl.discard), "burn": cards(pl.burn),
                "scrapped": cards(pl.scrapped), "played": cards(pl.played),
                "capital": name(pl.capital) if pl.capital >= 0 else None,
            })
        return {
            "seat": p, "round": s.round, "age": s.age, "lead": s.lead,
            "players": seats,
            "tiles": {name(h): t for h, t in enumerate(s.tile) if t != "plain"},
            "mines": {name(h): v for h, v in enumerate(s.mine_value) if v},
            "forces": {name(h): sorted(f.items()) for h, f in enumerate(s.forces) if f},
            "champions": sorted((c.owner, c.defn.id, name(c.hex), c.hp, c.max_hp)
                                for c in s.champions.values()),
            "bridges": sorted("-".join(name(x) for x in edge_ends(e)) for e in s.bridges),
            "revealed": cards(s.revealed),
            "deck_sizes": {k: len(v) for k, v in sorted(s.decks.items())},
        }

    def determinize(self, p: int, seed: int, agents=None):
        """A clone consistent with seat p's observation; hidden parts sampled from `seed`."""
        g = self.clone(agents)
        g.resample(p, random.Random(seed))
        g.index = Index()
        return g

    def resample(self, p: int, rng: random.Random) -> None:
        """In place, deal again what seat p cannot see, from what p knows: each card another
        seat gained unseen by p (`Game.unseen`: a random or chosen gain from a supply deck)
        becomes a card drawn from that deck's unseen cards and itself, and that seat's
        Permanent VP changes by the difference (§15.4: the rest of it, the Victory cards it
        gained in view and the VP its cards' effects gave, p could count); then other seats'
        hands and draw piles are dealt again from their pool (a card chosen this Action
        Step stays in hand: it is about to be revealed), p's draw order and every supply
        deck's order (by deck name) are shuffled and the dice reseeded. Each hidden list is
        sorted before it is shuffled, so the dealt world does not depend on the hidden order
        it came from. The native search deals draw for draw the same (search.cpp
        `determinize`; tests/engine/test_search_reference.py)."""
        s = self.s
        self.prune_unseen()
        for pl in s.players:
            if pl.seat == p:
                pl.draw.sort()
                rng.shuffle(pl.draw)
                continue
            self._redeal_unseen(pl, rng)
            keep = [i for i in pl.hand if i in self.pending]
            pool = sorted([i for i in pl.hand if i not in self.pending] + pl.draw)
            rng.shuffle(pool)
            k = len(pl.hand) - len(keep)
            pl.hand[:], pl.draw[:] = keep + pool[:k], pool[k:]
        for name in sorted(s.decks):
            deck = s.decks[name]
            deck.sort()
            rng.shuffle(deck)
        self.rng.seed(rng.getrandbits(64))

    def _redeal_unseen(self, pl, rng: random.Random) -> None:
        """Each card seat `pl` gained unseen (and still holds hidden), in card order, becomes
        one of its deck's cards or itself, uniformly (drawn from the sorted list of both);
        its overrides and Permanent VP go with it."""
        s, unseen = self.s, self.unseen
        for iid in sorted(i for i in pl.hand + pl.draw
                          if unseen.get(i, (-1,))[0] == pl.seat and i not in self.pending):
            deck = s.decks.get(unseen[iid][1])
            if not deck:
                continue
            cands = sorted(deck + [iid])
            c = cands[int(rng.random() * len(cands))]
            if c == iid:
                continue  # it is itself
            deck[deck.index(c)] = iid
            zone = pl.hand if iid in pl.hand else pl.draw
            zone[zone.index(iid)] = c
            old, new = s.cards[iid], s.cards[c]
            old.over, new.over = new.over, old.over
            pl.pvp += new.defn.vp - old.defn.vp
            unseen[c] = unseen.pop(iid)
