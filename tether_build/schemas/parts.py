"""What every content schema shares: the draft, the base address, ids and references."""

from __future__ import annotations

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://the-last-tether.example/schemas/"
ID = "^[a-z][a-z0-9_]*$"


def ref(name: str) -> dict:
    """A reference to a shared definition of content.schema.json."""
    return {"$ref": f"content.schema.json#/$defs/{name}"}


def named_map(value: dict) -> dict:
    """An object whose keys are ids and whose values are `value`."""
    return {"type": "object", "propertyNames": {"pattern": ID}, "additionalProperties": value}
