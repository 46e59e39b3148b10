"""How wide a text prints in the bundled fonts (advance widths read with Pillow): the fit
check measures with it, and the token sheets wrap their heads by it, so both agree."""

from __future__ import annotations

from functools import cache

from .common import TEMPLATES

FONTS = {"sans": "DejaVuSansCondensed.ttf", "sans-bold": "DejaVuSansCondensed-Bold.ttf",
         "serif-bold": "DejaVuSerifCondensed-Bold.ttf"}


@cache
def _font(kind: str):
    from PIL import ImageFont

    return ImageFont.truetype(str(TEMPLATES / "fonts" / FONTS[kind]), 1000)


def text_mm(text: str, size_mm: float, kind: str) -> float:
    """How wide `text` prints at `size_mm` in the font `kind` (advance widths)."""
    return _font(kind).getlength(text) / 1000 * size_mm
