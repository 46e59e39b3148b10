"""Print modes for home printers: ink saver (white bodies, outline frames, no full bleed)
and grayscale (every colour a page loads mapped to its luminance).

Ink saver is a stylesheet (templates/cards/ink-saver.css) added after the others. Grayscale
is applied where the pages load: the HTML, every stylesheet and SVG icon (colour values in
the text) and raster images (Pillow), so no colour is left behind in a template, an icon
or a designer's image. Each mode writes files of its own (`suffix`), so a normal build is
never overwritten, and each is part of the render cache keys.
"""

from __future__ import annotations

import io
import re

INK_SAVER, GRAYSCALE = "ink-saver", "grayscale"
MODES = (INK_SAVER, GRAYSCALE)   # in file-name order
INK_SAVER_CSS = "cards/ink-saver.css"

_HEX = re.compile(r"(?<![&\w])#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?![0-9a-zA-Z])")
_RGB = re.compile(r"rgb(a?)\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(,[^)]*)?\)")


def normalize(modes) -> tuple[str, ...]:
    """The modes in their fixed order, each once; unknown names refused."""
    unknown = set(modes) - set(MODES)
    if unknown:
        raise ValueError(f"unknown print mode(s): {', '.join(sorted(unknown))}")
    return tuple(m for m in MODES if m in set(modes))


def suffix(modes) -> str:
    """The file-name suffix of a print mode: '' for the normal print, '-ink-saver',
    '-grayscale' or '-ink-saver-grayscale'."""
    return "".join(f"-{m}" for m in normalize(modes))


def luma(r: int, g: int, b: int) -> int:
    """Rec. 709 luminance of an sRGB colour, 0-255."""
    return min(255, round(0.2126 * r + 0.7152 * g + 0.0722 * b))


def _gray_hex(match: re.Match) -> str:
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    y = luma(*(int(digits[i:i + 2], 16) for i in (0, 2, 4)))
    return f"#{y:02x}{y:02x}{y:02x}"


def _gray_rgb(match: re.Match) -> str:
    y = luma(*(int(match.group(i)) for i in (2, 3, 4)))
    return f"rgb{match.group(1)}({y},{y},{y}{match.group(5) or ''})"


def gray_text(text: str) -> str:
    """HTML, CSS or SVG with every #rgb, #rrggbb, rgb() and rgba() colour made gray
    (character entities such as &#215; are left alone)."""
    return _RGB.sub(_gray_rgb, _HEX.sub(_gray_hex, text))


_ATTR = re.compile(r'(\s[\w:-]+=")([^"]*)(")')


def gray_html(html: str) -> str:
    """HTML with the colours in its attributes (style, fill, stroke) made gray; the text a
    player reads is left as it is (a version stamp such as #088afe is not a colour)."""
    return _ATTR.sub(lambda m: m.group(1) + gray_text(m.group(2)) + m.group(3), html)


def gray_image(data: bytes) -> bytes:
    """A raster image (PNG, JPEG ...) as a grayscale PNG, alpha kept."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        alpha = image.convert("RGBA").getchannel("A") if image.mode in ("RGBA", "LA", "P") \
            else None
        gray = image.convert("L")
        if alpha is not None:
            gray = Image.merge("LA", (gray, alpha))
        out = io.BytesIO()
        gray.save(out, format="PNG", optimize=False)
        return out.getvalue()


def gray_resource(url: str, content_type: str, data: bytes) -> bytes:
    """A fetched file in grayscale: text colours or image pixels; fonts untouched."""
    kind = content_type.lower()
    if kind in ("text/css", "image/svg+xml") or url.endswith((".css", ".svg")):
        return gray_text(data.decode("utf-8")).encode("utf-8")
    if kind.startswith("image/"):
        return gray_image(data)
    return data
