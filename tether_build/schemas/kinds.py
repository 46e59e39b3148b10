"""Schemas of the smaller content kinds: game constants, tiles, ages, setting."""

from __future__ import annotations

from .parts import BASE, DRAFT, named_map, ref

INT = {"type": "integer", "minimum": 0, "maximum": 1000}
POS = {"type": "integer", "minimum": 1, "maximum": 1000}


def upto(n: int, low: int = 1) -> dict:
    """A whole number from `low` to `n` (the engine's and printer's sane range)."""
    return {"type": "integer", "minimum": low, "maximum": n}
COORD = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
NOTES = ref("notes")
PLAYER_KEYS = {"type": "object", "propertyNames": {"pattern": "^[2-6]$"}}


def obj(props: dict, required: list[str] | None = None) -> dict:
    out = {"type": "object", "additionalProperties": False, "properties": props}
    out["required"] = required if required is not None else list(props)
    return out


def _doc(name: str, title: str, body: dict) -> dict:
    return {"$schema": DRAFT, "$id": BASE + name, "title": title, **body}


def game_schema() -> dict:
    per_players = lambda v: {**PLAYER_KEYS, "additionalProperties": v}
    return _doc("game.schema.json", "Game constants", obj({
        "title": {"type": "string"}, "working_title": {"type": "string"},
        "version": {"type": "string"},
        "players": obj({"min": upto(6, 2), "max": upto(6, 2)}),
        "resources": obj({"max_mana": upto(20), "start_gold": upto(100, 0),
                          "base_income": upto(20, 0),
                          "notes": NOTES}, ["max_mana", "start_gold", "base_income"]),
        "hand": obj({"size": upto(20), "limit": upto(50), "notes": NOTES}, ["size", "limit"]),
        "victory": obj({"vp_to_win": upto(100), "round_cap": upto(50),
                        "tie_breakers": {"type": "array", "items": {
                            "enum": ["total_vp", "permanent_vp", "gold"]}},
                        "notes": NOTES}, ["vp_to_win", "round_cap", "tie_breakers"]),
        "starting": obj({"forces": upto(50, 0), "bridges": upto(20, 0),
                         "bridge_reach": upto(10), "free_card_reveal": upto(10)}),
        "champions": obj({"limit": upto(10), "notes": NOTES}, ["limit"]),
        "units": obj({"force": obj({"hp": upto(10), "dice": upto(10), "hit": upto(20)})}),
        "combat": obj({"die_sides": upto(20, 2)}),
        "board": obj({
            "radius_by_players": per_players(upto(8, 2)),
            "corner_slots": {"type": "object", "propertyNames": {"pattern": "^C[0-5]$"},
                             "additionalProperties": COORD},
            "capital_slots": per_players({"type": "array", "items": {"type": "string"}}),
            "fixed_slots": per_players({"type": "object", "additionalProperties": COORD}),
            "fixed_slot_notes": NOTES,
            "tile_counts": per_players(obj({"mine": upto(20, 0), "forge": upto(20, 0),
                                            "center": upto(1, 0)})),
            "mine_values": {"type": "object", "propertyNames": {"pattern": "^[0-9]{1,2}$"},
                            "additionalProperties": INT},
            "mine_value_max": upto(20),
            "placement": obj({"min_capital_distance": POS,
                              "forge_center_distance": {"type": "array", "items": POS},
                              "home_mine_capital_distance": POS,
                              "other_mine_center_distance": {"type": "array", "items": POS},
                              "fairness_max_spread": INT,
                              "forge_fairness_max_spread": INT},
                             ["min_capital_distance", "forge_center_distance",
                              "home_mine_capital_distance", "other_mine_center_distance",
                              "fairness_max_spread"]),
            "placement_notes": NOTES,
        }, ["radius_by_players", "corner_slots", "capital_slots", "fixed_slots", "tile_counts",
            "mine_values", "mine_value_max", "placement"]),
        "basic_actions": obj({
            "build_bridge": obj({"mana": INT}),
            "march": obj({"mana": INT, "distance": POS}),
            "capital_reinforce": obj({"mana": INT, "gold": INT, "forces": POS})}),
        "scoring": obj({"control_vp": obj({"center": INT, "forge": INT, "enemy_capital": INT}),
                        "victory_card_vp": INT}),
        "market": obj({"min_buy_bid": INT, "min_pass_bid": INT, "forge_draft_reveal": POS,
                       "mine_draft_reveal": POS, "power_pick_reveal": POS}),
    }, ["title", "version", "players", "resources", "hand", "victory", "starting", "champions",
        "units", "combat", "board", "basic_actions", "scoring", "market"]))


