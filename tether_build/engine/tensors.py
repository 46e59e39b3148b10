"""Observation and information-state tensors: what a seat may know (`Game.observation`) as a
fixed-size float vector per player count (OpenSpiel's `observation_tensor`).

Seats are numbered from the observer: block 0 is the observer, block k the seat k places
after it. The vector, in order (H hexes of the board for this player count, P players,
C card definitions, T tile kinds, K decision kinds):

- board, per hex: tile kind one-hot (T), Mine value / 10, the Capital's owner one-hot (P),
  Forces per seat / 10 (P), Champions per seat (P), their HP per seat / 10 (P), a Bridge
  to each of its up to six neighbours (6, in the board's neighbour order);
- the observer's own cards by definition counts: hand (C), draw pile contents (C), and the
  public ones: its discard (C) and the revealed Market row (C);
- per seat (P blocks of 12): Gold / 10, Mana / 10, Control VP / 10, hand size / 10, draw
  pile size / 10, discard, burn, scrapped and played sizes / 10, Champions on the board,
  holds the Lead (1/0), Permanent VP / 10 (the observer's own only: 0 for the others, §15.4);
- the round / the round cap, the Age (its number / 3), the supply decks' sizes / 100;
- the decision: the observer is to act (1/0), its kind one-hot (K).

The information state tensor is the observation tensor followed by the observer's own
answers so far counted by decision kind / 10 (K) and their number / 100: a summary of its
past choices, not a perfect-recall encoding of them.

Nothing hidden from the observer is read: the tensor is built from the seat's observation
alone (`tensor_of`: the Python state's `Game.observation`, the native state's seat view),
which leaves out other hands, draw piles and Permanent VP (tested by dealing them again).
One function for both engines, so their tensors are the same for the same game.
"""

from __future__ import annotations

from functools import lru_cache

from .board import generate_board
from .decisions import DECISIONS
from .topo import topology

SEAT_FIGURES = 12
AGES = {"I": 1, "II": 2, "III": 3}


def tile_kinds(rules) -> list[str]:
    """The tile kinds one-hot encoded (others, e.g. a new kind, read as plain)."""
    return sorted(set(rules.tiles) | {"plain", "center", "mine", "forge"})


def kinds() -> list[str]:
    """The decision kinds one-hot encoded."""
    return sorted(DECISIONS)


@lru_cache(maxsize=32)
def _hexes(game_key, players: int) -> int:
    return topology(generate_board(players, 0, _GAMES[game_key]).radius).n


_GAMES: dict[int, dict] = {}


def hexes(rules, players: int) -> int:
    """The number of hexes of the board for this player count."""
    _GAMES[id(rules.game)] = rules.game
    return _hexes(id(rules.game), players)


def observation_size(rules, players: int) -> int:
    """The length of the observation tensor for this player count."""
    h, c, t, k = hexes(rules, players), len(rules.cards), len(tile_kinds(rules)), len(kinds())
    return h * (t + 1 + 4 * players + 6) + 4 * c + SEAT_FIGURES * players + 3 + 1 + k


def information_state_size(rules, players: int) -> int:
    """The length of the information state tensor for this player count."""
    return observation_size(rules, players) + len(kinds()) + 1


def observation_tensor(g, p: int, asked: tuple | None) -> list[float]:
    """Seat p's observation tensor of game g (`asked`: the waiting decision's (seat, kind,
    ...) or None at the end): built from p's observation alone (`tensor_of`)."""
    return tensor_of(g.rules, _observed(g, p, asked))


def information_state_tensor(g, p: int, asked: tuple | None, mine: list) -> list[float]:
    """The observation tensor and seat p's own answers (`mine`: (kind, option) pairs)
    counted by kind."""
    return tensor_of(g.rules, _observed(g, p, asked), mine)


def _observed(g, p: int, asked: tuple | None) -> dict:
    obs = g.observation(p)
    if asked is not None and asked[0] == p:
        obs["decision"] = {"seat": p, "kind": asked[1]}
    return obs


