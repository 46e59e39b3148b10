"""A content-addressed cache of rendered pieces: card faces, PNGs, TTS sheets, book layouts.

An entry lives at <out>/.cache/<kind>/<key>.bin, where the key is a SHA-256 over everything
that affects its bytes: the HTML (or the PDF bytes a PNG comes from), the template, CSS,
font and icon files, the code that lays out or draws, and the library versions. A change
anywhere gives another key, so an entry is never stale, only unused. Entries are written
atomically (fsutil.write_atomic, not synced to disk) with the SHA-256 of their payload, which
`get` checks: a truncated, corrupt or foreign entry is a miss and is written anew. One may
outlive a failed build, which is harmless because it is content-addressed. `prune` keeps the folder under a size bound, least recently used
first. A Cache without a folder stores nothing (the CLI commands that are not `tether build`).
Inside `refreshing()` (`tether build --force`) no entry is read, every one is written anew.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..digests import digest  # noqa: F401  (re-exported: every cache key's digest)
from ..fsutil import write_atomic

CACHE_DIR = ".cache"
MAX_BYTES = 256 * 1024 * 1024   # a full build of the shipped content caches ~30 MB
_PACKAGE = Path(__file__).resolve().parent.parent   # tether_build/: code_digest's names


REFRESH_ENV = "TETHER_CACHE_REFRESH"   # "1": read no entry (inherited by the workers)


@contextmanager
def refreshing(on: bool = True) -> Iterator[None]:
    """Within (a `--force` build): every Cache misses and writes its entries anew, so a
    forced build depends on nothing the cache holds. An environment variable rather than a
    global, so the processes a build's stages run in see it too."""
    old = os.environ.get(REFRESH_ENV)
    if on:
        os.environ[REFRESH_ENV] = "1"
    try:
        yield
    finally:
        if on:
            if old is None:
                os.environ.pop(REFRESH_ENV, None)
            else:
                os.environ[REFRESH_ENV] = old


_FILES: dict[tuple, tuple[tuple, str]] = {}   # (base, folders) -> (files' stat, digest)
_READING: dict | None = None   # inside one_reading(): (base, folders) -> digest


@contextmanager
def one_reading() -> Iterator[None]:
    """Inside (a build stage): files_digest lists and stats each set of folders once. The
    book asks for its templates' digest once per part it lays out or finds in the cache,
    some 50 times in a card edit's build, and each time listed and stat'ed their ~100 files
    (about 1 ms). A stage reads its files as they were when it first asked."""
    global _READING
    outer = _READING is not None
    if not outer:
        _READING = {}
    try:
        yield
    finally:
        if not outer:
            _READING = None