def tiles_schema() -> dict:
    tile = obj({"term": ref("id"), "icon": ref("id"), "colour": {"type": "string"},
                "summary": ref("text"), "collection": {"type": "array", "items": ref("text")},
                "scoring": {"type": "array", "items": ref("text")},
                "rules": {"type": "array", "items": ref("text")},
                "shrink": {"type": "boolean", "default": False, "description": (
                    "let the tile's name, faction name and summary shrink (to 90, 80, then "
                    "70 % of their standard size) when they do not fit their boxes; the "
                    "build then warns (shrunk to fit). Without it such a tile is a build "
                    "error")},
                "notes": NOTES}, ["term", "summary"])
    return _doc("tiles.schema.json", "Tiles", obj({"tiles": named_map(tile)}))


def ages_schema() -> dict:
    age = obj({"numeral": {"enum": ["I", "II", "III"]}, "name": ref("text"),
               "design_name": {"type": "string"},
               "rounds": {"type": "array", "items": POS, "minItems": 1},
               "flavor": {"type": "array", "items": ref("text")},
               "market_deck": ref("id"), "power_deck": ref("id"),
               "preview": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                           "additionalProperties": INT,
                           "description": "round -> number of next-age cards (capped at P)"},
               "notes": NOTES}, ["numeral", "name", "rounds", "market_deck", "power_deck"])
    deck = obj({"name": ref("text"), "kind": {"enum": ["starter", "faction", "market",
                                                         "power"]},
                "age": {"enum": ["I", "II", "III"]},
                "back": {**ref("id"), "description": (
                    "the back its cards get: player (default: the one back shared by every "
                    "card that can enter a player's deck) or a template of templates/backs/, "
                    "e.g. back (the deck's own back, with its name and Age)")},
                "stated_count": INT, "notes": NOTES}, ["name", "kind"])
    marker = obj({"text": {**ref("text"), "description": (
        "printed on the pile marker of every Archive and Power draw pile (one marker card "
        "per pile, with the pile's name and Age): how to use it")}, "notes": NOTES}, ["text"])
    return _doc("ages.schema.json", "Ages and decks",
                obj({"ages": named_map(age), "decks": named_map(deck),
                     "pile_marker": marker}, ["ages", "decks"]))


def setting_schema() -> dict:
    section = obj({"title": ref("text"), "text": {"type": "array", "items": ref("text")},
                   "notes": NOTES}, ["title", "text"])
    return _doc("setting.schema.json", "Setting and lore",
                obj({"world": ref("text"), "sections": {"type": "array", "items": section},
                     "notes": NOTES}, ["world", "sections"]))


def designer_notes_schema() -> dict:
    """rules/designer-notes.yaml: notes on the rules chapters, shown in the designer report."""
    note = obj({"chapter": {"type": "string", "pattern": "^[a-z0-9_-]+$",
                            "description": "id of a rules chapter (its front matter `id`)"},
                "section": {"type": "string", "description": "the design document's section"},
                "note": {"type": "string", "minLength": 1}}, ["chapter", "note"])
    return _doc("designer-notes.schema.json", "Designer notes on the rules",
                {"type": "array", "items": note})


KIND_SCHEMAS = {
    "designer-notes.schema.json": designer_notes_schema,
    "game.schema.json": game_schema,
    "tiles.schema.json": tiles_schema,
    "ages.schema.json": ages_schema,
    "setting.schema.json": setting_schema,
}
