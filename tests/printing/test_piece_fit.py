"""The fit check of tiles and tokens (print/tiles/fitcheck.py): a planted overflow is a build
error naming the piece and the field, located in content; the fixture's pieces all fit."""

from __future__ import annotations

import pytest

from tether_build.content.validate import validate
from tether_build.errors import ContentError
from tether_build.print.tiles import build as printing
from tether_build.print.tiles import common, fitcheck, tiles, tokens


def test_the_fixture_tokens_fit(content):
    assert fitcheck.token_problems(content, tokens.token_set(content)) == []


def test_a_long_caption_on_a_token_is_refused_by_name(content_copy):
    terms = content_copy / "terms.yaml"
    text = terms.read_text()
    assert '    singular: "Lead"\n' in text
    terms.write_text(text.replace('    singular: "Lead"\n',
                                  '    singular: "Leadershipstaffofthehouses"\n'))
    content = validate(content_copy)
    problems = fitcheck.token_problems(content, tokens.token_set(content))
    assert problems, "the planted caption was not measured as too long"
    p = problems[0]
    assert p.field == "token.lead.caption" and "Leadershipstaffofthehouses" in p.message
    assert p.path == "content/terms.yaml"
    line = terms.read_text().splitlines()[p.line - 1]
    assert "Leadershipstaffofthehouses" in line   # located at the words to shorten


def test_a_number_too_wide_for_its_disc_is_refused():
    face = {"kind": "disc", "value": "1000", "caption": "", "medallion": False}
    over = fitcheck.disc_overflows(face, 15.875)
    assert over and over[0][0] == "value"
    assert fitcheck.disc_overflows(dict(face, value="5"), 15.875) == []


def test_a_faction_name_clipped_on_its_capital_tile_is_refused(content_copy, monkeypatch):
    factions = content_copy / "factions.yaml"
    text = factions.read_text()
    assert "    name: Leadbound\n" in text
    long = "Leadbound of the Unending Eastern Marches"
    factions.write_text(text.replace("    name: Leadbound\n", f"    name: {long}\n"))
    content = validate(content_copy)
    one = [s for s in tiles.tile_set(content) if s.sub == long]
    assert one
    monkeypatch.setattr(tiles, "tile_set", lambda _content, _scales=None: one)   # one page
    with common.cached(None):
        pdf = tiles.render_tiles(content, "a4")
    assert any(label.startswith("capital.sub") for label, _ in pdf.overflows)
    with pytest.raises(ContentError) as err:
        fitcheck.check(content, [pdf], [])
    problem = err.value.problems[0]
    assert problem.field == "tiles.capital.sub" and long in problem.message
    assert problem.path == "content/tiles.yaml" and problem.line > 1


def test_the_print_stage_refuses_an_overflow(content, monkeypatch):
    """print_files (the build's tiles stage and `tether print-tiles`) runs the check before
    anything is written."""
    sheet = common.Pdf(b"%PDF-1.4 planted")
    sheet.pages, sheet.overflows = 1, (("forge.summary", 3.5),)
    monkeypatch.setattr(tiles, "render_tiles", lambda *a, **k: sheet)
    monkeypatch.setattr(tokens, "render_tokens", lambda *a, **k: b"%PDF-1.4")
    with pytest.raises(ContentError) as err:
        printing.print_files(content, [], ["a4"], common.DEFAULT_TILE_MM, lambda m: None)
    assert err.value.problems[0].field == "tiles.forge.summary"
    assert "3.5 mm" in err.value.problems[0].message
