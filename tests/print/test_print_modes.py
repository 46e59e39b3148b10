"""Print modes for home printers, read from the PDFs: --ink-saver (white bodies, outline
frames, no full-bleed colour) and --grayscale (no colour at all), each in files of its own,
with cache keys of their own."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "content"
CARDS = ["ironclad_warden", "a_hero_joins_the_battle", "hold_the_line"]
SCALE = 60 / 72   # 60 DPI


def _build(out, content, modes=(), cache=None):
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    return build_print(FIXTURE, out, PrintOptions(
        cards=CARDS, papers=("a4",), png=None, tts=False, modes=modes, cache=cache),
        content=content)


def _images(result):
    """Every face and back page of a build as an RGB image, by page key."""
    out = {}
    for pdf, keys in result.face_pdfs:
        doc = pdfium.PdfDocument(pdf)
        for i, key in enumerate(keys):
            out[key] = doc[i].render(scale=SCALE).to_pil().convert("RGB")
        doc.close()
    return out


def _pixels(image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def _white_share(image, box=None) -> float:
    """Share of the pixels (in box, left/top/right/bottom) that are near white."""
    pixels = _pixels(image.crop(box) if box else image)
    return sum(1 for p in pixels if min(p) >= 245) / len(pixels)


def _ink(image) -> float:
    """Mean darkness, 0 (white) to 1 (black)."""
    gray = image.convert("L").tobytes()
    return 1 - sum(gray) / (255 * len(gray))


@pytest.fixture(scope="module")
def builds(tmp_path_factory, shipped_content):
    base = tmp_path_factory.mktemp("modes")
    cache = base / "cache"
    return {mode: _build(base / "out", shipped_content, modes, cache)
            for mode, modes in (("normal", ()), ("ink-saver", ("ink-saver",)),
                                ("grayscale", ("grayscale",)))} | {"out": base / "out"}


def test_each_mode_writes_its_own_sheets(builds):
    """A mode never overwrites the normal print: each has its own file name."""
    out = builds["out"] / "print"
    assert sorted(p.name for p in out.glob("*.pdf")) == [
        "cards-a4-grayscale.pdf", "cards-a4-ink-saver.pdf", "cards-a4.pdf"]
    normal = {str(out / "cards-a4.pdf")}
    assert set(builds["normal"].written) == normal
    for mode in ("ink-saver", "grayscale"):
        assert set(builds[mode].written) == {str(out / f"cards-a4-{mode}.pdf")}


def test_ink_saver_has_no_full_bleed_colour(builds):
    """The bleed and the card body are white; the page uses far less ink than normal."""
    normal, saver = _images(builds["normal"]), _images(builds["ink-saver"])
    for key, image in saver.items():
        w, h = image.size
        edge = round(3.175 / 25.4 * 60)         # the bleed band, 1/8 in
        bands = [(0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)]
        for box in bands:
            assert _white_share(image, box) > 0.99, (key, box)
            assert _white_share(normal[key], box) < 0.5, (key, box)
        if not key.startswith("back:"):
            body = (w // 4, round(h * 0.45), w * 3 // 4, round(h * 0.55))
            assert _white_share(image, body) > 0.3, key          # white paper, text
            assert _white_share(normal[key], body) < 0.1, key    # parchment
        assert _ink(image) < 0.5 * _ink(normal[key]), (key, _ink(image), _ink(normal[key]))


def test_grayscale_has_no_colour(builds):
    """Every pixel of every face and back is gray; the normal print has colour."""
    for key, image in _images(builds["grayscale"]).items():
        worst = max(max(p) - min(p) for p in _pixels(image))
        assert worst <= 3, (key, worst)
    colourful = [max(max(p) - min(p) for p in _pixels(image))
                 for image in _images(builds["normal"]).values()]
    assert max(colourful) > 60


def test_grayscale_keeps_the_text_a_player_reads(builds):
    """Only colours change: a version stamp like '#0a8afe' is text, not a colour."""
    def texts(result):
        out = {}
        for pdf, keys in result.face_pdfs:
            doc = pdfium.PdfDocument(pdf)
            for i, key in enumerate(keys):
                out[key] = doc[i].get_textpage().get_text_range()
            doc.close()
        return out

    assert texts(builds["grayscale"]) == texts(builds["normal"])


def test_modes_have_their_own_cache_keys(shipped_content, shipped_cards):
    from tether_build.print.cards.context import Renderer
    from tether_build.print.html import TEMPLATES, Pages

    card = shipped_cards["ironclad_warden"]
    keys = {modes: Pages(Renderer(shipped_content, TEMPLATES), modes=modes).face_key(card)
            for modes in ((), ("ink-saver",), ("grayscale",), ("ink-saver", "grayscale"))}
    assert len(set(keys.values())) == 4


def test_gray_text_leaves_entities_and_words_alone():
    from tether_build.print.modes import gray_html, gray_text, luma

    assert gray_text("a { color: #ff0000; fill: #0f0 }") == "a { color: #363636; fill: #b6b6b6 }"
    assert gray_text("rgba(255, 0, 0, 0.5)") == "rgba(54,54,54, 0.5)"
    assert luma(255, 255, 255) == 255
    html = '<b style="--faction: #3366cc">2&#215; #088afe</b>'
    assert gray_html(html) == '<b style="--faction: #636363">2&#215; #088afe</b>'


def test_cli_flags(tmp_path):
    from tether_build.cli import main

    res = CliRunner().invoke(main, [
        "print-cards", "--content", str(FIXTURE), "--cards", "hold_the_line", "--paper",
        "a4", "--png", "none", "--no-tts", "--ink-saver", "--grayscale", "--quiet",
        "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert [p.name for p in (tmp_path / "print").iterdir()] == [
        "cards-a4-ink-saver-grayscale.pdf"]


def test_build_prints_the_modes_beside_the_normal_sheets(shipped_content, monkeypatch):
    """`tether build --ink-saver --grayscale`: the cards stage also renders the mode sheets
    (no PNGs or TTS for them), and its key changes with the modes."""
    from tether_build.commands import build
    from tether_build.print.cards import build as render_build

    calls = []

    def fake_render_all(content, chosen, opts, out, progress, result):
        calls.append(opts)
        from tether_build.print.modes import suffix

        return {out / "print" / f"cards-a4{suffix(opts.modes)}.pdf": b"%PDF"}

    monkeypatch.setattr(render_build, "render_all", fake_render_all)
    ctx = build.Context(FIXTURE, Path("unused"), ("a4",),
                        print_modes=("ink-saver", "grayscale"))
    ctx._content = shipped_content
    files = build.cards_stage(ctx)
    assert sorted(files) == ["print/cards-a4-ink-saver-grayscale.pdf", "print/cards-a4.pdf"]
    assert [o.modes for o in calls] == [(), ("ink-saver", "grayscale")]
    assert calls[1].png is None and calls[1].tts is False
    stage = next(s for s in build.STAGES if s.name == "cards")
    plain = build.Context(FIXTURE, Path("unused"), ("a4",))
    assert build.stage_key(stage, ctx) != build.stage_key(stage, plain)


def test_build_cli_has_the_mode_flags():
    from tether_build.cli import main

    res = CliRunner().invoke(main, ["build", "--help"])
    assert "--ink-saver" in res.output and "--grayscale" in res.output


def test_the_settings_a_stage_prints_are_in_its_key_and_no_other():
    """The TTS address (--tts-url) is printed into the decks and the table, so it is in the
    cards' and the table's keys; the tiles print no address, so their key ignores it. The
    board seed is in every key, as the rulebook and print guide name the board files."""
    from tether_build.commands import build

    stages = {s.name: s for s in build.STAGES}
    plain = build.Context(FIXTURE, Path("unused"), ("a4",))
    hosted = build.Context(FIXTURE, Path("unused"), ("a4",), tts_url="https://example.org/t")
    reseeded = build.Context(FIXTURE, Path("unused"), ("a4",), seed=7)
    for name in ("cards", "table"):
        assert build.stage_key(stages[name], hosted) != build.stage_key(stages[name], plain)
    assert build.stage_key(stages["tiles"], hosted) == build.stage_key(stages["tiles"], plain)
    for stage in stages.values():
        assert build.stage_key(stage, reseeded) != build.stage_key(stage, plain), stage.name
