"""The real-size map's page split kept between builds (print/tiles/splitcache.py): its key
is exactly what boardmap.split reads (every argument and its code), a kept split is the
split itself, and a bad entry is computed again."""

from __future__ import annotations

import pytest

from tether_build.print import cache as render_cache
from tether_build.print.tiles import boardmap, splitcache

BOXES = ((10.0, 20.0, 30.0, 40.0), (100.5, 60.25, 140.0, 90.0))
ARGS = (420.0, 380.0, "a4", boardmap.OVERLAP_MM, BOXES)


@pytest.fixture(autouse=True)
def _no_memo():
    splitcache._MEMO.clear()
    yield
    splitcache._MEMO.clear()


def _counted():
    calls = []

    def compute(*args):
        calls.append(args)
        return boardmap.split(*args[:4], avoid=args[4])
    return compute, calls


@pytest.mark.parametrize("index, other", [(0, 421.0), (1, 379.5), (2, "letter"), (3, 10.0),
                                          (4, BOXES[:1]), (4, ((10.0, 20.0, 30.0, 41.0),
                                                              BOXES[1]))])
def test_every_argument_is_in_the_key(index, other):
    changed = list(ARGS)
    changed[index] = other
    assert splitcache.key(tuple(changed)) != splitcache.key(ARGS)


def test_the_code_is_in_the_key(monkeypatch):
    asked = []
    real = render_cache.code_digest

    def code_digest(*names):
        asked.extend(names)
        return real(*names)
    monkeypatch.setattr(render_cache, "code_digest", code_digest)
    before = splitcache.key(ARGS)
    assert {"print/tiles/boardmap.py", "print/tiles/common.py"} <= set(asked)
    monkeypatch.setattr(render_cache, "code_digest", lambda *names: "edited code")
    assert splitcache.key(ARGS) != before


def test_a_kept_split_is_the_split(tmp_path):
    store = render_cache.Cache(tmp_path)
    compute, calls = _counted()
    direct = boardmap.split(*ARGS[:4], avoid=ARGS[4])
    with splitcache.stored(store):
        first = splitcache.split(compute, *ARGS)
        first["windows"][0]["label"] = "written by a caller"   # (render_map does)
        again = splitcache.split(compute, *ARGS)               # this process's memo
        splitcache._MEMO.clear()
        from_disk = splitcache.split(compute, *ARGS)           # the render cache
    assert len(calls) == 1
    assert again == direct and from_disk == direct
    assert type(from_disk["marks"][0]) is type(direct["marks"][0])


@pytest.mark.parametrize("entry", [b"not python", b"{'windows': None}", b"\xff\xfe",
                                   b"__import__('os')"])
def test_a_bad_entry_is_computed_again(tmp_path, entry):
    store = render_cache.Cache(tmp_path)
    store.put(splitcache.KIND, splitcache.key(ARGS), entry)
    compute, calls = _counted()
    with splitcache.stored(store):
        got = splitcache.split(compute, *ARGS)
    assert len(calls) == 1
    assert got == boardmap.split(*ARGS[:4], avoid=ARGS[4])


def test_without_a_store_it_computes(tmp_path):
    compute, calls = _counted()
    assert splitcache.split(compute, *ARGS) == boardmap.split(*ARGS[:4], avoid=ARGS[4])
    assert len(calls) == 1
