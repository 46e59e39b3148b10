"""Every picture of the content (card art, rules images) is checked before it is used: read
through the guard (a regular file of the project, at most 20 MiB), decoded, and bounded in
pixels. An SVG is parsed as XML with no DOCTYPE (so no entity), and may refer to nothing
outside itself: no href/src but `#fragment` or an embedded PNG/JPEG/GIF/WebP `data:` picture,
no CSS `url()` but `#fragment`, no `@import`, no script or foreignObject. Nothing in a picture is
run or fetched; a picture that fails is a located error, never an empty art box (issue 43)."""

from __future__ import annotations

import io
import re
from pathlib import Path

from .paths_guard import IMAGE_MAX, Refused, read_bytes

MAX_PIXELS = 40_000_000    # a 300 dpi card face needs about 1 million
MAX_SIDE = 20_000          # pixels on either side
SVG_BANNED = {"script", "foreignObject", "iframe", "object", "embed", "audio", "video"}
DATA_PICTURE = re.compile(r"data:image/(png|jpeg|gif|webp)[;,]", re.IGNORECASE)
CSS_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)
UNITS = {"": 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54,
         "in": 96.0}


def problem(path: Path, root) -> str | None:
    """Why the picture at `path` cannot be printed, or None. root: the folder it must lie
    in once its links are followed (the project)."""
    try:
        data = read_bytes(path, root, IMAGE_MAX)
    except Refused as exc:
        return f"the file {exc.why}"
    if path.suffix.lower() == ".svg":
        return svg_problem(data)
    return raster_problem(data)


def raster_problem(data: bytes) -> str | None:
    """A PNG, JPEG, GIF or WebP: its header read and bounded, then its data fully decoded."""
    from PIL import Image, ImageFile, UnidentifiedImageError

    # WeasyPrint sets LOAD_TRUNCATED_IMAGES on import (a build or the preview may have
    # imported it): a corrupt or cut stream would then load as a partly black picture
    tolerant, ImageFile.LOAD_TRUNCATED_IMAGES = ImageFile.LOAD_TRUNCATED_IMAGES, False
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.width * image.height > MAX_PIXELS:
                return f"{image.width} x {image.height} pixels: more than {MAX_PIXELS:,}"
            image.load()   # every byte decoded: a corrupt PNG stream fails here
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError,
            Image.DecompressionBombError) as exc:
        return f"not a picture Pillow can read ({type(exc).__name__}: {str(exc)[:120]})"
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = tolerant
    return None


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _length(value: str | None) -> float | None:
    m = re.fullmatch(r"\s*([0-9.]+(?:e[+-]?\d+)?)\s*([a-z]*)\s*", value or "", re.IGNORECASE)
    if not m or m.group(2).lower() not in UNITS:
        return None
    try:
        return float(m.group(1)) * UNITS[m.group(2).lower()]
    except ValueError:
        return None


def _reference_problem(where: str, value: str) -> str | None:
    value = value.strip()
    if not value or value.startswith("#") or DATA_PICTURE.match(value):
        return None
    return (f"{where} refers to {value[:60]!r}: an SVG may refer only to its own parts "
            "(#id) or embed a picture (data:image/png;base64,...)")


def svg_problem(data: bytes) -> str | None:
    """An SVG: UTF-8 XML, no DOCTYPE or entity, an <svg> root of bounded size, and no
    reference outside itself."""
    import xml.etree.ElementTree as ET

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not a UTF-8 SVG file"
    if re.search(r"<!DOCTYPE|<!ENTITY", text, re.IGNORECASE):
        return "holds a DOCTYPE or an entity (not allowed in an SVG picture: remove it)"
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, col = getattr(exc, "position", (0, 0))
        return f"not well-formed SVG (line {line}, column {col + 1})"
    if _local(root.tag) != "svg":
        return "not an SVG picture (no <svg> element: its first element is not <svg>)"
    for element in root.iter():
        tag = _local(element.tag) if isinstance(element.tag, str) else ""
        if tag in SVG_BANNED:
            return f"holds a <{tag}> element (not allowed in an SVG picture)"
        for name, value in element.attrib.items():
            local = _local(name)
            if local in ("href", "src"):
                why = _reference_problem(f"<{tag} {local}>", value)
                if why:
                    return why
            elif local == "style" or "url(" in value:
                for m in CSS_URL.finditer(value):
                    why = _reference_problem(f"<{tag} {local}> url()", m.group(1))
                    if why:
                        return why
        if tag == "style" and element.text:
            if "@import" in element.text:
                return "holds a CSS @import (not allowed in an SVG picture)"
            for m in CSS_URL.finditer(element.text):
                why = _reference_problem("<style> url()", m.group(1))
                if why:
                    return why
    return _svg_size_problem(root)


def _svg_size_problem(root) -> str | None:
    width, height = _length(root.get("width")), _length(root.get("height"))
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if (width is None or height is None) and len(box) == 4:
        try:
            width, height = float(box[2]), float(box[3])
        except ValueError:
            pass
    if width is None or height is None:
        return None   # sized by the art box it fills
    if width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        return (f"{width:g} x {height:g} pixels: more than {MAX_PIXELS:,} "
                f"(or more than {MAX_SIDE:,} on a side)")
    return None
