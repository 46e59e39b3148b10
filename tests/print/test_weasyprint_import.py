"""WeasyPrint's C libraries are opened by their Linux names, with no ldconfig or gcc run to
look for them, and they are the very files the usual import opens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
spawned = []
sys.addaudithook(lambda event, args: spawned.append(str(args[0]))
                 if event == "subprocess.Popen" else None)
{importer}
from weasyprint.text import ffi
libs = sorted({{line.split()[-1] for line in open("/proc/self/maps")
               if any(k in line for k in ("pango", "gobject", "harfbuzz", "fontconfig"))}})
print(json.dumps({{"spawned": spawned, "libs": libs, "subset": ffi.harfbuzz_subset is not None}}))
"""


def _probe(importer: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE.format(importer=importer)], cwd=ROOT,
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return json.loads(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux sonames")
def test_weasyprint_loads_its_libraries_without_looking_them_up():
    ours = _probe("import tether_build.render.pdf")
    usual = _probe("import weasyprint")
    assert ours["spawned"] == []          # no ldconfig, gcc or ld
    assert usual["spawned"]               # the usual import runs them (what is saved)
    assert ours["libs"] == usual["libs"] and ours["libs"]
    assert ours["subset"] == usual["subset"]
