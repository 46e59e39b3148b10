"""WeasyPrint's C libraries are opened by their Linux names, with no ldconfig or gcc run to
look for them, and they are the very files the usual import opens."""

from __future__ import annotations

import ast
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
    ours = _probe("import tether_build.print.layout.pdf")
    usual = _probe("import weasyprint")
    assert ours["spawned"] == []          # no ldconfig, gcc or ld
    assert usual["spawned"]               # the usual import runs them (what is saved)
    assert ours["libs"] == usual["libs"] and ours["libs"]
    assert ours["subset"] == usual["subset"]


LAYOUT = """
import hashlib, json, sys
{importer}
from weasyprint import HTML
html = ("<p style='font-family: DejaVu Sans'>Gain <b>2</b> <i>Gold</i>: "
        "\\u00e9\\u00df\\u2192 <span style='font-family: DejaVu Serif'>serif</span></p>")
data = HTML(string=html).write_pdf()
from weasyprint.text import ffi
print(json.dumps({{"pdf": hashlib.sha256(data).hexdigest(), "pycparser": "pycparser" in sys.modules,
                  "ffi": type(ffi.ffi).__module__}}))
"""


def _layout(importer: str, env: dict | None = None) -> dict:
    done = subprocess.run([sys.executable, "-c", LAYOUT.format(importer=importer)], cwd=ROOT,
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), **(env or {})))
    return json.loads(done.stdout)


def test_weasyprint_declarations_are_parsed_once_and_lay_out_the_same_bytes(tmp_path,
                                                                            monkeypatch):
    from tether_build.print.layout import wpffi

    ours = _layout("import tether_build.print.layout.pdf")
    usual = _layout("import weasyprint")
    assert ours["pdf"] == usual["pdf"]
    assert not ours["pycparser"] and usual["pycparser"]   # no C parsing in our process
    assert ours["ffi"] == "_cffi_backend" and usual["ffi"] == "cffi.api"
    # the data is made from WeasyPrint's string when missing, and again when damaged
    monkeypatch.setattr(wpffi, "CACHE", tmp_path)
    plan = wpffi._plan()
    assert plan is not None
    ffi = wpffi.parsed_ffi(plan[2])
    (kept,) = tmp_path.glob("_weasyprint_ffi_*.py")
    assert ffi.sizeof("PangoRectangle") == 16
    kept.write_text("ffi = (")
    assert wpffi.parsed_ffi(plan[2]).sizeof("PangoRectangle") == 16
    assert "ffi = (" not in kept.read_text()
    # a folder that cannot be made: the data serves this process, nothing is written
    (tmp_path / "file").write_text("")
    monkeypatch.setattr(wpffi, "CACHE", tmp_path / "file" / "cache")
    assert wpffi.parsed_ffi(plan[2]).sizeof("PangoRectangle") == 16
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([kept.name, "file"])


@pytest.mark.parametrize("body", [
    "import cffi\nffi = cffi.FFI()\nffi.cdef(DECLS)\n",                 # not a literal
    "import cffi\nffi = cffi.FFI()\nffi.cdef('int f(int);')\nffi.cdef('int g(int);')\n",
    "import cffi\nffi.cdef('int f(int);')\nffi = cffi.FFI()\n",           # cdef before
    "import cffi\nffi = cffi.FFI(backend=None)\nffi.cdef('int f(int);')\n",
])
def test_another_shape_of_weasyprints_module_is_imported_the_usual_way(tmp_path, body):
    from tether_build.print.layout import wpffi

    (tmp_path / "ffi.py").write_text(body)
    assert wpffi.shape(tmp_path / "ffi.py") is None
    (tmp_path / "ffi.py").write_text("import cffi\nffi = cffi.FFI()\nffi.cdef('int f(int);')\n"
                                     "lib = None\n")
    _, tree, source = wpffi.shape(tmp_path / "ffi.py")
    assert source == "int f(int);" and "cdef" not in ast.unparse(tree)


FONTTOOLS = """
import sys
import tether_build.print.layout.pdf
from weasyprint.pdf import fonts
print(sorted(m for m in ("fontTools.subset", "fontTools.varLib", "fontTools.varLib.mutator")
             if m in sys.modules))
"""


def test_fonttools_subsetter_is_loaded_only_when_weasyprint_subsets_with_it():
    """WeasyPrint's import loads fontTools' subsetter and variable-font instancer, which a
    build that subsets with HarfBuzz never runs: ours leaves them for their first use. When
    WeasyPrint must subset with fontTools, the PDF is the usual import's, byte for byte."""
    done = subprocess.run([sys.executable, "-c", FONTTOOLS], cwd=ROOT, capture_output=True,
                          text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.stdout.strip() == "[]"
    by_fonttools = ("\nimport weasyprint.pdf.fonts as fonts_module\n"
                    "fonts_module.harfbuzz_subset = None\n")
    fixed = {"SOURCE_DATE_EPOCH": "0"}   # (fontTools stamps a font it writes with the time)
    ours = _layout("import tether_build.print.layout.pdf" + by_fonttools, fixed)
    usual = _layout("import weasyprint" + by_fonttools, fixed)
    assert ours["pdf"] == usual["pdf"]
    assert ours["pdf"] != _layout("import weasyprint", fixed)["pdf"]   # (fontTools subset)


INSTANCER = """
import fontTools.varLib.mutator as mutator
mutator.instantiateVariableFont = lambda font, location: ("made", font, location)
print(fonts.instantiateVariableFont("font", {"wght": 700}))
"""


def test_the_variable_font_instancer_stand_in_calls_the_real_one():
    """The instancer WeasyPrint holds (for a variable font) is the real one once called."""
    done = subprocess.run([sys.executable, "-c", FONTTOOLS + INSTANCER], cwd=ROOT,
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.stdout.splitlines() == ["[]", "('made', 'font', {'wght': 700})"]
