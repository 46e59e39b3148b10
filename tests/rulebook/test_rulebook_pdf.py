"""The rulebook end to end, in a temporary copy of the content with two terms renamed and
MAX_MANA changed: old names nowhere in any output, new names and the new constant where
they belong, TOC page numbers equal to the pages chapters start on, a one-page aid."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from bookmarks import outline
from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader

from tether_build.cli import main
from tether_build.content.cards import normalized_cards
from tether_build.print.rulebook import anatomy, printguide
from tether_build.print.rulebook.faces import Faces
from tether_build.print.tiles import tiles

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
    texts = {p: re.sub(r"\s+", " ", t) for p, t in texts.items()}  # a name may wrap
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


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_toc_numbers_match_chapter_pages(built, paper):
    reader = PdfReader(built["out"] / f"rulebook-{paper}.pdf")
    pages = built["pages"][paper]
    toc = {}
    for line in pages[1].splitlines():
        m = re.match(r"^(.*?)[ .]*\.\s*(\d+)$", line.strip())
        if m:
            toc[m.group(1).strip()] = int(m.group(2))
    chapters = {title: page for level, title, page in outline(reader) if level == 1}
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
    starts = {title: page for level, title, page in outline(reader) if level == 1}
    assert starts["Player Aid"] == len(reader.pages) - 1
    aid = PdfReader(built["out"] / "print" / f"player-aid-{paper}.pdf")
    assert len(aid.pages) == 2
    w, h = SIZES[paper]
    for page in aid.pages:
        assert abs(float(page.mediabox.width) - w) < 1 and abs(float(page.mediabox.height) - h) < 1
    front, back = (page.extract_text() for page in aid.pages)
    assert "Action Phase" in front and "Build Bridge" in front and "Combat odds" not in front
    assert "Battles of Cohorts" in back and "Combat odds" in back
    # the bids: buy and pass bids, who pays, the pass pot and the roll-off, on the front
    squashed = re.sub(r"\s+", " ", front)
    for words in ("Buy Bids and Pass Bids", "The highest Buy Bid wins", "lowest Pass Bid",
                  "Pass Pot", "Roll-off", "nobody else pays anything"):
        assert words in squashed, words


def test_every_card_and_faction_is_in_the_book(built, content):
    squash = re.sub(r"\s+", "", "".join(built["pages"]["a4"]))
    missing = [c["name"] for c in content.cards if re.sub(r"\s+", "", c["name"]) not in squash]
    assert not missing
    reader = PdfReader(built["out"] / "rulebook-a4.pdf")
    factions = {title for level, title, _ in outline(reader) if level == 2}
    assert {f["name"] for f in content.factions.values()} <= factions


# ---- print and assemble, anatomy, card reference (the same built book) -------------------
FIXTURE = ROOT / "tests" / "fixtures" / "content"
PIPELINE = re.compile(r"\bthe build\b(?!\s+bridge)|\bcompiled\b|\bcomputed by\b")
DPI = 127  # 5 pixels per millimetre


@pytest.fixture(scope="module")
def guide_out(built):
    return built["out"]


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
    for label in ("Aether cost", "Initiative", "Type line", "Effect", "Name"):
        assert label in text, label
    for name in ("Aether", "Gold", "Initiative", "HP", "Bounty"):
        assert name in text
    assert any("Orders and Spells" in t for t in pages)


def test_card_reference_is_a_compact_table(guide_out, content):
    """One row per card with its cost and the initiative the rules use, in a few pages."""
    from tether_build.print.cards.context import initiative_shown

    reader = PdfReader(guide_out / "rulebook-a4.pdf")
    pages = [p.extract_text() for p in reader.pages]
    start = next(i for i, t in enumerate(pages) if t.startswith("Card Reference"))
    end = next(i for i, t in enumerate(pages) if t.startswith("Print and Assemble"))
    assert end - start <= 5, f"{end - start} pages"
    assert all(t.startswith("Card Reference") for t in pages[start:end])  # header, no blank page
    text = re.sub(r"\s+", " ", " ".join(pages[start:end]))
    for card in normalized_cards(content):
        init = initiative_shown(card["initiative"])["main"]
        name = re.escape(card["name"]).replace(r"\ ", r"\s*")
        pattern = rf"{name}(?: ×\d)? {card['mana']}(?: {card['gold']})? {init} "
        assert re.search(pattern, text), (card["name"], init)


@pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                    reason="needs Debian's chromium and chromium-driver (scripts/setup.sh --test)")
def test_rulebook_html_reads_on_a_screen(built, tmp_path):
    """rulebook.html in a real browser: one readable column, screen-sized type, a contents
    list whose every link lands, a way back to it, figures inside the column and their
    text in the colours it is drawn in (an inline <style> once turned every figure's text
    white)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 f"--user-data-dir={tmp_path / 'chromium'}", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get((built["out"] / "rulebook.html").as_uri())
        got = driver.execute_script("""
            const body = document.body.getBoundingClientRect();
            const p = document.querySelector('.rb-prose p');
            const links = [...document.querySelectorAll('nav.rb-toc a')];
            const missing = links.filter(a => !document.getElementById(
                a.getAttribute('href').slice(1))).map(a => a.textContent);
            const wide = [...document.querySelectorAll('.rb-figure svg, .rb-board svg, img')]
                .filter(e => e.getBoundingClientRect().width > body.width + 1).length;
            const probe = document.createElement('span');
            document.body.appendChild(probe);
            const rgb = c => { probe.style.color = c; return getComputedStyle(probe).color; };
            const white = [...document.querySelectorAll('svg text[fill]')]
                .filter(t => getComputedStyle(t).fill !== rgb(t.getAttribute('fill'))).length;
            const back = getComputedStyle(document.querySelector('.rb-to-contents'));
            return {width: body.width, font: parseFloat(getComputedStyle(p).fontSize),
                    links: links.length, missing, wide, white,
                    back: [back.display, back.position]};""")
    finally:
        driver.quit()
    assert 600 <= got["width"] <= 900, got          # a column, not the window's width
    assert got["font"] >= 15, got                    # screen type, not 9.6 pt
    assert got["links"] > 10 and got["missing"] == [], got
    assert got["wide"] == 0 and got["white"] == 0, got
    assert got["back"] == ["block", "fixed"], got
