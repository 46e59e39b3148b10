"""One guard for every path the tool reads or writes (issue 43).

Reads: the path is resolved (every symlink followed) and must lie inside the given root (the
project folder for content, the output folder for build records and caches); it must be a
regular file (no folder, FIFO, device or socket) no larger than a limit, checked with stat
before a byte is read, and read through a descriptor opened non-blocking (a FIFO swapped in
after the check cannot hang the read) with at most limit + 1 bytes taken.

Writes, removals and moves inside an output folder: `out_path` takes the path relative to the
folder and refuses an absolute path, `..`, and any symlink on the way (a folder or the file
itself), so a tampered build folder cannot send a write or a removal outside it.

A refusal is a `Refused` (a TetherError) whose message names the path and why, never the
file's bytes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import TetherError

TEXT_MAX = 8 * 2**20      # a YAML or Markdown content file (the largest is ~200 kB)
IMAGE_MAX = 20 * 2**20    # a picture of the content (card art, rules images)
RECORD_MAX = 64 * 2**20   # a build record (manifest, commit record) or a cache entry
FILE_MAX = 512 * 2**20    # anything else the tool reads back (outputs it wrote)


class Refused(TetherError):
    """A path the guard refuses; str() is one line: the path and why."""

    def __init__(self, path, why: str):
        super().__init__(f"{path}: {why}")
        self.path, self.why = path, why


def _mb(limit: int) -> str:
    return f"{limit / 2**20:g} MiB"


def project_of(content_root) -> Path:
    """The project folder of a content folder (the folder that holds it)."""
    root = Path(content_root).resolve()
    return root.parent


def why_not_readable(path, root=None, limit: int = FILE_MAX) -> str | None:
    """Why `path` may not be read (outside `root` once resolved, not a regular file, larger
    than `limit`), or None when it may. root None: no containment (a file the user named)."""
    path = Path(path)
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        return "is a link to nothing" if path.is_symlink() else "no such file"
    except (OSError, RuntimeError) as exc:   # a link loop, a name too long
        return f"cannot be resolved ({getattr(exc, 'strerror', None) or exc})"
    if root is not None and not real.is_relative_to(Path(root).resolve()):
        return ("is a link to a file outside " if path.is_symlink() or real != path.absolute()
                else "lies outside ") + f"the folder {root}"
    try:
        st = os.stat(real)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not stat.S_ISREG(st.st_mode):
        return "is not a regular file (a folder, FIFO, device or socket)"
    if st.st_size > limit:
        return f"is larger than {_mb(limit)}"
    return None


def read_bytes(path, root=None, limit: int = FILE_MAX) -> bytes:
    """The bytes of `path` once the guard allows it; raises Refused otherwise (or when the
    file changed into something else or grew past `limit` meanwhile)."""
    why = why_not_readable(path, root, limit)
    if why:
        raise Refused(path, why)
    try:
        fd = os.open(Path(path).resolve(), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise Refused(path, f"cannot be read ({exc.strerror})") from None
    return _read_open(fd, path, limit, 2**20)


def _read_open(fd: int, path, limit: int, step: int) -> bytes:
    """The bytes of the open file `fd` (closed here), read `step` bytes at a time: Refused
    unless it is a regular file of at most `limit` bytes, also when it grows past it."""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(path, "is not a regular file (a folder, FIFO, device or socket)")
        if st.st_size > limit:
            raise Refused(path, f"is larger than {_mb(limit)}")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(step, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise Refused(path, f"cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if size > limit:
        raise Refused(path, f"is larger than {_mb(limit)}")
    return b"".join(chunks)


def read_text(path, root=None, limit: int = TEXT_MAX) -> str:
    """`read_bytes` decoded as UTF-8 (Refused when it is not)."""
    try:
        return read_bytes(path, root, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(path, f"is not UTF-8 text (byte {exc.start})") from None


def rel_ok(rel) -> bool:
    """Whether `rel` is a plain relative path (no absolute path, drive, `..`, NUL, empty)."""
    if not isinstance(rel, str) or not rel or "\0" in rel or "\\" in rel:
        return False
    p = Path(rel)
    return not p.is_absolute() and ".." not in p.parts and p.parts[:1] != ("/",) \
        and all(part not in ("", ".") for part in rel.split("/"))


def out_path(out, rel) -> Path:
    """`out / rel` for a write, removal or move, once no part of it can lead outside `out`:
    `rel` is plain (rel_ok) and no folder on the way, nor the file itself, is a symlink.
    Raises Refused otherwise. Folders not made yet are fine (the write makes them)."""
    out = Path(out)
    if not rel_ok(rel):
        raise Refused(out / str(rel), "not a plain path inside the output folder")
    here = out
    for part in Path(rel).parts:
        here = here / part
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            break
        except OSError as exc:
            raise Refused(here, f"cannot be checked ({exc.strerror})") from None
        if stat.S_ISLNK(st.st_mode):
            raise Refused(here, "is a symlink inside the output folder (the tool writes "
                                "only real files and folders there; remove it)")
    return out / rel


def out_path_ok(out, rel) -> bool:
    try:
        out_path(out, rel)
    except Refused:
        return False
    return True


def read_entry(out, rel, limit: int = FILE_MAX) -> tuple[bytes, str]:
    """(bytes, path) of the file `rel` inside the folder `out` (a render-cache entry), with
    read_bytes' guarantees: `rel` plain, no link on the way nor the file itself (out_path's
    test, on strings), a regular file no larger than `limit`, opened without following a
    link (O_NOFOLLOW) nor blocking. Raises Refused otherwise. The file's real path is then
    inside `out`'s by construction, so it is not resolved (read_bytes resolves the path
    three times: about a third of a cached face's read, ~700 of them in a card edit)."""
    top = os.fspath(out)
    parts = rel.split("/") if isinstance(rel, str) else None
    if parts is None or "\0" in rel or "\\" in rel or any(p in ("", ".", "..") for p in parts):
        raise Refused(os.path.join(top, str(rel)), "not a plain path inside the output folder")
    here = top
    for part in parts[:-1]:
        here = os.path.join(here, part)
        try:
            mode = os.lstat(here).st_mode
        except OSError as exc:
            raise Refused(here, f"cannot be read ({exc.strerror})") from None
        if not stat.S_ISDIR(mode):
            raise Refused(here, "is a symlink inside the output folder (the tool writes "
                                "only real files and folders there; remove it)"
                          if stat.S_ISLNK(mode) else "is not a folder")
    path = os.path.join(here, parts[-1])
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise Refused(path, f"cannot be read ({exc.strerror})") from None
    return _read_open(fd, path, limit, 2**24), path


