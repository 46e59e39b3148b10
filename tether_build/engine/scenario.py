"""Constructed game states for tests, `tether odds` and per-card checks.

`scenario(rules, players=2, seed=0)` builds a Game with a generated board, Capitals and
empty decks but no setup draws, so a test can place exactly the units, cards and gold it
needs and then call one rule (a battle, a card, a phase).
"""

from __future__ import annotations

import random

from .agent import RandomAgent
from .board import capital_slots, generate_board
from .game import Game
from .options import Options
from .state import CardInst, Player, State
from .topo import topology


def scenario(rules, players: int = 2, seed: int = 0, factions=None, agents=None,
             options: Options | None = None, passives: bool = True, forces: int = 0,
             log: bool = True) -> Game:
    """A bare game: board, Capitals (slot order), supply decks; no units unless `forces`."""
    board = rules.boards.get((players, seed))
    if board is None:  # the same for every scenario of this content (odds run many)
        board = rules.boards[players, seed] = generate_board(players, seed, rules.game)
    topo = topology(board.radius)
    factions = list(factions or [rules.default_faction] * players)
    state = State(topo, [Player(i, f) for i, f in enumerate(factions)])
    agents = agents or [RandomAgent() for _ in range(players)]
    rng = random.Random(seed)
    for a in agents:
        a.seed(rng.getrandbits(64))
    g = Game(rules, state, options or Options(), rng, agents, [] if log else None)
    for h in board.hexes:
        i = topo.index[(h["q"], h["r"])]
        state.tile[i] = h["tile"]
        state.mine_value[i] = h.get("mine_value", 0)
    for p, (name, coord) in enumerate(sorted(capital_slots(players, rules.game).items())):
        h = topo.index[coord]
        state.players[p].capital, state.players[p].slot = h, name
        state.capital_of[h] = p
        state.add_forces(p, h, forces)
    for deck_id, info in sorted(rules.decks.items()):
        if info["kind"] in ("market", "power"):
            defns = rules.deck_copies(deck_id)  # each card `copies` times, in card order
            start = len(state.cards)
            state.cards.extend(map(CardInst, range(start, start + len(defns)), defns))
            state.decks[deck_id] = list(range(start, start + len(defns)))
    if passives:
        for p, pl in enumerate(state.players):
            if pl.faction in rules.factions:
                for ab in rules.factions[pl.faction].passives:
                    g.hooks.install_ability(ab, p)
    state.round, state.age = 1, rules.age_of_round.get(1, "I")
    return g


def new_card(g: Game, card_id: str) -> int:
    """Create one instance of a card (it must then be put into a zone)."""
    iid = len(g.s.cards)
    g.s.cards.append(CardInst(iid, g.rules.by_id[card_id]))
    return iid


def give(g: Game, p: int, card_id: str, zone: str = "hand") -> int:
    """Create a card and put it into seat p's zone; returns its iid."""
    iid = new_card(g, card_id)
    getattr(g.s.players[p], zone).append(iid)
    return iid


def put_champion(g: Game, p: int, card_id: str, h: int, hp: int | None = None):
    """Place a Champion of this card on hex h for seat p (abilities installed)."""
    iid = new_card(g, card_id)
    ch = g.place_champion(p, iid, h)
    if ch is None:
        raise ValueError(f"cannot place {card_id} on {h}")
    if hp is not None:
        ch.hp = hp
    g.dirty.clear()
    return ch


def hex_of_kind(g: Game, kind: str, avoid=()) -> int:
    """The first hex of a tile kind (not in `avoid`)."""
    for h in range(g.s.topo.n):
        if g.s.tile[h] == kind and h not in avoid:
            return h
    raise ValueError(f"no {kind} hex")
