"""The rulebook end to end, in a temporary copy of the content with two terms renamed and
MAX_MANA changed: old names nowhere in any output, new names and the new constant where
they belong, TOC page numbers equal to the pages chapters start on, a one-page aid."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from tether_build.cli import main

ROOT = Path(__file__).resolve().parents[2]
RENAMES = {"mana": ("Aether", "Aether"), "power_deck": ("Relic Deck", "Relic Decks")}
OLD = ("Mana", "Power Deck", "Power Decks")
MAX_MANA = 17
PRINT_CARDS = "recruit,command_surge,hold_the_line"  # starter, Age I Power, faction spell
SIZES = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}


def cli(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def pdf_text(path: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Renamed copy of content; rulebook (A4 + Letter), designer report, a few card PDFs."""
    base = tmp_path_factory.mktemp("rulebook")
    content = base / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "content", content)
    shutil.copytree(ROOT / "schemas", base / "schemas")
    for tid, (singular, plural) in RENAMES.items():
        cli("rename", "--content", str(content), tid, singular, "--plural", plural)
    game = content / "game.yaml"
    text = game.read_text()
    assert "  max_mana: 5\n" in text
    game.write_text(text.replace("  max_mana: 5\n", f"  max_mana: {MAX_MANA}\n"))
    out = base / "build"
    cli("rulebook", "--content", str(content), "--out", str(out), "--quiet")
    cli("notes", "--content", str(content), "--out", str(out))
    cards = None
    if "print-cards" in main.commands:
        cli("print-cards", "--content", str(content), "--cards", PRINT_CARDS, "--paper", "a4",
            "--png", "none", "--out", str(out), "--quiet")
        cards = out / "print" / "cards-a4.pdf"
    pages = {paper: pdf_text(out / f"rulebook-{paper}.pdf") for paper in SIZES}
    return {"out": out, "cards": cards, "pages": pages, "texts": outputs_text(out, pages)}


def outputs_text(out: Path, known: dict[str, list[str]]) -> dict[str, str]:
    """The text of every output: PDFs by extraction, HTML without tags, JSON and TXT as is."""
    texts = {}
    for path in sorted(out.rglob("*")):
        if path.suffix == ".pdf":
            paper = path.stem.removeprefix("rulebook-")
            if path.name == "rulebook.pdf":
                assert path.read_bytes() == (out / "rulebook-a4.pdf").read_bytes()
                paper = "a4"
            texts[str(path)] = "\n".join(known[paper] if paper in known else pdf_text(path))
        elif path.suffix in (".html", ".htm"):
            raw = path.read_text(encoding="utf-8")
            alts = " ".join(re.findall(r'alt="([^"]*)"', raw))
            texts[str(path)] = re.sub(r"<[^>]+>", " ", raw) + " " + alts
        elif path.suffix in (".json", ".jsonl", ".txt"):
            texts[str(path)] = path.read_text(encoding="utf-8")
    return texts


def test_outputs_exist_with_paper_sizes(built):
    out = built["out"]
    for name in ("rulebook-a4.pdf", "rulebook-letter.pdf", "rulebook.pdf", "rulebook.html"):
        assert (out / name).stat().st_size > 10_000, name
    assert (out / "rulebook.pdf").read_bytes() == (out / "rulebook-a4.pdf").read_bytes()
    for paper, (w, h) in SIZES.items():
        box = PdfReader(out / f"rulebook-{paper}.pdf").pages[0].mediabox
        assert abs(float(box.width) - w) < 1 and abs(float(box.height) - h) < 1


def test_old_names_nowhere_new_names_where_they_belong(built):
    texts = built["texts"]
    assert any(p.endswith("designer-notes.html") for p in texts)
    if built["cards"]:
        assert str(built["cards"]) in texts
    for path, text in texts.items():
        for old in OLD:
            m = re.search(r"(?<![\w-])" + re.escape(old) + r"(?![\w-])", text)
            assert m is None, f"{old!r} in {path}: ...{text[max(0, m.start() - 60):m.end()]}"
    book = texts[str(built["out"] / "rulebook-a4.pdf")]
    assert "Aether" in book and "Relic Deck" in book and "Relic Decks" in book
    assert "Age I Relic Deck" in texts[str(built["out"] / "designer-notes.html")]
    if built["cards"]:
        assert "Relic Deck" in texts[str(built["cards"])]  # the Power card's deck line


def test_changed_constant_reaches_the_rulebook(built):
    pages = built["pages"]["a4"]
    text = "\n".join(pages)
    assert re.search(rf"set to\s+{MAX_MANA}\b", text)          # overview and reset chapters
    assert not re.search(r"set to\s+5\b", text)
    aid = pages[-1]
    assert re.search(rf"Aether each Round\s+{MAX_MANA}\b", aid)  # player aid key numbers


def _outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(level, title, 1-based page) for every bookmark."""
    out = []

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
            else:
                out.append((level, item.title, reader.get_destination_page_number(item) + 1))
    walk(reader.outline, 1)
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_toc_numbers_match_chapter_pages(built, paper):
    reader = PdfReader(built["out"] / f"rulebook-{paper}.pdf")
    pages = built["pages"][paper]
    toc = {}
    for line in pages[1].splitlines():
        m = re.match(r"^(.*?)[ .]*\.\s*(\d+)$", line.strip())
        if m:
            toc[m.group(1).strip()] = int(m.group(2))
    chapters = {title: page for level, title, page in _outline(reader) if level == 1}
    chapters.pop("Contents", None)
    assert len(toc) >= 20 and set(toc) == set(chapters), (toc, chapters)
    for title, number in toc.items():
        assert number == chapters[title], f"{paper}: {title}: TOC {number}, starts on " \
                                          f"{chapters[title]}"
        assert title in pages[number - 1].replace("T ether", "Tether")
        assert str(number) in [ln.strip() for ln in pages[number - 1].splitlines()]  # folio
    rules = sorted((ROOT / "tests" / "fixtures" / "content" / "rules").glob("*.md"))
    assert len(rules) + 6 == len(toc)  # setting + chapters + factions, glossary, cards,
    #                                    print and assemble, aid


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_player_aid_is_one_sheet_at_the_end(built, paper):
    """The aid is the book's last two pages, and a two-page PDF of its own (both sides)."""
    reader = PdfReader(built["out"] / f"rulebook-{paper}.pdf")
    starts = {title: page for level, title, page in _outline(reader) if level == 1}
    assert starts["Player Aid"] == len(reader.pages) - 1
    aid = PdfReader(built["out"] / "print" / f"player-aid-{paper}.pdf")
    assert len(aid.pages) == 2
    w, h = SIZES[paper]
    for page in aid.pages:
        assert abs(float(page.mediabox.width) - w) < 1 and abs(float(page.mediabox.height) - h) < 1
    front, back = (page.extract_text() for page in aid.pages)
    assert "Action Phase" in front and "Build Bridge" in front and "Combat odds" not in front
    assert "Battles of Cohorts" in back and "Combat odds" in back


def test_every_card_and_faction_is_in_the_book(built, content):
    squash = re.sub(r"\s+", "", "".join(built["pages"]["a4"]))
    missing = [c["name"] for c in content.cards if re.sub(r"\s+", "", c["name"]) not in squash]
    assert not missing
    reader = PdfReader(built["out"] / "rulebook-a4.pdf")
    factions = {title for level, title, _ in _outline(reader) if level == 2}
    assert {f["name"] for f in content.factions.values()} <= factions
