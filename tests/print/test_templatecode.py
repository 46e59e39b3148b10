"""Compiled templates are kept in the render cache and reused, never stale, never fatal."""

from __future__ import annotations

import jinja2

from tether_build.print.cache import Cache
from tether_build.print.templatecode import bytecode_cache


def _env(folder, cache):
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(folder)),
                              bytecode_cache=bytecode_cache(cache))


def _compiles(env) -> list[str]:
    seen: list[str] = []
    compile_ = env.compile

    def counted(source, name=None, filename=None, raw=False, defer_init=False):
        seen.append(name)
        return compile_(source, name, filename, raw, defer_init)
    env.compile = counted
    return seen


def test_a_template_is_compiled_once_then_read_from_the_cache(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "card.html").write_text("<b>{{ name }}</b>")
    cache = Cache(tmp_path / "cache")
    first = _env(tmp_path / "t", cache)
    compiled = _compiles(first)
    assert first.get_template("card.html").render(name="Raid") == "<b>Raid</b>"
    second = _env(tmp_path / "t", cache)
    again = _compiles(second)
    assert second.get_template("card.html").render(name="Raid") == "<b>Raid</b>"
    assert compiled == ["card.html"] and again == []
    assert list((tmp_path / "cache" / "jinja").glob("*.bin"))


def test_an_edited_template_is_compiled_afresh(tmp_path):
    (tmp_path / "t").mkdir()
    page = tmp_path / "t" / "card.html"
    page.write_text("<b>{{ name }}</b>")
    cache = Cache(tmp_path / "cache")
    _env(tmp_path / "t", cache).get_template("card.html")
    page.write_text("<i>{{ name }}</i>")
    assert _env(tmp_path / "t", cache).get_template("card.html").render(name="Raid") == \
        "<i>Raid</i>"


def test_a_broken_entry_is_compiled_again(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "card.html").write_text("<b>{{ name }}</b>")
    cache = Cache(tmp_path / "cache")
    _env(tmp_path / "t", cache).get_template("card.html")
    for entry in (tmp_path / "cache" / "jinja").glob("*.bin"):
        entry.write_bytes(entry.read_bytes()[:20])   # cut short
    env = _env(tmp_path / "t", cache)
    compiled = _compiles(env)
    assert env.get_template("card.html").render(name="Raid") == "<b>Raid</b>"
    assert compiled == ["card.html"]


def test_no_cache_folder_no_bytecode_cache():
    assert bytecode_cache(None) is None and bytecode_cache(Cache(None)) is None


def test_environments_with_other_whitespace_rules_do_not_share_code(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "list.html").write_text("{% for x in xs %}\n{{ x }}\n{% endfor %}\n")
    cache = Cache(tmp_path / "cache")

    def render(trim: bool) -> str:
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path / "t")),
                                 trim_blocks=trim, lstrip_blocks=trim,
                                 bytecode_cache=bytecode_cache(cache))
        return env.get_template("list.html").render(xs=[1, 2])

    plain, trimmed = render(False), render(True)
    assert plain != trimmed
    assert render(False) == plain and render(True) == trimmed
