"""Load the compiled engine data (build/engine/*.json or the same dicts) into a Ruleset.

Every effect is compiled here once into Step closures via the registry; the game loop
never looks at the raw dicts again.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from . import steps_basic, steps_board, steps_cards, steps_flow  # noqa: F401  (register)
from .conds import condition
from .core import REGISTRY, Step, shared
from .declare import quick_check, target_check
from .mods import Ability

FILES = ("cards.json", "game.json", "factions.json", "tiles.json")


@shared
class CardDef:
    """A compiled card definition (frozen after load)."""

    __slots__ = (
        "abilities",
        "age",
        "burn",
        "category",
        "champion",
        "check",
        "copies",
        "deck",
        "effect",
        "faction",
        "gold",
        "id",
        "idx",
        "initiative",
        "is_champion",
        "mana",
        "name",
        "quick",
        "raw",
        "requires",
        "simple",
        "triggers",
        "type",
        "vp",
    )

    def __init__(self, idx: int, d: dict, compiler: Compiler):
        self.idx, self.raw = idx, d
        for key in ("id", "name", "deck", "age", "faction", "category", "type", "mana",
                    "gold", "copies", "burn", "vp", "champion"):
            setattr(self, key, d[key])
        self.initiative = tuple(d["initiative"])
        self.is_champion = d["type"] == "champion"
        self.simple = not self.is_champion and not d["requires"]  # cost is all it asks
        self.requires = condition(d["requires"]) if d["requires"] else None
        self.effect = compiler.steps(d["effect"])
        self.check = target_check(self.effect)  # the look-ahead its declaration needs
        self.quick = quick_check(self.effect)
        self.triggers = [compiler.ability(a) for a in d["triggers"]]
        abil = (d["champion"] or {}).get("abilities", [])
        self.abilities = [compiler.ability(a) for a in abil]

    def __repr__(self) -> str:
        return f"<card {self.id}>"


@shared
class Compiler:
    """Turns step lists into Step objects through the registry, numbering each step."""

    def __init__(self):
        self.uids = itertools.count(1)
        self.made: dict[int, Step] = {}  # uid -> every step compiled (nested ones too)
        self.unsupported: list[str] = []

    def steps(self, raw: list[dict]) -> list[Step]:
        """Compile a list of step dicts."""
        out = []
        for d in raw or []:
            factory = REGISTRY.get(d["step"])
            if factory is None:
                raise ValueError(f"no handler for step {d['step']!r}")
            st = factory(d, self)
            st.uid = next(self.uids)
            self.made[st.uid] = st
            out.append(st)
        return out

    def ability(self, raw: dict) -> Ability:
        """Compile an ability (modifier or trigger + steps)."""
        return Ability(raw, self.steps)


@shared
class Faction:
    """A compiled faction: passives, starter spell id, Champion id."""

    __slots__ = ("champion", "id", "name", "passives", "spell")

    def __init__(self, fid: str, d: dict, compiler: Compiler):
        self.id, self.name = fid, d.get("name", fid)
        self.passives = [compiler.ability(a) for a in d.get("passives", [])
                         if not a.get("idea")]
        self.spell, self.champion = d["spell"], d["champion"]


def _bounded(cards: dict, factions: dict) -> None:
    """Every effect of compiled definitions has a bound on its steps (effects/bound.py), so
    neither engine (this one, or the native one loading the same data) can be handed an
    effect of 10^10 steps by an engine file that skipped `tether validate`."""
    from ..effects.bound import effect_lists, too_much

    for card in cards.get("cards", []):
        for path, steps in effect_lists(card):
            found = too_much(steps, path)
            if found:
                where = ".".join(map(str, found[0]))
                raise ValueError(f"card {card.get('id')}: {where}: {found[1]}")
    for fid, faction in factions.get("factions", {}).items():
        for i, passive in enumerate(faction.get("passives", [])):
            found = too_much(passive.get("steps"), ("passives", i, "steps"))
            if found:
                where = ".".join(map(str, found[0]))
                raise ValueError(f"faction {fid}: {where}: {found[1]}")


@shared
class Ruleset:
    """Constants, cards, factions and ages of one compiled content build."""

    def __init__(self, cards: dict, game: dict, factions: dict, tiles: dict | None = None):
        # the compiled data itself, for the native engine (engine/native) to load
        self.compiled = {"cards": cards, "game": game, "factions": factions}
        _bounded(cards, factions)
        comp = Compiler()
        self.cards = [CardDef(i, c, comp) for i, c in enumerate(cards["cards"])]
        self.by_id = {c.id: c for c in self.cards}
        self.game = game["constants"]
        self.ages = game["ages"]            # list of {numeral, rounds, market_deck, ...}
        self.decks = game["decks"]          # deck id -> {kind, age}
        self.factions = {k: Faction(k, v, comp) for k, v in factions["factions"].items()}
        self.default_faction = factions["default"]
        self.tiles = (tiles or {}).get("tiles", {})
        self.age_of_round = {r: a["numeral"] for a in self.ages for r in a["rounds"]}
        self.age_info = {a["numeral"]: a for a in self.ages}
        self.steps_compiled = next(comp.uids) - 1
        self.step_by_uid = comp.made  # what a log line's step uid names (analysis/aims.py)
        self._decks: dict = {}
        self.boards: dict = {}  # (players, seed) -> the generated Board, for scenarios (read only)
        self._constants()

    def _constants(self) -> None:
        """Numbers the game loop reads all the time, looked up once (game.yaml)."""
        g = self.game
        ba = g["basic_actions"]
        self.hand_size, self.hand_limit = g["hand"]["size"], g["hand"]["limit"]
        self.champion_limit = g["champions"]["limit"]
        self.bridge_mana = ba["build_bridge"]["mana"]
        self.march_mana, self.march_distance = ba["march"]["mana"], ba["march"]["distance"]
        rf = ba["capital_reinforce"]
        self.reinforce_mana, self.reinforce_gold = rf["mana"], rf.get("gold", 0)
        self.reinforce_forces = rf["forces"]

    def deck_cards(self, deck: str) -> list[CardDef]:
        """Card definitions of one deck id, in card order (do not mutate)."""
        got = self._decks.get(deck)
        if got is None:
            got = self._decks[deck] = [c for c in self.cards if c.deck == deck]
        return got

    def deck_copies(self, deck: str) -> list[CardDef]:
        """Every physical card of one deck id: each definition `copies` times, in card
        order (do not mutate)."""
        key = ("copies", deck)
        got = self._decks.get(key)
        if got is None:
            got = self._decks[key] = [c for c in self.deck_cards(deck) for _ in range(c.copies)]
        return got

    @classmethod
    def from_files(cls, directory: Path) -> Ruleset:
        """Load build/engine/*.json."""
        data = {}
        for name in FILES:
            path = Path(directory) / name
            data[name] = json.loads(path.read_text()) if path.exists() else {}
        return cls.from_compiled(data)

    @classmethod
    def from_compiled(cls, data: dict) -> Ruleset:
        """Load from {file name: bytes | dict} as produced by compile_engine."""
        def get(name):
            v = data.get(name, {})
            return json.loads(v) if isinstance(v, (bytes, str)) else v
        return cls(get("cards.json"), get("game.json"), get("factions.json"),
                   get("tiles.json"))
