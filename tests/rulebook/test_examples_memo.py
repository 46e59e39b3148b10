"""The examples' engine runs kept in the render cache (examples._keep): a Run is written as
_plain writes dataclasses.astuple of it, without astuple's deep copy, and read back equal."""

from __future__ import annotations

import json
from collections import namedtuple
from dataclasses import astuple, dataclass

import pytest

from tether_build.print.cache import Cache
from tether_build.print.rulebook import examples


@dataclass
class _Pair:
    a: int
    b: tuple


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_run_is_written_as_its_astuple_would_be(tmp_path):
    log = [{"kind": "move", "to": (1, -2), "units": [3, 4]}, {"pair": _Pair(1, ("x", None))},
           {(0, 1): 2.5, "flag": True}]
    run = examples.Run(7, 3, ["a", "b", "c"], log, [{"step": 1}], {"gold": [4, 4, 4]})
    assert _json(examples._plain(run, True)) == _json(examples._plain(astuple(run)))
    with pytest.raises(TypeError):   # not plain data, either way: not kept
        examples._plain(examples.Run(1, 2, [], [{1, 2}]), True)
    with pytest.raises(TypeError):
        examples._plain(examples.Run(1, 2, [], [namedtuple("P", "x")(1)]), True)
    with pytest.raises(TypeError):   # without records, a dataclass is refused as before
        examples._plain(run)
    with examples.stored(Cache(tmp_path)):
        examples._keep("k", run, records=True)
        kept = examples._recall("k")
    plain = [{"kind": "move", "to": (1, -2), "units": [3, 4]}, {"pair": (1, ("x", None))},
             {(0, 1): 2.5, "flag": True}]
    assert examples.Run(*kept) == examples.Run(7, 3, ["a", "b", "c"], plain, [{"step": 1}],
                                               {"gold": [4, 4, 4]})
