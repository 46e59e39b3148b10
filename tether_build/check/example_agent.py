"""The example board's named hexes and the agent that answers an example's `choose:` list.

Named hexes (a 2-player board from the example's seed): `capital` and `enemy_capital`;
`center` (the Axis Mundi); `path1`..`path3`, the hexes from `capital` toward `center`
(`path1` touches the Capital, `path3` touches the center); `side`, another hex touching
`capital`; `enemy_path1`, the hex from `enemy_capital` toward the center; `enemy_side`,
another hex touching `enemy_capital`; `mine` and `mine2`,
the two Mines nearest to `capital`; `forge`, the Forge nearest to it.

Each step of an example (its doing and each of `then:`) adds its `choose:` answers to its
seat's agent; the agent takes them in order: an answer is taken by the first decision of a
kind it can answer (`hex:` a hex decision, `move:` a move, ...); other decisions take their
first option (a Mine: the Gold). An answer that matches no option of its decision, or that
no decision took, fails the example.
"""

from __future__ import annotations

from ..engine.paths import ALONE_FORCES
from ..engine.topo import edge_key

# answer key -> the decision kinds it answers
ANSWERS = {
    "hex": ("hex",), "move": ("move",), "stop": ("move",), "option": ("option",),
    "champion": ("champion",), "player": ("player",), "bridge": ("bridge",),
    "card": ("discard", "scrap", "put_on_top", "look_take", "look_bottom", "mine_draft",
             "forge_draft", "power_pick", "free_card", "summon", "gain_card"),
    "skip": ("hex", "bridge", "champion", "may", "discard", "scrap", "put_on_top",
             "look_take", "look_bottom", "mine_draft", "forge_draft", "power_pick",
             "free_card"),
    "take": ("may",), "mine": ("mine",), "forge": ("forge",), "hit": ("assign_hit",),
}


class ExampleError(Exception):
    """The example cannot be played as written (its message says why)."""


def named_hexes(g) -> dict[str, int]:
    """The example board's named hexes (see the module docstring)."""
    s, t = g.s, g.s.topo
    cap, ecap, center = s.players[0].capital, s.players[1].capital, t.center

    def by_dist(kind: str) -> list[int]:
        return sorted((h for h in range(t.n) if s.tile[h] == kind),
                      key=lambda h: (t.dist[cap][h], h))
    mines, forges = by_dist("mine"), by_dist("forge")
    special = set(mines[:2] + forges[:1])

    def toward(frm: int) -> int:
        step = [n for n in t.nbrs[frm] if t.dist[n][center] == t.dist[frm][center] - 1]
        return min(step, key=lambda n: (n in special, n))
    path = [toward(cap)]
    while t.dist[path[-1]][center] > 1:
        path.append(toward(path[-1]))
    out = {"capital": cap, "enemy_capital": ecap, "center": center,
           "enemy_path1": toward(ecap)}
    out.update({f"path{i + 1}": h for i, h in enumerate(path[:3])})
    for name, home, away in (("side", cap, path[0]), ("enemy_side", ecap, out["enemy_path1"])):
        sides = [n for n in t.nbrs[home] if n != away and n not in s.capital_of]
        if sides:
            out[name] = min(sides, key=lambda n: (n in special, n))
    for name, hexes in (("mine", mines[:1]), ("mine2", mines[1:2]), ("forge", forges[:1])):
        if hexes:
            out[name] = hexes[0]
    return out


def hex_of(names: dict[str, int], name: str) -> int:
    """The hex a name stands for on this board, or an ExampleError."""
    if name not in names:
        raise ExampleError(f"expected a hex named {name!r} on this board, got none")
    return names[name]


def edge_of(names: dict[str, int], pair, topo=None) -> int:
    """The edge between two named hexes (checked adjacent when `topo` is given)."""
    a, b = hex_of(names, pair[0]), hex_of(names, pair[1])
    if topo is not None and topo.dist[a][b] != 1:
        raise ExampleError(f"expected {pair[0]} and {pair[1]} to be adjacent (a Bridge joins "
                           "two adjacent hexes), got hexes apart on this board")
    return edge_key(a, b)


