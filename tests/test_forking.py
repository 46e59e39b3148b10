"""The garbage collector around heavy work (forking.py): a frozen heap while pools fork, no
collection while WeasyPrint lays out, and either way the process is left as it was."""

from __future__ import annotations

import gc

from tether_build.forking import collector_paused, frozen_heap


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
