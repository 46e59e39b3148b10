"""The compiled schema check (fastschema) gives jsonschema's verdict: on every content file,
on seeded random edits of them, and on the keywords' corner cases (true is not 1, 2.0 is not
an integer, prefixItems, if/else, oneOf...). A keyword it does not know is refused, so that
schema is left to jsonschema."""

from __future__ import annotations

import copy
import random

import pytest
from referencing import Registry, Resource

from tether_build.content import fastschema, schemacheck
from tether_build.content.load import SCHEMA_LINE
from tether_build.content.yamlio import load


def _valid(data, name: str) -> bool:
    """jsonschema's verdict, as the validator words errors with."""
    return not any(True for _ in schemacheck.validator(name).iter_errors(data))


def _documents(root):
    """(file, schema name, data) of every YAML content file of the fixture."""
    for path in sorted(root.rglob("*.yaml")):
        first = path.read_text().split("\n", 1)[0]
        assert first.startswith(SCHEMA_LINE), path
        doc, problems = load(path)
        assert not problems and doc is not None, path
        yield path.name, first.rsplit("/", 1)[-1].strip(), doc.data


def _nodes(data, path=()):
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _nodes(v, path + (i,))


REPLACEMENTS = (-1, 0, 2, 2.0, 2.5, True, False, None, "", "x", "gain_gould", "ready",
                [], [1], {}, {"step": [1]}, {"step": "draw"}, 10**9, "A" * 300)


def _mutate(data, rng: random.Random):
    """A copy of data with one random node replaced, removed, or given an unknown key."""
    bad = copy.deepcopy(data)
    path, _ = rng.choice(list(_nodes(bad))[1:])
    parent = bad
    for part in path[:-1]:
        parent = parent[part]
    how = rng.randrange(4)
    if how == 0 and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == 1 and isinstance(parent[path[-1]], dict):
        parent[path[-1]]["unknown_field"] = 1
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(REPLACEMENTS))
    return bad


def test_every_content_file_is_valid_both_ways(content):
    names = set()
    for file, name, data in _documents(content.root):
        check = schemacheck.fast(name)
        assert check is not None, f"{name}: the shipped schemas compile"
        assert check(data) and _valid(data, name), file
        names.add(name)
    assert len(names) >= 9


def test_random_edits_get_jsonschemas_verdict(content):
    rng = random.Random(7)
    verdicts = []
    for file, name, data in _documents(content.root):
        check = schemacheck.fast(name)
        for _ in range(20):
            bad = _mutate(data, rng)
            want = _valid(bad, name)
            assert check(bad) == want, (file, want)
            verdicts.append(want)
    assert verdicts.count(False) > 150 and verdicts.count(True) > 20  # both kinds met


SCHEMA = "t.schema.json"
CASES = [  # (schema, instances): each instance must get jsonschema's verdict
    ({"type": "integer"}, [1, 2.0, True, "1", None]),
    ({"type": ["integer", "null"]}, [None, 1, 1.5]),
    ({"type": "number", "minimum": 1, "maximum": 3}, [0, 1, 3.0, 3.5, True, "2"]),
    ({"const": 1}, [1, 1.0, True, "1"]),
    ({"const": False}, [False, 0, None]),
    ({"enum": ["a", 1, [1, True]]}, ["a", 1, True, [1, True], [1, 1], "b"]),
    ({"const": {"a": [1]}}, [{"a": [1]}, {"a": [True]}, {"a": [1], "b": 2}]),
    ({"type": "string", "pattern": "^[a-z]+$", "minLength": 2, "maxLength": 3},
     ["ab", "a", "abcd", "aB", 5]),
    ({"properties": {"a": {"type": "integer"}}, "required": ["a"],
      "additionalProperties": False}, [{"a": 1}, {"a": 1, "b": 2}, {}, {"a": "x"}, [1]]),
    ({"properties": {"a": {}}, "additionalProperties": {"type": "string"}},
     [{"a": 1, "b": "x"}, {"b": 2}, {1: "x"}]),
    ({"propertyNames": {"pattern": "^x"}, "minProperties": 1, "maxProperties": 2},
     [{"xa": 1}, {}, {"xa": 1, "xb": 2, "xc": 3}, {"ya": 1}]),
    ({"prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "minItems": 1,
      "maxItems": 3}, [["a"], ["a", 1, 2], [1], ["a", "b"], [], ["a", 1, 2, 3]]),
    ({"items": False}, [[], [1]]),
    ({"if": {"properties": {"k": {"const": "a"}}, "required": ["k"]},
      "then": {"required": ["x"]}, "else": {"required": ["y"]}},
     [{"k": "a", "x": 1}, {"k": "a", "y": 1}, {"k": "b", "y": 1}, {"y": 1}, {}]),
    ({"anyOf": [{"type": "string"}, {"minimum": 5}]}, ["a", 6, 4, None]),
    ({"oneOf": [{"type": "integer"}, {"minimum": 5}]}, [1, 6, 5.5, "a"]),
    ({"allOf": [{"minimum": 1}, {"maximum": 2}], "not": {"const": 2}}, [1, 2, 3]),
    ({"$defs": {"n": {"type": "integer"}, "l": {"type": "array", "items": {"$ref": "#"}}},
      "anyOf": [{"$ref": "#/$defs/n"}, {"$ref": "#/$defs/l"}]},
     [1, [1, [2, [3]]], [1, ["a"]], "a"]),
]


@pytest.mark.parametrize("schema, instances", CASES)
def test_keywords_get_jsonschemas_verdict(schema, instances):
    doc = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA, **schema}
    check = fastschema.Compiler({SCHEMA: doc}).schema(SCHEMA)
    reg = Registry().with_resource(SCHEMA, Resource.from_contents(doc))
    slow = schemacheck.strict_validator_class()(doc, registry=reg)
    for x in instances:
        assert check(x) == slow.is_valid(x), (schema, x)


def test_dispatch_by_kind_key():
    docs = {SCHEMA: {"$id": SCHEMA, "x-dispatch": {"key": "step", "map": {
        "draw": {"required": ["n"]}}}}}
    check = fastschema.Compiler(docs).schema(SCHEMA)
    assert check({"step": "draw", "n": 1}) and not check({"step": "draw"})
    assert check({"step": "other"}) and check({"step": ["draw"]}) and check(3)


@pytest.mark.parametrize("schema", [{"format": "email"}, {"unevaluatedProperties": False},
                                    {"type": "object", "properties": {"a": {"$ref": "#x"}}},
                                    {"$ref": "other.schema.json"}])
def test_an_unknown_keyword_is_left_to_jsonschema(schema):
    with pytest.raises(fastschema.Unsupported):
        fastschema.Compiler({SCHEMA: {"$id": SCHEMA, **schema}}).schema(SCHEMA)


def test_a_schema_that_shares_an_unsupported_part_is_unsupported_too():
    shared = {"$id": "a.schema.json", "$defs": {"x": {"type": "object", "properties": {
        "y": {"$ref": "#/$defs/x"}, "z": {"format": "email"}}}}, "$ref": "#/$defs/x"}
    other = {"$id": "b.schema.json", "$ref": "a.schema.json#/$defs/x"}
    compiler = fastschema.Compiler({"a.schema.json": shared, "b.schema.json": other})
    for name in ("a.schema.json", "b.schema.json"):
        with pytest.raises(fastschema.Unsupported):
            compiler.schema(name)
