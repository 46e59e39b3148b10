"""Print-test fixtures: one full-set build (with a renamed glossary term) and one small build
with PNGs and Tabletop Simulator decks. Both are built once per test run, shared by the
pytest-xdist workers (read-only: no test writes into them)."""

from __future__ import annotations

import os
import pickle
import shutil

import pytest
from cardtest_helpers import RENAMED, ROOT, SMALL, copy_content, rename_term


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


@pytest.fixture(scope="session")
def full_build(tmp_path_factory):
    """Every card, both papers, backs, no PNG/TTS; the glossary term `force` renamed."""
    from tether_build.render.build import PrintOptions, build_print

    def make(base):
        content_dir = copy_content(base)
        rename_term(content_dir, "force", **RENAMED)
        out = base / "build"
        result = build_print(content_dir, out, PrintOptions(png=None, tts=False))
        return {"out": out, "result": result, "content": content_dir}
    return once_per_run(tmp_path_factory, "full", make)


@pytest.fixture(scope="session")
def small_build(tmp_path_factory, shipped_content):
    """The SMALL subset of the shipped content: sheets, PNGs and TTS."""
    from tether_build.render.build import PrintOptions, build_print

    def make(base):
        out = base / "build"
        result = build_print(ROOT / "tests" / "fixtures" / "content", out,
                             PrintOptions(cards=SMALL, tts_url="https://x.test/tts"),
                             content=shipped_content)
        return {"out": out, "result": result}
    return once_per_run(tmp_path_factory, "small", make)


@pytest.fixture(scope="session")
def shipped_content():
    """The shipped content, validated once."""
    from tether_build.validate import validate

    return validate(ROOT / "tests" / "fixtures" / "content")


@pytest.fixture(scope="session")
def shipped_cards(shipped_content):
    """Normalized cards of the shipped content, by id."""
    from tether_build.cards import normalized_cards

    return {c["id"]: c for c in normalized_cards(shipped_content)}


@pytest.fixture(scope="session")
def printed_cards(shipped_content, shipped_cards):
    """shipped_cards with the copies a print holds: a Starter card once per Starter set
    (game.yaml players.max sets by default)."""
    sets = shipped_content.game["players"]["max"]
    kinds = {d: v["kind"] for d, v in shipped_content.ages["decks"].items()}
    return {cid: dict(c, copies=c["copies"] * (sets if kinds[c["deck"]] == "starter" else 1))
            for cid, c in shipped_cards.items()}
