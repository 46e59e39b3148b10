"""The page windows of a real-size map (boardmap.split), kept between builds.

`split` is a pure function of its arguments (the map's size, the paper, the overlap, the
boxes its joins must keep off) and of its code (boardmap.py; the paper sizes and the safe
margin of common.py): the key here is exactly those. The print guide asks for the split of
the build's board on each paper twice, and a card's text edit lays the guide out again:
about 9 % of the rulebook stage's CPU after such an edit, the same answer every time.

Kept in this process (a `--watch` build, the guide's second ask) and in the render cache
that `stored` opens (the rulebook stage) or the running tiles stage opened (common.cached).
An entry is the result's `repr`, read back with `ast.literal_eval` (never executed): one that
does not read back as a split is a miss, computed again. Each call gets its own copy
(render_map writes into the windows).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager

KIND = "map-split"
_MEMO: dict[str, str] = {}   # key -> repr of the split
_STORE: list = []            # the render cache stored() opened


@contextmanager
def stored(cache) -> Iterator[None]:
    """Within: splits are kept in the render cache `cache` (print/cache.Cache)."""
    _STORE.append(cache)
    try:
        yield
    finally:
        _STORE.pop()


def _store():
    if _STORE:
        return _STORE[-1]
    from . import common
    return common.current_cache()


def key(args: tuple) -> str:
    """The cache key of boardmap.split(*args): the arguments and the code that computes it."""
    from ..cache import code_digest, digest

    return digest("map-split/1", repr(args),
                  code_digest("print/tiles/boardmap.py", "print/tiles/common.py"))


def _read(text: str | None) -> dict | None:
    if text is None:
        return None
    try:
        got = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return got if isinstance(got, dict) and isinstance(got.get("windows"), list) else None


def split(compute: Callable[..., dict], map_w: float, map_h: float, paper: str,
          overlap: float, avoid) -> dict:
    """compute(map_w, map_h, paper, overlap, avoid), from this process's memo or the render
    cache when either holds it."""
    avoid = tuple(tuple(box) for box in avoid)
    args = (map_w, map_h, paper, overlap, avoid)
    k = key(args)
    got = _read(_MEMO.get(k))
    if got is not None:
        return got
    store = _store()
    if store is not None:
        data = store.get(KIND, k)
        if data is not None:
            try:
                got = _read(data.decode())
            except UnicodeDecodeError:
                got = None
            if got is not None:
                _MEMO[k] = data.decode()
                return got
    result = compute(map_w, map_h, paper, overlap, avoid)
    text = repr(result)
    if _read(text) == result:   # (a value repr cannot write back, e.g. nan: not kept)
        _MEMO[k] = text
        if store is not None:
            store.put(KIND, k, text.encode())
    return result