def files_digest(base: Path, folders: tuple[str, ...]) -> str:
    """SHA-256 over the names and bytes of every file under base/<folder> (recursively).
    Read again only when a file's size or time changed since this process last read them
    (the book asks for it once per part laid out, and the fonts are 2 MB)."""
    if _READING is not None and (str(base), folders) in _READING:
        return _READING[(str(base), folders)]
    paths = [path for folder in folders
             for path in sorted(p for p in (Path(base) / folder).rglob("*")
                                if p.is_file() and "__pycache__" not in p.parts)]
    stamp = tuple((str(p), st.st_size, st.st_mtime_ns) for p in paths for st in [p.stat()])
    known = _FILES.get((str(base), folders))
    if known is None or known[0] != stamp:
        h = hashlib.sha256()
        for path in paths:
            h.update(path.relative_to(base).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
        known = _FILES[(str(base), folders)] = (stamp, h.hexdigest())
    if _READING is not None:
        _READING[(str(base), folders)] = known[1]
    return known[1]


@functools.cache
def versions(*packages: str) -> str:
    """Installed versions of the packages that lay out, draw or encode the bytes (and of
    zlib, which compresses every PDF stream and PNG); read once per process."""
    from importlib import metadata  # here: most commands never ask, and it takes 20 ms

    out = [f"zlib={zlib.ZLIB_RUNTIME_VERSION}", f"subsetter={font_subsetter()}"]
    if "weasyprint" in packages:   # it lays out with the system's fonts and C libraries
        out.append(f"fonts={system_fonts()};text={text_libraries()}")
    for name in packages:
        try:
            out.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            out.append(f"{name}=-")
    return ";".join(out)


def font_subsetter() -> str:
    """Which library subsets fonts into the PDFs (patches.font_subsetter): the bytes differ,
    so the cache key names it."""
    from .layout.patches import font_subsetter as which

    return which()


def font_folders() -> list[str]:
    """The folders fontconfig reads fonts and its configuration from: its Debian defaults,
    any its environment variables name, and every `<dir>` and `<include>` its configuration
    files name, followed as fontconfig follows them (fontconfig_reads), so fonts or settings
    set up anywhere fontconfig looks are in the keys."""
    home = os.path.expanduser("~")
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    folders = ["/usr/share/fonts", "/usr/local/share/fonts", os.path.join(home, ".fonts"),
               os.path.join(data, "fonts"), "/etc/fonts"]
    for name in ("FONTCONFIG_FILE", "FONTCONFIG_PATH"):
        folders += [p for p in os.environ.get(name, "").split(os.pathsep) if p]
    for path in fontconfig_reads():
        if path not in folders:
            folders.append(path)
    return folders


# fontconfig's `<dir>` and `<include>` elements, with their attributes, and its comments
FONTCONFIG_NAMES = re.compile(r"<(dir|include)\b([^>]*)>([^<]*)</\1\s*>")
XML_COMMENTS = re.compile(r"<!--.*?-->", re.DOTALL)


def fontconfig_reads() -> list[str]:
    """Every font folder and configuration file or folder fontconfig's configuration names,
    in the order it reads them: from FONTCONFIG_FILE (or fonts.conf in FONTCONFIG_PATH's first
    folder, or /etc/fonts), each `<dir>` and `<include>` (a folder's *.conf files in name
    order), with the prefixes fontconfig knows ("xdg", "~", "relative" to the file; a bare
    relative include from the configuration's folder, a bare relative `<dir>` from the
    working folder). Read as
    text, not parsed as XML: 1-2 ms for Debian's 40 files, on every build's key."""
    home = os.path.expanduser("~")
    xdg = {"dir": os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share"),
           "include": os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")}
    config = os.environ.get("FONTCONFIG_PATH", "").split(os.pathsep)[0] or "/etc/fonts"
    first = os.environ.get("FONTCONFIG_FILE") or "fonts.conf"
    out: list[str] = []
    todo = [os.path.join(config, first)]
    while todo and len(out) < 1000:     # a configuration that includes itself ends here
        path = todo.pop(0)
        if path in out:
            continue
        out.append(path)
        try:
            if os.path.isdir(path):
                todo[:0] = sorted(os.path.join(path, n) for n in os.listdir(path)
                                  if n.endswith(".conf"))
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = XML_COMMENTS.sub("", f.read())
        except OSError:
            continue
        found = []
        for tag, attributes, name in FONTCONFIG_NAMES.findall(text):
            name = name.strip()
            if not name:
                continue
            prefix = re.search(r"""prefix\s*=\s*["'](\w+)["']""", attributes)
            prefix = prefix and prefix.group(1)
            if prefix == "xdg":
                name = os.path.join(xdg[tag], name)
            elif name.startswith("~"):
                name = os.path.expanduser(name)
            elif prefix == "relative":
                name = os.path.join(os.path.dirname(path), name)
            elif not os.path.isabs(name):   # an include from the configuration's folder,
                name = os.path.join(config, name) if tag == "include" else os.path.abspath(name)
            if tag == "include":
                found.append(name)
            elif name not in out:
                out.append(name)
        todo[:0] = found
    return out


@functools.cache
def system_fonts() -> str:
    """A digest of the system's fonts and fontconfig's configuration: the outputs embed
    fonts fontconfig finds beside the project's own (SVG text and glyphs the project's
    fonts lack: DejaVu Sans from /usr/share/fonts), so a font package installed, upgraded
    or removed changes every stage's key (commands.build.libraries) and every cached layout
    (versions). The names, sizes and modification times of every file below
    font_folders(), without reading the fonts (about 40 files here, 1-2 ms). Read once a
    process, as the keys that hold it are (libraries(), versions()): a process forked
    after the first call inherits it (the preloaded process read it a second time);
    `system_fonts.cache_clear()` reads it again."""
    h = hashlib.sha256()
    for root in font_folders():
        h.update(f"{root}\0".encode())
        if os.path.isfile(root):
            st = os.stat(root)
            h.update(f"{st.st_size},{st.st_mtime_ns}\n".encode())
            continue
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                try:
                    st = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                h.update(f"{folder}/{name}\0{st.st_size},{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


# the C libraries WeasyPrint lays text out and subsets fonts with (loaded by soname), and
# where the dynamic loader looks for them
TEXT_LIBRARIES = ("libpango-1.0.so.0", "libpangoft2-1.0.so.0", "libharfbuzz.so.0",
                  "libharfbuzz-subset.so.0", "libfontconfig.so.1", "libfreetype.so.6")
LIBRARY_FOLDERS = ("/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
                   "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib")


@functools.cache
def text_libraries() -> str:
    """Which Pango, HarfBuzz, fontconfig and FreeType the system has: each soname's file
    (the link resolved: libpango-1.0.so.0.5000.12) with its size and mtime, in the folders
    of LD_LIBRARY_PATH and the loader's usual ones. A system package upgrade changes the
    glyph positions or the subset fonts, so it changes the keys as a Python library's
    version does. Read once a process, as system_fonts() (`cache_clear()` to read again)."""
    folders = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
    h = hashlib.sha256()
    for soname in TEXT_LIBRARIES:
        for folder in (*folders, *LIBRARY_FOLDERS):
            path = os.path.join(folder, soname)
            try:
                st = os.stat(path)
            except OSError:
                continue
            h.update(f"{os.path.realpath(path)}\0{st.st_size},{st.st_mtime_ns}\n".encode())
            break
        else:
            h.update(f"{soname}\0-\n".encode())
    return h.hexdigest()


LAYOUT_PACKAGES = ("weasyprint", "pydyf", "fonttools", "tinycss2", "cssselect2", "pyphen",
                   "tinyhtml5", "pillow",
                   "jinja2", "markupsafe")   # the HTML: a face's key names its template only


# the modules that lay out and measure: a layout's key names them all
LAYOUT_CODE = ("print/layout/pdf.py", "print/layout/patches.py", "print/layout/boxes.py", "print/layout/resources.py",
               "print/layout/wpffi.py")


def once_a_stage(what: tuple, make: Callable[[], object]):
    """make(), worked out once inside one_reading() (a build stage) for each `what`, as
    files_digest's listing is: the files it reads as they were when the stage first asked.
    Outside one_reading(), make() every time."""
    if _READING is None:
        return make()
    key = ("once", *what)
    if key not in _READING:
        _READING[key] = make()
    return _READING[key]


def code_digest(*names: str) -> str:
    """SHA-256 of the package's modules by path under tether_build/ (e.g. "print/layout/pdf.py",
    "render/*.py": paths that scripts/relayout.py rewrites when a module moves), and of
    the layout mode (patches.mode(): patched or stock libraries), so an entry laid out one
    way never serves the other. Once a stage (once_a_stage): the book asks for it once per
    part (about 0.5 ms each: 8 files globbed and read), the Tabletop Simulator sheets once
    per row."""
    from .layout.patches import mode

    layout = mode()
    return once_a_stage(("code", layout, *names), lambda: _code_digest(layout, names))


def _code_digest(layout: str, names: tuple[str, ...]) -> str:
    h = hashlib.sha256(layout.encode())
    for name in names:
        paths = sorted(_PACKAGE.glob(name))
        if not paths:   # a name that matches nothing would leave its code out of every key
            raise FileNotFoundError(f"code_digest: no tether_build/{name}")
        for path in paths:
            h.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def pack(meta: dict, data: bytes) -> bytes:
    """One entry: a JSON line (with the payload's size), then the payload."""
    return json.dumps({**meta, "bytes": len(data)}, sort_keys=True).encode() + b"\n" + data


def unpack(entry: bytes | None) -> tuple[dict, bytes] | None:
    """(meta, payload) of a packed entry, or None if missing, unreadable or cut short."""
    if entry is None:
        return None
    head, sep, data = entry.partition(b"\n")
    if not sep:
        return None
    try:
        meta = json.loads(head)
    except ValueError:
        return None
    return (meta, data) if isinstance(meta, dict) and meta.get("bytes") == len(data) else None


# An entry on disk: this mark, the SHA-256 of the payload, the payload. Read back only if the
# digest holds, so an entry cut short by a kill or a power cut (entries are not synced to disk:
# they only save time), or altered, is a miss and is rebuilt, never trusted.
_MAGIC = b"tether-cache-1\n"


def _checked(entry: bytes) -> bytes | None:
    head = len(_MAGIC) + 32
    if len(entry) < head or not entry.startswith(_MAGIC):
        return None
    data = entry[head:]
    return data if hashlib.sha256(data).digest() == entry[len(_MAGIC):head] else None


class Cache:
    """Entries under `root` by kind and key; `Cache(None)` stores nothing."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else None
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str, key: str) -> Path:
        return self.root / kind / f"{key}.bin"

    def get(self, kind: str, key: str) -> bytes | None:
        """The entry's bytes, or None (always None inside refreshing())."""
        if self.root is None:
            return None
        if os.environ.get(REFRESH_ENV) == "1":
            self.misses += 1
            return None
        from ..content.paths_guard import FILE_MAX, Refused, read_entry

        try:   # a regular file of the cache folder: never a link out, a FIFO, a device
            data, path = read_entry(self.root, f"{kind}/{key}.bin", FILE_MAX)
        except (OSError, Refused):
            self.misses += 1
            return None
        data = _checked(data)
        if data is None:   # cut short, corrupt, or written by another version of the tool
            self.misses += 1
            return None
        self.hits += 1
        try:
            os.utime(path)   # recently used: kept longest by prune()
        except OSError:
            pass
        return data

    def put(self, kind: str, key: str, data: bytes) -> None:
        """Store an entry (atomically; a concurrent writer writes the same bytes). The cache
        only saves time: a full or read-only disk skips the entry, the build goes on."""
        from ..content.paths_guard import Refused, out_path

        if self.root is not None:
            try:   # never through a symlink of the cache folder
                write_atomic(out_path(self.root, f"{kind}/{key}.bin"),
                             _MAGIC + hashlib.sha256(data).digest() + data, durable=False)
            except (OSError, Refused):
                pass


def prune(root: Path, max_bytes: int = MAX_BYTES) -> int:
    """Delete the least recently used entries until the folder holds max_bytes or less."""
    entries = []
    for path in Path(root).glob("*/*.bin"):
        try:
            st = path.stat()
        except OSError:
            continue
        entries.append((st.st_mtime_ns, st.st_size, path))
    total, removed = sum(e[1] for e in entries), 0
    for _, size, path in sorted(entries):
        if total <= max_bytes:
            break
        path.unlink(missing_ok=True)
        total -= size
        removed += 1
    return removed
