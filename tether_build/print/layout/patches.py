"""The one module that reaches into other libraries' internals (WeasyPrint, cffi, fontTools).

Every speed-up that changes how WeasyPrint, cffi or fontTools work inside lives here (and in
`wpffi.py`, which only this module installs), each written for one set of library versions:

- `import_weasyprint`: WeasyPrint's C libraries opened by their Linux names (no ctypes
  look-up), its C declarations parsed once per machine (wpffi), fontTools' subsetter and
  variable-font instancer imported at first use (_Later);
(`lines`, `sheets`, `svg`, `derive` and `arrays`, which replaced WeasyPrint's functions, were
measured each alone by benchmarks/bench_patches.py, saved under 5 % of any README figure and
were removed: docs/performance.md.)
- `page_root`: the laid-out box tree of a page (WeasyPrint's private `page._page_box`), which
  the fit checks, the rulebook's run-on and reference layout and the stamp measure, and
  `font_subsetter`, which asks WeasyPrint's C bindings which font subsetter it uses. Neither
  changes anything: they are the only reads of those internals, kept here; as is
  `image_names`, the names WeasyPrint gives an image's resource (the faces' icons find
  their stand-ins by it, cards/icons.py).

`patched(name)` says whether one is in force: only when the installed libraries are the
versions in WRITTEN_FOR and `TETHER_STOCK_LAYOUT` does not switch it off (`1`: every one, so
every layout runs through the stock libraries with no patch at all; or a list of PATCHES
names, to measure each alone). Tests compare the bytes of both paths. The render cache's keys
name the mode (`mode()`), so entries of one path never serve the other.
"""

from __future__ import annotations

import functools
import hashlib
import os

from ...errors import TetherError

STOCK_ENV = "TETHER_STOCK_LAYOUT"
# the library versions the patches were written for (their internals' shape); any other
# version lays out with the stock libraries
WRITTEN_FOR = {"weasyprint": ("66.",), "cffi": ("2.",), "fonttools": ("4.",)}


PATCHES = ("import",)  # the names the switch takes


def stock_requested() -> frozenset[str]:
    """The patches TETHER_STOCK_LAYOUT switches off: `1` every one (the stock libraries, no
    patch at all), or a comma-separated list of PATCHES names (to measure one alone)."""
    value = os.environ.get(STOCK_ENV, "").strip()
    if value in ("", "0"):
        return frozenset()
    if value == "1":
        return frozenset(PATCHES)
    names = frozenset(n.strip() for n in value.split(",") if n.strip())
    unknown = sorted(names - set(PATCHES))
    if unknown:
        raise TetherError(f"{STOCK_ENV}: unknown patch {', '.join(unknown)} (1 for all, or "
                          f"some of: {', '.join(PATCHES)})")
    return names


@functools.cache
def versions_match() -> bool:
    """The installed libraries are the versions the patches were written for."""
    from importlib import metadata

    for package, prefixes in WRITTEN_FOR.items():
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            return False
        if not version.startswith(prefixes):
            return False
    return True


_OFF: frozenset[str] | None = None


def patched(name: str | None = None) -> bool:
    """Whether this process lays out with the patch `name` (with any patch, when None);
    decided once, at WeasyPrint's import: a process does not switch."""
    global _OFF
    if _OFF is None:
        _OFF = stock_requested() if versions_match() else frozenset(PATCHES)
    return len(_OFF) < len(PATCHES) if name is None else name not in _OFF


def mode() -> str:
    """'patched', 'stock' or 'stock:<names>' (some off): named in the render cache's keys."""
    patched()
    if not _OFF:
        return "patched"
    return "stock" if len(_OFF) == len(PATCHES) else "stock:" + ",".join(sorted(_OFF))


def import_weasyprint() -> None:
    """Import WeasyPrint with its C libraries opened by their Linux names at once.

    WeasyPrint tries several names per library (Windows' and macOS' first); cffi passes each
    name it cannot open to ctypes.util.find_library, which runs ldconfig, gcc and ld to look
    for it: 17 look-ups, about 0.15 s of every process that lays anything out. Every list
    also names the Linux soname (libpango-1.0.so.0...), which opens directly, so on Linux the
    look-up is skipped while WeasyPrint loads. Should that fail, WeasyPrint is imported
    again the usual way. Its C declarations are parsed once per machine (wpffi)."""
    import sys

    if "weasyprint" in sys.modules:
        return
    if not patched("import"):
        import weasyprint.text.fonts
        return
    from . import wpffi

    wpffi.install()
    if not sys.platform.startswith("linux"):
        return
    import ctypes.util

    real = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    stand_ins = _stand_ins()
    try:
        import weasyprint.text.fonts  # noqa: F401
    except OSError:
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    finally:
        ctypes.util.find_library = real
        for name in stand_ins:   # (WeasyPrint holds them; a later import gets the real one)
            sys.modules.pop(name, None)