def out_paths_ok(out, rels) -> list[bool]:
    """out_path_ok for each of many paths (a build's ~430 outputs), each folder on the way
    checked once: the same verdicts, in strings rather than Paths (about 15 ms less)."""
    top, seen, verdicts = os.fspath(out), {}, []
    for rel in rels:
        parts = rel.split("/") if isinstance(rel, str) else None
        if parts is None or "\0" in rel or "\\" in rel \
                or any(part in ("", ".", "..") for part in parts):
            verdicts.append(False)   # (rel_ok's test, on the string)
            continue
        ok, prefix = True, ""
        for part in parts:
            prefix = f"{prefix}/{part}" if prefix else part
            kind = seen.get(prefix)
            if kind is None:
                try:
                    kind = "link" if stat.S_ISLNK(os.lstat(os.path.join(top, prefix)).st_mode) \
                        else "ok"
                except FileNotFoundError:
                    kind = "missing"
                except OSError:
                    kind = "bad"
                seen[prefix] = kind
            if kind == "missing":
                break   # (folders not made yet are fine: the write makes them)
            if kind != "ok":
                ok = False
                break
        verdicts.append(ok)
    return verdicts


# ---- what laid-out pages may load -------------------------------------------------------
TOOL_ROOT = Path(__file__).resolve().parents[2]   # templates/, fonts, the package
_READ_ROOTS: set[Path] = set()


def allow_reads(project) -> None:
    """Let pages of this process (and the workers it forks) load files of `project` (the
    folder holding the content: card art, rules images). Called when content is loaded."""
    _READ_ROOTS.add(Path(project).resolve())


def may_load(path) -> bool:
    """Whether a page may load `path`: once resolved, inside the tool's folder (templates)
    or a project whose content this process loaded; nothing else on the disk."""
    try:
        real = Path(path).resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return any(real.is_relative_to(root) for root in (TOOL_ROOT, *_READ_ROOTS))
