"""The card face designed for play: the Nth-Champion Gold as a table, a die that shows the
hit range, names that wrap before they shrink. Read from the PDFs and the face HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from cardtest_helpers import copy_content
from pypdfium2 import raw

ROOT = Path(__file__).resolve().parents[2]

PX_PT = 0.75  # pdfium reports WeasyPrint's user units (CSS px); a px is 0.75 pt


def page_chars(pdf: bytes, keys: list[str]) -> dict[str, list[tuple[str, float]]]:
    """(character, font size in pt) of every page of a faces PDF, by page key."""
    out = {}
    doc = pdfium.PdfDocument(pdf)
    for i, key in enumerate(keys):
        tp = doc[i].get_textpage()
        out[key] = [(tp.get_text_range(n, 1), raw.FPDFText_GetFontSize(tp.raw, n) * PX_PT)
                    for n in range(tp.count_chars())]
        tp.close()
    doc.close()
    return out


@pytest.fixture(scope="module")
def pages(shipped_content):
    from tether_build.print.cards.context import Renderer
    from tether_build.print.html import TEMPLATES, Pages

    return Pages(Renderer(shipped_content, TEMPLATES))


def test_ordinals():
    from tether_build.print.cards.context import ordinal

    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"]


def test_champion_gold_reads_as_a_table(tmp_path, shipped_content, shipped_cards):
    """Every Champion face prints '1st', '2nd', '3rd' each above its Gold from content,
    never the slashed '1/3/5' run."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    result = build_print(ROOT / "tests" / "fixtures" / "content", tmp_path, PrintOptions(
        cards=["ironclad_warden", "shadeblade"], papers=(), png=None, tts=False),
        content=shipped_content)
    seen = 0
    for pdf, keys in result.face_pdfs:
        card = shipped_cards.get(keys[0].rsplit("-", 1)[0])
        if card is None or card["type"] != "champion":
            continue
        for key, chars in page_chars(pdf, keys).items():
            text = re.sub(r"\s+", " ", "".join(ch for ch, _ in chars))
            gold = card["champion"]["gold"]
            cells = "1st 2nd 3rd"
            assert cells in text, (key, text)
            tail = text[text.index(cells) + len(cells):].split()
            assert tail[:len(gold)] == [str(g) for g in gold], (key, tail)
            assert "/".join(str(g) for g in gold) not in text.replace(" ", "")
            seen += 1
    assert seen >= 2


@pytest.mark.parametrize("hit", [1, 2, 4, 6])
def test_die_strip_shows_the_hit_range(pages, shipped_cards, hit):
    """Six die faces, the ones a die hits on (1..hit, from the card) drawn dark: the strip
    follows the card's number, not a fixed five-pip icon."""
    card = shipped_cards["ironclad_warden"]
    card = dict(card, champion=dict(card["champion"], hit=hit))
    html = pages.face(card, 1)
    faces = re.findall(r'class="die-face (hits|misses)" data-pips="(\d)"', html)
    assert [int(n) for _, n in faces] == [1, 2, 3, 4, 5, 6]
    assert [n for kind, n in faces if kind == "hits"] == [str(n) for n in range(1, hit + 1)]
    assert 'icons/die.svg' not in html
    # each face carries its own number of pips
    for n in range(1, 7):
        svg = re.search(rf'data-pips="{n}".*?</svg>', html).group(0)
        assert svg.count("<circle") == n


MIN_NAME_PT = 10.0   # the longest names print unshrunk (10.5 pt), on two lines if need be


def _name_sizes(chars: list[tuple[str, float]], name: str) -> list[float]:
    """Font sizes of the characters that spell `name` (line breaks and spaces skipped)."""
    solid = [(ch, size) for ch, size in chars if not ch.isspace() and ch != "\ufffe"]
    text = "".join(ch for ch, _ in solid)
    at = text.index(name.replace(" ", ""))
    return [size for _, size in solid[at:at + len(name.replace(" ", ""))]]


