"""Calling a build stage's function by name, and the cut-down card a stage reads."""

from __future__ import annotations

import importlib


def call_stage(target: str, ctx):
    """Call `module:function` (a stage's target, view or quick test) with the context."""
    module, func = target.split(":")
    return getattr(importlib.import_module(module), func)(ctx)


class Only(dict):
    """A card cut down to the fields a stage declared: reading any other one is an error,
    so a stage can never depend on a field its key leaves out."""

    def get(self, key, default=None):
        if key not in self:
            raise KeyError(f"{key!r}: not in this stage's view of the cards (add it)")
        return self[key]
