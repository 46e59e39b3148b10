"""Per-card PNGs (size, DPI), Tabletop Simulator decks, and the print-cards command."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from tests.conftest import CONTENT as _CONTENT

CONTENT = str(_CONTENT)

ROOT = Path(__file__).resolve().parents[2]


def test_png_per_face_and_back_at_300_dpi(small_build, shipped_cards, printed_cards):
    out, result = small_build["out"], small_build["result"]
    pngs = sorted((out / "png").rglob("*.png"))
    expected = {f"{cid}-{n}.png" for cid in result.fits
                for n in range(1, printed_cards[cid]["copies"] + 1)}
    assert {p.name for p in pngs if p.name != "back.png"} == expected
    assert {p.parent.name for p in pngs if p.name == "back.png"} == set(result.decks)
    for path in pngs:
        with Image.open(path) as image:
            assert image.size == (825, 1125), path.name     # The Game Crafter poker size
            assert [round(v) for v in image.info["dpi"]] == [300, 300]
    for cid in result.fits:
        assert (out / "png" / shipped_cards[cid]["deck"] / f"{cid}-1.png").exists()


def test_mpc_preset_from_the_same_pages(small_build):
    from tether_build.print.raster import Raster

    raster = Raster(small_build["result"].face_pdfs)
    try:
        keys = ["zap-1", "back:starter"]
        for key, data in raster.pngs(keys, "mpc").items():
            path = small_build["out"] / f"mpc-{key.replace(':', '_')}.png"
            path.write_bytes(data)
            with Image.open(path) as image:
                assert image.size == (822, 1122)
                assert [round(v) for v in image.info["dpi"]] == [300, 300]
        tgc = raster.pngs(["zap-1"], "tgc")["zap-1"]
    finally:
        raster.close()
    # same drawing, MPC is the TGC image less 1.5 px of bleed per side
    (small_build["out"] / "tgc.png").write_bytes(tgc)
    with Image.open(small_build["out"] / "tgc.png") as a, \
            Image.open(small_build["out"] / "mpc-zap-1.png") as b:
        assert a.convert("RGB").crop((1, 1, 823, 1123)).tobytes() == b.convert("RGB").tobytes()


def test_tts_sheets_backs_and_json(small_build, printed_cards, shipped_content):
    from tether_build.print.tts.decks import deck_key

    out, result = small_build["out"], small_build["result"]
    keys = set()
    for deck in result.decks:
        doc = json.loads((out / "tts" / f"{deck}.json").read_text(encoding="utf-8"))
        state = doc["ObjectStates"][0]
        faces = sum(c["copies"] for c in printed_cards.values()
                    if c["deck"] == deck and c["id"] in result.fits)
        key = deck_key(list(shipped_content.ages["decks"]).index(deck), 0)
        assert list(state["CustomDeck"]) == [str(key)] and key not in keys
        keys.add(key)   # no two decks share a CustomDeck key (cards of mixed decks keep faces)
        custom = state["CustomDeck"][str(key)]
        assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7
        assert custom["FaceURL"] == f"https://x.test/tts/{deck}.png"
        assert custom["BackURL"] == f"https://x.test/tts/{deck}-back.png"
        if faces > 1:
            assert state["Name"] == "DeckCustom" and len(state["DeckIDs"]) == faces
            assert len(state["ContainedObjects"]) == faces
            assert state["DeckIDs"] == [key * 100 + i for i in range(faces)]
            assert all(c["CardID"] // 100 == key and list(c["CustomDeck"]) == [str(key)]
                       for c in state["ContainedObjects"])
        else:
            assert state["Name"] == "Card" and state["CardID"] == key * 100
        with Image.open(out / "tts" / f"{deck}.png") as sheet:
            assert sheet.size == (custom["NumWidth"] * 400, custom["NumHeight"] * 560)
            assert custom["NumWidth"] * custom["NumHeight"] >= faces + (faces > 1)
        assert (out / "tts" / f"{deck}-back.png").stat().st_size > 1000


def test_tts_grid_never_exceeds_10_by_7():
    from tether_build.print.tts.decks import PER_SHEET, grid

    assert PER_SHEET == 69
    for n in range(1, PER_SHEET + 1):
        cols, rows = grid(n)
        assert 2 <= cols <= 10 and 2 <= rows <= 7 and cols * rows >= n


def test_rebuild_leaves_identical_files_alone_and_prunes_stale_pngs(tmp_path,
                                                                   shipped_content):
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    opts = PrintOptions(deck="starter", papers=("a4",), png="mpc", tts=False,
                        players=2)   # two Starter sets: every card, a third of the PNGs
    first = build_print(ROOT / "tests" / "fixtures" / "content", tmp_path, opts, content=shipped_content)
    stale = tmp_path / "png" / "starter" / "renamed_card-1.png"
    stale.write_bytes(b"old")
    again = build_print(ROOT / "tests" / "fixtures" / "content", tmp_path, opts, content=shipped_content)
    assert first.written and again.written == []
    assert len(again.unchanged) == len(first.written)
    assert again.removed == [str(stale)] and not stale.exists()


def test_unknown_ids_are_refused_with_a_hint(shipped_content, shipped_cards):
    from tether_build.errors import TetherError
    from tether_build.print.cards.build import PrintOptions, select_cards

    cards = list(shipped_cards.values())
    for opts, message in [
        (PrintOptions(cards=["zapp"]), "unknown card 'zapp' (did you mean 'zap'?)"),
        (PrintOptions(deck="startr"), "unknown deck 'startr' (did you mean 'starter'?)"),
        (PrintOptions(faction="nobody"), "unknown faction 'nobody'"),
        (PrintOptions(deck="starter", faction="leadbound"), "no card matches"),
    ]:
        with pytest.raises(TetherError, match=re.escape(message)):
            select_cards(shipped_content, cards, opts)


def test_cli_refuses_an_unknown_card(tmp_path):
    from tether_build.cli import main

    res = CliRunner().invoke(main, ["print-cards", "--content", CONTENT, "--cards",
                                    "zap,zapp", "--out", str(tmp_path)])
    assert res.exit_code == 1 and "unknown card 'zapp' (did you mean 'zap'?)" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "print").exists()


def test_cli_prints_one_card(tmp_path):
    from tether_build.cli import main

    res = CliRunner().invoke(main, ["print-cards", "--content", CONTENT, "--cards", "zap",
                                    "--paper", "letter", "--players", "2",
                                    "--png", "none", "--no-tts", "--json", "--out",
                                    str(tmp_path)])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert summary["faces"] == 2 and summary["decks"] == ["starter"]  # a set per player
    assert summary["written"] == [str(tmp_path / "print" / "cards-letter.pdf")]


def test_a_subset_print_goes_to_its_own_folder(tmp_path, monkeypatch):
    """Issue 18.6: print-cards --cards/--deck/--faction never overwrites build/print/*.pdf."""
    from tether_build.cli import main

    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["print-cards", "--content", CONTENT, "--cards", "zap",
                                    "--paper", "letter", "--players", "2", "--png", "none", "--no-tts",
                                    "--json"])
    assert res.exit_code == 0, res.output
    written = json.loads(res.output)["written"]
    assert written == [str(Path("build/print/subsets/cards-zap_players-2/print/cards-letter.pdf"))]
    assert not (tmp_path / "build" / "print" / "cards-letter.pdf").exists()


def _pixels(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.convert("RGB").tobytes()


def test_a_tts_sheet_is_its_faces_and_an_edit_draws_again_only_its_row(small_build, tmp_path):
    """A sheet shows each face, trimmed, in its cell. After a card edit the sheet is made
    again from the rows of cells in the cache, drawing only the rows whose faces changed;
    its bytes are those of a sheet drawn whole."""
    from tether_build.print.cache import Cache
    from tether_build.print.raster import Raster
    from tether_build.print.tts import decks as tts

    parts = small_build["result"].face_pdfs
    keys = [k for _, ks in parts for k in ks if not k.startswith("back:")]
    raster = Raster(parts, Cache(tmp_path / "cache"))
    (sheet, cols, rows), = tts.sheet_images(raster, keys)
    drawn = Image.new("RGB", (cols * tts.CELL[0], rows * tts.CELL[1]), tts.EMPTY)
    for i, key in enumerate(keys):
        drawn.paste(raster.trimmed(key, *tts.CELL),
                    (i % cols * tts.CELL[0], i // cols * tts.CELL[1]))
    assert rows >= 2 and _pixels(sheet) == drawn.tobytes()

    row = {k: i // cols for i, k in enumerate(keys)}
    singles = [i for i, (_, ks) in enumerate(parts) if len(ks) == 1 and ks[0] in row]
    a, b = next((a, b) for a in singles for b in singles
                if a < b and row[parts[a][1][0]] == row[parts[b][1][0]])
    swapped = list(parts)   # two faces of one row trade places
    swapped[a], swapped[b] = (parts[b][0], parts[a][1]), (parts[a][0], parts[b][1])
    again, redrawn = Raster(swapped, Cache(tmp_path / "cache")), []
    trimmed = again.trimmed
    again.trimmed = lambda key, *size: redrawn.append(key) or trimmed(key, *size)
    (edited, _, _), = tts.sheet_images(again, keys)
    (whole, _, _), = tts.sheet_images(Raster(swapped, Cache(tmp_path / "fresh")), keys)
    assert edited == whole and _pixels(edited) != _pixels(sheet)
    assert redrawn == [k for k in keys if row[k] == row[parts[a][1][0]]]
