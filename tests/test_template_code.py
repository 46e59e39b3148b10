"""Compiled templates kept in the render cache never hold content (issue 40).

Jinja folds a filter over a constant into the compiled code; the compiled code is keyed on
the template's source alone. So a glossary word must never be folded: a rename would print
the old word from the cache. These tests compile a template with one glossary word into a
cache and render it through the same cache with another.
"""

from __future__ import annotations

import jinja2
import pytest

from tether_build.print.cache import Cache
from tether_build.print.templatecode import (
    bytecode_cache,
    data_filter,
    foldable_content,
    pure_filter,
)

SOURCE = {"t.html": '<h2>{{ "[force:pl]" | word }}</h2>{{ 2.5 | mm }}'}


def _env(cache: Cache, word: str, mark) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.DictLoader(SOURCE), autoescape=True,
                             bytecode_cache=bytecode_cache(cache))
    env.filters["word"] = mark(lambda text: text.replace("[force:pl]", word))
    env.filters["mm"] = pure_filter(lambda v: f"{float(v):.3f}")
    return env


def _entries(cache: Cache) -> list:
    folder = cache.root / "jinja"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_a_content_filter_is_applied_at_render_time_not_compiled_in(tmp_path):
    cache = Cache(tmp_path)
    assert _env(cache, "Cohorts", data_filter).get_template("t.html").render() == \
        "<h2>Cohorts</h2>2.500"
    assert len(_entries(cache)) == 1            # the compiled code is kept...
    renamed = _env(cache, "Legionaries", data_filter).get_template("t.html")
    assert renamed.render() == "<h2>Legionaries</h2>2.500"   # ...and holds no word
    assert len(_entries(cache)) == 1            # the same entry served the rename


def test_an_unmarked_filter_is_never_cached(tmp_path):
    """A filter marked neither pure nor content might be folded: nothing is stored."""
    cache = Cache(tmp_path)
    env = _env(cache, "Cohorts", lambda f: f)
    assert foldable_content(env) == ["word"]
    assert env.get_template("t.html").render() == "<h2>Cohorts</h2>2.500"
    assert _entries(cache) == []
    assert _env(cache, "Legionaries", lambda f: f).get_template("t.html").render() == \
        "<h2>Legionaries</h2>2.500"


def test_unmarked_folding_is_what_the_guard_prevents(tmp_path):
    """Without the guard, Jinja would compile the word in (the bug the guard exists for)."""
    env = jinja2.Environment(loader=jinja2.DictLoader(SOURCE))
    env.filters["word"] = lambda text: text.replace("[force:pl]", "Cohorts")
    env.filters["mm"] = lambda v: f"{float(v):.3f}"
    code = env.compile(SOURCE["t.html"], raw=True)
    assert "Cohorts" in code


@pytest.mark.parametrize("which", ["rulebook", "tiles"])
def test_the_tools_own_environments_are_cacheable(content, tmp_path, which):
    """Every filter the rulebook's and the tiles' templates use is marked: their compiled
    code is kept (a guard that switched caching off silently would cost every build)."""
    if which == "rulebook":
        from tether_build.print.rulebook.book import _env as book_env
        from tether_build.print.rulebook.words import Words
        env = book_env(Words(content), Cache(tmp_path))
    else:
        from tether_build.print.tiles.common import _env as tiles_env
        env = tiles_env(tmp_path)
    assert foldable_content(env) == []
