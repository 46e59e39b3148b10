"""The art box: the card category's pictogram, or the designer's own picture (`art:` in
content), looked up on disk inside the project only, with a located error otherwise."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from cardtest_helpers import copy_content

RED = (220, 20, 30)


def _with_art(content_dir, value: str, card: str = "zap") -> int:
    """Give `card` an `art:` line; returns the line number it is on."""
    path = content_dir / "cards" / "starter.yaml"
    text = path.read_text(encoding="utf-8")
    head = f"  - id: {card}\n"
    at = text.index(head) + len(head)
    path.write_text(text[:at] + f"    art: {value}\n" + text[at:], encoding="utf-8")
    return text[:at].count("\n") + 1


def _picture(path, colour=RED):
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (300, 120), colour).save(path)


@pytest.mark.parametrize("value, why", [
    ("art/missing.png", "no file art/missing.png"),
    ("../outside.png", "outside the project folder"),
    ("/etc/passwd.png", "not a URL or absolute"),
    ("https://example.com/a.png", "not a URL or absolute"),
    ("content/terms.yaml", "not a picture"),
])
def test_bad_art_is_a_located_error(tmp_path, value, why):
    from tether_build.content.validate import validate
    from tether_build.errors import ContentError

    content_dir = copy_content(tmp_path)
    (tmp_path / "outside.png").write_bytes(b"x")
    line = _with_art(content_dir, value)
    with pytest.raises(ContentError) as err:
        validate(content_dir)
    [problem] = err.value.problems
    text = str(problem)
    assert f"starter.yaml:{line}:" in text and ".art" in text and why in text, text


@pytest.mark.parametrize("name, data, why", [
    ("art/broken.png", b"\x89PNG\r\n\x1a\n" + b"garbage" * 20, "not a picture Pillow can read"),
    ("art/words.jpg", b"just words, not a JPEG", "not a picture Pillow can read"),
    ("art/page.svg", b"<?xml version='1.0'?>\n<html><body>no</body></html>", "no <svg> element"),
    ("art/latin1.svg", b"<svg>\xe9\xff</svg>", "not a UTF-8 SVG"),
])
def test_an_undecodable_picture_is_a_located_error(tmp_path, name, data, why):
    """A picture on disk that cannot be decoded is refused before it reaches a face (it
    would print as an empty box)."""
    from tether_build.content.validate import validate
    from tether_build.errors import ContentError

    content_dir = copy_content(tmp_path)
    (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / name).write_bytes(data)
    line = _with_art(content_dir, name)
    with pytest.raises(ContentError) as err:
        validate(content_dir)
    [problem] = err.value.problems
    assert f"starter.yaml:{line}:" in str(problem) and why in str(problem), str(problem)


def test_a_truncated_png_is_refused_and_a_whole_one_accepted(tmp_path):
    from tether_build.content.cards import picture_problem

    _picture(tmp_path / "whole.png")
    assert picture_problem(tmp_path / "whole.png") is None
    data = (tmp_path / "whole.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 2])
    assert "Pillow" in picture_problem(tmp_path / "cut.png")
    (tmp_path / "ok.svg").write_text("<?xml version='1.0'?>\n<!-- art -->\n<svg xmlns="
                                     "'http://www.w3.org/2000/svg'/>", encoding="utf-8")
    assert picture_problem(tmp_path / "ok.svg") is None


def _face(tmp_path, content_dir, card="zap"):
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    result = build_print(content_dir, tmp_path / "out", PrintOptions(
        cards=[card], papers=(), png=None, tts=False, players=2))
    pdf, _ = result.face_pdfs[0]
    doc = pdfium.PdfDocument(pdf)
    image = doc[0].render(scale=100 / 72).to_pil().convert("RGB")
    doc.close()
    return image


def _red_share(image) -> float:
    w, h = image.size
    box = image.crop((w // 5, round(h * 0.26), w * 4 // 5, round(h * 0.40)))   # the art box
    data = box.tobytes()
    pixels = [data[i:i + 3] for i in range(0, len(data), 3)]
    return sum(1 for r, g, b in pixels if r > 180 and g < 80 and b < 80) / len(pixels)


def test_designer_art_prints_in_the_art_box(tmp_path):
    content_dir = copy_content(tmp_path)
    plain = _face(tmp_path / "a", content_dir)
    _picture(tmp_path / "art" / "zap.png")
    _with_art(content_dir, "art/zap.png")
    with_art = _face(tmp_path / "b", content_dir)
    assert _red_share(plain) < 0.02
    assert _red_share(with_art) > 0.9


def test_without_art_the_category_pictogram_shows(shipped_content, shipped_cards):
    from tether_build.print.cards.context import CATEGORY_ART, Renderer
    from tether_build.print.html import TEMPLATES, Pages

    pages = Pages(Renderer(shipped_content, TEMPLATES))
    for cid in ("zap", "recruit", "ironclad_warden"):
        card = shipped_cards[cid]
        html = pages.face(card, 1)
        assert f'icons/{CATEGORY_ART[card["category"]]}.svg' in html
    assert set(CATEGORY_ART) == set(__import__("tether_build.effects.spec",
                                               fromlist=["x"]).CATEGORIES)
    for icon in CATEGORY_ART.values():
        assert (TEMPLATES / "icons" / f"{icon}.svg").is_file()


def test_an_edited_picture_changes_the_face_key_and_the_stage_view(tmp_path):
    """Same path, new bytes: the face cache key and the cards stage's view both change."""
    from tether_build.commands import build
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate
    from tether_build.print.cards.context import Renderer
    from tether_build.print.html import TEMPLATES, Pages

    content_dir = copy_content(tmp_path)
    _picture(tmp_path / "art" / "zap.png")
    _with_art(content_dir, "art/zap.png")

    def keys():
        content = validate(content_dir)
        card = next(c for c in normalized_cards(content) if c["id"] == "zap")
        ctx = build.Context(content_dir, tmp_path / "out")
        ctx._content = content
        view = build.cards_view(ctx)
        return Pages(Renderer(content, TEMPLATES)).face_key(card), view["cards"]

    first = keys()
    _picture(tmp_path / "art" / "zap.png", (20, 30, 220))
    second = keys()
    assert first[0] != second[0] and first[1] != second[1]
