"""The check knows every step kind, modifier, event and condition of the effect language:
a new kind without an expectation, probe, provoker or shaper fails here first."""

from __future__ import annotations

from tether_build.check.expectations import EXPECT
from tether_build.check.model import Failure, Report
from tether_build.check.probes import PROBES
from tether_build.check.provoke import PROVOKE
from tether_build.check.shapes import SHAPERS, SITUATIONAL
from tether_build.effects import spec


def test_one_expectation_per_step_kind():
    assert set(EXPECT) == set(spec.STEPS)


def test_one_probe_per_modifier_kind():
    assert set(PROBES) == set(spec.MODIFIERS)


def test_one_provoker_per_event():
    assert set(PROVOKE) == set(spec.EVENTS)


def test_every_condition_is_shaped_or_situational():
    assert set(SHAPERS) | SITUATIONAL == set(spec.CONDITIONS)
    assert not set(SHAPERS) & SITUATIONAL


def test_report_lines():
    r = Report(total=2, resolved=1, abilities=(1, 1), passives=(0, 0),
               failures=[Failure("x", "card", "content/cards/a.yaml", 3, "effect[0] deploy",
                                 "why")], dead=["y"])
    lines = r.summary()
    assert lines[0] == "1/2 cards resolve"
    assert "FAIL content/cards/a.yaml:3: x: effect[0] deploy: why" in lines
    assert any(x.startswith("warning: 1 card(s) never playable") and "y" in x for x in lines)
    assert not r.ok and r.to_json()["failures"][0]["subject"] == "x"