@lru_cache(maxsize=32)
def _board(game_key, players: int):
    """The board's topology for this player count, with each hex's index by its name."""
    topo = topology(generate_board(players, 0, _GAMES[game_key]).radius)
    names = [topo.name(h) for h in range(topo.n)]
    slots: dict[str, list] = {}   # a Bridge's name (either way) -> its (hex, neighbour slot)s
    for h in range(topo.n):
        for j, b in enumerate(topo.nbrs[h][:6]):
            for key in (f"{names[h]}-{names[b]}", f"{names[b]}-{names[h]}"):
                slots.setdefault(key, []).append((h, j))
    return names, {x: h for h, x in enumerate(names)}, slots


def tensor_of(rules, obs: dict, mine: list | None = None) -> list[float]:
    """The observation tensor (with `mine`, seat p's own answers as (kind, id) pairs: the
    information state tensor) built from seat p's observation alone (`Game.observation`
    with its "decision" when p is to act): what a native state gives (engine/native)."""
    n = len(obs["players"])
    _GAMES[id(rules.game)] = rules.game
    names, at, slots = _board(id(rules.game), n)
    p = obs["seat"]
    rel = [(q - p) % n for q in range(n)]
    tiles = {t: i for i, t in enumerate(tile_kinds(rules))}
    width = len(tiles) + 1 + 4 * n + 6
    base = len(tiles)
    rows = [[0.0] * width for _ in names]
    plain = tiles.get("plain")
    for h, x in enumerate(names):
        t = tiles.get(obs["tiles"][x]) if x in obs["tiles"] else plain
        if t is not None:
            rows[h][t] = 1.0
    for where, v in obs["mines"].items():
        rows[at[where]][base] = v / 10.0
    for pl in obs["players"]:
        if pl["capital"] is not None:
            rows[at[pl["capital"]]][base + 1 + rel[pl["seat"]]] = 1.0
    for where, forces in obs["forces"].items():
        for q, f in forces:
            rows[at[where]][base + 1 + n + rel[q]] = f / 10.0
    champs = [0] * n
    for owner, _cid, where, hp, _mx in obs["champions"]:
        rows[at[where]][base + 1 + 2 * n + rel[owner]] += 1.0
        rows[at[where]][base + 1 + 3 * n + rel[owner]] += hp / 10.0
        champs[owner] += 1
    for b in obs["bridges"]:   # "a-b" (names hold "-" too: matched whole)
        for h, j in slots.get(b, ()):
            rows[h][base + 1 + 4 * n + j] = 1.0
    out: list[float] = [x for row in rows for x in row]
    index = {c.id: i for i, c in enumerate(rules.cards)}
    me = obs["players"][p]
    for ids in (me["hand"], me["draw_contents"], me["discard"], obs["revealed"]):
        counts = [0.0] * len(index)
        for cid in ids:
            counts[index[cid]] += 1.0
        out += counts
    seats = [[0.0] * SEAT_FIGURES for _ in range(n)]
    for pl in obs["players"]:
        q = pl["seat"]
        seats[rel[q]] = [
            pl["gold"] / 10.0, pl["mana"] / 10.0, pl["control_vp"] / 10.0,
            pl["hand_size"] / 10.0, pl["draw_size"] / 10.0, len(pl["discard"]) / 10.0,
            len(pl["burn"]) / 10.0, len(pl["scrapped"]) / 10.0, len(pl["played"]) / 10.0,
            float(champs[q]), 1.0 if obs["lead"] == q else 0.0,
            pl["permanent_vp"] / 10.0 if q == p else 0.0]
    for row in seats:
        out += row
    cap = rules.game["victory"]["round_cap"]
    out += [obs["round"] / cap, AGES.get(obs["age"], 0) / 3.0,
            sum(obs["deck_sizes"].values()) / 100.0]
    decision = [0.0] * (1 + len(kinds()))
    asked = obs.get("decision")
    if asked is not None and asked["seat"] == p:
        decision[0] = 1.0
        decision[1 + kinds().index(asked["kind"])] = 1.0
    out += decision
    if mine is None:
        return out
    order = {k: i for i, k in enumerate(kinds())}
    counts = [0.0] * len(order)
    for kind, _o in mine:
        counts[order[kind]] += 0.1
    return out + counts + [len(mine) / 100.0]
