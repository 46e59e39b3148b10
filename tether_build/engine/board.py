"""Hex geometry and the pure procedural board generator (design doc §4, §5, §7).

Axial coordinates (q, r); the third cube coordinate is s = -q - r. The board is a hexagon
of radius R around the Center (0, 0). `generate_board(players, seed, game)` is a pure
function of its arguments: the engine and the printed board map call it with the same
seed and get the same board.

Where §7.3 is vague ("prefer spread"), the generator uses *maximin spread*: each tile is
placed on a candidate that maximises the minimum hex distance to the special tiles of the
same kind already placed (ties broken by balance between Capitals, then at random with the
seeded RNG). Forges also keep apart from each other's nearest Capital (no two Forges share
the same nearest Capital while an alternative with the same spread exists). Remaining Mines
balance access: among the best-spread candidates the generator prefers the one that keeps
the spread of "distance from each Capital to its nearest Mine" smallest. If there are fewer
remaining-Mine candidates at Center distance {2} than Mines to place, the candidate ring is
widened to distance 3 (then 4) and `Board.widened` records it.

The §7.3 sanity check rerolls a placement whose Capital-to-nearest-Mine distances spread by
more than `fairness_max_spread`; with `forge_fairness_max_spread` set, the same check covers
the Forges (Capital to nearest Forge), so no Capital sits beside both Forges while another
is far from either. Without it (older content), Forges are not checked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from itertools import accumulate

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MAX_REROLLS = 1000


def distance(a: Hex, b: Hex) -> int:
    """Standard hex distance between two axial coordinates (§2.1)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbors(h: Hex, radius: int | None = None) -> list[Hex]:
    """The six adjacent hexes (only those on a board of `radius`, if given)."""
    out = [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]
    if radius is None:
        return out
    return [n for n in out if distance(n, (0, 0)) <= radius]


def ring(center: Hex, k: int) -> list[Hex]:
    """Hexes at exactly distance k from `center`, walked in a fixed order."""
    if k == 0:
        return [center]
    q, r = center[0] + DIRECTIONS[4][0] * k, center[1] + DIRECTIONS[4][1] * k
    out = []
    for d in range(6):
        for _ in range(k):
            out.append((q, r))
            q, r = q + DIRECTIONS[d][0], r + DIRECTIONS[d][1]
    return out


@cache
def all_hexes(radius: int) -> tuple[Hex, ...]:
    """Every hex of a hexagonal board of this radius, sorted by (r, q)."""
    return tuple(sorted(((q, r) for q in range(-radius, radius + 1)
                         for r in range(-radius, radius + 1)
                         if abs(q + r) <= radius), key=lambda h: (h[1], h[0])))


def capital_slots(players: int, game: dict) -> dict[str, Hex]:
    """Capital slot name -> hex for this player count (§5), from content/game.yaml."""
    board = game["board"]
    radius = _radius(players, game)
    fixed = _by_players(board.get("fixed_slots", {}), players)
    if fixed:
        return {name: (int(c[0]), int(c[1])) for name, c in fixed.items()}
    names = _by_players(board["capital_slots"], players)
    if not names:
        raise ValueError(f"no capital slots for {players} players in game.yaml")
    corners = board["corner_slots"]
    return {n: (int(corners[n][0]) * radius, int(corners[n][1]) * radius) for n in names}


def _by_players(table: dict, players: int):
    if players in table:
        return table[players]
    return table.get(str(players))


def _radius(players: int, game: dict) -> int:
    radius = _by_players(game["board"]["radius_by_players"], players)
    if radius is None:
        raise ValueError(f"no board radius for {players} players in game.yaml")
    return int(radius)


@dataclass
class Board:
    """A generated board: the placement (Capital slots, Forges, Mines with their values),
    every hex with its tile (`hexes`, built on first use), and how the generator got there."""

    players: int
    radius: int
    seed: int
    slots: dict[str, Hex]
    forges: list[Hex]
    mines: dict[Hex, int]
    rerolls: int = 0
    widened: list[int] = field(default_factory=list)

    @cached_property
    def hexes(self) -> list[dict]:
        """Every hex as {q, r, tile[, slot | mine_value]}, sorted by (r, q)."""
        return _layout(self.radius, self.slots, self.forges, self.mines)

    def tile_at(self) -> dict[Hex, dict]:
        """Map (q, r) -> hex dict."""
        return {(h["q"], h["r"]): h for h in self.hexes}

    def of_kind(self, kind: str) -> list[Hex]:
        """Coordinates of every hex with this tile kind, in board order."""
        return [(h["q"], h["r"]) for h in self.hexes if h["tile"] == kind]

    def capitals(self) -> dict[str, Hex]:
        """Capital slot name -> coordinate."""
        return {h["slot"]: (h["q"], h["r"]) for h in self.hexes if h["tile"] == "capital"}

    def to_json(self) -> dict:
        """The layout as plain JSON data (issue 6 format), hexes sorted by (r, q)."""
        return {"players": self.players, "radius": self.radius, "seed": self.seed,
                "hexes": [dict(h) for h in self.hexes]}


