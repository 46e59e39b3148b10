"""The validator dispatches each effect step and modifier to its own kind's schema instead
of trying the schema's whole if/then chain: same verdicts and errors as the chain."""

from __future__ import annotations

import copy
import json

from jsonschema import Draft202012Validator, validators
from referencing import Registry, Resource

from tether_build.content import schemacheck
from tether_build.content.yamlio import load

CARDS = "cards.schema.json"


def _chain_validator():
    """The schemas exactly as written (if/then chains), with the same integer rule."""
    resources = []
    for path in sorted(schemacheck.SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text())
        res = Resource.from_contents(contents)
        resources += [(path.name, res), (contents["$id"], res)]
    reg = Registry().with_resources(resources)
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", schemacheck._whole_number)
    plain = validators.extend(Draft202012Validator, type_checker=checker)
    return plain(reg.contents(CARDS), registry=reg)


def _errors(validator, data) -> set:
    return {(tuple(e.absolute_path), e.message) for e in validator.iter_errors(data)}


def _mutations(data):
    card = next(c for c in data["cards"] if c.get("effect"))
    for name, change in (
            ("unknown step parameter", lambda s: s.update(amont=2)),
            ("wrong type", lambda s: s.update(distance="two")),
            ("out of range", lambda s: s.update(stacks=-1)),
            ("unknown step kind", lambda s: s.update(step="gain_gould")),
            ("not a mapping", None)):
        bad = copy.deepcopy(data)
        steps = next(c for c in bad["cards"] if c["id"] == card["id"])["effect"]
        if change is None:
            steps[0] = "gain_gold"
        else:
            change(steps[0])
        yield name, bad


def test_chains_are_dispatched_in_memory_only():
    reg = schemacheck.registry()
    step = reg.contents("effects.schema.json")["$defs"]["step"]
    assert "x-dispatch" in step and "allOf" not in step
    on_disk = json.loads((schemacheck.SCHEMA_DIR / "effects.schema.json").read_text())
    assert "allOf" in on_disk["$defs"]["step"]  # editors still read the chain


def test_dispatch_gives_the_chains_verdicts(content):
    doc, _ = load(content.root / "cards" / "age1_market.yaml")
    fast, chain = schemacheck.validator(CARDS), _chain_validator()
    assert _errors(fast, doc.data) == _errors(chain, doc.data) == set()
    for name, bad in _mutations(doc.data):
        got = _errors(fast, bad)
        assert got and got == _errors(chain, bad), name
