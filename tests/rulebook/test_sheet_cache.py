"""The rulebook's small PDF print/README.pdf comes from the render cache when
its HTML and all that shapes its layout are unchanged; a damaged entry is laid out again."""

from __future__ import annotations

import jinja2
import pytest

from tether_build.render.cache import Cache
from tether_build.rulebook import book


def test_a_sheet_is_laid_out_once_then_read_from_the_cache(tmp_path, monkeypatch):
    from tether_build.render.pdf import Layout

    env = jinja2.Environment(loader=jinja2.DictLoader(
        {"sheet.html": "<p>{{ title }} {{ version }} {{ note }}</p>"}), autoescape=True)
    data = {"title": "T", "version": "1.0", "base": book.TEMPLATES.as_uri() + "/"}
    cache = Cache(tmp_path)
    first = book._sheet(env, "sheet.html", data, "a4", cache, note="x")
    assert first.startswith(b"%PDF")
    real = Layout.render

    def no_layout(self, html):
        raise AssertionError("laid out again")
    monkeypatch.setattr(Layout, "render", no_layout)
    assert book._sheet(env, "sheet.html", data, "a4", cache, note="x") == first
    with pytest.raises(AssertionError, match="laid out again"):   # other HTML: a miss
        book._sheet(env, "sheet.html", data, "a4", cache, note="y")
    monkeypatch.setattr(Layout, "render", real)
    for entry in (tmp_path / "sheet").iterdir():
        entry.write_bytes(entry.read_bytes()[:-10])   # cut short: damaged
    assert book._sheet(env, "sheet.html", data, "a4", cache, note="x") == first
