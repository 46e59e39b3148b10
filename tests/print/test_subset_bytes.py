"""A subset print never touches the full build (issue 42, README: "a selection never writes
over the full build"): `print-cards --players 2` after a full print leaves every file of the
full build byte-identical, and writes its own sheets, with fewer Starter sets, under
print/subsets/players-2/. And the print guide's page counts are those of the files written.
(Sheets only, no PNG or TTS, to keep the test short: the PNG and TTS folders follow the
same output folder, tests/print/test_card_outputs.py.)"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from pypdf import PdfReader

from tether_build.cli import main


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "subsets" not in p.parts and not p.name.startswith(".")
            and ".cache" not in p.parts}


def _print(*args: str) -> None:
    res = CliRunner().invoke(main, ["print-cards", "--content", "content", "--paper", "a4",
                                    "--png", "none", "--no-tts", "--quiet", *args])
    assert res.exit_code == 0, res.output


def test_players_subset_leaves_the_full_build_byte_identical(small_content, monkeypatch):
    monkeypatch.chdir(small_content.parent)
    _print()
    build = small_content.parent / "build"
    before = _files(build)
    sheets = [rel for rel in before if rel.startswith("print/cards-")]
    assert sheets == ["print/cards-a4.pdf"]
    _print("--players", "2")
    assert _files(build) == before           # not one byte of the full build changed
    subset = build / "print" / "subsets" / "players-2" / "print" / "cards-a4.pdf"
    full = len(PdfReader(build / "print" / "cards-a4.pdf").pages)
    assert subset.exists() and len(PdfReader(subset).pages) < full
    # the print guide's page counts are those of the files written (pile markers included)
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate
    from tether_build.print.rulebook.printguide import card_pages

    content = validate(small_content)
    cards = normalized_cards(content)
    assert card_pages(content, cards, "a4") == full
    assert card_pages(content, cards, "a4", players=2) == len(PdfReader(subset).pages)


def test_guide_page_counts_are_the_written_sheets(full_build):
    """The print guide's card pages (pile markers among the fronts) against the pages of the
    full fixture build's written files, both papers (the guide once said 52 of 54)."""
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate
    from tether_build.print.rulebook.printguide import card_pages

    content = validate(full_build["content"])
    cards = normalized_cards(content)
    for paper in ("a4", "letter"):
        written = len(PdfReader(full_build["out"] / "print" / f"cards-{paper}.pdf").pages)
        assert card_pages(content, cards, paper) == written, paper
