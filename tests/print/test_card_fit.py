"""Issue 42: the fit check on every measured box of a face (initiative, costs, stats,
stamp, back titles), both initiative numbers printed, the one in play large; flavour text;
Orders and Spells told apart; faction colours apart in grayscale; backs without a frame;
subset prints never touch the full build. Read from the PDFs, the PNGs and the layout."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cardtest_helpers import copy_content
from click.testing import CliRunner
from test_card_faces import page_chars

ROOT = Path(__file__).resolve().parents[2]
CONTENT = str(ROOT / "tests" / "fixtures" / "content")
ONLY_FACES = {"papers": (), "png": None, "tts": False}


def _runs(chars, text: str) -> list[list[float]]:
    """Font sizes of the characters of every run of `text` (spaces left out)."""
    solid = [(ch, size) for ch, size in chars if not ch.isspace()]
    flat = "".join(ch for ch, _ in solid)
    runs, at = [], flat.find(text)
    while at >= 0:
        runs.append([size for _, size in solid[at:at + len(text)]])
        at = flat.find(text, at + len(text))
    return runs


def _sizes(chars, text: str) -> list[float]:
    return _runs(chars, text)[0]


def test_three_digit_initiatives_fit_and_both_numbers_print(shipped_content):
    """March Orders (100 / 200) and Mortar Shot (300 / 300) build with no fit problem;
    the number in play prints large, the other small, both on the face."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    result = build_print(Path(CONTENT), Path("/nonexistent-unused"), PrintOptions(
        cards=["march_orders", "mortar_shot"], players=2, **ONLY_FACES),
        content=shipped_content)
    checked = 0
    for pdf, keys in result.face_pdfs:
        chars = page_chars(pdf, keys[:1])[keys[0]]
        if keys[0].startswith("march_orders"):
            big, small = _sizes(chars, "100"), _sizes(chars, "200")
        elif keys[0].startswith("mortar_shot"):
            big, small = _runs(chars, "300")[:2]
        else:
            continue
        checked += 1
        assert min(big) >= 13.5 and max(small) <= 7, (keys[0], big, small)
    assert checked == 2


def test_the_initiative_option_prints_the_other_number_large(tmp_path, monkeypatch):
    """`print-cards --option initiative=second` prints the second number large, into its
    own folder; an unknown option or value is refused."""
    from tether_build.cli import main

    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["print-cards", "--content", CONTENT, "--cards",
                                    "march_orders", "--option", "initiative=second",
                                    "--paper", "a4", "--png", "none", "--no-tts", "--json"])
    assert res.exit_code == 0, res.output
    written = json.loads(res.output)["written"]
    assert written == [str(Path("build/print/subsets/cards-march_orders_initiative-second/"
                                "print/cards-a4.pdf"))]
    import pypdfium2 as pdfium
    from pypdfium2 import raw

    doc = pdfium.PdfDocument(str(tmp_path / written[0]))
    tp = doc[0].get_textpage()
    chars = [(tp.get_text_range(n, 1), raw.FPDFText_GetFontSize(tp.raw, n) * 0.75)
             for n in range(tp.count_chars())]
    assert min(_sizes(chars, "200")) >= 13.5 and max(_sizes(chars, "100")) <= 7
    for bad in ("lead=fixed", "initiative=middle"):
        res = CliRunner().invoke(main, ["print-cards", "--content", CONTENT, "--option", bad])
        assert res.exit_code == 2 and "--option" in res.output, res.output


def test_an_initiative_too_wide_for_its_badge_is_a_build_error(tmp_path):
    """A planted overflow: a four-digit initiative (the schema allows up to 1000). The
    build refuses, naming the card and the field, and writes nothing."""
    from tether_build.cli import main

    content_dir = copy_content(tmp_path)
    path = content_dir / "cards" / "starter.yaml"
    source = path.read_text(encoding="utf-8")
    assert "    initiative: [100, 200]\n" in source
    path.write_text(source.replace("    initiative: [100, 200]\n",
                                   "    initiative: [1000, 200]\n"), encoding="utf-8")
    res = CliRunner().invoke(main, ["print-cards", "--content", str(content_dir), "--cards",
                                    "march_orders,zap", "--out", str(tmp_path / "build")])
    assert res.exit_code == 1, res.output
    assert "march_orders.initiative" in res.output and "'1000' runs" in res.output
    assert "starter.yaml:" in res.output and "zap." not in res.output
    assert not (tmp_path / "build").exists()


PLANTED = """<!DOCTYPE html><html><head><link rel="stylesheet" href="fonts/fonts.css">
<style>@page {{ size: 69.85mm 95.25mm; margin: 0 }} body {{ margin: 0 }}
section {{ position: relative; width: 69.85mm; height: 95.25mm; font-family: "Tether Sans" }}
div {{ position: absolute; {style} }}</style></head><body>
<section data-face="x-1" data-card="x"><div data-fit="planted">{text}</div></section>
</body></html>"""