class _Later:
    """A stand-in for a module WeasyPrint imports as it loads but uses only in work this
    project's builds do not do: fontTools' subsetter (WeasyPrint subsets with HarfBuzz when
    it can: print/cache.py's font_subsetter) and its variable-font instancer (the project's
    fonts are not variable fonts). The real module is imported when an attribute is first
    read, or one of `functions` first called: together about 0.09 s of CPU (fontTools.varLib
    and fontTools.subset) in the process every stage forks from, on the path of every
    build that lays anything out."""

    def __init__(self, name: str, functions: tuple[str, ...] = ()):
        self.__name__ = name
        for function in functions:   # (`from module import function` reads it at import)
            setattr(self, function, self._later(function))

    def _real(self):
        import importlib

        return importlib.import_module(self.__name__)

    def _later(self, function: str):
        def call(*args, **kwargs):
            return getattr(self._real(), function)(*args, **kwargs)
        return call

    def __getattr__(self, attr: str):
        if attr.startswith("__"):   # (the import system's questions: not a package...)
            raise AttributeError(attr)
        return getattr(self._real(), attr)


_LATER = {"fontTools.subset": (), "fontTools.varLib.mutator": ("instantiateVariableFont",)}


def _stand_ins() -> list[str]:
    """Put a _Later in sys.modules for each module of _LATER not imported yet; their names.
    WeasyPrint's `from fontTools import subset` and `from fontTools.varLib.mutator import
    instantiateVariableFont` then find them there, and its fonts module keeps them."""
    import sys

    names = [name for name in _LATER if name not in sys.modules]
    for name in names:
        sys.modules[name] = _Later(name, _LATER[name])
    return names


def install() -> None:
    """After WeasyPrint's import: nothing is replaced in it any more (the patches that
    replaced its functions saved under 5 % of any figure: docs/performance.md)."""


def parse(html: str, base_url: str, fetcher):
    """The HTML document, read by WeasyPrint as it is (no patch: the one place the layout
    code makes a document)."""
    from weasyprint import HTML

    return HTML(string=html, base_url=base_url, url_fetcher=fetcher)


# the sonames WeasyPrint's text/ffi.py opens HarfBuzz and its subset library by (Linux, macOS,
# Windows), in its order
_HARFBUZZ = ("libharfbuzz.so.0", "libharfbuzz.0.dylib", "libharfbuzz-0.dll")
_HARFBUZZ_SUBSET = ("libharfbuzz-subset.so.0", "libharfbuzz-subset.0.dylib",
                    "libharfbuzz-subset-0.dll")


@functools.cache
def subsetter_probe() -> str:
    """Which font subsetter the layout would use, found without importing WeasyPrint (a
    build with nothing to do imports no layout library; this costs a few ms): HarfBuzz's
    version and whether its subset library opens, as WeasyPrint's choice (font_subsetter)
    depends on them. Not the same string as font_subsetter(), but a function of the same
    system state: installing, removing or upgrading HarfBuzz or its subset library changes
    it, so every stage's key names it (commands.build.libraries; the render cache's
    entries name font_subsetter itself)."""
    import ctypes

    def opens(names: tuple[str, ...]):
        for name in names:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
        return None

    harfbuzz = opens(_HARFBUZZ)
    if harfbuzz is None:
        return "fonttools"
    try:
        harfbuzz.hb_version_string.restype = ctypes.c_char_p
        version = harfbuzz.hb_version_string().decode()
    except (AttributeError, UnicodeDecodeError):
        version = "?"
    subset = "+subset" if opens(_HARFBUZZ_SUBSET) is not None else ""
    return f"harfbuzz-{version}{subset}"


@functools.cache
def font_subsetter() -> str:
    """Which library subsets fonts into the PDFs: HarfBuzz (with its version) when WeasyPrint
    finds libharfbuzz-subset, else fontTools. The bytes differ, so the cache key names it."""
    try:
        import_weasyprint()
    except ImportError:  # the print extra is not installed: nothing is laid out
        return "-"
    from weasyprint.text.ffi import harfbuzz, harfbuzz_subset

    if harfbuzz_subset and harfbuzz.hb_version_atleast(4, 1, 0):
        import ctypes
        import ctypes.util

        try:   # the soname opens at once; find_library runs ldconfig
            lib = ctypes.CDLL("libharfbuzz.so.0")
        except OSError:
            lib = ctypes.CDLL(ctypes.util.find_library("harfbuzz") or "libharfbuzz.so.0")
        lib.hb_version_string.restype = ctypes.c_char_p
        return "harfbuzz-" + lib.hb_version_string().decode()
    return "fonttools"


def page_root(page):
    """The root box of a laid-out WeasyPrint page (`document.pages[i]`): every measure of
    laid-out boxes starts here. WeasyPrint keeps it in a private attribute; a release that
    renames it ends the build with this message rather than an AttributeError deep inside."""
    try:
        return page._page_box
    except AttributeError:
        raise TetherError("this WeasyPrint release keeps no laid-out page boxes where "
                          f"tether_build/print/layout/patches.py reads them (written for "
                          f"WeasyPrint {WRITTEN_FOR['weasyprint'][0]}x)") from None


def image_names(url: str) -> tuple[str, str]:
    """The resource names WeasyPrint gives an image of `url` in a PDF (`i` + the MD5 of
    its URL + 1 or 0, drawn interpolated or not: weasyprint.pdf.stream.Stream.add_image).
    Reads and changes nothing of WeasyPrint's; the faces' icons (cards/icons.py) find their
    stand-ins by it and check it on a probe document before they rely on it."""
    digest = hashlib.md5(url.encode(), usedforsecurity=False).hexdigest()
    return f"i{digest}1", f"i{digest}0"
