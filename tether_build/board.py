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
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache, lru_cache

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
    """A generated board: every hex with its tile, plus how the generator got there."""

    players: int
    radius: int
    seed: int
    hexes: list[dict]
    rerolls: int = 0
    widened: list[int] = field(default_factory=list)

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
    _dist_table(radius)
    board_cfg = game["board"]
    counts = _by_players(board_cfg["tile_counts"], players)
    spread_max = int(board_cfg["placement"]["fairness_max_spread"])
    for rerolls in range(MAX_REROLLS):
        placed = _place(radius, caps, counts, board_cfg, rng)
        if placed is None:
            continue
        forges, mines, widened = placed
        if access_spread(caps.values(), mines) <= spread_max:
            values = assign_mine_values(len(mines), board_cfg["mine_values"], rng)
            hexes = _layout(radius, caps, forges, dict(zip(mines, values)))
            return Board(players, radius, seed, hexes, rerolls, widened)
    raise ValueError(f"no fair board after {MAX_REROLLS} rerolls ({players} players)")


def access_spread(capitals, mines) -> int:
    """max - min over Capitals of the distance to the nearest Mine (§7.3 sanity check)."""
    d = _DIST
    nearest = [min(d[c][m] if c in d and m in d[c] else distance(c, m) for m in mines)
               for c in capitals]
    return max(nearest) - min(nearest)


_DIST: dict[Hex, dict[Hex, int]] = {}


def _dist_table(radius: int) -> None:
    """Fill the shared distance table for every pair of hexes of a board (once)."""
    hexes = all_hexes(radius)
    for a in hexes:
        if a not in _DIST or len(_DIST[a]) < len(hexes):
            _DIST[a] = {b: distance(a, b) for b in hexes}


def assign_mine_values(n: int, weights: dict, rng: random.Random) -> list[int]:
    """Draw n Mine Values with the §7.1 probabilities (percent weights)."""
    values = sorted(int(v) for v in weights)
    w = [int(weights[v] if v in weights else weights[str(v)]) for v in values]
    return [rng.choices(values, weights=w)[0] for _ in range(n)]


@lru_cache(maxsize=64)
def _far_from(radius: int, capitals: tuple[Hex, ...], min_cap: int) -> tuple[Hex, ...]:
    return tuple(h for h in all_hexes(radius) if h != (0, 0)
                 and all(distance(h, c) >= min_cap for c in capitals))


def _eligible(radius: int, caps: dict[str, Hex], taken: set[Hex], min_cap: int) -> list[Hex]:
    """§7.2: not a Capital, not the Center, >= min_cap from every Capital, not special."""
    base = _far_from(radius, tuple(sorted(caps.values())), min_cap)
    return [h for h in base if h not in taken]


def _spread(h: Hex, others: list[Hex]) -> int:
    row = _DIST[h]
    return min((row[o] for o in others), default=99)


def _best(cands: list[Hex], key, rng: random.Random) -> Hex:
    """Pick uniformly at random among the candidates with the highest key."""
    scored = [(key(c), c) for c in cands]
    top = max(s for s, _ in scored)
    return rng.choice([c for s, c in scored if s == top])


def _place(radius, caps, counts, cfg, rng):
    """One placement attempt: (forges, mines, widened) or None if impossible."""
    place = cfg["placement"]
    min_cap = int(place["min_capital_distance"])
    capitals = list(caps.values())
    taken: set[Hex] = set(capitals)
    forges = _place_forges(radius, caps, taken, int(counts["forge"]), place, rng)
    if forges is None:
        return None
    taken.update(forges)
    mines = _place_home_mines(radius, caps, taken, place, rng)
    if mines is None:
        return None
    taken.update(mines)
    rest = int(counts["mine"]) - len(mines)
    widened: list[int] = []
    dists = [int(d) for d in place["other_mine_center_distance"]]
    for _ in range(rest):
        cands = []
        while True:
            cands = [h for h in _eligible(radius, caps, taken, min_cap)
                     if _DIST[h][(0, 0)] in dists]
            if cands or max(dists) >= radius:
                break
            dists.append(max(dists) + 1)
            widened.append(max(dists))
        if not cands:
            return None

        def key(h, mines=mines):
            return (_spread(h, mines), -access_spread(capitals, mines + [h]))
        pick = _best(cands, key, rng)
        mines.append(pick)
        taken.add(pick)
    return forges, mines, widened


def _place_forges(radius, caps, taken, n, place, rng):
    min_cap = int(place["min_capital_distance"])
    ring_d = {int(d) for d in place["forge_center_distance"]}
    cands = [h for h in _eligible(radius, caps, taken, min_cap)
             if _DIST[h][(0, 0)] in ring_d]
    capitals = list(caps.values())
    forges: list[Hex] = []

    def nearest_cap(h):
        return min(range(len(capitals)), key=lambda i: (_DIST[h][capitals[i]], i))

    for _ in range(n):
        free = [c for c in cands if c not in forges]
        if not free:
            return None
        used = {nearest_cap(f) for f in forges}

        def key(h, used=used):
            return (_spread(h, forges), nearest_cap(h) not in used)
        forges.append(_best(free, key, rng))
    return forges


def _place_home_mines(radius, caps, taken, place, rng):
    min_cap = int(place["min_capital_distance"])
    home_d = int(place["home_mine_capital_distance"])
    names = sorted(caps)
    rng.shuffle(names)  # "for each Capital (random order)"
    mines: list[Hex] = []
    for name in names:
        cap = caps[name]
        others = [c for n, c in caps.items() if n != name]
        cands = [h for h in _eligible(radius, caps, taken | set(mines), min_cap)
                 if _DIST[h][cap] == home_d
                 and all(_DIST[h][o] >= min_cap for o in others)]
        if not cands:
            return None
        mines.append(_best(cands, lambda h: _spread(h, mines + list(taken - set(caps.values()))),
                           rng))
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
