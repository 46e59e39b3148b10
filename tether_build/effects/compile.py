"""Compile content into the engine's input: build/engine/{cards,game,factions,tiles}.json.

Every step and modifier gets every parameter of tether_build/effects/spec.py filled in
(defaults from the '=value' suffixes), abilities get their limit, ids are checked to
resolve (faction spell/Champion, card_filter decks, deck ages). The engine reads only
these files (or the same dicts in memory), never YAML.
"""

from __future__ import annotations

import json

from . import spec

NESTED_STEPS = ("then", "else", "steps")


class CompileError(ValueError):
    """Content that cannot be compiled for the engine (unknown step, dangling id)."""


def _fill(params: dict[str, str], d: dict, where: str) -> dict:
    out = dict(d)
    for name, t in params.items():
        kind, required, default = spec.parse_type(t)
        if name not in out:
            if required:
                raise CompileError(f"{where}: missing required parameter {name!r}")
            if default is not None:
                out[name] = spec.default_value(kind, default)
    return out


def normalize_step(d: dict, where: str) -> dict:
    """One step with defaults filled, nested steps/modifiers normalized."""
    kind = d.get("step")
    if kind not in spec.STEPS:
        raise CompileError(f"{where}: unknown step {kind!r}")
    out = _fill(spec.STEPS[kind][1], d, f"{where}.{kind}")
    for key in NESTED_STEPS:
        if isinstance(out.get(key), list):
            out[key] = normalize_steps(out[key], f"{where}.{kind}.{key}")
    if kind == "choose_one":
        out["options"] = [{**o, "steps": normalize_steps(o["steps"], f"{where}.{o['label']}")}
                          for o in out["options"]]
    if kind == "roll":
        out["outcomes"] = [{**o, "steps": normalize_steps(o["steps"], f"{where}.roll")}
                           for o in out["outcomes"]]
    if kind == "add_modifier":
        out["modifier"] = normalize_modifier(out["modifier"], where)
    return out


def normalize_steps(steps: list[dict] | None, where: str) -> list[dict]:
    """A list of steps, each normalized."""
    return [normalize_step(s, f"{where}[{i}]") for i, s in enumerate(steps or [])]


def normalize_modifier(d: dict, where: str) -> dict:
    """A modifier with defaults filled."""
    kind = d.get("modifier")
    if kind not in spec.MODIFIERS:
        raise CompileError(f"{where}: unknown modifier {kind!r}")
    return _fill(spec.MODIFIERS[kind][1], d, f"{where}.{kind}")


def normalize_ability(d: dict, where: str) -> dict:
    """A Champion ability, faction passive or card trigger, ready for the engine."""
    out = {"name": d.get("name", ""), "keyword": d.get("keyword"),
           "limit": d.get("limit") or "unlimited", "idea": bool(d.get("idea", False)),
           "modifier": None, "trigger": None, "condition": d.get("condition"), "steps": []}
    if d.get("modifier"):
        out["modifier"] = normalize_modifier(d["modifier"], where)
    else:
        if d.get("trigger") not in spec.EVENTS:
            raise CompileError(f"{where}: unknown trigger {d.get('trigger')!r}")
        out["trigger"] = d["trigger"]
        out["steps"] = normalize_steps(d.get("steps"), f"{where}.steps")
    return out


def compile_card(c: dict) -> dict:
    """One normalized card (shape of `tether cards --json`) -> the engine's card dict."""
    where = f"{c['source']['file']}:{c['source']['line']}: {c['id']}" if c.get(
        "source") else c["id"]
    champ = c.get("champion")
    if champ is not None:
        champ = {"hp": champ["hp"], "dice": champ["dice"], "hit": champ["hit"],
                 "bounty": champ["bounty"], "gold": list(champ["gold"]),
                 "abilities": [normalize_ability(a, f"{where}.ability[{i}]")
                               for i, a in enumerate(champ.get("abilities", []))]}
    return {
        "id": c["id"], "name": c["name"], "deck": c["deck"], "age": c.get("age"),
        "faction": c.get("faction"), "category": c["category"], "type": c["type"],
        "mana": c["mana"], "gold": c.get("gold", 0), "initiative": list(c["initiative"]),
        "copies": c.get("copies", 1), "burn": bool(c.get("burn", False)),
        "vp": c.get("vp", 0) or 0, "requires": c.get("requires"), "champion": champ,
        "effect": normalize_steps(c["effect"], f"{where}.effect"),
        "triggers": [normalize_ability(t, f"{where}.trigger[{i}]")
                     for i, t in enumerate(c.get("triggers", []))],
        "text": c.get("text", ""), "source": c.get("source"),
    }


def _game_json(content) -> dict:
    ages_doc = content.ages
    ages = sorted(ages_doc["ages"].values(), key=lambda a: min(a["rounds"]))
    return {
        "constants": {k: v for k, v in content.game.items() if k != "notes"},
        "ages": [{"numeral": a["numeral"], "rounds": list(a["rounds"]),
                  "market_deck": a["market_deck"], "power_deck": a["power_deck"],
                  "preview": {str(r): int(n) for r, n in (a.get("preview") or {}).items()}}
                 for a in ages],
        "decks": {k: {"kind": v["kind"], "age": v.get("age")}
                  for k, v in ages_doc["decks"].items()},
    }


def _factions_json(content, ids: set[str]) -> dict:
    doc = content.data("factions.yaml") if hasattr(content, "data") else {
        "default": content.factions_default, "factions": content.factions}
    out = {}
    for fid, f in doc["factions"].items():
        for key in ("spell", "champion"):
            if f[key] not in ids:
                raise CompileError(f"factions.yaml: {fid}.{key}: no card {f[key]!r}")
        out[fid] = {"name": f["name"], "colour": f.get("colour"), "spell": f["spell"],
                    "champion": f["champion"],
                    "passives": [normalize_ability(a, f"factions.yaml: {fid}.passives[{i}]")
                                 for i, a in enumerate(f["passives"])]}
    if doc["default"] not in out:
        raise CompileError(f"factions.yaml: default faction {doc['default']!r} is not defined")
    return {"default": doc["default"], "factions": out}


def _check_decks(cards: list[dict], decks: dict) -> None:
    for c in cards:
        if c["deck"] not in decks:
            raise CompileError(f"{c['id']}: deck {c['deck']!r} is not in ages.yaml decks")
    blob = json.dumps([c["effect"] for c in cards])
    for name in set(_filter_decks(json.loads(blob))):
        if name not in decks:
            raise CompileError(f"card_filter names unknown deck {name!r}")


def _filter_decks(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("pool", "applies_to") and isinstance(v, dict) and "deck" in v:
                yield v["deck"]
            yield from _filter_decks(v)
    elif isinstance(node, list):
        for v in node:
            yield from _filter_decks(v)


def dumps(obj) -> bytes:
    """Deterministic JSON bytes."""
    return (json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode()


def compile_engine(cards: list[dict], content) -> dict[str, bytes]:
    """The four engine files as {name: JSON bytes}."""
    compiled = [compile_card(c) for c in cards]
    game = _game_json(content)
    _check_decks(compiled, game["decks"])
    factions = _factions_json(content, {c["id"] for c in compiled})
    return {
        "cards.json": dumps({"cards": compiled}),
        "game.json": dumps(game),
        "factions.json": dumps(factions),
        "tiles.json": dumps({"tiles": content.tiles}),
    }
