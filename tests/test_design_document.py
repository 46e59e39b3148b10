"""`tether check --design-document`: the checker of the designer's content against the design
document. The tool's test runs it on the frozen fixture content and on a broken copy; whether
the designer's own content/ matches the document is the command's business, not a test's."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tether_build.cli import main
from tether_build.content.designdoc import default_document, parse_document

DOC = default_document()
pytestmark = pytest.mark.skipif(DOC is None, reason="design document not beside the repo")


def _check(content_dir, *extra):
    return CliRunner().invoke(main, ["check", "--content", str(content_dir),
                                     "--design-document", str(DOC), *extra])


def test_document_parse_finds_every_card_entry():
    # starter 8 + faction 12 + Archive 47 + 50 + 35 + power 11 + 8 + 11
    assert len(parse_document(DOC)) == 182


def test_fixture_content_matches_the_document(content_copy):
    result = _check(content_copy)
    assert result.exit_code == 0, result.output
    assert "182/182 design-document cards" in result.output


def test_a_changed_number_and_a_missing_card_are_reported(content_copy):
    path = content_copy / "cards" / "starter.yaml"
    text = path.read_text()
    assert "initiative: [55, 120]" in text
    path.write_text(text.replace("initiative: [55, 120]", "initiative: [56, 120]", 1)
                    .replace("name: Zap", "name: Zapper", 1))
    result = _check(content_copy)
    assert result.exit_code == 1
    assert "DIFFERS Supply Cache" in result.output and "DIFFERS missing: Zap" in result.output
    assert "2 of 182 design-document cards differ" in result.output


def test_starter_deck_has_nine_cards_per_player(content):
    starter = [c for c in content.cards if c["deck"] == "starter"]
    assert sum(c.get("copies", 1) for c in starter) == 9
