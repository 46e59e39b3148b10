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


def watch(run: Callable[[], None], folders: list[Path], code: Path,
          say: Callable[[str], None], interval: float = INTERVAL) -> None:
    """Build, then build again whenever a file under `folders` changes; Ctrl-C stops.

    run: one build (raises click errors as the command does); say: prints a status line."""
    shown = ", ".join(f"{f}/" for f in folders)
    count, code_seen, code_told = 0, tree_version(code), False
    try:
        while True:
            seen = tree_version(*folders)
            start = time.perf_counter()
            status, names = build_once(run)
            count += 1
            verdict = "done" if status == 0 else f"FAILED (exit {status})"
            # the build's line first: the modules it loaded are imported afterwards, while
            # the designer reads its outputs, so the next build starts with them loaded
            say(f"[watch] build {count} {verdict} in {time.perf_counter() - start:.2f} s; "
                f"watching {shown} (Ctrl-C stops)")
            if set(names) - set(sys.modules):
                loaded = len(sys.modules)
                say(f"[watch] {warm(names) - loaded} more modules kept loaded for the next "
                    "build")
            looks = 0
            while tree_version(*folders) == seen:
                time.sleep(interval)
                looks += 1
                if looks % CODE_EVERY == 0 and not code_told and tree_version(code) != code_seen:
                    code_told = True
                    say(f"[watch] the code under {code}/ changed: stop and start "
                        "`tether build --watch` again to use it")
            time.sleep(SETTLE)
    except KeyboardInterrupt:
        say(f"[watch] stopped after {count} build(s)")
