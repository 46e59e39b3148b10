"""What-if edits of the compiled content: `--vary cards.quick_march.distance=2..4`,
`--vary game.round_cap=10..12` (several at once: every combination is played)."""

from __future__ import annotations

import itertools
import json

ROOTS = {"cards": "cards.json", "game": "game.json", "factions": "factions.json"}


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse(spec: str) -> tuple[str, list]:
    """'cards.X.field=2..4' -> ('cards.X.field', [2, 3, 4]); 'a=1,3,5' -> [1, 3, 5]."""
    if "=" not in spec:
        raise ValueError(f"--vary {spec!r}: expected PATH=A..B or PATH=V1,V2 "
                         "(e.g. cards.quick_march.distance=2..4)")
    path, values = spec.split("=", 1)
    path = path.strip()
    if path.split(".")[0] not in ROOTS or len(path.split(".")) < 2:
        raise ValueError(f"--vary {spec!r}: the path starts with one of {', '.join(ROOTS)} "
                         "and names a field (cards.ID.FIELD, game.FIELD, factions.ID.FIELD)")
    if ".." in values:
        a, b = values.split("..", 1)
        try:
            lo, hi = int(a), int(b)
        except ValueError:
            raise ValueError(f"--vary {spec!r}: a range A..B takes whole numbers") from None
        if hi < lo or hi - lo > 20:
            raise ValueError(f"--vary {spec!r}: A..B with A <= B and at most 21 values")
        return path, list(range(lo, hi + 1))
    return path, [_value(v.strip()) for v in values.split(",") if v.strip()]


def _matches(node, keys: list[str], found: list) -> None:
    """Every (container, key) under node whose key path ends with `keys`."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == keys[-1]:
                found.append((node, k))
            _matches(v, keys, found)
    elif isinstance(node, list):
        for v in node:
            _matches(v, keys, found)


def apply(compiled: dict[str, bytes], path: str, value) -> dict[str, bytes]:
    """The compiled files with every field at `path` set to `value` (a field inside a card's
    effect is found wherever it sits: cards.quick_march.distance is its move's distance)."""
    root, *rest = path.split(".")
    name = ROOTS[root]
    data = json.loads(compiled[name])
    if root in ("cards", "factions"):
        if len(rest) < 2:
            raise ValueError(f"--vary {path}: name the {root[:-1]} and a field "
                             f"({root}.ID.FIELD)")
        ident, keys = rest[0], rest[1:]
        if root == "cards":
            rows = data if isinstance(data, list) else data["cards"]
            targets = [c for c in rows if c.get("id") == ident]
        else:
            targets = [v for k, v in data.get("factions", {}).items() if k == ident]
        if not targets:
            raise ValueError(f"--vary {path}: no {root[:-1]} {ident!r}")
    else:
        targets, keys = [data], rest
    found: list = []
    for t in targets:
        _matches(t, keys, found)
    if not found:
        raise ValueError(f"--vary {path}: no field {'.'.join(keys)!r} there")
    leaves = [(node, k) for node, k in found if not isinstance(node[k], (dict, list))]
    if not leaves:
        raise ValueError(f"--vary {path}: {keys[-1]} is not a single value")
    for node, k in leaves:
        node[k] = value
    return {**compiled, name: json.dumps(data).encode()}


def grid(varies: list[tuple[str, list]]) -> list[dict]:
    """Every combination of the varied values: [{path: value, ...}, ...]."""
    paths = [p for p, _ in varies]
    return [dict(zip(paths, combo)) for combo in itertools.product(*(v for _, v in varies))]


def applied(compiled: dict[str, bytes], point: dict) -> dict[str, bytes]:
    """The compiled files at one point of the grid."""
    for path, value in point.items():
        compiled = apply(compiled, path, value)
    return compiled