@pytest.mark.parametrize("style, text, why", [
    ("left: 20mm; top: 20mm; width: 5mm; height: 6mm; font-size: 10pt; white-space: nowrap",
     "123456", "runs"),
    ("left: 20mm; top: 20mm; width: 30mm; height: 6mm; font-size: 5pt", "tiny", "under the"),
    ("left: 3.5mm; top: 20mm; width: 30mm; height: 6mm; font-size: 8pt", "edge", "safe zone"),
    ("left: 20mm; top: 20mm; width: 30mm; height: 6mm; font-size: 8pt", "fine", None),
])
def test_each_measured_box_is_checked_for_overflow_size_and_safe_zone(style, text, why):
    from tether_build.print.html import TEMPLATES
    from tether_build.print.layout.pdf import Layout

    layout = Layout(TEMPLATES.as_uri() + "/")
    fit = Layout.measure(layout.render(PLANTED.format(style=style, text=text)))[0]
    if why is None:
        assert fit.boxes == {}
    else:
        assert why in fit.boxes["planted"], fit.boxes


def test_flavor_prints_in_its_own_style(tmp_path):
    """A card's `flavor:` is printed (serif italic, after the rules), never dropped."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    content_dir = copy_content(tmp_path)
    path = content_dir / "cards" / "starter.yaml"
    source = path.read_text(encoding="utf-8")
    marker = "  - id: zap\n"
    at = source.index(marker)
    line_end = source.index("\n", source.index("    name:", at)) + 1
    source = source[:line_end] + '    flavor: "Sparks remember the storm."\n' + source[line_end:]
    path.write_text(source, encoding="utf-8")
    result = build_print(content_dir, tmp_path / "b", PrintOptions(cards=["zap"], players=2,
                                                                   **ONLY_FACES))
    import ctypes

    import pypdfium2 as pdfium
    from pypdfium2 import raw

    pdf, _keys = result.face_pdfs[0]
    doc = pdfium.PdfDocument(pdf)
    tp = doc[0].get_textpage()
    text = tp.get_text_range()
    assert "Sparks remember the storm." in " ".join(text.split())
    name = ctypes.create_string_buffer(256)
    raw.FPDFText_GetFontInfo(tp.raw, text.index("Sparks"), name, 256, None)
    assert b"Serif" in name.value, name.value
    rules = ctypes.create_string_buffer(256)
    raw.FPDFText_GetFontInfo(tp.raw, 0, rules, 256, None)
    assert name.value != rules.value


def test_orders_and_spells_differ_by_icon_and_frame(shipped_content, shipped_cards):
    from tether_build.print.cards.context import Renderer
    from tether_build.print.html import TEMPLATES, Pages

    pages = Pages(Renderer(shipped_content, TEMPLATES))
    order = pages.face(shipped_cards["march_orders"], 1)
    spell = pages.face(shipped_cards["mortar_shot"], 1)
    assert 'src="icons/types/order.svg"' in order and "types/spell" not in order
    assert 'src="icons/types/spell.svg"' in spell and "types/order" not in spell
    css = (TEMPLATES / "cards" / "cards.css").read_text(encoding="utf-8")
    assert ".type-order .panel { border-radius: 0; }" in css
    assert ".face.type-spell .panel { border-radius: 3.2mm; border-style: double;" in css


def test_faction_colours_differ_in_grayscale_and_every_simulation(shipped_content):
    """Every two faction colours of the fixture: CIEDE2000 of 20 or more under normal vision
    and the three dichromacies (against the Mine and Gold yellows too), and 9.5 or more
    apart in L* (a grayscale print); Virteous Court and Gatewright among them."""
    from tether_build.print.tiles import palette

    factions, neutrals = palette.palette_of(shipped_content)
    assert palette.clashes(factions, neutrals) == []
    assert palette.gray_clashes(factions) == []
    court, gate = factions["virteous_court"], factions["gatewright"]
    assert abs(palette.gray_l(court) - palette.gray_l(gate)) >= palette.GRAY_MIN_DELTA_L
    # the palette before issue 42: both near black in grayscale, refused
    assert palette.gray_clashes({"virteous": "#410067", "gatewright": "#5E0A04"})


def test_validate_refuses_faction_colours_alike_in_grayscale(tmp_path):
    from tether_build.content.validate import validate
    from tether_build.errors import ContentError

    content_dir = copy_content(tmp_path)
    path = content_dir / "factions.yaml"
    text = path.read_text(encoding="utf-8")
    gate = shipped_colour(text, "gatewright")
    path.write_text(text.replace(f'colour: "{gate}"', 'colour: "#5E0A04"'), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        validate(content_dir)
    message = err.value.format_message()
    assert "factions.yaml:" in message and "grayscale" in message, message


def shipped_colour(text: str, faction: str) -> str:
    at = text.index(f"\n  {faction}:\n")
    start = text.index('colour: "', at) + len('colour: "')
    return text[start:text.index('"', start)]


def test_backs_have_no_frame_inside_the_cut(small_build):
    """The back's pattern runs to the bleed: the band where the old cream frame sat
    (6.2-6.8 mm from the face's edge) is as dark as the band at the cut line."""
    from PIL import Image

    data = (small_build["out"] / "png" / "starter" / "back.png").read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        gray = image.convert("L")
        px = gray.width / 69.85

        def band(y_mm: float) -> float:
            y = round(y_mm * px)
            row = [gray.getpixel((x, y)) for x in range(round(12 * px), round(58 * px))]
            return sum(row) / len(row)

        edge, frame = band(3.5), band(6.5)
        assert abs(frame - edge) < 12, (edge, frame)


def test_players_and_options_print_to_their_own_folder(tmp_path, monkeypatch):
    """`print-cards --players 2` (with or without another selection) never writes into
    build/print: the full build's sheets, PNGs and TTS files stay as they were."""
    from tether_build.cli import main
    from tether_build.cli import print_cards as cli_print

    seen = []

    def fake(content_dir, out, opts, progress=None, **_write):
        seen.append((Path(out), opts.players, opts.initiative))
        raise SystemExit(0)

    from tether_build.print.cards import build

    monkeypatch.setattr(build, "build_print", fake)
    monkeypatch.chdir(tmp_path)
    for args, folder in ((["--players", "2"], "players-2"),
                         (["--players", "3", "--deck", "starter"], "deck-starter_players-3"),
                         (["--option", "initiative=higher"], "initiative-higher")):
        CliRunner().invoke(main, ["print-cards", "--content", CONTENT, *args])
        assert seen[-1][0] == Path("build/print/subsets") / folder, (args, seen[-1])
    CliRunner().invoke(main, ["print-cards", "--content", CONTENT])
    assert seen[-1][0] == Path("build") and seen[-1][1] is None
    CliRunner().invoke(main, ["print-cards", "--content", CONTENT, "--option",
                              "initiative=first"])   # the default: the full build itself
    assert seen[-1] == (Path("build"), None, None)
    assert cli_print._subset_folder(None, None, None) == Path()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutter_fold_mirrors_each_back_across_the_fold(paper):
    from tether_build.print.cards.gutter import gutter_sheet
    from tether_build.print.geometry import CARD_W

    sheet = gutter_sheet(paper)
    assert sheet.width > sheet.height                      # landscape
    for slot in range(sheet.per_page):
        front, back = sheet.slot(slot), sheet.slot(slot, True)
        assert front.y == back.y
        assert abs((front.x + CARD_W / 2) + (back.x + CARD_W / 2) - 2 * sheet.fold) < 1e-9
        assert front.right <= sheet.fold <= back.x
        for full in (1, sheet.per_page):
            clip_f, clip_b = sheet.clip(slot, full), sheet.clip(slot, full, True)
            assert clip_f.right <= sheet.fold + 1e-9 <= clip_b.x + 2e-9
    xs = [x for seg in sheet.marks() for x in (seg[0], seg[2])]
    assert min(xs) >= 6.0 and max(xs) <= sheet.width - 6.0  # crop marks off the dead zone


def test_gutter_fold_sheet_places_fronts_and_backs_on_one_page(tmp_path, shipped_content):
    import re

    import pypdf

    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    build_print(Path(CONTENT), tmp_path, PrintOptions(
        cards=["zap", "march_orders"], players=2, papers=("a4",), png=None, tts=False,
        gutter_fold=True), content=shipped_content)
    reader = pypdf.PdfReader(tmp_path / "print" / "cards-a4-gutter-fold.pdf")
    assert len(reader.pages) == 1                            # 4 fronts, 4 backs
    ops = reader.pages[0].get_contents().get_data().decode()
    assert len(re.findall(r"/Face\.\w+\.\d+ Do", ops)) == 4
    assert len(re.findall(r"/Back\.\w+ Do", ops)) == 4
    assert " d\n" in ops                                     # the dashed fold marks


def test_nothing_but_bleed_between_the_cut_and_the_safe_zone_of_a_png(small_build):
    """In a The Game Crafter PNG (825 x 1125 px, cut 37.5 px in, safe zone 75 px in) the
    band between the cut line and the safe zone holds the bleed colour only: no frame, no
    stamp, no text (a Starter face, plain bleed colour)."""
    from PIL import Image

    data = (small_build["out"] / "png" / "starter" / "recruit-1.png").read_bytes()
    with Image.open(io.BytesIO(data)) as image:
        rgb = image.convert("RGB")
        assert rgb.size == (825, 1125)
        band = set()
        for y in list(range(39, 73)) + list(range(1125 - 73, 1125 - 39)):
            band |= {rgb.getpixel((x, y)) for x in range(39, 825 - 39, 3)}
        for x in list(range(39, 73)) + list(range(825 - 73, 825 - 39)):
            band |= {rgb.getpixel((x, y)) for y in range(39, 1125 - 39, 3)}
        assert len(band) == 1, sorted(band)[:5]
