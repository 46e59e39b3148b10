"""Card text and card effect must agree in their numbers (amounts, distances, counts...).

Every number printed in a card's text must be a number of its effect (explicit, or a
parameter default the engine fills in), and every number of 2 or more written in the effect
must be printed in the text. Number words (two, three...) count as their digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .effects import spec
from .text import strip_tokens

NUMBER = re.compile(r"(?<![\w.])(\d+)(?!\w|\.\d)")
# Words that print a number: they satisfy an effect number, but a word alone ("any two
# adjacent hexes") is not taken as a quantity the effect must contain.
WORDS = {"once": 1, "one": 1, "two": 2, "twice": 2, "double": 2, "three": 3, "triple": 3,
         "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
WORD = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.IGNORECASE)
# parameters whose numbers are not quantities printed on a card
SILENT_KEYS = {"initiative", "center_chance"}


@dataclass(frozen=True)
class Drift:
    """One disagreement between a card's text and its effect."""

    card: str
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.card}: {self.message}"


def _defaults(table: dict, kind: str) -> dict[str, int]:
    out = {}
    for name, t in table.get(kind, ("", {}))[1].items():
        base, _, default = spec.parse_type(t)
        if default is not None and base in ("int", "posint"):
            out[name] = spec.default_value(base, default)
    return out


def effect_numbers(node, explicit: set[int], implied: set[int]) -> None:
    """Collect integers written in an effect tree, and the defaults its steps imply."""
    if isinstance(node, dict):
        if "step" in node:
            for name, value in _defaults(spec.STEPS, node["step"]).items():
                if name not in node:
                    implied.add(value)
        if "modifier" in node and isinstance(node["modifier"], str):
            for name, value in _defaults(spec.MODIFIERS, node["modifier"]).items():
                if name not in node:
                    implied.add(value)
        for key, value in node.items():
            if key in SILENT_KEYS:
                continue
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                explicit.add(value)
            else:
                effect_numbers(value, explicit, implied)
    elif isinstance(node, list):
        for item in node:
            if isinstance(item, int) and not isinstance(item, bool):
                explicit.add(item)
            else:
                effect_numbers(item, explicit, implied)


def text_numbers(text: str, words: bool = False) -> set[int]:
    """Digits printed in text (and number words if `words`), tokens excluded."""
    bare = strip_tokens(text)
    found = {int(n) for n in NUMBER.findall(bare)}
    if words:
        found |= {WORDS[w.lower()] for w in WORD.findall(bare)}
    return found


def card_drift(card: dict) -> list[Drift]:
    """Drifts of one normalized card."""
    texts = [card.get("text_source") or ""]
    explicit: set[int] = set()
    implied: set[int] = set()
    effect_numbers({"effect": card["effect"], "triggers": card["triggers"],
                    "requires": card["requires"]}, explicit, implied)
    if card["champion"]:
        effect_numbers(card["champion"]["abilities"], explicit, implied)
    printed = set().union(*(text_numbers(t) for t in texts))
    spelled = set().union(*(text_numbers(t, words=True) for t in texts))
    src = card["source"]
    line = src.get("text_line", src["line"])  # drift is fixed on the text's own line
    out = []
    for n in sorted(printed - explicit - implied - {1}):
        out.append(Drift(card["id"], src["file"], line,
                         f"text says {n} but no step of the effect has {n}"))
    for n in sorted(x for x in explicit - spelled if x >= 2):
        out.append(Drift(card["id"], src["file"], line,
                         f"effect has {n} but the text never says {n}"))
    return out


def drift(cards: list[dict]) -> list[Drift]:
    """Every text/effect number disagreement over a card list."""
    return [d for card in cards for d in card_drift(card)]
