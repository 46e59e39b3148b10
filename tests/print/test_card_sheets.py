"""Sheet geometry read back from the PDFs: page size, trim boxes, bleed, crop marks, backs."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from cardsheet_reader import read_sheets

# page as printed (Letter is landscape: 3 rows of cards leave no room for crop marks)
PAPERS = {"a4": (210.0, 297.0), "letter": (279.4, 215.9)}
GRID = {"a4": (3, 3), "letter": (4, 2)}  # columns, rows
CARD_W, CARD_H = 63.5, 88.9
NO_PRINT, BLEED = 4.0, 3.0
DEAD_ZONE = 6.0  # crop marks keep at least this far from the paper edge
MARK_MIN = 2.0
EPS = 0.01
PX_PT = 0.75  # a CSS px is 0.75 pt
ROOT = Path(__file__).resolve().parents[2]


def _block(paper):
    w, h = PAPERS[paper]
    cols, rows = GRID[paper]
    return (w - cols * CARD_W) / 2, (h - rows * CARD_H) / 2


def _expected_slot(paper, index, back=False):
    x0, y0 = _block(paper)
    cols = GRID[paper][0]
    row, col = divmod(index, cols)
    if back:
        col = cols - 1 - col
    return x0 + col * CARD_W, y0 + row * CARD_H


@pytest.fixture(scope="module", params=["a4", "letter"])
def sheets(request, full_build):
    return request.param, read_sheets(full_build["out"] / "print" / f"cards-{request.param}.pdf")


def test_page_size_and_pairs(sheets, full_build):
    paper, pages = sheets
    w, h = PAPERS[paper]
    for page in pages:
        assert page.width == pytest.approx(w, abs=EPS) and page.height == pytest.approx(h, abs=EPS)
    faces = full_build["result"].faces + len(full_build["result"].markers)   # + pile markers
    per_page = GRID[paper][0] * GRID[paper][1]
    assert len(pages) == 2 * -(-faces // per_page)   # each front page has its backs page


def test_every_trim_box_on_the_grid(sheets):
    paper, pages = sheets
    for number, page in enumerate(pages):
        back = number % 2 == 1
        for slot, placed in enumerate(page.placed):
            x, y, w, h = placed.trim
            ex, ey = _expected_slot(paper, slot, back)
            assert (w, h) == (pytest.approx(CARD_W, abs=EPS), pytest.approx(CARD_H, abs=EPS))
            assert (x, y) == (pytest.approx(ex, abs=EPS), pytest.approx(ey, abs=EPS)), \
                f"page {number + 1} slot {slot}: {placed.name}"
        # centred block: the full block is symmetric about the page centre
        if len(page.placed) == GRID[paper][0] * GRID[paper][1]:
            xs = [p.trim[0] for p in page.placed]
            ys = [p.trim[1] for p in page.placed]
            assert min(xs) + max(xs) + CARD_W == pytest.approx(page.width, abs=EPS)
            assert min(ys) + max(ys) + CARD_H == pytest.approx(page.height, abs=EPS)


def test_bleed_outside_shared_inside(sheets):
    paper, pages = sheets
    for page in pages:
        trims = [p.trim for p in page.placed]
        for placed in page.placed:
            x, y, w, h = placed.trim
            cx, cy, cw, ch = placed.clip
            grow = {"left": x - cx, "top": y - cy, "right": cx + cw - x - w,
                    "bottom": cy + ch - y - h}
            neighbours = {"left": (x - CARD_W, y), "right": (x + CARD_W, y),
                          "top": (x, y - CARD_H), "bottom": (x, y + CARD_H)}
            for side, (nx, ny) in neighbours.items():
                taken = any(abs(t[0] - nx) < EPS and abs(t[1] - ny) < EPS for t in trims)
                if taken:    # cards abut: shared cut line, no bleed over the neighbour
                    assert grow[side] == pytest.approx(0, abs=EPS), (placed.name, side)
                else:
                    assert grow[side] >= 1.0 - EPS, (placed.name, side)
                    assert grow[side] <= BLEED + EPS
            # nothing printed within 4 mm of the paper's edge
            assert cx >= NO_PRINT - EPS and cy >= NO_PRINT - EPS
            assert cx + cw <= page.width - NO_PRINT + EPS
            assert cy + ch <= page.height - NO_PRINT + EPS
    x0, y0 = _block(paper)
    full = next(p for p in pages if len(p.placed) == GRID[paper][0] * GRID[paper][1])
    top_left = full.placed[0]
    # full bleed, unless the crop marks need the room between the bleed and the dead zone
    room = {m: min(BLEED, m - NO_PRINT, m - DEAD_ZONE - 0.5 - MARK_MIN) for m in (x0, y0)}
    assert top_left.trim[0] - top_left.clip[0] == pytest.approx(room[x0], abs=EPS)
    assert top_left.trim[1] - top_left.clip[1] == pytest.approx(room[y0], abs=EPS)


def test_crop_marks_outside_trim_and_on_every_cut_line(sheets):
    paper, pages = sheets
    x0, y0 = _block(paper)
    cols, rows = GRID[paper]
    cuts_x = [x0 + i * CARD_W for i in range(cols + 1)]
    cuts_y = [y0 + i * CARD_H for i in range(rows + 1)]
    for page in pages:
        marks = {(round(a, 3), round(b, 3), round(c, 3), round(d, 3))
                 for a, b, c, d in page.marks}
        assert marks
        block = (x0, y0, x0 + cols * CARD_W, y0 + rows * CARD_H)
        for x1, y1, x2, y2 in marks:
            for x, y in ((x1, y1), (x2, y2)):
                inside = block[0] + EPS < x < block[2] - EPS and block[1] + EPS < y < block[3] - EPS
                assert not inside, "crop mark inside the card block"
                assert NO_PRINT - EPS <= x <= page.width - NO_PRINT + EPS
                assert NO_PRINT - EPS <= y <= page.height - NO_PRINT + EPS
            if x1 == x2:
                assert any(abs(x1 - c) < 0.01 for c in cuts_x)
                assert y2 < block[1] + EPS or y1 > block[3] - EPS
            else:
                assert y1 == y2 and any(abs(y1 - c) < 0.01 for c in cuts_y)
        for c in cuts_x:   # both ends of every vertical cut, both ends of every horizontal
            ends = [m for m in marks if m[0] == m[2] and abs(m[0] - c) < 0.01]
            assert {m[1] < y0 for m in ends} == {True, False}
        for c in cuts_y:
            ends = [m for m in marks if m[1] == m[3] and abs(m[1] - c) < 0.01]
            assert {m[0] < x0 for m in ends} == {True, False}


def test_crop_marks_outside_the_dead_zone_and_the_bleed(sheets):
    """Every crop mark is at least 6 mm from the paper edge (where home printers print
    nothing), at least MARK_MIN long, and off the bleed of every card (A4 and Letter)."""
    paper, pages = sheets
    for number, page in enumerate(pages):
        assert page.marks, f"page {number + 1} has no crop marks"
        for x1, y1, x2, y2 in page.marks:
            assert math.hypot(x2 - x1, y2 - y1) >= MARK_MIN - EPS
            for x, y in ((x1, y1), (x2, y2)):
                edge = min(x, y, page.width - x, page.height - y)
                assert edge >= DEAD_ZONE - EPS, (paper, number + 1, (x1, y1, x2, y2), edge)
            box = (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
            for placed in page.placed:
                cx, cy, cw, ch = placed.clip
                apart = box[2] < cx or box[0] > cx + cw or box[3] < cy or box[1] > cy + ch
                assert apart, (paper, number + 1, box, placed.name)


def test_backs_mirrored_per_deck(sheets, shipped_cards):
    _, pages = sheets
    for front, back in zip(pages[0::2], pages[1::2]):
        assert len(front.placed) == len(back.placed)
        for f, b in zip(front.placed, back.placed):
            # long-edge duplex: same row, column mirrored about the page's vertical axis
            assert b.trim[0] == pytest.approx(front.width - f.trim[0] - CARD_W, abs=EPS)
            assert b.trim[1] == pytest.approx(f.trim[1], abs=EPS)
            kind, deck = f.name.split(".")[:2]
            if kind == "Marker":   # a pile marker: the same face on both sides
                assert b.name == f"Back.marker:{deck}"
                continue
            assert b.name == f"Back.{shipped_cards[deck]['deck']}"


def _printed_copies(content, card):
    """Copies on the sheets: a Starter card once per Starter set (game.yaml players.max)."""
    kind = content.ages["decks"][card["deck"]]["kind"]
    return card["copies"] * (content.game["players"]["max"] if kind == "starter" else 1)


def test_faces_equal_sum_of_copies(sheets, shipped_cards, shipped_content):
    _, pages = sheets
    faces = Counter(p.name for page in pages[0::2] for p in page.placed
                    if not p.name.startswith("Marker."))
    assert all(n == 1 for n in faces.values())          # every copy is its own face
    per_card = Counter(name.split(".")[1] for name in faces)
    want = {cid: _printed_copies(shipped_content, c) for cid, c in shipped_cards.items()}
    assert per_card == want
    for name in faces:
        _, cid, n = name.split(".")
        assert 1 <= int(n) <= want[cid]


def test_every_player_deck_card_has_the_same_back(full_build):
    """§15.3: every card can end up in a draw pile, so every back page shows one image."""
    import pypdfium2 as pdfium

    def is_back(key):   # a pile marker is no card's back
        return key.startswith("back:") and not key.startswith("back:marker:")

    backs = [k for part in full_build["result"].face_pdfs for k in part[1] if is_back(k)]
    assert backs
    pixels = set()
    for part_pdf, part_keys in full_build["result"].face_pdfs:
        doc = pdfium.PdfDocument(part_pdf)
        for i, key in enumerate(part_keys):
            if is_back(key):
                pixels.add(doc[i].render(scale=0.3).to_pil().tobytes())
        doc.close()
    assert len(pixels) == 1


def test_options_select_deck_faction_cards_and_fronts_only(tmp_path, shipped_content,
                                                           shipped_cards):
    from tether_build.print.cards.build import PrintOptions, select_cards

    content = shipped_content
    cards = list(shipped_cards.values())
    deck = select_cards(content, cards, PrintOptions(deck="starter"))
    assert {c["deck"] for c in deck} == {"starter"}
    faction = select_cards(content, cards, PrintOptions(faction="leadbound"))
    assert faction and {c["faction"] for c in faction} == {"leadbound"}
    listed = select_cards(content, cards, PrintOptions(cards=["zap", "recruit"]))
    assert [c["id"] for c in listed] == ["recruit", "zap"]   # print order: deck file order

    from tether_build.commands.printing import build_print

    result = build_print(ROOT / "tests" / "fixtures" / "content", tmp_path, PrintOptions(
        cards=["zap", "recruit"], papers=("a4",), fronts_only=True, png=None, tts=False,
        players=2), content=content)
    pages = read_sheets(tmp_path / "print" / "cards-a4.pdf")
    # two Starter sets (--players 2): Recruit is 2 a set, Zap 1
    assert len(pages) == 1 and [p.name for p in pages[0].placed] == [
        "Face.recruit.1", "Face.recruit.2", "Face.recruit.3", "Face.recruit.4",
        "Face.zap.1", "Face.zap.2"]
    assert result.faces == 6 and not (tmp_path / "print" / "cards-letter.pdf").exists()


def test_players_prints_one_starter_set_per_player(shipped_content, shipped_cards):
    from tether_build.errors import TetherError
    from tether_build.print.cards.build import PrintOptions, select_cards

    cards = list(shipped_cards.values())
    starter = [c for c in cards if c["deck"] == "starter"]
    for players in (2, 4):
        got = select_cards(shipped_content, cards, PrintOptions(players=players))
        assert sum(c["copies"] for c in got if c["deck"] == "starter") == players * sum(
            c["copies"] for c in starter)
        assert sorted((c["id"], c["copies"]) for c in got if c["deck"] != "starter") == \
            sorted((c["id"], c["copies"]) for c in cards if c["deck"] != "starter")
    with pytest.raises(TetherError):
        select_cards(shipped_content, cards, PrintOptions(players=9))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_sheet_page_has_trim_and_bleed_boxes(full_build, paper):
    """A printer's RIP reads where to cut (TrimBox: the outer trim of the card block) and
    how far the art runs on (BleedBox: that block grown by the sheet's bleed)."""
    from pypdf import PdfReader

    x0, y0 = _block(paper)
    _w, h = PAPERS[paper]
    mm = 72 / 25.4
    reader = PdfReader(full_build["out"] / "print" / f"cards-{paper}.pdf")
    for page in reader.pages:
        trim = [float(v) / mm for v in page.trimbox]
        bleed = [float(v) / mm for v in page.bleedbox]
        cols, rows = GRID[paper]
        assert trim == pytest.approx([x0, h - y0 - rows * CARD_H, x0 + cols * CARD_W, h - y0],
                                     abs=EPS)
        assert bleed[0] < trim[0] and bleed[1] < trim[1]
        assert bleed[2] > trim[2] and bleed[3] > trim[3]
        assert bleed[0] >= NO_PRINT - EPS and bleed[1] >= NO_PRINT - EPS  # printable area
        assert "/TrimBox" in page and "/BleedBox" in page


def test_the_initiative_that_counts_is_printed_large(full_build, shipped_cards):
    """The number the rules use (the `initiative` option, default the first) is the
    largest number on the face, at 14 pt or more; the other one is printed too, small
    (issue 42: a playtest of the other rule reads it from the card)."""
    import pypdfium2 as pdfium
    from pypdfium2 import raw

    from tether_build.engine.options import Options

    assert Options().initiative == "first"
    seen = 0
    for part_pdf, part_keys in full_build["result"].face_pdfs:
        doc = pdfium.PdfDocument(part_pdf)
        for i, key in enumerate(part_keys):
            if key.startswith("back:") or seen >= 12:
                continue
            card = shipped_cards[key.rsplit("-", 1)[0]]
            tp = doc[i].get_textpage()
            # pdfium reports sizes in the page's user units: WeasyPrint draws in CSS px
            chars = [(tp.get_text_range(n, 1), raw.FPDFText_GetFontSize(tp.raw, n) * PX_PT)
                     for n in range(tp.count_chars())]
            big = "".join(ch for ch, size in chars if size >= 13.9)
            assert big == str(card["initiative"][0]), (key, big)
            small = "".join(ch for ch, size in chars if 6 <= size <= 7 and ch.isdigit())
            assert str(card["initiative"][1]) in small, (key, small)
            seen += 1
        doc.close()
    assert seen == 12


def test_one_pile_marker_per_archive_and_power_pile(sheets, full_build, shipped_content):
    """Every Archive and Power deck gets one marker card, after the cards, its face on both
    sides, printed with the pile's name, Age, the Age's name and Rounds from content."""
    import re

    import pypdfium2 as pdfium

    from tether_build.content.text import render_plain

    _, pages = sheets
    content = shipped_content
    piles = [d for d, v in content.ages["decks"].items() if v["kind"] in ("market", "power")]
    assert len(piles) == 6
    placed = [p.name for page in pages[0::2] for p in page.placed]
    assert sorted(n for n in placed if n.startswith("Marker.")) == sorted(
        f"Marker.{d}" for d in piles)
    assert all(n.startswith("Marker.") for n in placed[-len(piles):])   # after the cards
    texts = {}
    for part_pdf, part_keys in full_build["result"].face_pdfs:
        doc = pdfium.PdfDocument(part_pdf)
        for i, key in enumerate(part_keys):
            if key.startswith("back:marker:"):
                texts[key.removeprefix("back:marker:")] = re.sub(
                    r"\s+", " ", doc[i].get_textpage().get_text_range())
        doc.close()
    assert sorted(texts) == sorted(piles)
    terms = content.terms
    for deck in piles:
        spec = content.ages["decks"][deck]
        age = next(a for a in content.ages["ages"].values()
                   if deck in (a["market_deck"], a["power_deck"]))
        text = texts[deck]
        assert render_plain(spec["name"], terms, content.icons) in text, (deck, text)
        assert spec["age"] in text and render_plain(age["name"], terms, content.icons) in text
        rounds = age["rounds"]
        assert f"{terms['round']['plural']} {rounds[0]}–{rounds[-1]}" in text, text
        marker = render_plain(content.ages["pile_marker"]["text"], terms, content.icons)
        assert re.sub(r"\s+", " ", marker) in text
