"""JSON schema of a card's `examples:` (small scenarios `tether check` runs in the engine)."""

from __future__ import annotations

HEXES = ["capital", "enemy_capital", "center"]


def _count(high: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": high}


def _unit() -> dict:
    return {"type": "object", "additionalProperties": False, "required": ["hex", "player"],
            "properties": {
                "hex": {"enum": HEXES, "description": "a named hex of the example board"},
                "player": {"type": "integer", "minimum": 0, "maximum": 1,
                           "description": "seat: 0 plays the card, 1 is the opponent"},
                "cohorts": _count(50),
                "champion": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                             "description": "a Champion card id"},
                "hp": {**_count(100), "description": "its HP (expect: 0 = not there)"}}}


def examples_schema() -> dict:
    """`examples:` on a card, ability or passive: given players and units, the play by seat 0, `expect:` after."""
    given = {"type": "object", "additionalProperties": False, "properties": {
        "gold": _count(1000), "mana": _count(1000),
        "faction": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
        "hand": {"type": "array", "maxItems": 20,
                 "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}}}}
    after = {"type": "object", "additionalProperties": False, "properties": {
        "gold": _count(1000), "mana": _count(1000), "hand": _count(50),
        "discard": _count(50)}}
    example = {
        "type": "object", "additionalProperties": False, "required": ["expect"],
        "properties": {
            "seed": _count(1_000_000),
            "dice": {"type": "array", "maxItems": 20,
                     "items": {"type": "integer", "minimum": 1, "maximum": 6},
                     "description": "faces the first d6 rolls show"},
            "players": {"type": "array", "maxItems": 2, "items": given},
            "play": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
                     "description": "card seat 0 plays (default: the card that carries it)"},
            "battle": {"type": "object", "additionalProperties": False,
                       "required": ["hex", "attacker"], "properties": {
                           "hex": {"enum": HEXES}, "attacker": {"enum": [0, 1]},
                           "siege": {"type": "boolean"}},
                       "description": "instead of a play: a battle in a hex"},
            "units": {"type": "array", "maxItems": 20, "items": _unit()},
            "expect": {"type": "object", "additionalProperties": False, "properties": {
                "players": {"type": "array", "maxItems": 2, "items": after},
                "units": {"type": "array", "maxItems": 20, "items": _unit()}}}}}
    return {"type": "array", "maxItems": 10, "items": example,
            "description": "scenarios run by tether check: a play by seat 0 or a battle"}
