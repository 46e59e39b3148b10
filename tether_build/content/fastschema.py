"""A fast yes/no schema check: each schema compiled once into nested Python predicates.

Valid content is the common case, and answering "valid?" needs no error objects, no
reference lookups per step and not even jsonschema's import. `Compiler(...).schema(name)`
turns a schema of `schemas/` into one predicate; `schemacheck.check` asks it first and runs
jsonschema only for a document it rejects, so every error a designer reads is still worded by
jsonschema.

The predicate is exact for the keywords it knows (draft 2020-12 semantics, and the project's
rule that an integer is a whole number written as one, never 2.0 nor true). A schema that
uses any other keyword raises Unsupported when compiled, and that schema is left to
jsonschema alone: a keyword this module does not know can never be skipped silently.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Predicate = Callable[[object], bool]

# keywords that only annotate: they never change a verdict
ANNOTATIONS = frozenset(("description", "default", "title", "$schema", "$id", "$defs",
                         "$comment", "examples"))


class Unsupported(Exception):
    """The schema uses a keyword (or a reference) this compiler does not handle."""


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


TYPES: dict[str, Predicate] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def equal(one, two) -> bool:
    """JSON equality as jsonschema's enum and const read it: true is not 1, 1 is 1.0."""
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    if isinstance(one, (list, dict)) or isinstance(two, (list, dict)):
        return False
    return one == two


def _all(checks: list[Predicate]) -> Predicate:
    if not checks:
        return lambda x: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks
        return lambda x: a(x) and b(x)
    return lambda x: all(c(x) for c in checks)


class Compiler:
    """Compiles the schemas of one folder; a `$ref` is compiled once, lazily (a schema may
    refer to itself through its definitions)."""

    def __init__(self, docs: dict[str, dict]):
        self.docs = docs          # file name -> schema contents
        self.by_id = {d.get("$id"): name for name, d in docs.items() if "$id" in d}
        self.refs: dict[tuple[str, str], Predicate] = {}

    def schema(self, name: str) -> Predicate:
        """The predicate of one whole schema file. On Unsupported the references compiled
        meanwhile are forgotten: some may wait for a part that never compiled."""
        known = dict(self.refs)
        try:
            return self.ref(name, "")
        except Unsupported:
            self.refs = known
            raise

    def ref(self, doc: str, pointer: str) -> Predicate:
        key = (doc, pointer)
        got = self.refs.get(key)
        if got is None:
            cell: list[Predicate] = []
            self.refs[key] = lambda x: cell[0](x)
            cell.append(self.compile(self._target(doc, pointer), doc))
            self.refs[key] = got = cell[0]
        return got

    def _target(self, doc: str, pointer: str):
        node = self.docs[doc]
        for part in filter(None, pointer.split("/")):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                raise Unsupported(f"unresolvable reference {doc}#{pointer}")
        return node

    def _resolve(self, ref: str, doc: str) -> Predicate:
        where, _, pointer = ref.partition("#")
        if where:
            name = self.by_id.get(where) or where.rsplit("/", 1)[-1]
            if name not in self.docs:
                raise Unsupported(f"reference to another document: {ref}")
            doc = name
        if pointer and not pointer.startswith("/"):
            raise Unsupported(f"anchor reference: {ref}")
        return self.ref(doc, pointer)

    def compile(self, schema, doc: str) -> Predicate:
        """One schema (dict or boolean) of document `doc` as a predicate."""
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unsupported(f"not a schema: {schema!r}")
        unknown = set(schema) - ANNOTATIONS - set(_KEYWORDS) - {"then", "else"}  # read by "if"
        if unknown:
            raise Unsupported("keywords " + ", ".join(sorted(unknown)))
        checks = [_KEYWORDS[k](self, schema, doc) for k in _KEYWORDS if k in schema]
        return _all(checks)


def _type(c: Compiler, s: dict, doc: str) -> Predicate:
    names = s["type"] if isinstance(s["type"], list) else [s["type"]]
    if any(n not in TYPES for n in names):
        raise Unsupported(f"type {names}")
    preds = [TYPES[n] for n in names]
    return preds[0] if len(preds) == 1 else (lambda x: any(p(x) for p in preds))


def _enum(c: Compiler, s: dict, doc: str) -> Predicate:
    values = s["enum"]
    if all(isinstance(v, str) for v in values):
        strings = frozenset(values)
        return lambda x: isinstance(x, str) and x in strings
    return lambda x: any(equal(v, x) for v in values)


def _const(c: Compiler, s: dict, doc: str) -> Predicate:
    value = s["const"]
    if isinstance(value, str):
        return lambda x: isinstance(x, str) and x == value
    return lambda x: equal(value, x)


def _properties(c: Compiler, s: dict, doc: str) -> Predicate:
    props = [(k, c.compile(v, doc)) for k, v in s["properties"].items()]
    return lambda x: not isinstance(x, dict) or all(p(x[k]) for k, p in props if k in x)


