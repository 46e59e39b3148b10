"""Schema validation of one parsed content document with the schemas of schemas/."""

from __future__ import annotations

import difflib
import json
from functools import cache
from pathlib import Path

from . import fastschema

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


def _dispatch_key(branches) -> str | None:
    """The key K when every branch is `if: {properties: {K: {const: v}}, required: [K]},
    then: ...` (a chain of step or modifier kinds), else None."""
    keys = set()
    for b in branches:
        cond = b.get("if") if isinstance(b, dict) else None
        if not cond or set(b) != {"if", "then"} or set(cond) != {"properties", "required"}:
            return None
        props = cond["properties"]
        key = next(iter(props)) if len(props) == 1 else None
        if key is None or cond["required"] != [key] or set(props[key]) != {"const"}:
            return None
        keys.add(key)
    return keys.pop() if len(keys) == 1 else None


def dispatched(node):
    """The schema with each if/then chain over a kind key (`step`, `modifier`) replaced by
    one `x-dispatch` lookup: the same verdicts and errors, without trying every kind's `if`
    on every step. The files keep the chains (editors read them)."""
    if isinstance(node, list):
        return [dispatched(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: dispatched(v) for k, v in node.items()}
    chain = node.get("allOf")
    key = _dispatch_key(chain) if isinstance(chain, list) and chain else None
    if key is not None:
        del out["allOf"]
        out["x-dispatch"] = {"key": key, "map": {b["if"]["properties"][key]["const"]:
                                                 dispatched(b["then"]) for b in chain}}
    return out


def _dispatch(validator, value, instance, schema):
    """x-dispatch: validate an object against the branch its kind key names (if any)."""
    if isinstance(instance, dict):
        kind = instance.get(value["key"])
        branch = value["map"].get(kind) if isinstance(kind, str) else None
        if branch is not None:
            yield from validator.descend(instance, branch)


@cache
def documents(schema_dir: Path = SCHEMA_DIR) -> dict[str, dict]:
    """Every schema of schema_dir by file name, its if/then chains dispatched."""
    return {path.name: dispatched(json.loads(path.read_text()))
            for path in sorted(schema_dir.glob("*.schema.json"))}


@cache
def registry(schema_dir: Path = SCHEMA_DIR):
    """All schemas of schema_dir, resolvable by their relative file names."""
    from referencing import Registry, Resource

    resources = []
    for name, contents in documents(schema_dir).items():
        res = Resource.from_contents(contents)
        resources.append((name, res))
        resources.append((contents["$id"], res))
    return Registry().with_resources(resources)


@cache
def _compiler(schema_dir: Path) -> fastschema.Compiler:
    return fastschema.Compiler(documents(schema_dir))


@cache
def fast(schema_name: str, schema_dir: Path = SCHEMA_DIR):
    """The compiled yes/no check of one schema (fastschema), or None where the schema uses
    a keyword it does not know (jsonschema alone decides then)."""
    try:
        return _compiler(schema_dir).schema(schema_name)
    except fastschema.Unsupported:
        return None


def _whole_number(_checker, instance) -> bool:
    """'integer' means a whole number written as one: 2.0 is not a count of copies."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def strict_validator_class():
    """Draft 2020-12 with x-dispatch, where 2.0 is not an integer: content that the engine
    uses as a count must be a whole number written as one."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator, validators={"x-dispatch": _dispatch},
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number))


@cache
def validator(schema_name: str, schema_dir: Path = SCHEMA_DIR):
    """jsonschema's validator of one schema: it words every error."""
    reg = registry(schema_dir)
    return strict_validator_class()(reg.contents(schema_name), registry=reg)


def _hint(error) -> str | None:
    """A fix suggestion for an error ('did you mean ...?')."""
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in known]
        for key in extra:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            if close:
                return f"did you mean '{close[0]}'?"
        return "allowed: " + ", ".join(known) if known else None
    if error.validator == "enum":
        close = difflib.get_close_matches(str(error.instance), [str(x) for x in
                                                                 error.validator_value], n=1)
        if close:
            return f"did you mean '{close[0]}'?"
        vals = [str(v) for v in error.validator_value]
        return "one of: " + ", ".join(vals[:12]) + (" ..." if len(vals) > 12 else "")
    if error.validator == "required":
        return "add the missing field"
    if _initiative_pair(error):
        return "write [first, second] as the design document's 'Init: first / second'"
    if error.validator == "type":
        return f"expected {error.validator_value}"
    return None


def _leaf(error):
    """For anyOf/oneOf failures, the most relevant nested error."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        return best_match(error.context)
    return error


def _message(error) -> str:
    if error.validator == "additionalProperties":
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
        return "unknown field " + ", ".join(repr(k) for k in extra)
    if error.validator == "required":
        return error.message.replace(" is a required property", " is required")
    if error.validator == "enum":
        return f"{error.instance!r} is not allowed here"
    if _initiative_pair(error):
        n = len(error.instance)
        return (f"initiative needs both numbers, as a card prints them (e.g. [40, 110]); "
                f"{n} given")
    return error.message


def _initiative_pair(error) -> bool:
    """A card's `initiative` with other than its two numbers (§22: 'Init: 40 / 110')."""
    path = tuple(error.absolute_path)
    return (error.validator in ("minItems", "maxItems") and bool(path)
            and path[-1] == "initiative" and isinstance(error.instance, list))


def check(data, schema_name: str):
    """Yield (path tuple, message, hint) for every schema violation of `data`.

    The compiled check answers first; only a document it rejects meets jsonschema, which
    finds and words every error."""
    ok = fast(schema_name)
    if ok is not None and ok(data):
        return
    seen = set()
    for error in validator(schema_name).iter_errors(data):
        error = _leaf(error)
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            known = error.schema.get("properties", {})
            path += tuple(k for k in error.instance if k not in known)[:1]
        key = (path, error.message)
        if key in seen:
            continue
        seen.add(key)
        yield path, _message(error), _hint(error)


def main(argv: list[str]) -> int:
    """python -m tether_build.content.schemacheck FILE SCHEMA: quick check of one file."""
    from . import yamlio
    doc, found = yamlio.load(Path(argv[0]))
    for p in found:
        print(p)
    if doc is None:
        return 1
    data = doc.data
    problems = list(check(data, argv[1]))
    for path, msg, hint in problems:
        print(f"{argv[0]}: {'.'.join(map(str, path))}: {msg}" + (f" ({hint})" if hint else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    import sys
    raise SystemExit(main(sys.argv[1:]))
