"""JSON schema of a card's `examples:` (small scenarios `tether check` runs in the engine)."""

from __future__ import annotations

# the example board's named hexes (resolved by check.example_agent.named_hexes)
HEX_NAMES = ("capital", "enemy_capital", "center", "path1", "path2", "path3", "side",
             "enemy_path1", "enemy_side", "mine", "mine2", "forge")
UNITS = ("all", "champions", "cohorts")

ID = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
HEX = {"enum": list(HEX_NAMES), "description": "a named hex of the example board"}
PAIR = {"type": "array", "minItems": 2, "maxItems": 2, "items": HEX,
        "description": "two adjacent named hexes"}


def _count(high: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": high}


def _cards(description: str) -> dict:
    return {"type": "array", "maxItems": 20, "items": ID, "description": description}


def _unit() -> dict:
    return {"type": "object", "additionalProperties": False, "required": ["hex", "player"],
            "properties": {
                "hex": HEX,
                "player": {"type": "integer", "minimum": 0, "maximum": 1,
                           "description": "seat: 0 plays the card, 1 is the opponent"},
                "cohorts": _count(50),
                "champion": {**ID, "description": "a Champion card id"},
                "hp": {**_count(100), "description": "its HP (expect: 0 = not there)"}}}


def _move() -> dict:
    return {"type": "object", "additionalProperties": False, "required": ["from", "to"],
            "properties": {"from": HEX, "to": HEX,
                           "through": {"type": "array", "maxItems": 6, "items": HEX,
                                       "description": "the hexes between, in order"},
                           "units": {"enum": list(UNITS),
                                     "description": "which of seat 0's units there go"}}}


def _answer() -> dict:
    """One answer of `choose:`: a single key naming what is chosen."""
    one = {
        "hex": HEX, "move": _move(), "stop": {"const": True}, "skip": {"const": True},
        "take": {"const": True}, "option": {"type": "string", "maxLength": 80},
        "champion": {**ID, "description": "a Champion card id"},
        "player": {"enum": [0, 1]}, "bridge": PAIR,
        "card": {**ID, "description": "a card id"},
        "mine": {"enum": ["gold", "draft"]}, "forge": {"enum": ["draft", "reforge"]},
        "hit": {"anyOf": [{"const": "cohort"}, ID],
                "description": "cohort, or the id of the Champion that takes the hit"}}
    return {"type": "object", "minProperties": 1, "maxProperties": 1,
            "additionalProperties": False, "properties": one}


def _choices() -> dict:
    return {"type": "array", "maxItems": 20, "items": _answer(),
            "description": "answers to the decisions of the doing's seat, in order"}


def _given() -> dict:
    return {"type": "object", "additionalProperties": False, "properties": {
        "gold": _count(1000), "mana": _count(1000), "permanence": _count(100),
        "played": {**_count(20), "description": "cards already played this round"},
        "faction": ID, "hand": _cards("card ids in hand"),
        "discard": _cards("card ids in the discard pile"),
        "draw": _cards("card ids in the draw pile, top first")}}


def _after() -> dict:
    return {"type": "object", "additionalProperties": False, "properties": {
        "gold": _count(1000), "mana": _count(1000), "hand": _count(50),
        "discard": _count(50), "draw": _count(50), "permanence": _count(100),
        "control": {**_count(100), "description": "Control Permanence (after phase: scoring)"},
        "hand_cards": _cards("the card ids in hand, any order"),
        "discard_cards": _cards("the card ids in the discard pile, any order")}}


def _doings() -> dict:
    """What seat 0 does: one of these keys (the example's, and each of `then:`)."""
    return {
        "play": {**ID, "description": "card seat 0 plays (default: the card that carries it)"},
        "march": {**_move(), "description": "instead of a play: the March basic action"},
        "reinforce": {**HEX, "description": "instead of a play: Reinforce into a hex"},
        "ability": {"type": "string", "maxLength": 80,
                    "description": "instead of a play: use an 'as an action' ability"},
        "battle": {"type": "object", "additionalProperties": False,
                   "required": ["hex", "attacker"], "properties": {
                       "hex": HEX, "attacker": {"enum": [0, 1]},
                       "siege": {"type": "boolean"}},
                   "description": "instead of a play: a battle in a hex"},
        "phase": {"enum": ["reset", "collection", "scoring", "cleanup"],
                  "description": "instead of a play: run one round phase"},
        "seat": {"enum": [0, 1], "description": "who plays, marches, reinforces or uses "
                 "the ability (default 0; seat 1 answers with first options)"},
    }


def examples_schema() -> dict:
    """`examples:` on a card, ability or passive: given players and units, the play by seat 0, `expect:` after."""
    example = {
        "type": "object", "additionalProperties": False, "required": ["expect"],
        "properties": {
            "seed": {**_count(1_000_000), "description": "the board and the fair dice"},
            "dice": {"type": "array", "maxItems": 20,
                     "items": {"type": "integer", "minimum": 1, "maximum": 6},
                     "description": "faces the first d6 rolls show"},
            "players": {"type": "array", "maxItems": 2, "items": _given()},
            "units": {"type": "array", "maxItems": 20, "items": _unit()},
            "decks": {"type": "object", "maxProperties": 8,
                      "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                      "additionalProperties": _cards("the deck's cards, top first"),
                      "description": "Market or Power decks replaced by these cards"},
            **_doings(),
            "then": {"type": "array", "maxItems": 10, "description": "further doings, in order",
                     "items": {"type": "object", "additionalProperties": False,
                               "minProperties": 1, "maxProperties": 3,
                               "properties": {**_doings(), "choose": _choices()}}},
            "bridges": {"anyOf": [{"enum": ["all", "none"]},
                                  {"type": "array", "maxItems": 30, "items": PAIR}],
                        "description": "the Bridges on the board (default: all)"},
            "choose": _choices(),
            "unaffected": {"type": "boolean", "description": (
                "an ability's example of a case it does not change: it must then give the "
                "same result without the ability (otherwise it must differ)")},
            "expect": {"type": "object", "additionalProperties": False, "properties": {
                "players": {"type": "array", "maxItems": 2, "items": _after()},
                "units": {"type": "array", "maxItems": 20, "items": _unit()},
                "bridges": {"type": "array", "maxItems": 20, "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["between", "bridged"],
                    "properties": {"between": PAIR, "bridged": {"type": "boolean"}}}}}}}}
    return {"type": "array", "maxItems": 10, "items": example,
            "description": "scenarios run by tether check: seat 0 does one thing"}
