"""`tether build --watch`: build, then build again each time the content, the templates or
the schemas change, until Ctrl-C.

A `tether build` typed at the prompt spends about a second before it reads a file: starting
Python and importing WeasyPrint (0.6 s), the engine, the check and the print code. The watcher
pays that once: before its first build it imports the modules of every stage's code. Each
build runs in a child process forked from the watcher, which runs the same build function
`tether build` runs, with the same options: a watched build is the same as one typed by hand
(same code, a fresh state, the same outputs, errors and exit status), and a build that fails
prints its located errors and leaves the previous outputs as they were, while the watcher
waits for the next save. Each child also sends back the names of the modules it had loaded (a
stage imports more as it goes); the watcher imports those it lacks, so later children start
with them loaded. The watcher itself never builds, so no state of one build reaches the next.

The code (tether_build/) is not watched: the watcher holds it loaded, and says to start again
when it changes. Where `fork` is missing (Windows), each build runs in the watcher's own
process, without that guarantee.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from ..fsutil import tree_version

INTERVAL = 0.1   # seconds between two looks at the watched folders (a look costs ~2 ms)
# (on Linux the watcher also sleeps on inotify (Changes), so a save wakes it at once rather
# than at its next look: INTERVAL/2 sooner on average; the looks still decide)
SETTLE = 0.05    # seconds to let an editor finish writing before the build reads the files
CODE_EVERY = 20  # looks at the code once every this many looks at the content
STOP_WAIT = 10.0  # seconds a build child has to stop after Ctrl-C before it is killed


def _exit_code(run: Callable[[], None]) -> int:
    """Run one build as the command line would: click's errors shown, no traceback for them."""
    import click

    from ..errors import os_error

    try:
        run()
        return 0
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except OSError as exc:
        error = os_error(exc)
        error.show()
        return error.exit_code
    except KeyboardInterrupt:
        return 130
    except Exception:  # noqa: BLE001  (a bug: shown as the command line would show it)
        traceback.print_exc()
        return 1


def build_once(run: Callable[[], None]) -> tuple[int, list[str]]:
    """One build in a forked child: (exit status, the modules the child had loaded)."""
    if not hasattr(os, "fork"):
        return _exit_code(run), []
    sys.stdout.flush()
    sys.stderr.flush()
    from ..forking import fork

    read, write = os.pipe()
    pid = fork()
    if pid == 0:   # the child: build, send the module names, leave without cleanup
        code = 1
        try:
            os.close(read)
            code = _exit_code(run)
            sys.stdout.flush()
            sys.stderr.flush()
            with os.fdopen(write, "wb") as pipe:
                pipe.write("\n".join(sorted(sys.modules)).encode())
        finally:
            os._exit(code)
    os.close(write)
    try:
        with os.fdopen(read, "rb") as pipe:
            names = pipe.read().decode().split()
    except BaseException:   # Ctrl-C: the build stops too, then the watcher
        _end(pid)
        raise
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), names


def _end(pid: int) -> None:
    """Stop the build child `pid` and reap it: SIGINT, as Ctrl-C at a terminal (which may
    have reached it already; a SIGINT sent to the watcher alone, `kill -INT`, has not), then
    SIGKILL if it has not ended within STOP_WAIT seconds. A build stopped either way leaves
    the previous outputs as they were (commit.py)."""
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    deadline = time.monotonic() + STOP_WAIT
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def warm(names: list[str]) -> int:
    """Import every module of the list not loaded yet (a module that fails is left out);
    returns how many are loaded now."""
    for name in names:
        if name not in sys.modules and not name.startswith("__"):
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001, S112  (one module fewer kept loaded)
                continue
    return len(sys.modules)


def warm_up() -> None:
    """The print libraries' first-use work done here once (render.pdf.warm_up), not in each
    forked build; a failure only costs that time."""
    try:
        from ..print.html import TEMPLATES
        from ..print.layout.pdf import warm_up as lay_out_one_page

        lay_out_one_page(TEMPLATES.as_uri() + "/")
    except Exception:  # noqa: BLE001, S110  (each build then does that work itself)
        pass


class Changes:
    """Wake up as soon as something under the folders is written, created, moved or removed:
    Linux's inotify, through the C library (every folder of the trees watched; a folder made
    later is watched from the next wait on). wait(seconds) returns True when woken by such
    an event, False when the time ran out. Where inotify cannot be used (another system, no
    watches left), wait only sleeps, as the watcher did before: the folders' fingerprints
    (tree_version) decide what changed either way; an event only ends the sleep sooner."""

    # IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE |
    # IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
    MASK = 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800

    def __init__(self, folders: list[Path]):
        self.folders = [Path(f) for f in folders]
        self.fd: int | None = None
        self.watched: set[str] = set()
        if not sys.platform.startswith("linux"):
            return
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return
        if fd < 0:
            return
        self.fd, self.libc = fd, libc
        self._add_new()

    def _add_new(self) -> None:
        """Watch every folder of the trees not watched yet."""
        for top in self.folders:
            for folder in [top, *(p for p in top.rglob("*") if p.is_dir())]:
                name = str(folder)
                if name in self.watched or "__pycache__" in folder.parts:
                    continue
                if self.libc.inotify_add_watch(self.fd, os.fsencode(name), self.MASK) >= 0:
                    self.watched.add(name)

    def wait(self, seconds: float) -> bool:
        if self.fd is None:
            time.sleep(seconds)
            return False
        import select

        ready, _, _ = select.select([self.fd], [], [], seconds)
        if not ready:
            return False
        try:
            while os.read(self.fd, 65536):   # every event so far (non-blocking)
                pass
        except BlockingIOError:
            pass
        except OSError:
            return True
        self._add_new()
        return True

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def watch(run: Callable[[], None], folders: list[Path], code: Path,
          say: Callable[[str], None], interval: float = INTERVAL) -> None:
    """Build, then build again whenever a file under `folders` changes; Ctrl-C stops.

    run: one build (raises click errors as the command does); say: prints a status line."""
    shown = ", ".join(f"{f}/" for f in folders)
    count, code_seen, code_told = 0, tree_version(code), False
    changes = Changes(folders)
    try:
        while True:
            seen = tree_version(*folders)
            start = time.perf_counter()
            status, names = build_once(run)
            count += 1
            verdict = "done" if status == 0 else f"FAILED (exit {status})"
            loaded = len(sys.modules)
            extra = f"; {warm(names) - loaded} more modules kept loaded" \
                if set(names) - set(sys.modules) else ""
            say(f"[watch] build {count} {verdict} in {time.perf_counter() - start:.2f} s"
                f"{extra}; watching {shown} (Ctrl-C stops)")
            looks = 0
            while tree_version(*folders) == seen:
                changes.wait(interval)
                looks += 1
                if looks % CODE_EVERY == 0 and not code_told and tree_version(code) != code_seen:
                    code_told = True
                    say(f"[watch] the code under {code}/ changed: stop and start "
                        "`tether build --watch` again to use it")
            time.sleep(SETTLE)
    except KeyboardInterrupt:
        say(f"[watch] stopped after {count} build(s)")
    finally:
        changes.close()