def _move_fits(g, names, want: dict, o, p: int) -> bool:
    if o is None:
        return False
    unit, frm, cid, n, path = o
    if frm != hex_of(names, want["from"]) or path[-1] != hex_of(names, want["to"]):
        return False
    if "through" in want and list(path[:-1]) != [hex_of(names, h) for h in want["through"]]:
        return False
    units = want.get("units", "all")
    if unit != "stack":
        return {"champion": "champions", "force": "cohorts", "cohorts": "cohorts"}[unit] == units
    champs = any(c.owner == p for c in g.s.champs_at[frm])
    cohorts = g.s.forces[frm].get(p, 0) > 0
    if units == "champions":
        return cid == 0 and (n == 0 or (n is None and not cohorts))
    if units == "cohorts":
        return cid == ALONE_FORCES or (cid == 0 and n is None and not champs)
    return cid == 0 and n is None


def fits(g, names, answer: dict, o, p: int = 0) -> bool:
    """True when option `o` of a decision is what `answer` asks for."""
    (key, val), = answer.items()
    s = g.s
    if key in ("skip", "stop"):
        return o is None
    if key == "take":
        return o is True
    if key == "move":
        return _move_fits(g, names, val, o, p)
    if key == "hex":
        return o == hex_of(names, val)
    if key == "bridge":
        return o == edge_of(names, val, s.topo)
    if key in ("option", "player"):
        return o == val
    if key == "champion":
        return o is not None and o.defn.id == val
    if key == "card":
        return o is not None and s.cards[o].defn.id == val
    if key in ("mine", "forge"):
        return o[0] == val
    if key == "hit":
        return o == ("force",) if val == "cohort" else (
            o[0] == "champion" and s.champions[o[1]].defn.id == val)
    return False


class ExampleAgent:
    """Seat 0 of an example: takes the scripted action, answers from `choose:`."""

    name = "example"

    def __init__(self, answers=(), names=None):
        self.answers = list(answers)
        self.names = names or {}
        self.action = None  # a predicate on action options
        self.what = "the action"  # the action, as the failure message names it
        self.used = 0
        self.whose = ""  # "seat 1's " for the opponent, in failure messages

    def seed(self, value: int) -> None:
        """Examples replay exactly: nothing is random here."""

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The scripted action, the next fitting answer, else the first option."""
        if kind == "action":
            i = next((i for i, o in enumerate(options) if self.action and self.action(o)), None)
            if i is None:
                raise ExampleError(f"expected {self.what} to be legal, got it not offered")
            return i
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            if kind in ANSWERS[next(iter(answer))]:
                self.used += 1
                for i, o in enumerate(options):
                    if fits(g, self.names, answer, o, p):
                        return i
                raise ExampleError(f"expected {self.whose}choice {self.used} {_brief(answer)}"
                                   f" to be offered, got {len(options)} other {kind} options")
        return default_choice(kind, options)

    def unused(self) -> str | None:
        """The first answer no decision took, as a failure message."""
        if self.used < len(self.answers):
            answer = _brief(self.answers[self.used])
            return (f"expected {self.whose}choice {self.used + 1} {answer} to be asked, "
                    "got no such decision")
        return None


def default_choice(kind: str, options) -> int:
    """An unscripted decision: the Gold of a Mine, else the first option."""
    if kind == "mine":
        return next(i for i, o in enumerate(options) if o[0] == "gold")
    return 0


class QuietAgent(ExampleAgent):
    """Seat 1: its scripted action and answers (a `seat: 1` doing and its `choose:`)."""

    def __init__(self):
        super().__init__()
        self.whose = "seat 1's "


def _brief(answer: dict) -> str:
    (key, val), = answer.items()
    return f"({key}: {val})"
