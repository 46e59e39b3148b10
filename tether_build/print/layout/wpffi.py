"""WeasyPrint's C declarations, parsed once per machine instead of once per process.

WeasyPrint declares the Pango, HarfBuzz, GObject and Fontconfig functions it calls in one
cffi string (`weasyprint/text/ffi.py`, about 15,000 characters) that cffi parses with
pycparser on every import: 40-70 ms of every process that lays anything out, pycparser's
own import included. cffi can write the parsed declarations out as Python data (its
"out-of-line ABI mode": `set_source(name, None)`), which loads in about 2 ms.

`install()` puts a finder for `weasyprint.text.ffi` in front of the import system. It
runs WeasyPrint's own module source with one change: `ffi` is the FFI loaded from that
data instead of a `cffi.FFI()` given the string. The data is made from WeasyPrint's own
string the first time and kept in this package's `__pycache__`, under a name made of the
string's and cffi's digest, so another WeasyPrint or cffi makes it again.

The libraries and functions are the same (a test compares the bytes of laid-out PDFs with
the usual import's). An FFI of that kind also opens a library by the name given, without
asking ctypes to look it up, and reads a C type written as a string (`ffi.new(
"char[]", ...)`) with cffi's C parser instead of pycparser. Anything unexpected (the
module's shape changed, cffi refuses the data) leaves the usual import to run; where the
folder cannot be written, the data is made for the process alone."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.abc
import importlib.util
import os
import sys
from pathlib import Path

MODULE = "weasyprint.text.ffi"
CACHE = Path(__file__).resolve().parent / "__pycache__"


def install() -> bool:
    """Put the finder in place (once); False when WeasyPrint's module is not the expected
    shape or is imported already."""
    if MODULE in sys.modules or any(isinstance(f, _Finder) for f in sys.meta_path):
        return False
    plan = _plan()
    if plan is None:
        return False
    sys.meta_path.insert(0, _Finder(*plan))
    return True


def _plan():
    """shape() of WeasyPrint's ffi.py, or None. Only the top-level `weasyprint` package is
    looked up: nothing is imported."""
    try:
        spec = importlib.util.find_spec("weasyprint")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return shape(Path(spec.origin).parent / "text" / "ffi.py")


def shape(path: Path):
    """(path, the module's AST without its cdef, the cdef string) of an ffi.py that makes
    `ffi = cffi.FFI()` once and gives it one literal string with `ffi.cdef(...)` after;
    None for any other shape."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError):
        return None
    made = [i for i, node in enumerate(tree.body)
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "ffi"
            and isinstance(node.value, ast.Call) and not node.value.args
            and not node.value.keywords and ast.unparse(node.value.func) == "cffi.FFI"]
    cdefs = [i for i, node in enumerate(tree.body)
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
             and ast.unparse(node.value.func) == "ffi.cdef" and len(node.value.args) == 1
             and not node.value.keywords and isinstance(node.value.args[0], ast.Constant)
             and isinstance(node.value.args[0].value, str)]
    if len(made) != 1 or len(cdefs) != 1 or cdefs[0] < made[0]:
        return None
    source = tree.body[cdefs[0]].value.args[0].value
    tree.body[made[0]].value = ast.Name("_tether_parsed_ffi", ast.Load())
    del tree.body[cdefs[0]]
    ast.fix_missing_locations(tree)
    return path, tree, source


def parsed_ffi(source: str):
    """The FFI of `source` declarations, loaded from the data cffi writes for them (made and
    kept in CACHE the first time)."""
    import cffi

    key = hashlib.sha256(f"{cffi.__version__}\0{source}".encode()).hexdigest()[:24]
    name = f"_weasyprint_ffi_{key}"
    path = CACHE / f"{name}.py"
    try:
        return _load(path.read_text(), path)
    except Exception:  # noqa: BLE001  (not made yet, or damaged: made again)
        return _load(_emit(source, name, path), path)


def _load(code: str, path: Path):
    space: dict = {}
    exec(compile(code, str(path), "exec"), space)  # noqa: S102  (cffi's own output)
    return space["ffi"]


def _emit(source: str, name: str, path: Path) -> str:
    """cffi's out-of-line data for `source`, written to path (atomically) when it can be."""
    import io

    import cffi
    from cffi.recompiler import make_py_source

    builder = cffi.FFI()
    builder.cdef(source)
    out = io.StringIO()
    make_py_source(builder, name, out)
    code = out.getvalue()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        tmp.write_text(code)
        os.replace(tmp, path)
    except OSError:   # a folder this process may not write: the data serves this process only
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    return code


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `weasyprint.text.ffi` and runs its source with the parsed FFI."""

    def __init__(self, path: Path, tree: ast.Module, source: str):
        self.path, self.tree, self.source = path, tree, source

    def find_spec(self, fullname, path=None, target=None):
        if fullname != MODULE:
            return None
        try:
            self.ffi = parsed_ffi(self.source)
        except Exception:  # noqa: BLE001  (the usual import runs instead)
            sys.meta_path.remove(self)
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=self)

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        sys.meta_path.remove(self)
        module.__dict__["_tether_parsed_ffi"] = self.ffi
        exec(compile(self.tree, str(self.path), "exec"), module.__dict__)  # noqa: S102
        del module.__dict__["_tether_parsed_ffi"]
