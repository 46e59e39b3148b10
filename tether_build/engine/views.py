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
  is reseeded; then the hidden cards' instance numbers are given out again in a canonical
  order (`_renumber_hidden`: which copy of a card is where does not show either).
"""

from __future__ import annotations

import copy
import random

from .index import Index
from .topo import edge_ends

OVER_KEYS = ("burn", "gold", "initiative", "mana")  # a card's overrides, in the deals' order


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
        """In place, deal again what seat p cannot see, from what p knows: the cards other
        seats gained unseen by p (`Game.unseen`: a random or chosen gain from a supply deck)
        are dealt again from their deck's unseen cards and themselves, and each seat's
        Permanent VP changes by the difference (§15.4: the rest of it, the Victory cards it
        gained in view and the VP its cards' effects gave, p could count); then other seats'
        hands and draw piles are dealt again from their pool (a card chosen this Action
        Step stays in hand: it is about to be revealed), p's draw order and every supply
        deck's order (by deck name) are shuffled and the dice reseeded. Each hidden list is
        sorted by what p can know of a card (`_deal_key`: its card id, overrides and
        counter, the instance last) before it is shuffled, so the dealt world depends
        neither on the hidden order it came from nor on which copy of a card is where; the
        hidden cards are then renumbered (`_renumber_hidden`). The native search deals draw
        for draw the same (search.cpp `determinize`; tests/engine/test_search_reference.py)."""
        s = self.s
        self.prune_unseen()
        key = self._deal_key
        self._redeal_unseen(p, rng)
        for pl in s.players:
            if pl.seat == p:
                pl.draw.sort(key=key)
                rng.shuffle(pl.draw)
                continue
            keep = [i for i in pl.hand if i in self.pending]
            pool = sorted([i for i in pl.hand if i not in self.pending] + pl.draw, key=key)
            rng.shuffle(pool)
            k = len(pl.hand) - len(keep)
            pl.hand[:], pl.draw[:] = keep + pool[:k], pool[k:]
        for name in sorted(s.decks):
            deck = s.decks[name]
            deck.sort(key=key)
            rng.shuffle(deck)
        self.rng.seed(rng.getrandbits(64))
        self._renumber_hidden(p)

    def _renumber_hidden(self, p: int) -> None:
        """After a deal, the instance numbers of the cards p cannot tell apart (other seats'
        hands but a card chosen this step, every draw pile, p's own too, and every supply
        deck: where a copy of a card is, not which copy) are given out again in a canonical
        order: the numbers, sorted, go to the places in turn, seat by seat (another seat's
        hand, then its draw pile; p's draw pile), then deck by deck (by name), each card
        keeping its data. What sits in each place is dealt from what p knows, so nothing in
        a simulation (an option's id names its card's instance; a seat's playable cards are
        listed by instance) depends on which copy truly is where. Cards p has seen (its
        hand, every face-up pile, the board, revealed cards) keep their numbers. The native
        search renumbers alike (search.cpp `renumber_hidden`)."""
        s, chosen = self.s, self.pending
        zones = []
        for pl in s.players:
            if pl.seat != p:
                zones.append(pl.hand)
            zones.append(pl.draw)
        zones += [s.decks[name] for name in sorted(s.decks)]
        at = [(z, k) for z in zones for k, i in enumerate(z) if i not in chosen]
        old = [z[k] for z, k in at]
        new = sorted(old)
        if old == new:
            return
        cards = s.cards
        moved = [cards[i] for i in old]
        for (z, k), n, c in zip(at, new, moved):
            z[k] = n
            cards[n] = c
            c.iid = n
        to = dict(zip(old, new))
        gains = sorted((to.get(i, i), v) for i, v in self.unseen.items())
        self.unseen.clear()
        self.unseen.update(gains)

    def _known_key(self, i: int) -> tuple:
        """What any seat can know of card instance i besides its card id: its overrides
        (`OVER_KEYS`) and its counter."""
        c = self.s.cards[i]
        o = c.over
        return (*(x for k in OVER_KEYS for x in (k in o, int(o.get(k, 0)))), c.counter)

    def _deal_key(self, i: int) -> tuple:
        """The deals' order of hidden cards (search.cpp `deal_less`): card id, what else
        can be known of the card, then the instance (a tie-break among copies alike)."""
        return (self.s.cards[i].defn.id, self._known_key(i), i)

    def _redeal_unseen(self, p: int, rng: random.Random) -> None:
        """The cards other seats gained unseen by p (and still hold hidden) dealt again,
        deck by deck (by name), draw for draw as search.cpp `redeal_unseen`: every such card
        of a deck goes back into it (the deck and they, sorted), then each gain in turn (by
        its seat, overrides and counter, then the deal's order) takes a card drawn from what
        is left. Which card a seat gained is unseen, so the pool of all of them is what p
        knows, whoever holds them. A new card takes the overrides of the gain it replaces;
        gains that went back into the deck take those of the deck's cards drawn in their
        place; each seat's Permanent VP changes by the difference."""
        s, unseen = self.s, self.unseen
        gains: dict = {}
        for iid, (q, name) in unseen.items():
            if q != p and iid not in self.pending and name in s.decks:
                gains.setdefault(name, []).append(iid)
        key = self._deal_key
        for name in sorted(gains):
            deck = s.decks[name]
            G = sorted(gains[name], key=lambda i: (unseen[i][0], self._known_key(i), key(i)))
            rest = sorted(deck + G, key=key)
            got = [rest.pop(int(rng.random() * len(rest))) for _ in G]
            where, over = [], []
            for g in G:
                pl = s.players[unseen[g][0]]
                zone = pl.hand if g in pl.hand else pl.draw
                where.append((zone, zone.index(g)))
                over.append(s.cards[g].over)
            back = sorted((g for g in G if g not in got), key=key)
            taken = [c for c in got if c not in G]
            for g, c in zip(back, taken):
                s.cards[g].over = s.cards[c].over
            owner = [unseen[g][0] for g in G]
            for (zone, k), g, c, q, o in zip(where, G, got, owner, over):
                zone[k] = c
                s.cards[c].over = o
                s.players[q].pvp += s.cards[c].defn.vp - s.cards[g].defn.vp
                del unseen[g]
            for c, q in zip(got, owner):
                unseen[c] = (q, name)
            deck[:] = rest
