"""The preloaded process imports, while it waits for its job, the modules the stages' workers
import as they start (Stage.warm, workers._warm): every name is a module of the tool, and the
imports stop as soon as the job is there."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from tether_build.commands import build

ROOT = Path(__file__).resolve().parent.parent


def test_every_warm_module_is_a_module_of_the_tool():
    names = build.warm_modules(build.STAGES)
    assert names and len(names) == len(set(names))
    assert names[0].startswith("tether_build.print.rulebook")   # the longest stage's first
    for name in names:
        assert name.startswith("tether_build.")
        assert importlib.util.find_spec(name) is not None, name


def test_only_stages_that_lay_out_in_workers_are_warmed():
    light = [s for s in build.STAGES if not (s.parallel and s.lays_out)]
    assert all(not s.warm for s in light)
    assert build.warm_modules(light) == ()


def _sys_modules_after(warm: tuple[str, ...], job_first: bool) -> list[str]:
    """The warm modules imported by _warm in a fresh interpreter (a job already sent or not)."""
    code = f"""
import multiprocessing, sys
from tether_build.buildsys import workers
ours, theirs = multiprocessing.Pipe()
if {job_first!r}:
    ours.send("job")
workers._warm(theirs, {warm!r})
print(",".join(m for m in {warm!r} if m in sys.modules))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return [m for m in done.stdout.strip().split(",") if m]


def test_warm_imports_while_no_job_has_come_and_stops_when_it_has():
    warm = ("tether_build.print.tiles.palette", "tether_build.print.rulebook.odds")
    assert _sys_modules_after(warm, job_first=False) == list(warm)
    assert _sys_modules_after(warm, job_first=True) == []


def test_a_module_that_fails_to_import_is_left_to_its_stage():
    warm = ("tether_build.no_such_module", "tether_build.print.tiles.palette")
    assert _sys_modules_after(warm, job_first=False) == [warm[1]]   # no error, went on
