"""Setup (§8): factions, capital draft, board, starting units and gold, decks and opening
hand, simultaneous starting Bridges, the free starting card."""

from __future__ import annotations

import random

from . import rand
from .board import capital_slots, generate_board
from .game import Game
from .options import Options
from .state import CardInst, Player, State
from .topo import topology


def new_game(rules, players: int, seed: int, agents, factions: list[str] | None = None,
             options: Options | None = None, log: list | None = None, check=None) -> Game:
    """Create a game and run setup. The board is generate_board(players, seed) (§7)."""
    game_cfg = rules.game
    lo, hi = game_cfg["players"]["min"], game_cfg["players"]["max"]
    if not lo <= players <= hi:
        raise ValueError(f"{players} players: the game takes {lo}-{hi}")
    factions = list(factions or [])
    factions += [rules.default_faction] * (players - len(factions))
    for f in factions:
        if f not in rules.factions:
            raise ValueError(f"unknown faction {f!r} (known: {', '.join(sorted(rules.factions))})")
    rng = random.Random(seed)
    board = generate_board(players, seed, game_cfg)
    topo = topology(board.radius)
    state = State(topo, [Player(i, f) for i, f in enumerate(factions[:players])])
    g = Game(rules, state, options or Options(), rng, agents, log, check)
    g.origin = (players, seed, list(factions[:players]), g.opt)
    for a in agents:  # every agent gets its own stream drawn from the one game RNG
        agent_seed = rng.getrandbits(64)
        if hasattr(a, "seed"):
            a.seed(agent_seed)
    if log is not None:
        g.log("setup", players=players, seed=seed, factions=factions[:players],
              options=g.opt.to_dict(), rerolls=board.rerolls,
              whole_plays=[bool(getattr(a, "whole_plays", False)) for a in agents])
    _capital_draft(g, capital_slots(players, game_cfg))  # §8: before the board's tiles
    _board(g, board)
    _decks(g)
    for p in range(players):
        for ab in rules.factions[state.players[p].faction].passives:
            g.hooks.install_ability(ab, p)
    _starting_bridges(g)
    _free_card(g)
    state.round, state.lead = 1, 0
    state.age = rules.age_of_round.get(1, "I")
    g.checkpoint("setup")
    return g


def _board(g: Game, board) -> None:
    """Tiles and Mine Values from the board's placement (§7)."""
    s = g.s
    index = s.topo.index
    s.tile[s.topo.center] = "center"
    for hx in board.slots.values():
        s.tile[index[hx]] = "capital"
    for hx in board.forges:
        s.tile[index[hx]] = "forge"
    for hx, value in board.mines.items():
        s.tile[index[hx]] = "mine"
        s.mine_value[index[hx]] = value
    s._kinds.clear()  # a look at the tiles during the Capital draft saw none of these


def _capital_draft(g: Game, slots: dict) -> None:
    """§8: in reverse seating order each player chooses a Capital slot."""
    s = g.s
    free = sorted(slots)
    start = g.rules.game["starting"]
    for p in reversed(range(len(s.players))):
        name = free[0] if len(free) == 1 else g.decide(p, "capital", list(free))
        free.remove(name)
        h = s.topo.index[slots[name]]
        pl = s.players[p]
        pl.capital, pl.slot = h, name
        s.capital_of[h] = p
        s.add_forces(p, h, start["forces"])
        pl.gold = g.rules.game["resources"]["start_gold"]
        g.log("capital", p=p, slot=name)


def _new_insts(g: Game, defns: list) -> list[int]:
    """Create one card instance per definition (in order); returns their iids."""
    cards = g.s.cards
    start = len(cards)
    iids = range(start, start + len(defns))
    cards.extend(map(CardInst, iids, defns))
    return list(iids)


def _decks(g: Game) -> None:
    """Supply decks (Market/Power per Age) and each player's starting deck and hand."""
    s, rules = g.s, g.rules
    for deck_id, info in sorted(rules.decks.items()):
        if info["kind"] in ("market", "power"):
            pile = _new_insts(g, rules.deck_copies(deck_id))
            rand.shuffle(g.rng, pile)
            s.decks[deck_id] = pile
    starter = rules.deck_copies("starter")
    hand_size = rules.game["hand"]["size"]
    for p, pl in enumerate(s.players):
        fac = rules.factions[pl.faction]
        cards = _new_insts(g, [*starter, rules.by_id[fac.spell]])
        (champ,) = _new_insts(g, [rules.by_id[fac.champion]])
        rand.shuffle(g.rng, cards)
        pl.draw = cards
        pl.hand.append(champ)
        g.draw(p, hand_size - 1)


def bridge_candidates(g: Game, p: int) -> list[int]:
    """§8: edges with at least one endpoint within reach of seat p's Capital."""
    topo = g.s.topo
    near = topo.ball(g.s.players[p].capital, g.rules.game["starting"]["bridge_reach"])
    return sorted({e for h in near for e in topo.edges_of[h]})


def _starting_bridges(g: Game) -> None:
    """§8: each player places 2 Bridges simultaneously; duplicates are placed once."""
    s = g.s
    n = g.rules.game["starting"]["bridges"]
    chosen: list[int] = []
    for p in range(len(s.players)):
        options = bridge_candidates(g, p)
        for _ in range(n):
            e = g.decide(p, "start_bridge", options)
            options = [x for x in options if x != e]
            chosen.append(e)
    for e in chosen:
        s.bridges.add(e)
    g.log("start_bridges", n=len(set(chosen)))


def _free_card(g: Game) -> None:
    """§8: reveal 3 Age I Market cards, gain 1, the rest to the bottom in random order."""
    s = g.s
    first = g.rules.ages[0]["numeral"]
    deck = g.deck_for("market", first)
    reveal = g.rules.game["starting"]["free_card_reveal"]
    for p in range(len(s.players)):
        g.draft(p, deck, reveal, "free_card")
