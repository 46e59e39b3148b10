"""docs/effects.md: generated from the effect language, every example valid (issue 18.1)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from tether_build.effects import reference, spec
from tether_build.schemas.generate import all_schemas

ROOT = Path(__file__).resolve().parent.parent


def _validator(defname: str) -> Draft202012Validator:
    effects = all_schemas()["effects.schema.json"]
    registry = Registry().with_resource("effects.schema.json", Resource.from_contents(effects))
    return Draft202012Validator({"$ref": f"effects.schema.json#/$defs/{defname}"},
                                registry=registry)


@pytest.mark.parametrize("tag, table, defname", [("step", spec.STEPS, "step"),
                                                 ("modifier", spec.MODIFIERS, "modifier")])
def test_every_example_of_the_reference_is_valid(tag, table, defname):
    validator = _validator(defname)
    for name, (_doc, params) in table.items():
        item = reference.example(tag, name, params)
        errors = list(validator.iter_errors(item))
        assert not errors, (name, item, errors[0].message)


def test_the_page_names_every_step_modifier_event_and_key():
    page = reference.render()
    names = [*spec.STEPS, *spec.MODIFIERS, *spec.EVENTS, *spec.HEX_SELECTOR, *spec.CONDITIONS]
    assert all(f"`{name}`" in page for name in names)
    blocks = page.split("```yaml\n")[1:]
    assert len(blocks) >= len(spec.STEPS) + len(spec.MODIFIERS)
    for block in blocks:  # every example is YAML a designer can paste
        yaml.safe_load(block.split("```")[0])


def test_shipped_reference_matches_the_language_and_drift_is_caught(monkeypatch):
    assert (ROOT / "docs" / "effects.md").read_text() == reference.render()
    monkeypatch.setitem(spec.STEPS, "new_step", ("A step added to the language.", {}))
    assert (ROOT / "docs" / "effects.md").read_text() != reference.render()
