"""Forking safely and the garbage collector around heavy work (forking.py): no fork while a
C library's thread runs, a frozen heap while pools fork, no collection while WeasyPrint lays
out, and either way the process is left as it was."""

from __future__ import annotations

import ctypes
import gc
import sys
import time

import pytest

from tether_build.forking import collector_paused, foreign_threads, frozen_heap, quiet


def _c_thread(microseconds: int):
    """Start a thread that runs no Python (libc's usleep, as a C library's thread would)."""
    libc = ctypes.CDLL(None)
    libc.pthread_create.argtypes = [ctypes.POINTER(ctypes.c_ulong), ctypes.c_void_p,
                                    ctypes.c_void_p, ctypes.c_void_p]
    handle = ctypes.c_ulong()
    usleep = ctypes.cast(libc.usleep, ctypes.c_void_p)
    assert libc.pthread_create(ctypes.byref(handle), None, usleep, microseconds) == 0
    return libc, handle


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/task lists threads")
def test_a_fork_waits_until_no_c_library_thread_runs():
    """A thread that a C library started (Pango matching fonts after a layout) may hold a
    lock a forked child would wait for forever: a fork waits for it to end, and no longer
    than its limit when it does not."""
    assert foreign_threads() == 0
    libc, handle = _c_thread(300_000)
    assert foreign_threads() == 1
    t = time.monotonic()
    quiet()
    assert foreign_threads() == 0 and time.monotonic() - t >= 0.2
    libc.pthread_join(handle, None)
    libc, handle = _c_thread(3_000_000)
    t = time.monotonic()
    quiet(timeout=0.2)   # a thread that outlives the limit: the fork goes ahead
    # (while the thread still runs; the margin is wide, as a loaded machine may pause this
    # process for a second: the bound was 1 s of a 1.5 s thread)
    assert 0.2 <= time.monotonic() - t < 2.5 and foreign_threads() == 1
    libc.pthread_join(handle, None)


def test_a_pool_freezes_the_heap_for_its_life_only():
    assert gc.get_freeze_count() == 0
    with frozen_heap():
        assert gc.get_freeze_count() > 0
        with frozen_heap():      # a worker that forks workers of its own keeps its inheritance
            pass
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_layout_pauses_the_collector_and_restores_it_as_it_was():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()   # a caller that had it off keeps it off
    finally:
        gc.enable()
