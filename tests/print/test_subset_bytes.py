"""A subset print never touches the full build (issue 42, README: "a selection never writes
over the full build"): `print-cards --players 2` after a full print leaves every file of the
full build (card sheets, PNGs, Tabletop Simulator decks) byte-identical, and writes its
own sheets, with fewer Starter sets, under print/subsets/players-2/."""

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
                                    "--quiet", *args])
    assert res.exit_code == 0, res.output


def test_players_subset_leaves_the_full_build_byte_identical(small_content, monkeypatch):
    monkeypatch.chdir(small_content.parent)
    _print()
    build = small_content.parent / "build"
    before = _files(build)
    sheets = [rel for rel in before if rel.startswith("print/cards-")]
    assert sheets == ["print/cards-a4.pdf"]
    assert any(rel.startswith("png/") for rel in before)
    assert any(rel.startswith("tts/") for rel in before)
    _print("--players", "2")
    assert _files(build) == before           # not one byte of the full build changed
    subset = build / "print" / "subsets" / "players-2" / "print" / "cards-a4.pdf"
    full = len(PdfReader(build / "print" / "cards-a4.pdf").pages)
    assert subset.exists() and len(PdfReader(subset).pages) < full
