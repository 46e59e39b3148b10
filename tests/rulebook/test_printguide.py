"""The print-and-assemble page (rulebook/printguide.py): numbers from content and from the
print stages' own pagination, read back from print/README.pdf and the rulebook."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from tether_build.cards import normalized_cards
from tether_build.printing import boardmap, common, tiles
from tether_build.rulebook import anatomy, printguide
from tether_build.rulebook.faces import Faces

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "content"
PIPELINE = re.compile(r"\bthe build\b(?!\s+bridge)|\bcompiled\b|\bcomputed by\b")
DPI = 127  # 5 pixels per millimetre


def test_card_pages_follow_the_players(content):
    cards = normalized_cards(content)
    starter = sum(c["copies"] for c in cards if c["deck_kind"] == "starter")
    other = sum(c["copies"] for c in cards if c["deck_kind"] != "starter")
    per_page = {"a4": 9, "letter": 8}  # 3 x 3 portrait; 4 x 2 landscape
    for paper, n in per_page.items():
        for players in (2, 4, 6):
            fronts = starter * players + other
            assert printguide.card_pages(content, cards, paper, players) == \
                2 * math.ceil(fronts / n)
        top = content.game["players"]["max"]
        assert printguide.card_pages(content, cards, paper) == \
            printguide.card_pages(content, cards, paper, top)
    edges = {s["paper"]: s["duplex"] for s in printguide.card_sheets(("a4", "letter"))}
    assert edges == {"A4": "long edge", "US Letter": "short edge"}


def test_map_pages_are_the_maps_page_grid(content):
    for players in (2, 4, 6):
        radius = content.game["board"]["radius_by_players"][players]
        for paper in ("a4", "letter"):
            grid = boardmap.split(*boardmap.map_size(radius, common.DEFAULT_TILE_MM), paper)
            m = printguide.map_pages(content, players, paper)
            assert m["pages"] == grid["cols"] * grid["rows"] == len(grid["windows"])
            assert m["first"] == "A1" and m["last"] == grid["windows"][-1]["name"]


def _readme_text(out: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(out / "print" / "README.pdf").pages)


def test_readme_lists_every_print_file_with_its_pages(guide_out, content):
    text = _readme_text(guide_out)
    squashed = re.sub(r"\s+", " ", text)
    cards = normalized_cards(content)
    for paper in ("a4", "letter"):
        for name in ("print/cards", "print/player-aid", "print/tiles", "print/tokens",
                     "board/board-4-1-map", "rulebook"):
            assert f"{name}-{paper}.pdf" in text
    rows = {m.group(1): m.groups()[1:] for m in re.finditer(
        r"(Every card of the game|Player aid|Hexes \(tiles\)|This rulebook) "
        r"(\d+) (\d+) (\d+) ", squashed)}
    players = str(content.game["players"]["max"])
    assert rows["Every card of the game"] == (str(printguide.card_pages(content, cards, "a4")),
                                              str(printguide.card_pages(content, cards,
                                                                        "letter")), "1")
    assert "long edge (A4), short edge (US Letter)" in squashed
    assert rows["Player aid"] == ("2", "2", players)
    assert rows["Hexes (tiles)"] == (str(tiles.sheet_count(content, "a4")),
                                     str(tiles.sheet_count(content, "letter")), "1")
    book = tuple(str(len(PdfReader(guide_out / f"rulebook-{p}.pdf").pages))
                 for p in ("a4", "letter"))
    assert rows["This rulebook"] == (*book, "1")
    assert "flip on long edge" in squashed and "50 mm" in squashed
    assert f"{players} sets of" in squashed  # one Starter set per player


def test_print_and_assemble_is_in_the_book(guide_out):
    reader = PdfReader(guide_out / "rulebook-a4.pdf")
    found = [i for i, p in enumerate(reader.pages) if "Print and Assemble" in p.extract_text()
             and "Scale check" in p.extract_text()]
    assert found
    text = reader.pages[found[0]].extract_text()
    assert re.search(rf"This rulebook\s+{len(reader.pages)}\b", text)  # its own page count


def _dark_runs(line, threshold=128) -> list[tuple[int, int]]:
    runs, start = [], None
    for i, v in enumerate(list(line) + [255]):
        if v < threshold and start is None:
            start = i
        elif v >= threshold and start is not None:
            runs.append((start, i))
            start = None
    return runs


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs poppler's pdftoppm")
def test_scale_square_and_ruler_print_at_size(guide_out, tmp_path):
    """Rendered at 5 px/mm, the square's outer edges are 50 mm apart and the ruler's
    line is 100 mm long (within 0.3 mm)."""
    stem = tmp_path / "readme"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", "-f", "1", "-l", "1",
                    str(guide_out / "print" / "README.pdf"), str(stem)], check=True)
    img = Image.open(next(tmp_path.glob("readme*.png"))).convert("L")
    w, h = img.size
    data = img.tobytes()
    per_mm = DPI / 25.4
    rows = [data[y * w:(y + 1) * w] for y in range(h)]
    longest = max((b - a, a, y) for y, row in enumerate(rows) for a, b in _dark_runs(row))
    assert abs(longest[0] / per_mm - printguide.RULER_MM) < 0.3 + 0.4  # line + end ticks
    side = printguide.SCALE_SQUARE_MM * per_mm
    tops = [(y, a, b) for y, row in enumerate(rows) for a, b in _dark_runs(row)
            if abs((b - a) - side) < 0.5 * per_mm]
    assert tops, "no 50 mm edge found"
    _, a, b = tops[0]
    column = [rows[y][a + 1] for y in range(h)]
    vertical = max(r[1] - r[0] for r in _dark_runs(column))
    assert abs((b - a) / per_mm - printguide.SCALE_SQUARE_MM) < 0.3
    assert abs(vertical / per_mm - printguide.SCALE_SQUARE_MM) < 0.3


def test_no_pipeline_words_for_players(guide_out):
    """Player text (book, README, aid) never speaks of the tool that made it."""
    for pdf in [guide_out / "rulebook-a4.pdf", guide_out / "print" / "README.pdf",
                guide_out / "print" / "player-aid-a4.pdf"]:
        text = " ".join(p.extract_text() for p in PdfReader(pdf).pages).lower()
        found = PIPELINE.search(re.sub(r"\s+", " ", text))
        assert found is None, f"{found.group(0)!r} in {pdf.name}"
    for md in sorted((FIXTURE / "rules").glob("*.md")):
        found = PIPELINE.search(md.read_text(encoding="utf-8").lower())
        assert found is None, f"{found.group(0)!r} in {md.name}"


def test_anatomy_and_icon_key_in_the_book(guide_out, content):
    reader = PdfReader(guide_out / "rulebook-a4.pdf")
    pages = [p.extract_text() for p in reader.pages]
    first = next(i for i, t in enumerate(pages) if "Anatomy of a card" in t)
    text = " ".join(pages[first:first + 2])  # the figure may start the next page
    card = anatomy.pick_card(Faces(content).cards)
    assert "Icon key" in text and f"{card['name']}, as printed" in text
    for label in ("Mana cost", "Initiative", "Type line", "Effect", "Name"):
        assert label in text, label
    for name in ("Mana", "Gold", "Initiative", "HP", "Bounty"):
        assert name in text
    assert any("Orders and Spells" in t for t in pages)


def test_card_reference_is_a_compact_table(guide_out, content):
    """One row per card with its cost and the initiative the rules use, in a few pages."""
    from tether_build.render.context import initiative_shown

    reader = PdfReader(guide_out / "rulebook-a4.pdf")
    pages = [p.extract_text() for p in reader.pages]
    start = next(i for i, t in enumerate(pages) if t.startswith("Card Reference"))
    end = next(i for i, t in enumerate(pages) if t.startswith("Print and Assemble"))
    assert end - start <= 7, f"{end - start} pages"
    text = re.sub(r"\s+", " ", " ".join(pages[start:end]))
    for card in normalized_cards(content):
        init = initiative_shown(card["initiative"])["main"]
        name = re.escape(card["name"]).replace(r"\ ", r"\s*")
        pattern = rf"{name}(?: ×\d)? {card['mana']}(?: {card['gold']})? {init} "
        assert re.search(pattern, text), (card["name"], init)
