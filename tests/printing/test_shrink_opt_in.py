"""Shrink to fit on tiles and tokens, opted in as on cards (`shrink: true`; print/tiles/shrink.py):
one planted overflow per kind is a build error by default, and with the opt-in a warning
with the text set smaller until it fits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tether_build.content.validate import validate
from tether_build.errors import ContentError
from tether_build.print.tiles import common, fitcheck, shrink, tiles, tokens

LONG_NAME = "Leadbound of the Unending Eastern Marches"
LONG_WORD = "Leadershipstaffs"


def _opt_in(path, anchor: str, key: str = "    ") -> None:
    text = path.read_text()
    assert anchor in text
    path.write_text(text.replace(anchor, f"{anchor}{key}shrink: true\n", 1))


def _long_faction(content_copy) -> None:
    factions = content_copy / "factions.yaml"
    text = factions.read_text()
    factions.write_text(text.replace("    name: Leadbound\n", f"    name: {LONG_NAME}\n"))


def _one_capital(content, monkeypatch) -> None:
    """The tile sheets hold the one long-named Capital (one page: a fast layout)."""
    one = [s for s in tiles._tile_set(content) if s.sub == LONG_NAME]
    assert one
    monkeypatch.setattr(tiles, "tile_set", lambda _c, scales=None: [
        replace(s, scale=(scales or {}).get(s.kind, 1.0)) for s in one])


def _render(content, paper, scales):
    with common.cached(None):
        return tiles.render_tiles(content, paper, common.DEFAULT_TILE_MM, scales)


def test_a_tile_overflow_is_an_error_without_the_opt_in(content_copy, monkeypatch):
    _long_faction(content_copy)
    content = validate(content_copy)
    _one_capital(content, monkeypatch)
    pdfs, warnings = shrink.fit_tiles(content, ["a4"], lambda p, s: _render(content, p, s))
    assert warnings == []
    with pytest.raises(ContentError) as err:
        fitcheck.check(content, list(pdfs.values()), [])
    assert err.value.problems[0].field == "tiles.capital.sub"


def test_a_tile_opted_in_shrinks_and_warns(content_copy, monkeypatch):
    _long_faction(content_copy)
    _opt_in(content_copy / "tiles.yaml", "  capital:\n")
    content = validate(content_copy)
    _one_capital(content, monkeypatch)
    sizes = []

    def render(paper, scales):
        sizes.append(dict(scales))
        return _render(content, paper, scales)

    pdfs, warnings = shrink.fit_tiles(content, ["a4"], render)
    assert sizes[0] == {} and 0.7 <= sizes[-1]["capital"] < 1.0   # laid out again, smaller
    assert not any(label.startswith("capital") for pdf in pdfs.values()
                   for label, _ in pdf.overflows)
    fitcheck.check(content, list(pdfs.values()), [])              # no error now
    (warning,) = warnings
    assert "tiles.capital" in warning and "shrunk to fit" in warning
    assert f"{round(sizes[-1]['capital'] * 100)} %" in warning


def _long_caption(content_copy):
    terms = content_copy / "terms.yaml"
    text = terms.read_text()
    assert '    singular: "Lead"\n' in text
    terms.write_text(text.replace('    singular: "Lead"\n', f'    singular: "{LONG_WORD}"\n'))
    return terms


def test_a_token_overflow_is_an_error_without_the_opt_in(content_copy):
    _long_caption(content_copy)
    content = validate(content_copy)
    token_list = tokens.token_set(content)
    assert shrink.token_warnings(content, token_list) == []
    problems = fitcheck.token_problems(content, token_list)
    assert [p.field for p in problems] == ["token.lead.caption"]


def test_a_token_opted_in_shrinks_and_warns(content_copy):
    terms = _long_caption(content_copy)
    _opt_in(terms, f'    singular: "{LONG_WORD}"\n')
    content = validate(content_copy)
    token_list = tokens.token_set(content)
    (lead,) = [t for t in token_list if t.group == "lead"]
    assert 0.7 <= lead.face["fit"] < 1.0
    assert fitcheck.token_problems(content, token_list) == []
    (warning,) = shrink.token_warnings(content, token_list)
    assert "token.lead" in warning and "terms.lead" in warning and "shrunk to fit" in warning
    # the sheet prints the smaller size the check measured
    with common.cached(None):
        pdf = tokens.render_tokens(content, "a4")
    assert pdf.pages >= 1


def test_the_opt_in_is_in_the_schemas():
    from tether_build.schemas.generate import terms_schema
    from tether_build.schemas.kinds import tiles_schema

    tile = tiles_schema()["properties"]["tiles"]["additionalProperties"]
    assert tile["properties"]["shrink"]["type"] == "boolean"
    term = terms_schema()["properties"]["terms"]["additionalProperties"]
    assert term["properties"]["shrink"]["type"] == "boolean"
