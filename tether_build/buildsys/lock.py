"""One writer at a time per output folder, and what a killed writer left, cleaned first.

Every command that writes into an output folder (`tether build`, `rulebook`, `print-cards`,
`print-tiles`, `board`, `notes`, `engine`, `changes`) holds `output_lock(out)` while it
works: an advisory lock (flock) on `out/.tether-lock`, which holds the holder's pid and
command. A second command for the same folder waits up to LOCK_WAIT seconds (the
environment variable TETHER_LOCK_WAIT changes it), then refuses in one line; it never
writes beside the first. The system drops the lock of a process that dies however it dies
(SIGKILL included), so a lock file a killed build left (a dead pid) is simply taken over.

Holding the lock, the command first completes or rolls back the output swap of a killed
writer (commit.recover: the journal in `.tether-staging/`), then removes the temporary files
killed writers left (fsutil.sweep_temps): nothing that reads or writes the outputs through
the tool ever sees half a swap. The lock file goes away when the command ends.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import TetherError

LOCK = ".tether-lock"
LOCK_WAIT = 45.0   # seconds a second writer waits for the first before it gives up
POLL = 0.1

_held: dict[Path, int] = {}   # resolved folder -> lock file descriptor (this process)


def _wait_limit() -> float:
    try:
        return max(0.0, float(os.environ.get("TETHER_LOCK_WAIT", LOCK_WAIT)))
    except ValueError:
        return LOCK_WAIT


def _holder(path: Path) -> str:
    try:
        text = path.read_text(errors="replace")[:200].split("\n")[0].strip()
    except OSError:
        return "another tether command"
    return text or "another tether command"


def _forget_in_child() -> None:
    """A forked worker does not hold the lock: its copy of the descriptor is closed (the
    parent's keeps the lock)."""
    for fd in _held.values():
        try:
            os.close(fd)
        except OSError:
            pass
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def _acquire(out: Path, command: str, say) -> int:
    import fcntl

    path = out / LOCK
    deadline, told = time.monotonic() + _wait_limit(), False
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except FileNotFoundError:   # the folder went away with the last holder
            out.mkdir(parents=True, exist_ok=True)
            continue
        except OSError as exc:
            raise TetherError(f"cannot lock {path}: {exc.strerror or exc} (remove it if "
                              "no tether command is running)") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                raise TetherError(
                    f"{out}/ is in use by {_holder(path)}: waited {_wait_limit():.0f} s; "
                    "run this again when it has finished (TETHER_LOCK_WAIT sets the wait)"
                ) from None
            if not told and say is not None:
                say(f"waiting for {_holder(path)} to finish writing into {out}/ ...")
                told = True
            time.sleep(POLL)
            continue
        try:   # the file may have been removed by its holder meanwhile: lock the one on disk
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except OSError:
            same = False
        if not same:
            os.close(fd)
            continue
        os.ftruncate(fd, 0)
        os.write(fd, f"{command} (pid {os.getpid()})\n".encode())
        return fd


@contextmanager
def output_lock(out: Path, command: str = "tether build", say=None) -> Iterator[str | None]:
    """Hold `out`'s lock (created if missing) for the block; nested use in one process is a
    no-op. On entry, a killed writer's swap is completed (the block gets what was done, a
    sentence, or None) and its temporary files removed."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise TetherError(f"the output folder {out} is a file (choose another --out)")
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TetherError(f"cannot create the output folder {out}/: "
                          f"{exc.strerror or exc}") from None
    key = out.resolve()
    if key in _held:
        yield None
        return
    try:
        import fcntl  # noqa: F401
    except ImportError:   # no flock (Windows): no lock, the rest as usual
        fd = None
    else:
        fd = _acquire(out, command, say)
        _held[key] = fd
    try:
        yield _tidy(out)
    finally:
        if fd is not None:
            _held.pop(key, None)
            try:
                os.unlink(out / LOCK)   # while still locked: a waiter then locks a new file
            except OSError:
                pass
            os.close(fd)
        if created:
            try:
                out.rmdir()   # a command that wrote nothing leaves no empty folder behind
            except OSError:
                pass


def _tidy(out: Path) -> str | None:
    from ..fsutil import sweep_temps
    from .commit import recover

    done = recover(out)
    sweep_temps(out)
    return done


def write_outputs(out: Path, files: dict[str, bytes], removals: list[str] = (),
                  command: str = "tether") -> list[str]:
    """Swap `files` (path relative to `out` -> bytes) in and `removals` out, all or nothing
    (commit.py), holding `out`'s lock; returns the paths whose bytes changed."""
    from .commit import commit

    with output_lock(Path(out), command):
        written, _unchanged = commit(Path(out), dict(files), list(removals), None)
    return written