def generate_board(players: int, seed: int, game: dict) -> Board:
    """Generate the board for `players` from `seed` (§5, §7), rerolling unfair layouts."""
    radius = _radius(players, game)
    caps = capital_slots(players, game)
    for hx in caps.values():
        if distance(hx, (0, 0)) > radius:
            raise ValueError(f"capital slot {hx} is off a radius-{radius} board")
    rng = random.Random(seed)
    board_cfg = game["board"]
    counts = _by_players(board_cfg["tile_counts"], players)
    spread_max = int(board_cfg["placement"]["fairness_max_spread"])
    forge_max = board_cfg["placement"].get("forge_fairness_max_spread")
    for rerolls in range(MAX_REROLLS):
        placed = _place(radius, caps, counts, board_cfg, rng)
        if placed is None:
            continue
        forges, mines, widened = placed
        if access_spread(caps.values(), mines) <= spread_max and (
                forge_max is None or access_spread(caps.values(), forges) <= int(forge_max)):
            values = assign_mine_values(len(mines), board_cfg["mine_values"], rng)
            return Board(players, radius, seed, dict(caps), forges, dict(zip(mines, values)),
                         rerolls, widened)
    raise ValueError(f"no fair board after {MAX_REROLLS} rerolls ({players} players)")


def access_spread(capitals, mines) -> int:
    """max - min over Capitals of the distance to the nearest Mine (§7.3 sanity check), or
    to the nearest of any other tiles given (the Forges)."""
    nearest = [min(distance(c, m) for m in mines) for c in capitals]
    return max(nearest) - min(nearest)


def assign_mine_values(n: int, weights: dict, rng: random.Random) -> list[int]:
    """Draw n Mine Values with the §7.1 probabilities (percent weights)."""
    values = sorted(int(v) for v in weights)
    cum = list(accumulate(int(weights[v] if v in weights else weights[str(v)]) for v in values))
    return rng.choices(values, cum_weights=cum, k=n)  # one draw per Mine, as n choices()


# ---- placement on hex indices ----------------------------------------------------------
# The generator works on the indices of all_hexes(radius) (the same order), with a distance
# matrix, and hands coordinates back; every random draw is the one the rules describe.

@cache
def _grid(radius: int) -> tuple[tuple[Hex, ...], dict[Hex, int], list[list[int]]]:
    """(hexes, index of each hex, distance matrix) of a board radius."""
    hexes = all_hexes(radius)
    return hexes, {h: i for i, h in enumerate(hexes)}, [
        [distance(a, b) for b in hexes] for a in hexes]


@lru_cache(maxsize=256)
def _far_from(radius: int, capitals: tuple[int, ...], min_cap: int) -> tuple[int, ...]:
    """§7.2: not a Capital, not the Center, >= min_cap from every Capital (indices)."""
    hexes, index, dist = _grid(radius)
    center = index[(0, 0)]
    return tuple(h for h in range(len(hexes)) if h != center
                 and all(dist[h][c] >= min_cap for c in capitals))


@lru_cache(maxsize=256)
def _ring(radius: int, capitals: tuple[int, ...], min_cap: int,
          dists: tuple[int, ...]) -> tuple[int, ...]:
    """The eligible hexes (before any tile is placed) at these Center distances."""
    _, index, dist = _grid(radius)
    row = dist[index[(0, 0)]]
    return tuple(h for h in _far_from(radius, capitals, min_cap) if row[h] in dists)


@lru_cache(maxsize=256)
def _home_ring(radius: int, capitals: tuple[int, ...], min_cap: int, cap: int,
               home_d: int) -> tuple[int, ...]:
    """Eligible hexes at home_d from `cap` and >= min_cap from every other Capital."""
    dist = _grid(radius)[2]
    return tuple(h for h in _far_from(radius, capitals, min_cap) if dist[h][cap] == home_d
                 and all(dist[h][o] >= min_cap for o in capitals if o != cap))


def _best(cands: list[int], key, rng: random.Random) -> int:
    """Pick uniformly at random among the candidates with the highest key."""
    scored = [(key(c), c) for c in cands]
    top = max(s for s, _ in scored)
    return rng.choice([c for s, c in scored if s == top])


