"""docs/effects.md: the effect language's reference, generated from effects/spec.py.

Every step, modifier, selector, condition, trigger event and small vocabulary is listed with
its parameters (type, required, default) and a YAML example built from the same tables, so
the page cannot drift from the language (`tether schemas --check` compares it, and a test
validates every example against the generated JSON schema).
"""

from __future__ import annotations

import json

from . import spec

SAMPLES = {
    "amount": 2, "posint": 1, "int": 1, "bool": True, "number": 0.5, "name": "target",
    "hex": {"occupied_by": "you", "pick": "choose"},
    "champion": {"side": "friendly", "pick": "choose"},
    "bridge": {"touching": {"occupied_by": "you"}},
    "player": "chosen_opponent", "steps": [{"step": "draw", "count": 1}],
    "condition": {"occupies": {"kind": ["mine"]}},
    "modifier": {"modifier": "hit_on", "units": "forces", "value": 3},
    "event": "round_end", "range": {"min": 1}, "card_filter": {"type": "champion"},
    "card_overrides": {"burn": True}, "duration": "end_of_round", "limit": "once_per_round",
    "within": {"distance": 2, "of": "your_champion"},
    "target_in": {"target": "target", "hex": {"kind": ["mine"]}},
    "adjacent_occupied": {"target": "target", "min": 3},
    "face_range": [1, 3], "units": "forces",
    "outcomes": [{"faces": [1, 4], "steps": [{"step": "gain_gold", "amount": 1}]},
                 {"faces": [5, 6], "steps": [{"step": "gain_gold", "amount": 6}]}],
    "options": [{"label": "gold", "steps": [{"step": "gain_gold", "amount": 2}]},
                {"label": "draw", "steps": [{"step": "draw", "count": 1}]}],
}


def sample(kind: str):
    """A valid example value of a parameter type."""
    if kind.startswith("list:"):
        return [sample(kind[5:])]
    if kind.startswith("enum:"):
        return kind[5:].split("|")[0]
    return SAMPLES[kind]


def _flow(value) -> str:
    """A value in YAML flow style (JSON is valid YAML; keys unquoted for reading)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.replace("_", "").isalnum():
        return value
    return json.dumps(value)


def example(tag: str, name: str, params: dict[str, str]) -> dict:
    """The smallest valid item of a step or modifier: its required parameters."""
    out = {tag: name}
    for param, t in params.items():
        kind, required, _ = spec.parse_type(t)
        if required:
            out[param] = sample(kind)
    return out


def _type_text(kind: str) -> str:
    if kind.startswith("enum:"):
        return "one of " + ", ".join(f"`{v}`" for v in kind[5:].split("|"))
    if kind.startswith("list:"):
        return "list of " + _type_text(kind[5:])
    return f"`{kind}`"


def _params(params: dict[str, str]) -> list[str]:
    if not params:
        return ["No parameters.", ""]
    rows = ["| parameter | type | required | default |", "|---|---|---|---|"]
    for param, t in params.items():
        kind, required, default = spec.parse_type(t)
        rows.append(f"| `{param}` | {_type_text(kind)} | {'yes' if required else ''} | "
                    f"{'' if default is None else '`' + default + '`'} |")
    return rows + [""]


def _table(title: str, tag: str, table: dict) -> list[str]:
    out = [f"## {title}", ""]
    for name, (doc, params) in table.items():
        out += [f"### `{name}`", "", doc, ""] + _params(params)
        out += ["```yaml", f"- {_flow(example(tag, name, params))}", "```", ""]
    return out


def _keys(title: str, intro: str, table: dict[str, str]) -> list[str]:
    return [f"## {title}", "", intro, ""] + _params(table)


def render() -> str:
    """The whole reference page as Markdown."""
    out = ["# The effect language", "",
           "Generated from `tether_build/effects/spec.py` by `tether schemas`; do not edit.",
           "A card's `effect` is a list of steps; a Champion ability or faction passive is a",
           "static `modifier` or a `trigger` with steps. Every parameter below is checked by",
           "the schema (`schemas/effects.schema.json`); the compiler fills in each default.",
           ""]
    out += _table("Steps", "step", spec.STEPS)
    out += _table("Modifiers", "modifier", spec.MODIFIERS)
    out += _keys("Hex selector", "Every key given must hold; `pick` says who picks among "
                 "the matching hexes.", spec.HEX_SELECTOR)
    out += ["```yaml", f"where: {_flow(SAMPLES['hex'])}", "```", ""]
    out += _keys("Champion selector", "Every key given must hold.", spec.CHAMPION_SELECTOR)
    out += ["```yaml", f"champion: {_flow(SAMPLES['champion'])}", "```", ""]
    out += _keys("Bridge selector", "Which Bridge(s) a step may use.", spec.BRIDGE_SELECTOR)
    out += _keys("Within", ("A distance from something of yours: the hexes at most `distance` "
                            "away, and with `min_distance` at least that far (`{distance: 1, "
                            "min_distance: 1}`: the adjacent hexes, not its own)."), spec.WITHIN)
    out += _keys("Conditions", "Every key given must hold (`if`, `when`, `requires`).",
                 spec.CONDITIONS)
    out += ["```yaml", f"condition: {_flow(SAMPLES['condition'])}", "```", ""]
    out += ["## Trigger events", "", "| event | when |", "|---|---|"]
    out += [f"| `{name}` | {doc} |" for name, doc in spec.EVENTS.items()] + [""]
    for title, values in (("Players", spec.PLAYERS), ("Durations", spec.DURATIONS),
                          ("Limits", spec.LIMITS), ("Amount sources (`amount: {of: ...}`)",
                                                    spec.AMOUNT_OF),
                          ("Units", spec.UNITS[5:].split("|")),
                          ("Card types", spec.CARD_TYPES)):
        out += [f"## {title}", "", ", ".join(f"`{v}`" for v in values), ""]
    return "\n".join(out).rstrip() + "\n"
