"""How wide a text prints in the bundled fonts (advance widths read with Pillow): the fit
check measures with it, and the token sheets wrap their heads by it, so both agree."""

from __future__ import annotations

from functools import cache, lru_cache

from .common import TEMPLATES

FONTS = {"sans": "DejaVuSansCondensed.ttf", "sans-bold": "DejaVuSansCondensed-Bold.ttf",
         "serif-bold": "DejaVuSerifCondensed-Bold.ttf"}


@cache
def _font(kind: str):
    from PIL import ImageFont

    return ImageFont.truetype(str(TEMPLATES / "fonts" / FONTS[kind]), 1000)


def text_mm(text: str, size_mm: float, kind: str) -> float:
    """How wide `text` prints at `size_mm` in the font `kind` (advance widths)."""
    return _length(text, kind) / 1000 * size_mm


@lru_cache(maxsize=4096)
def _length(text: str, kind: str) -> float:
    """The advance width of `text` in the font `kind` at 1000 units, measured once: a sheet
    head's lines are measured again at every size tried (tokens._wrap)."""
    return _font(kind).getlength(text)
