"""Card text and card effect must agree in their numbers and in what they do.

Every number printed in a card's text must be a number of its effect (explicit, or a
parameter default the engine fills in), and every number of 2 or more written in the effect
must be printed in the text. Number words (two, three...) count as their digits.

The verbs agree too: a text that says it draws, deploys, moves, heals, damages, destroys,
builds, discards or gains gold needs a step that does so, and each such step of the effect
needs its verb in the text ("Gain +4 {gold} and draw a card." with no draw step is drift).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..effects import spec
from .text import strip_tokens

NUMBER = re.compile(r"(?<![\w.])(\d+)(?!\w|\.\d)")
# Words that print a number: they satisfy an effect number, but a word alone ("any two
# adjacent hexes") is not taken as a quantity the effect must contain.
WORDS = {"once": 1, "one": 1, "two": 2, "twice": 2, "double": 2, "three": 3, "triple": 3,
         "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
WORD = re.compile(r"\b(" + "|".join(WORDS) + r")\b", re.IGNORECASE)
# parameters whose numbers are not quantities printed on a card
SILENT_KEYS = {"initiative", "center_chance", "examples"}  # examples: scenario numbers, not rules


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
    out += [Drift(card["id"], src["file"], line, m) for m in verb_drift(card)]
    return out


# verb -> (words in the text that say it, what in an effect does it: step kinds, modifiers
# ("mod:..."), trigger events ("on:..."))
VERBS = {
    "draw": (r"\bdraws?\b", {"draw"}),
    "deploy": (r"\bdeploy", {"deploy", "summon_champion", "deploy_champion", "mod:deploy_anchor",
                             "mod:deploy_bonus", "on:on_deploy"}),
    "move": (r"\bmoves?\b|\bmoving\b|\bmarch", {"move", "relocate", "mod:ignore_bridges",
                                                "mod:extra_move", "mod:link_hexes"}),
    "heal": (r"\bheal", {"heal", "multiply_hp"}),
    "damage": (r"\bdamage\b", {"damage", "destroy_forces", "mod:prevent_damage_for_gold"}),
    "build": (r"\bbuild", {"build_bridge"}),
    "discard": (r"\bdiscard", {"discard", "look", "on:card_discarded"}),
    "gain gold": (r"\bgains? \+?\d* ?\{gold\}|\+\d+ \{gold\}",
                  {"gain_gold", "steal_gold", "mod:mine_bonus"}),
}
# step kinds whose verb the text must print (the reverse direction)
SAYS = {"draw": "draw", "deploy": "deploy", "move": "move", "heal": "heal",
        "build_bridge": "build", "discard": "discard", "gain_gold": "gain gold",
        "damage": "damage"}


def _steps_used(node, out: set[str]) -> set[str]:
    """Step kinds, modifiers (mod:name) and trigger events (on:event) anywhere in a tree."""
    if isinstance(node, dict):
        if isinstance(node.get("step"), str):
            out.add(node["step"])
        if isinstance(node.get("modifier"), str):
            out.add("mod:" + node["modifier"])
        if isinstance(node.get("trigger"), str):
            out.add("on:" + node["trigger"])
        for value in node.values():
            _steps_used(value, out)
    elif isinstance(node, list):
        for item in node:
            _steps_used(item, out)
    return out


def verb_drift(card: dict) -> list[str]:
    """What the text says the card does that no step does, and the reverse."""
    text = (card.get("text_source") or "").lower()
    if card["champion"]:
        text += " " + " ".join((a.get("text_source") or a.get("text") or "").lower()
                               for a in card["champion"]["abilities"])
    steps = _steps_used([card["effect"], card["triggers"], card["requires"],
                         (card["champion"] or {}).get("abilities")], set())
    out = []
    for verb, (pattern, kinds) in VERBS.items():
        if re.search(pattern, text) and not steps & kinds:
            out.append(f"text says '{verb}' but no step of the effect does it")
    for kind, verb in SAYS.items():
        if kind in steps and not re.search(VERBS[verb][0], text):
            out.append(f"effect has a {kind} step but the text never says '{verb}'")
    return out


def drift(cards: list[dict]) -> list[Drift]:
    """Every text/effect number disagreement over a card list."""
    return [d for card in cards for d in card_drift(card)]
