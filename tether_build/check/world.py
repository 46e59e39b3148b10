"""Constructed game states for the per-card scenarios, and the agent that plays them.

`build(rules, spec)` makes a three-player game (so "two other players fight" can happen)
from `engine.scenario`: seat 0 (the actor) holds its Capital, the nearest Mine and Forge
and the Axis Mundi, with wounded Champions in the Capital and the Mine; seat 1 stands next
to the Mine, seat 2 next to seat 1, each with Forces and a Champion. Every edge carries a
Bridge except the edges of three empty "gap" hexes beside the actor, so Bridges can both
be built and destroyed and moves can go far. Everyone has gold, mana and cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from ..engine.scenario import give, new_card, put_champion, scenario

ACTOR = 0
PLAYERS = 3
# effect steps one scenario may run: it plays one card and provokes its triggers, each effect
# bounded by validate at bound.MAX_STEPS (10,000), so a tenth of a game's budget stops a card
# without end (core.StepBudget, reported against it) after 0.1 s of CPU, not a whole second
SCENARIO_STEPS = 100_000


@dataclass(frozen=True)
class Spec:
    """One scenario: seed, choice policy, condition shapes, forced die faces, faction."""

    seed: int = 0
    policy: str = "first"          # first | last | decline | contact | random
    label: str | None = None       # choose_one option to pick
    shapes: tuple = ()             # ((condition dict, want), ...)
    faces: tuple = ()              # die faces the first rolls must show
    faction: str | None = None     # actor faction (passive subjects)
    passives: tuple = ()           # passive Abilities to install for the actor
    counter: int = 0               # the played card's own counter (card_counter amounts)

    def describe(self) -> str:
        """Short readable form for reports."""
        bits = [f"seed {self.seed}", self.policy]
        if self.label:
            bits.append(f"option {self.label}")
        bits += [f"{'' if want else 'not '}{min(c)}" for c, want in self.shapes]
        if self.faces:
            bits.append(f"die {','.join(map(str, self.faces))}")
        if self.counter:
            bits.append(f"card counter {self.counter}")
        return ", ".join(bits)


class ForcedDice(random.Random):
    """The game RNG, except that the first d6 rolls show the given faces (§ dice as chance
    outcomes: each outcome of a `roll` step is visited on purpose, not by luck)."""

    def __init__(self, seed: int, faces=()):
        super().__init__(seed)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        """A forced face for a d6 while any are left, else a fair roll."""
        if (a, b) == (1, 6) and self.faces:
            return self.faces.pop(0)
        return super().randint(a, b)


class ScriptAgent:
    """Plays the actor's card and answers every decision by a fixed policy."""

    name = "check"

    def __init__(self, policy: str = "first", seed: int = 0, label: str | None = None):
        self.policy, self.label = policy, label
        self.rng = random.Random(seed)
        self.play: int | None = None
        self.asked: list[tuple[str, int]] = []

    def seed(self, value: int) -> None:
        """The policy's own seed is kept (scenarios must replay exactly)."""

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Index of the option the policy takes."""
        self.asked.append((kind, len(options)))
        if kind == "action":
            want = ("card", self.play)
            return options.index(want) if want in options else 0
        if kind == "option" and self.label in options:
            return options.index(self.label)
        if kind == "mine":
            return next(i for i, o in enumerate(options) if o[0] == "gold")
        if options[0] is None:  # "up to": stop, or take one more
            return 0 if self.policy == "decline" else 1 + self._pick(g, p, kind, options[1:])
        return self._pick(g, p, kind, options)

    def _pick(self, g, p, kind, options) -> int:
        n = len(options)
        if kind == "move":
            return _move_pick(g, p, options, self.policy)
        if self.policy == "last":
            return n - 1
        if self.policy == "random":
            return self.rng.randrange(n)
        if kind == "hex":  # the busiest hex: where a card can do the most
            return max(range(n), key=lambda i: (_busy(g, options[i]), -i))
        return 0


def _busy(g, h: int) -> tuple[int, int]:
    s = g.s
    return len(s.champs_at[h]), sum(s.forces[h].values())


def _move_pick(g, p, options, policy: str) -> int:
    """Longest path first; 'contact' prefers ending next to / in an enemy; 'last' shortest."""
    s = g.s

    def contact(o) -> bool:
        return any(q != p for q in s.occupants(o[4][-1]))
    if policy == "contact":
        key = (lambda i: (contact(options[i]), len(options[i][4])))
    elif policy == "last":
        key = (lambda i: (-len(options[i][4]), i))
    else:
        key = (lambda i: (len(options[i][4]), not contact(options[i]), -i))
    return max(range(len(options)), key=key)


@dataclass
class World:
    """A built scenario: the game, the actor, and the hexes the layout used."""

    g: object
    agent: ScriptAgent
    spec: Spec
    filler: str
    plain_cards: tuple[str, ...]
    hexes: dict[str, int] = field(default_factory=dict)
    p: int = ACTOR

    @property
    def s(self):
        """The game state."""
        return self.g.s

    def enemy(self) -> int:
        """The first enemy seat."""
        return 1

    def champion(self, p: int, h: int, hp: int | None = None):
        """Place a filler Champion (no abilities) for seat p on hex h."""
        if not self.g.can_field_champion(p):
            return None
        return put_champion(self.g, p, self.filler, h, hp)

    def card(self, p: int, card_id: str, zone: str = "hand") -> int:
        """Create a card in a zone of seat p."""
        return give(self.g, p, card_id, zone)

    def bridge_all(self, h: int) -> None:
        """Bridge every edge of hex h."""
        self.s.bridges.update(self.s.topo.edges_of[h])

    def free_hex(self, near: int, avoid=()) -> int | None:
        """An empty, non-Capital hex adjacent to `near` (inland ones first)."""
        s = self.s
        free = [n for n in s.topo.nbrs[near]
                if not s.occupants(n) and n not in s.capital_of and n not in avoid]
        return max(free, key=lambda n: (len(s.topo.nbrs[n]), -n)) if free else None


@lru_cache(maxsize=8)  # per ruleset: every scenario's world asks it
def filler_champion(rules) -> str:
    """The toughest Champion card without abilities (so it changes no rule it stands in)."""
    plain = [c for c in rules.cards if c.type == "champion" and not c.abilities
             and not c.triggers]
    pool = plain or [c for c in rules.cards if c.type == "champion"]
    return max(pool, key=lambda c: (c.champion["hp"], c.id)).id


@lru_cache(maxsize=8)  # per ruleset: every scenario's world asks it
def plain_cards(rules) -> tuple[str, ...]:
    """Cards without triggers, orders first, then spells, for hands and draw piles."""
    cards = sorted((c for c in rules.cards if not c.triggers and c.type in ("order", "spell")
                    and c.vp == 0), key=lambda c: (c.type != "order", c.id))
    return tuple(c.id for c in cards)


def nearest(g, kind: str, frm: int, avoid=()) -> int:
    """The hex of a tile kind nearest to `frm` (not a Capital, not in `avoid`); any such
    hex if the board has no tile of that kind."""
    s = g.s
    pool = [h for h in range(s.topo.n) if h not in s.capital_of and h not in avoid
            and h != frm]
    kind_pool = [h for h in pool if s.tile[h] == kind]
    return min(kind_pool or pool, key=lambda h: (s.topo.dist[frm][h], h))


def build(rules, spec: Spec, agent_cls=ScriptAgent) -> World:
    """The constructed three-player state of the module docstring."""
    agents = [agent_cls(spec.policy, spec.seed, spec.label) for _ in range(PLAYERS)]
    facs = [rules.default_faction] * PLAYERS
    if spec.faction:
        facs[ACTOR] = spec.faction
    g = scenario(rules, PLAYERS, spec.seed, factions=facs, agents=agents, passives=False,
                 forces=3)
    g.rng = ForcedDice(spec.seed, spec.faces)
    g.step_budget = g.steps_left = SCENARIO_STEPS
    w = World(g, agents[ACTOR], spec, filler_champion(rules), plain_cards(rules))
    _layout(w)
    for ab in spec.passives:
        g.hooks.install_ability(ab, ACTOR)
    g.dirty.clear()
    return w


def _layout(w: World) -> None:
    g, s = w.g, w.s
    cap = s.players[ACTOR].capital
    mine = nearest(g, "mine", cap)
    forge = nearest(g, "forge", cap, avoid={mine})
    center = s.topo.center
    e1 = w.free_hex(mine, avoid={forge, center}) or nearest(g, "plain", mine,
                                                          {cap, forge, center})
    s.add_forces(1, e1, 2)
    e2 = w.free_hex(e1, avoid={mine, forge, center}) or nearest(g, "plain", e1,
                                                              {cap, mine, forge, center})
    s.add_forces(2, e2, 2)
    taken = {cap, mine, forge, center, e1, e2}
    gaps = [h for h in s.topo.nbrs[cap] if h not in taken and h not in s.capital_of][:2]
    gaps += [h for h in s.topo.nbrs[mine] if h not in taken and h not in gaps
             and h not in s.capital_of][:1]
    closed = {e for h in gaps for e in s.topo.edges_of[h]}
    s.bridges.update(e for e in s.topo.edges if e not in closed)
    for h in (mine, forge, center):
        s.add_forces(ACTOR, h, 2)
    champ_hp = None
    for p, h in ((ACTOR, cap), (ACTOR, mine), (1, e1), (2, e2)):
        ch = w.champion(p, h)
        if p == ACTOR:
            champ_hp = max(1, ch.max_hp - 2)
            ch.hp = champ_hp
    plain = w.plain_cards
    spell = next((c for c in plain if g.rules.by_id[c].type == "spell"), plain[-1])
    orders = [c for c in plain if g.rules.by_id[c].type == "order"] or plain
    for p, pl in enumerate(s.players):
        pl.gold, pl.mana = 30, 10 if p == ACTOR else 5
        for i in range(3):
            give(g, p, orders[i % len(orders)], "hand")
            give(g, p, orders[(i + 3) % len(orders)], "discard")
        for i in range(8 if p == ACTOR else 5):
            give(g, p, spell if i % 3 == 1 else orders[(i + 1) % len(orders)], "draw")
    w.hexes = {"capital": cap, "mine": mine, "forge": forge, "center": center, "enemy": e1,
               "enemy2": e2, "gap": gaps[0] if gaps else cap}


def fresh_inst(g, card_id: str):
    """A card instance in no zone, for queries about a card type (never played)."""
    from ..engine.state import CardInst
    return CardInst(-1, g.rules.by_id[card_id])


__all__ = ["ACTOR", "ForcedDice", "ScriptAgent", "Spec", "World", "build", "fresh_inst",
           "new_card"]
