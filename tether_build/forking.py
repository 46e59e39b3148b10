"""Forking safely, and the garbage collector around heavy work. Forked worker pools (the
build's stages, the rulebook's papers, the card faces, the check's sweep, simulations): the
parent's heap is frozen out of the garbage collector while they fork.

Every fork waits first until no thread but Python's own runs in the process (quiet()): after
a layout, Pango matches fonts in a thread of its own for a few milliseconds, holding
fontconfig's lock, and a process forked meanwhile waited for that lock forever (a build hung
so, with the book's fonts read before the chapters' process was forked).

What a worker inherits (the loaded content, the compiled rules, the imported libraries: some
hundred thousand objects) is then never walked by its collections, which layout and game code
trigger often: a clean build takes about 8 % less CPU (measured side by side), and those pages
stay shared with the parent instead of being copied when the collector touches them.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor


QUIET_WAIT = 2.0   # seconds a fork waits at most for the threads of C libraries to end


def foreign_threads() -> int:
    """How many threads of this process run no Python (started by a C library: Pango's font
    matching): its threads (/proc/self/task) less those Python knows (sys._current_frames,
    which counts the threads of the low-level _thread module too); 0 where the system does
    not list them."""
    try:
        tasks = len(os.listdir("/proc/self/task"))
    except OSError:
        return 0
    return max(0, tasks - len(sys._current_frames()))


def quiet(timeout: float = QUIET_WAIT) -> None:
    """Before a fork: wait until foreign_threads() have ended, `timeout` seconds at most (then
    fork as before). A lock such a thread holds at the fork stays held in the child, which
    then waits for it forever."""
    deadline = time.monotonic() + timeout
    while foreign_threads() and time.monotonic() < deadline:
        time.sleep(0.001)


def fork() -> int:
    """os.fork(), once quiet()."""
    quiet()
    return os.fork()


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Freeze the heap for a pool's life (its workers fork when it is first given work), and
    unfreeze it after, unless it was frozen already (a worker that forks workers of its own
    keeps what it inherited frozen): a process that builds again and again (`--watch`) ends
    each build with its heap as before."""
    outer = gc.get_freeze_count() > 0
    gc.freeze()
    try:
        yield
    finally:
        if not outer:
            gc.unfreeze()


GIVE_WAY = 10    # how much lower (os.nice) the CPU priority of work that gives way is
_NICE: list = []  # inside giving_way(): the pools forked meanwhile give way


@contextmanager
def giving_way() -> Iterator[None]:
    """Inside: every fork_pool's workers run at a lower CPU priority (GIVE_WAY): work that
    another waits less for (the build's check, beside the stages that lay out) takes the
    cores they leave, and they theirs first."""
    _NICE.append(GIVE_WAY)
    try:
        yield
    finally:
        _NICE.pop()


def beside() -> bool:
    """Is this work giving way to other work (inside giving_way()): the cores are busy."""
    return bool(_NICE)


@contextmanager
def fork_pool(workers: int, cancel: bool = False, nice: int | None = None
              ) -> Iterator[ProcessPoolExecutor]:
    """A pool of `workers` processes forked from this one (they inherit what it has loaded),
    the heap frozen for its life (frozen_heap). Left, it waits for its workers; with
    `cancel`, work not started yet is dropped first (a build's stages after a Ctrl-C).
    nice: how much lower their CPU priority is than this process's (os.nice; None: GIVE_WAY
    inside giving_way(), else 0)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    nice = (_NICE[-1] if _NICE else 0) if nice is None else nice
    quiet()   # (its workers fork at its first task: nothing runs in between)
    with frozen_heap():
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=os.nice if nice else None,
                                   initargs=(nice,) if nice else ())
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=cancel)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside (restored after as it was): for work that builds large
    trees of objects that stay alive until it ends (WeasyPrint laying out or writing a
    document), which the collector would otherwise walk again and again for nothing (about
    4 % of laying out the card faces, measured side by side). Garbage made inside is
    collected after, as usual."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
