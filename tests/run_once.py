"""Expensive test set-up made once per test run, shared by the pytest-xdist workers."""

from __future__ import annotations

import os
import pickle
import shutil


def once_per_run(tmp_path_factory, name: str, make):
    """make(folder) -> a picklable value, made once per test run. Each pytest-xdist worker
    has its own session, so a session fixture is made once per worker: two workers, two
    full-set builds (the suite's files are dealt to the workers by file). Here the first
    worker to ask makes it, under a lock, in the run's shared temporary folder; another waits
    for it, then reads it (waiting is never longer than building it again)."""
    try:
        import fcntl
    except ImportError:   # no flock (Windows): each worker makes its own
        return make(tmp_path_factory.mktemp(name))
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent   # pytest-of-<user>/pytest-<n>: this run's, shared by its workers
    base = root / f"{name}-shared"
    with open(root / f"{name}-shared.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = base / "value.pickle"
        if done.exists():
            return pickle.loads(done.read_bytes())
        shutil.rmtree(base, ignore_errors=True)   # a worker that failed half-way
        base.mkdir()
        value = make(base)
        done.write_bytes(pickle.dumps(value))
        return value