def test_long_names_wrap_to_two_lines_before_they_shrink(tmp_path, shipped_content,
                                                         shipped_cards):
    """The four longest names in the fixture keep their full size: they wrap instead."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    longest = sorted(shipped_cards.values(), key=lambda c: -len(c["name"]))[:4]
    assert len(longest[0]["name"]) >= 25
    result = build_print(ROOT / "tests" / "fixtures" / "content", tmp_path, PrintOptions(
        cards=[c["id"] for c in longest], papers=(), png=None, tts=False),
        content=shipped_content)
    for card in longest:
        assert result.fits[card["id"]]["name_level"] == 0, card["id"]
    for pdf, keys in result.face_pdfs:
        card = shipped_cards.get(keys[0].rsplit("-", 1)[0])
        if card is None:
            continue
        sizes = _name_sizes(page_chars(pdf, keys[:1])[keys[0]], card["name"])
        assert min(sizes) >= MIN_NAME_PT, (card["id"], min(sizes))


def test_a_name_too_long_for_two_lines_shrinks_then_fails(tmp_path):
    """A name that needs three lines shrinks; one that cannot fit at the smallest size is
    a build error naming the card."""
    from tether_build.commands.printing import build_print
    from tether_build.errors import ContentError
    from tether_build.print.cards.build import PrintOptions

    content_dir = copy_content(tmp_path)
    path = content_dir / "cards" / "starter.yaml"
    source = path.read_text(encoding="utf-8")
    longer = source.replace("name: Zap\n",
                            "name: Zap of the Very Long Winding River Road to the Sea\n"
                            "    shrink: true\n")
    path.write_text(longer, encoding="utf-8")
    result = build_print(content_dir, tmp_path / "b", PrintOptions(   # two Starter sets
        cards=["zap"], papers=(), png=None, tts=False, players=2))
    assert result.fits["zap"]["name_level"] > 0
    path.write_text(source.replace("name: Zap\n", "name: " + "Zap " * 30 + "\n"
                                   "    shrink: true\n"), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        build_print(content_dir, tmp_path / "c", PrintOptions(
            cards=["zap"], papers=(), png=None, tts=False, players=2))
    message = err.value.format_message()
    assert "starter.yaml:" in message and "zap.name" in message, message
    assert "shorten the name" in message


def test_type_line_text_reads_on_any_faction_colour(pages, shipped_content, shipped_cards):
    """A light faction colour gets dark type-line and initiative text, a dark one white:
    whichever has the higher contrast (WCAG), never below 4.5:1 for the fixture palette."""
    from tether_build.print.cards.context import DARK_INK, LIGHT_INK, ink_on

    assert ink_on("#ffffff") == DARK_INK and ink_on("#000000") == LIGHT_INK

    def lum(c):
        rgb = [int(c.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    for fid, faction in shipped_content.factions.items():
        ink = ink_on(faction["colour"])
        a, b = sorted((lum(ink), lum(faction["colour"])), reverse=True)
        assert (a + 0.05) / (b + 0.05) >= 4.5, (fid, faction["colour"], ink)
        card = shipped_cards[faction["champion"]]
        assert f"--on-faction: {ink}" in pages.face(card, 1)


def test_faces_read_their_style_sheets_once_and_print_the_same_bytes(pages, shipped_cards,
                                                                     monkeypatch):
    """The faces' documents hand WeasyPrint their style sheets parsed once per Layout
    (print/layout/sheets.py: the cascade stays the same): the same PDF of every card and
    back as parsing them for each document."""
    from tether_build.print.cards.fit import fit_part
    from tether_build.print.layout import pdf, sheets

    cards = [shipped_cards[c] for c in sorted(shipped_cards)[:5]]
    deck = cards[0]["deck"]
    taken = []
    monkeypatch.setattr(pdf, "split_sheets", lambda html: taken.append(
        sheets.split(html)) or taken[-1])
    once = fit_part(pages, pdf.Layout(pages.base_url, sheets=True), cards, [deck])
    assert taken and all(split is not None for split in taken)   # (the path is taken)
    each = fit_part(pages, pdf.Layout(pages.base_url), cards, [deck])
    assert once[0] == each[0] and once[1] == each[1] and once[2] == each[2]
    assert not once[3]