def _additional(c: Compiler, s: dict, doc: str) -> Predicate:
    known = frozenset(s.get("properties", ()))
    extra = c.compile(s["additionalProperties"], doc)
    if s["additionalProperties"] is False:
        return lambda x: not isinstance(x, dict) or known.issuperset(x)
    return lambda x: not isinstance(x, dict) or all(extra(v) for k, v in x.items()
                                                    if k not in known)


def _required(c: Compiler, s: dict, doc: str) -> Predicate:
    need = tuple(s["required"])
    return lambda x: not isinstance(x, dict) or all(k in x for k in need)


def _property_names(c: Compiler, s: dict, doc: str) -> Predicate:
    name = c.compile(s["propertyNames"], doc)
    return lambda x: not isinstance(x, dict) or all(name(k) for k in x)


def _size(kind: type | tuple, bound: str, upper: bool):
    def make(c: Compiler, s: dict, doc: str) -> Predicate:
        n = s[bound]
        if upper:
            return lambda x: not isinstance(x, kind) or len(x) <= n
        return lambda x: not isinstance(x, kind) or len(x) >= n
    return make


def _items(c: Compiler, s: dict, doc: str) -> Predicate:
    start = len(s.get("prefixItems", ()))
    item = c.compile(s["items"], doc)
    return lambda x: not isinstance(x, list) or all(item(v) for v in x[start:])


def _prefix(c: Compiler, s: dict, doc: str) -> Predicate:
    preds = [c.compile(v, doc) for v in s["prefixItems"]]
    return lambda x: not isinstance(x, list) or all(p(v) for p, v in zip(preds, x))


def _pattern(c: Compiler, s: dict, doc: str) -> Predicate:
    search = re.compile(s["pattern"]).search
    return lambda x: not isinstance(x, str) or search(x) is not None


def _minimum(c: Compiler, s: dict, doc: str) -> Predicate:
    n = s["minimum"]
    return lambda x: not _is_number(x) or x >= n


def _maximum(c: Compiler, s: dict, doc: str) -> Predicate:
    n = s["maximum"]
    return lambda x: not _is_number(x) or x <= n


def _ref(c: Compiler, s: dict, doc: str) -> Predicate:
    return c._resolve(s["$ref"], doc)


def _if(c: Compiler, s: dict, doc: str) -> Predicate:
    cond = c.compile(s["if"], doc)
    then = c.compile(s.get("then", True), doc)
    other = c.compile(s.get("else", True), doc)
    return lambda x: then(x) if cond(x) else other(x)


def _any_of(c: Compiler, s: dict, doc: str) -> Predicate:
    preds = [c.compile(v, doc) for v in s["anyOf"]]
    return lambda x: any(p(x) for p in preds)


def _all_of(c: Compiler, s: dict, doc: str) -> Predicate:
    return _all([c.compile(v, doc) for v in s["allOf"]])


def _one_of(c: Compiler, s: dict, doc: str) -> Predicate:
    preds = [c.compile(v, doc) for v in s["oneOf"]]
    return lambda x: sum(1 for p in preds if p(x)) == 1


def _not(c: Compiler, s: dict, doc: str) -> Predicate:
    inner = c.compile(s["not"], doc)
    return lambda x: not inner(x)


def _dispatch(c: Compiler, s: dict, doc: str) -> Predicate:
    """schemacheck's x-dispatch: an object whose kind key names a branch meets it."""
    key = s["x-dispatch"]["key"]
    branches = {k: c.compile(v, doc) for k, v in s["x-dispatch"]["map"].items()}
    if not all(isinstance(k, str) for k in branches):
        raise Unsupported("x-dispatch on a key that is not a string")

    def check(x) -> bool:
        if not isinstance(x, dict):
            return True
        kind = x.get(key)
        branch = branches.get(kind) if isinstance(kind, str) else None
        return branch is None or branch(x)
    return check


# in the order they are tried: the cheap type test first
_KEYWORDS: dict[str, Callable[[Compiler, dict, str], Predicate]] = {
    "type": _type, "const": _const, "enum": _enum, "required": _required,
    "minimum": _minimum, "maximum": _maximum, "pattern": _pattern,
    "minLength": _size(str, "minLength", False), "maxLength": _size(str, "maxLength", True),
    "minItems": _size(list, "minItems", False), "maxItems": _size(list, "maxItems", True),
    "minProperties": _size(dict, "minProperties", False),
    "maxProperties": _size(dict, "maxProperties", True),
    "properties": _properties, "additionalProperties": _additional,
    "propertyNames": _property_names, "prefixItems": _prefix, "items": _items,
    "x-dispatch": _dispatch, "$ref": _ref, "if": _if, "anyOf": _any_of, "allOf": _all_of,
    "oneOf": _one_of, "not": _not,
}
