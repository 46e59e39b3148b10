"""Generate the JSON Schemas (2020-12) in schemas/ from the effect spec and content shapes.

`tether schemas` writes them; a test checks the committed files equal the generated ones,
so the schema an editor uses and the one `tether validate` uses never drift apart.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..effects import spec
from .examples import examples_schema
from .parts import BASE, DRAFT, ID, named_map, ref

# Every number content may hold has a range (issue 17.13): effect parameters (counts,
# amounts, distances) up to SMALL_MAX; any other integer of any schema up to ANY_MAX unless
# its schema says less. docs/security.md "Bounds" lists them.
SMALL_MAX = 100
ANY_MAX = 1000


def bound_integers(node):
    """Give every integer schema without a maximum the general bound (and -bound as minimum)."""
    if isinstance(node, dict):
        if node.get("type") == "integer":
            node.setdefault("maximum", ANY_MAX)
            node.setdefault("minimum", -ANY_MAX)
        for value in node.values():
            bound_integers(value)
    elif isinstance(node, list):
        for value in node:
            bound_integers(value)
    return node


def param_schema(t: str) -> dict:
    """JSON Schema fragment for one parameter type string of spec.py."""
    ref = lambda name: {"$ref": f"effects.schema.json#/$defs/{name}"}
    if t.startswith("list:"):
        return {"type": "array", "items": param_schema(t[5:])}
    if t.startswith("enum:"):
        return {"enum": t[5:].split("|")}
    simple = {
        "int": {"type": "integer", "minimum": -SMALL_MAX, "maximum": SMALL_MAX},
        "posint": {"type": "integer", "minimum": 1, "maximum": SMALL_MAX},
        "bool": {"type": "boolean"},
        "number": {"type": "number", "minimum": 0, "maximum": 1},
        "name": {"type": "string", "pattern": ID},
        "player": {"enum": spec.PLAYERS},
        "duration": {"enum": spec.DURATIONS},
        "limit": {"enum": spec.LIMITS},
        "event": {"enum": sorted(spec.EVENTS)},
        "units": param_schema(spec.UNITS) if t == "units" else None,
    }
    if t in simple and simple[t] is not None:
        return simple[t]
    return ref(t)


def _object(params: dict[str, str], extra: dict | None = None) -> dict:
    props, required = {}, []
    for name, t in params.items():
        kind, req, default = spec.parse_type(t)
        props[name] = dict(param_schema(kind))
        if default is not None:
            props[name]["default"] = spec.default_value(kind, default)
        if req:
            required.append(name)
    out = {"type": "object", "properties": props, "additionalProperties": False}
    if extra:
        out["properties"].update(extra)
    if required:
        out["required"] = required
    return out


def _tagged(tag: str, table: dict[str, tuple[str, dict[str, str]]], prefix: str) -> dict:
    """A union keyed by `tag` (e.g. step: deploy) with one $def per kind."""
    branches = []
    defs = {}
    for name, (doc, params) in table.items():
        body = _object(params, {tag: {"const": name}})
        body["required"] = [tag] + body.get("required", [])
        body["description"] = doc
        defs[f"{prefix}{name}"] = body
        branches.append({"if": {"properties": {tag: {"const": name}}, "required": [tag]},
                         "then": {"$ref": f"#/$defs/{prefix}{name}"}})
    union = {"type": "object", "required": [tag],
             "properties": {tag: {"enum": list(table)}}, "allOf": branches}
    return union, defs


def effects_schema() -> dict:
    """The effect language: steps, selectors, conditions, modifiers, abilities."""
    step, step_defs = _tagged("step", spec.STEPS, "step_")
    modifier, mod_defs = _tagged("modifier", spec.MODIFIERS, "modifier_")
    defs = {
        "step": step, "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
        "modifier": modifier, **step_defs, **mod_defs,
        "amount": {"oneOf": [
            {"type": "integer", "minimum": 0, "maximum": SMALL_MAX},
            {"const": "all"},
            _object({"of": "enum:" + "|".join(spec.AMOUNT_OF) + "!", "times": "posint",
                     "plus": "int", "max": "int"}),
        ]},
        "range": _object({"min": "int", "max": "int"}),
        "hex": _object(spec.HEX_SELECTOR),
        "champion": _object(spec.CHAMPION_SELECTOR),
        "bridge": _object(spec.BRIDGE_SELECTOR),
        "within": _object(spec.WITHIN),
        "condition": _object(spec.CONDITIONS),
        "target_in": _object({"target": "name!", "hex": "hex!"}),
        "adjacent_occupied": _object({"target": "name!", "min": "posint!"}),
        "card_filter": _object({"type": "enum:" + "|".join(spec.CARD_TYPES), "mana": "int",
                                "deck": "name", "exclude_this": "bool"}),
        "card_overrides": _object({"burn": "bool", "mana": "int", "gold": "int",
                                   "initiative": "int"}),
        "options": {"type": "array", "minItems": 2, "items": _object(
            {"label": "name!", "steps": "steps!"})},
        "outcomes": {"type": "array", "minItems": 1, "items": _object(
            {"faces": "face_range!", "steps": "steps!"})},
        "face_range": {"type": "array", "prefixItems": [
            {"type": "integer", "minimum": 1, "maximum": 6},
            {"type": "integer", "minimum": 1, "maximum": 6}], "items": False, "minItems": 2},
        "ability": ability_schema(),
    }
    return {"$schema": DRAFT, "$id": BASE + "effects.schema.json",
            "title": "The Last Tether effect language", "$defs": defs}


def ability_schema() -> dict:
    """A champion ability or faction passive: a static modifier or a triggered effect."""
    return {
        "type": "object", "additionalProperties": False,
        "required": ["name", "text"],
        "properties": {
            "id": {"type": "string", "pattern": ID},
            "name": {"type": "string", "minLength": 1},
            "design_name": {"type": "string"},
            "keyword": {"type": "string", "pattern": ID},
            "text": {"type": "string", "minLength": 1},
            "idea": {"type": "boolean", "description": "only an idea in the design document"},
            "limit": {"enum": spec.LIMITS},
            "modifier": {"$ref": "#/$defs/modifier"},
            "trigger": {"enum": sorted(spec.EVENTS)},
            "condition": {"$ref": "#/$defs/condition"},
            "steps": {"$ref": "#/$defs/steps"},
            "notes": {"$ref": "content.schema.json#/$defs/notes"},
            "departures": {"$ref": "content.schema.json#/$defs/departures"},
            "examples": examples_schema(),
        },
        "oneOf": [{"required": ["modifier"], "not": {"required": ["trigger"]}},
                  {"required": ["trigger", "steps"], "not": {"required": ["modifier"]}}],
    }


def content_schema() -> dict:
    """Shared definitions for content files."""
    return {
        "$schema": DRAFT, "$id": BASE + "content.schema.json",
        "$defs": {
            "id": {"type": "string", "pattern": ID},
            "notes": {"type": "array", "items": {"type": "string", "minLength": 1},
                      "description": "designer notes: open questions, decisions, typos fixed"},
            "text": {"type": "string", "minLength": 1},
            "departures": departures_schema(),
        },
    }


def departures_schema() -> dict:
    """Where printed text differs in meaning from the design document (departures.py)."""
    entry = {
        "type": "object", "additionalProperties": False,
        "required": ["kind", "document", "reason"],
        "properties": {
            "kind": {"enum": ["clarification", "open_reading", "rule_change"],
                     "description": (
                         "clarification: same meaning, clearer words; open_reading: the "
                         "document's wording is open and the text settles one reading; "
                         "rule_change: the text says something the document does not")},
            "document": {"type": "string", "minLength": 1, "description": (
                "the design document's exact wording (checked against the document by "
                "tether check --design-document)")},
            "printed": {"type": "string", "minLength": 1, "description": (
                "the printed words that replace it (must be in the printed text)")},
            "reason": {"type": "string", "minLength": 1,
                       "description": "why the printed text says it differently"},
            "accepted": {"type": "boolean", "default": False, "description": (
                "the designer accepts the reading or rule change; until then it is an open "
                "designer question")},
        },
    }
    return {"type": "array", "items": entry, "description": (
        "where the printed text differs in meaning from the design document's wording")}


def _doc(title: str, body: dict) -> dict:
    name = title.lower().replace(" ", "_")
    return {"$schema": DRAFT, "$id": BASE + f"{name}.schema.json", "title": title, **body}


def cards_schema() -> dict:
    card = {
        "type": "object", "additionalProperties": False,
        "required": ["id", "name", "category", "type", "cost", "initiative", "effect"],
        "properties": {
            "id": ref("id"), "name": {"type": "string", "minLength": 1},
            "design_name": {"type": "string", "description": "the design document's name"},
            "faction": ref("id"),
            "category": {"enum": spec.CATEGORIES},
            "type": {"enum": spec.CARD_TYPES},
            "cost": {"type": "object", "additionalProperties": False, "required": ["mana"],
                     "properties": {"mana": {"type": "integer", "minimum": 0},
                                    "gold": {"type": "integer", "minimum": 0, "default": 0}}},
            "initiative": {"type": "array", "items": {"type": "integer", "minimum": 0},
                           "minItems": 2, "maxItems": 2},
            "initiative_note": {"type": "string"},
            "copies": {"type": "integer", "minimum": 1, "maximum": 20, "default": 1},
            "burn": {"type": "boolean", "default": False},
            "vp": {"type": "integer", "minimum": 0, "description": "Permanence on gain"},
            "requires": {"$ref": "effects.schema.json#/$defs/condition"},
            "text": ref("text"),
            "flavor": {"type": "string", "description": (
                "flavour text: printed under the rules text in its own style (serif italic)")},
            "shrink": {"type": "boolean", "default": False, "description": (
                "let the name and rules text shrink below their standard size (name: two "
                "lines at 10.5 pt, text: 9.2 pt) down to 7.4 / 7 pt when they do not fit; "
                "the build then warns (shrunk to fit). Without it such a card is a build "
                "error")},
            "art": {"type": "string", "minLength": 1, "description": (
                "the card's picture: a .png, .jpg or .svg file, its path relative to the "
                "project folder (the one that holds the content folder) and inside it; "
                "without art the face shows its category's pictogram")},
            "effect": {"type": "array", "minItems": 1,
                       "items": {"$ref": "effects.schema.json#/$defs/step"}},
            "triggers": {"type": "array",
                         "items": {"$ref": "effects.schema.json#/$defs/ability"}},
            "champion": {
                "type": "object", "additionalProperties": False,
                "required": ["hp", "dice", "hit", "bounty", "gold"],
                "properties": {
                    "hp": {"type": "integer", "minimum": 1, "maximum": 100},
                    "dice": {"type": "integer", "minimum": 1, "maximum": 20},
                    "hit": {"type": "integer", "minimum": 1, "maximum": 6,
                            "description": "hits on 1..hit"},
                    "bounty": {"type": "integer", "minimum": 0},
                    "gold": {"type": "array", "items": {"type": "integer", "minimum": 0},
                             "minItems": 3, "maxItems": 3,
                             "description": "gold cost as 1st / 2nd / 3rd champion"},
                    "abilities": {"type": "array",
                                  "items": {"$ref": "effects.schema.json#/$defs/ability"}},
                }},
            "notes": ref("notes"),
            "departures": ref("departures"),
            "examples": examples_schema(),
        },
        "allOf": [
            {"if": {"properties": {"type": {"const": "champion"}}, "required": ["type"]},
             "then": {"required": ["champion"]},
             "else": {"required": ["text"], "not": {"required": ["champion"]}}},
            {"if": {"properties": {"type": {"const": "victory"}}, "required": ["type"]},
             "then": {"required": ["vp"]}},
        ],
    }
    return _doc("Cards", {
        "type": "object", "additionalProperties": False, "required": ["deck", "cards"],
        "properties": {"deck": ref("id"), "notes": ref("notes"),
                       "cards": {"type": "array", "items": card}},
    })


def terms_schema() -> dict:
    term = {"type": "object", "additionalProperties": False, "required": ["singular", "plural"],
            "properties": {"singular": {"type": "string", "minLength": 1},
                           "plural": {"type": "string", "minLength": 1},
                           "adjective": {"type": "string", "minLength": 1},
                           "design_names": {"type": "array", "items": {"type": "string"}},
                           "icon": ref("id"), "common_word": {"type": "boolean"},
                           "countable": {"type": "boolean"},
                           "shrink": {"type": "boolean", "default": False, "description": (
                               "let this term's words shrink (to 90, 80, then 70 % of their "
                               "standard size) where they print on a token and do not fit "
                               "its disc; the build then warns (shrunk to fit). Without it "
                               "such a token is a build error")},
                           "notes": ref("notes")}}
    icon = {"type": "object", "additionalProperties": False, "required": ["term"],
            "properties": {"term": ref("id")}}
    return _doc("Terms", {"type": "object", "additionalProperties": False,
                          "required": ["terms", "icons"],
                          "properties": {"terms": named_map(term), "icons": named_map(icon)}})


def keywords_schema() -> dict:
    kw = {"type": "object", "additionalProperties": False, "required": ["name", "reminder"],
          "properties": {"name": ref("text"), "term": ref("id"), "reminder": ref("text"),
                         "design_name": {"type": "string"},
                         "rulings": {"type": "array", "items": ref("text")},
                         "notes": ref("notes"), "departures": ref("departures")}}
    return _doc("Keywords", {"type": "object", "additionalProperties": False,
                             "required": ["keywords"],
                             "properties": {"keywords": named_map(kw)}})


def factions_schema() -> dict:
    faction = {
        "type": "object", "additionalProperties": False,
        "required": ["name", "theme", "colour", "lore", "passives", "spell", "champion"],
        "properties": {
            "name": ref("text"), "design_name": {"type": "string"},
            "placeholder_names": {"type": "array", "items": {"type": "string"}},
            "theme": ref("text"), "tagline": {"type": "string"},
            "colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
            "emblem": ref("id"), "lore": ref("text"),
            "champion_lore": {"type": "string"},
            "passives": {"type": "array", "minItems": 1,
                         "items": {"$ref": "effects.schema.json#/$defs/ability"}},
            "spell": ref("id"), "champion": ref("id"), "notes": ref("notes"),
        }}
    return _doc("Factions", {"type": "object", "additionalProperties": False,
                             "required": ["factions", "default"],
                             "properties": {"default": ref("id"),
                                            "factions": named_map(faction)}})


def generic_schema(title: str) -> dict:
    """Looser schema for prose-heavy files (setting, ages, tiles, game): typed top level."""
    return _doc(title, {"type": "object"})


SCHEMAS = {
    "effects.schema.json": effects_schema,
    "content.schema.json": content_schema,
    "cards.schema.json": cards_schema,
    "terms.schema.json": terms_schema,
    "keywords.schema.json": keywords_schema,
    "factions.schema.json": factions_schema,
}


def all_schemas() -> dict[str, dict]:
    """Every generated schema by file name (game/tiles/ages/setting come from content_kinds)."""
    from .kinds import KIND_SCHEMAS
    out = {name: fn() for name, fn in SCHEMAS.items()}
    out.update({name: fn() for name, fn in KIND_SCHEMAS.items()})
    return {name: bound_integers(schema) for name, schema in out.items()}


def dump(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_all(directory: Path) -> list[Path]:
    """Write every schema into `directory`; returns the paths written."""
    from ..fsutil import write_atomic
    paths = []
    for name, schema in all_schemas().items():
        path = directory / name
        write_atomic(path, dump(schema).encode())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for p in write_all(Path(__file__).resolve().parents[2] / "schemas"):
        print(p)