def _place(radius, caps, counts, cfg, rng):
    """One placement attempt: (forges, mines, widened) as coordinates, or None."""
    hexes, index, dist = _grid(radius)
    place = cfg["placement"]
    min_cap = int(place["min_capital_distance"])
    capitals = [index[c] for c in caps.values()]  # slot order
    key = tuple(sorted(capitals))
    forges = _place_forges(radius, capitals, key, int(counts["forge"]), place, rng)
    if forges is None:
        return None
    mines = _place_home_mines(radius, {n: index[c] for n, c in caps.items()}, key,
                              set(capitals) | set(forges), place, rng)
    if mines is None:
        return None
    taken = set(capitals) | set(forges) | set(mines)
    widened: list[int] = []
    dists = [int(d) for d in place["other_mine_center_distance"]]
    for _ in range(int(counts["mine"]) - len(mines)):
        cands = []
        while True:
            cands = [h for h in _ring(radius, key, min_cap, tuple(dists)) if h not in taken]
            if cands or max(dists) >= radius:
                break
            dists.append(max(dists) + 1)
            widened.append(max(dists))
        if not cands:
            return None
        # each Capital's distance to its nearest Mine so far; a candidate can only lower it
        near = [(min(dist[c][m] for m in mines), dist[c]) for c in capitals]

        def score(h, mines=mines, near=near):
            reach = [min(row[h], n) for n, row in near]
            return (_spread(dist[h], mines), min(reach) - max(reach))
        pick = _best(cands, score, rng)
        mines.append(pick)
        taken.add(pick)
    return [hexes[f] for f in forges], [hexes[m] for m in mines], widened


def _spread(row: list[int], others) -> int:
    """The distance from a hex (its distance row) to the nearest of `others`."""
    return min(map(row.__getitem__, others), default=99)


def _place_forges(radius, capitals, key, n, place, rng):
    dist = _grid(radius)[2]
    min_cap = int(place["min_capital_distance"])
    ring_d = tuple(sorted({int(d) for d in place["forge_center_distance"]}))
    cands = [h for h in _ring(radius, key, min_cap, ring_d) if h not in capitals]
    forges: list[int] = []
    nearest_cap = _nearest_capitals(radius, tuple(capitals), tuple(cands))
    spread = dict.fromkeys(cands, 99)  # distance to the nearest Forge placed so far
    for _ in range(n):
        free = [c for c in cands if c not in forges]
        if not free:
            return None
        used = {nearest_cap[f] for f in forges}

        def score(h, used=used):
            return (spread[h], nearest_cap[h] not in used)
        pick = _best(free, score, rng)
        forges.append(pick)
        row = dist[pick]
        for h, d in spread.items():
            if row[h] < d:
                spread[h] = row[h]
    return forges


@lru_cache(maxsize=64)
def _nearest_capitals(radius: int, capitals: tuple[int, ...],
                      cands: tuple[int, ...]) -> dict[int, int]:
    """Index of each candidate's nearest Capital (ties: the first listed); do not mutate."""
    dist = _grid(radius)[2]
    return {h: min(range(len(capitals)), key=lambda i, h=h: (dist[h][capitals[i]], i))
            for h in cands}


def _place_home_mines(radius, caps, key, taken, place, rng):
    """One home Mine per Capital, Capitals in random order (§7.2); `caps` holds indices."""
    dist = _grid(radius)[2]
    min_cap = int(place["min_capital_distance"])
    home_d = int(place["home_mine_capital_distance"])
    names = sorted(caps)
    rng.shuffle(names)  # "for each Capital (random order)"
    mines: list[int] = []
    specials = [h for h in taken if h not in caps.values()]  # the Forges
    for name in names:
        cands = [h for h in _home_ring(radius, key, min_cap, caps[name], home_d)
                 if h not in taken and h not in mines]
        if not cands:
            return None
        special = mines + specials
        mines.append(_best(cands, lambda h, special=special: _spread(dist[h], special), rng))
    return mines


def _layout(radius, caps, forges, mine_values) -> list[dict]:
    slot_at = {hx: name for name, hx in caps.items()}
    forge_set = set(forges)
    out = []
    for hx in all_hexes(radius):
        d = {"q": hx[0], "r": hx[1]}
        if hx == (0, 0):
            d["tile"] = "center"
        elif hx in slot_at:
            d["tile"], d["slot"] = "capital", slot_at[hx]
        elif hx in forge_set:
            d["tile"] = "forge"
        elif hx in mine_values:
            d["tile"], d["mine_value"] = "mine", mine_values[hx]
        else:
            d["tile"] = "plain"
        out.append(d)
    return out
