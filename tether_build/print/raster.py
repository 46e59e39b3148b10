"""Rasterize the faces PDF with pypdfium2: per-card PNGs at 300 DPI and TTS cells.

Cards are never redrawn: every pixel comes from the same PDF pages WeasyPrint laid out.
"""

from __future__ import annotations

import hashlib
import math
from concurrent.futures import ThreadPoolExecutor

import pypdfium2 as pdfium

from . import pngfile
from .geometry import ART_BLEED, CARD_W, MM_PER_INCH, PT_PER_MM

DPI = 300
# name -> (width px, height px) at 300 DPI, trim 750 x 1050 px centred
PRESETS = {"tgc": (825, 1125), "mpc": (822, 1122)}


def _render(page, scale: float, box_px: tuple[int, int, int, int], rgbx: bool = False):
    """A PIL image of the page at `scale`, cut to box_px (left, top, width, height) in px.

    pdfium rounds sizes and crops up to whole pixels, so the cut is done here, exactly.
    rgbx: an RGBX image (4 bytes a pixel, the fourth unused) for a writer that reads its
    RGB bytes (pngfile), not one that pastes it.
    """
    # rev_byteorder: PDFium writes RGB itself, the same pixels as its default BGR turned
    # into RGB by Pillow (tested: tests/print/test_raster.py), without that conversion.
    # prefer_bgrx: PDFium draws 4 bytes a pixel, its own format, 1.3-1.9 ms faster a face
    # at 300 DPI than 3 (80 faces, alternated), the same pixels; Pillow packs the RGB bytes
    # out of it as fast as it copies an RGB image's
    image = page.render(scale=scale, rev_byteorder=True, prefer_bgrx=rgbx).to_pil()
    left, top, width, height = box_px
    if (left, top, width, height) == (0, 0, *image.size):   # a face at the preset's size
        return image
    return image.crop((left, top, left + width, top + height))


def _preset_box(page, preset: str) -> tuple[int, int, int, int]:
    """Centre the preset on the page at 300 DPI (MPC: 1 px off centre, 0.08 mm)."""
    w_px, h_px = PRESETS[preset]
    w_pt, h_pt = page.get_size()
    full_w, full_h = round(w_pt * DPI / 72), round(h_pt * DPI / 72)
    return (full_w - w_px) // 2, (full_h - h_px) // 2, w_px, h_px


def salt() -> str:
    """What every raster image shares: the drawing code and the libraries that draw and encode."""
    from pypdfium2.version import PDFIUM_INFO

    from .cache import code_digest, digest, versions

    return digest("raster/1", code_digest("print/raster.py", "print/geometry.py",
                                      "print/pngfile.py"),
                  versions("pypdfium2", "pillow"), str(PDFIUM_INFO))


NUMBER_MARGIN_PX = 3   # drawn again around a copy's number: its glyphs' anti-aliased edge


def _number_box(page) -> tuple[float, float, float, float] | None:
    """Where a copy's number is drawn on a page of a card's copies (print/cards/copies.py:
    two Form XObjects, the face, then the number): the number's bounds in PDF points (left,
    bottom, right, top); None for a page of any other make."""
    objects = list(page.get_objects(max_depth=0))
    if len(objects) != 2 or any(o.type != pdfium.raw.FPDF_PAGEOBJ_FORM for o in objects):
        return None
    return objects[1].get_bounds()


def _with_number(first, first_box, page, scale: float, box_px, rgbx: bool):
    """The image of `page` (a copy) from `first` (its first copy's image, the same face with
    another number): the pixels around both numbers drawn again from the page, the rest
    copied; with the first row drawn again (the rows above it are the first copy's). None
    when the page is not a copy's (then it is drawn in full)."""
    box = _number_box(page)
    if box is None or first_box is None:
        return None
    left = min(box[0], first_box[0]) * scale
    right = max(box[2], first_box[2]) * scale
    height = page.get_height()
    top = (height - max(box[3], first_box[3])) * scale
    bottom = (height - min(box[1], first_box[1])) * scale
    full_w, full_h = math.ceil(page.get_width() * scale), math.ceil(height * scale)
    x0, y0 = max(0, math.floor(left) - NUMBER_MARGIN_PX), max(0, math.floor(top) - NUMBER_MARGIN_PX)
    x1 = min(full_w, math.ceil(right) + NUMBER_MARGIN_PX)
    y1 = min(full_h, math.ceil(bottom) + NUMBER_MARGIN_PX)
    # pdfium crops whole pixels (ceil of points x scale): the same pixels as the page drawn
    # whole, those of the crop alone
    crop = [max(0.0, (px - 1e-6) / scale) for px in (x0, full_h - y1, full_w - x1, y0)]
    patch = page.render(scale=scale, crop=crop, rev_byteorder=True, prefer_bgrx=rgbx).to_pil()
    image = first.copy()
    bx, by, bw, bh = box_px
    cut = (max(x0, bx), max(y0, by), min(x1, bx + bw), min(y1, by + bh))
    if cut[0] < cut[2] and cut[1] < cut[3]:
        image.paste(patch.crop((cut[0] - x0, cut[1] - y0, cut[2] - x0, cut[3] - y0)),
                    (cut[0] - bx, cut[1] - by))
    return image, max(0, min(cut[1] - by, bh))   # (the image, its first row drawn again)


class Raster:
    """The faces PDFs, opened when first drawn; finds a face's page by its key.

    With a cache (render.cache.Cache), a PNG is reused when its face PDF page is the same.
    `copies`: a card's copy's key -> its first copy's key (print/cards/copies.py): a copy's
    image is its first copy's with the numbers' pixels drawn again (the same pixels as the
    page drawn whole).
    """

    def __init__(self, parts: list[tuple[bytes, list[str]]], cache=None,
                 copies: dict[str, str] | None = None):
        from .cache import Cache

        self.copies = copies or {}
        self._first_keys = set(self.copies.values())
        self._firsts: dict = {}   # (first key, scale, box, rgbx) -> (image, number box)
        self._rows: dict = {}     # (copy key, scale, box, rgbx) -> its first row drawn again
        self.parts = parts
        self.docs: dict[int, object] = {}
        self._pages: dict[tuple[int, int], object] = {}   # (doc, index) -> its loaded page
        self.where = {k: (d, i) for d, (_, keys) in enumerate(parts) for i, k in enumerate(keys)}
        self.cache = cache if cache is not None else Cache(None)
        self._digests: dict[int, str] = {}
        self._salt: str | None = None

    def close(self) -> None:
        for page in self._pages.values():
            page.close()
        self._pages.clear()
        for doc in self.docs.values():
            doc.close()
        self.docs.clear()
        self._firsts.clear()

    def image(self, key: str, scale: float, box_px: tuple[int, int, int, int],
              rgbx: bool = False, page=None):
        """The face's image at `scale`, cut to box_px (_render); a copy's drawn from its
        first copy's (_with_number). page: the key's page, when loaded already."""
        page = page if page is not None else self.page(key)
        first = self.copies.get(key)
        if first is not None:
            memo = (first, scale, box_px, rgbx)
            if memo not in self._firsts:
                self.image(first, scale, box_px, rgbx)
            drawn = _with_number(*self._firsts[memo], page, scale, box_px, rgbx)
            if drawn is not None:
                self._rows[(key, *memo[1:])] = drawn[1]
                return drawn[0]
        image = _render(page, scale, box_px, rgbx)
        if key in self._first_keys:   # kept for its copies (read only: never drawn on)
            self._firsts[(key, scale, box_px, rgbx)] = (image, _number_box(page))
        return image

    def page(self, key: str):
        """The pdfium page of a face or back key, loaded once (PDFium parses a page's
        content when it loads it): a face's PNG and its TTS cell are drawn from one load."""
        doc, index = where = self.where[key]
        if where not in self._pages:
            if doc not in self.docs:
                self.docs[doc] = pdfium.PdfDocument(self.parts[doc][0])
            self._pages[where] = self.docs[doc][index]
        return self._pages[where]

    def face_id(self, key: str) -> str:
        """What a face's pixels come from: the drawing salt, its PDF's SHA-256 and page."""
        doc, index = self.where[key]
        if doc not in self._digests:
            self._digests[doc] = hashlib.sha256(self.parts[doc][0]).hexdigest()
        if self._salt is None:
            self._salt = salt()
        return f"{self._salt}:{self._digests[doc]}:{index}"

    def pngs(self, keys: list[str], preset: str = "tgc") -> dict[str, bytes]:
        """PNG bytes per key at 300 DPI with bleed, sized by the preset (tgc, mpc)."""
        from .cache import digest

        data, images, cache_keys, boxes = {}, {}, {}, {}
        for key in keys:
            cache_keys[key] = digest("png", self.face_id(key), preset, DPI)
            hit = self.cache.get("png", cache_keys[key])
            if hit is not None:
                data[key] = hit
                continue
            page = self.page(key)
            boxes[key] = _preset_box(page, preset)
            images[key] = self.image(key, DPI / 72, boxes[key], rgbx=True, page=page)
        with ThreadPoolExecutor(max_workers=2) as pool:   # zlib compresses without the GIL
            for key, png in zip(images, self._encode(pool, images, DPI / 72, boxes)):
                data[key] = png
                self.cache.put("png", cache_keys[key], png)
        return {key: data[key] for key in keys}

    def _encode(self, pool, images: dict, scale: float, boxes: dict) -> list[bytes]:
        """The PNGs of `images` (in order): a card's copies drawn here from its first copy
        (image) share the band of rows above their numbers, compressed once
        (pngfile.from_bands: the same pixels, each copy compressing its last rows only)."""
        groups: dict[str, list[str]] = {}
        for key in images:
            first = self.copies.get(key)
            if first in images and boxes[first] == boxes[key] \
                    and (key, scale, boxes[key], True) in self._rows:
                groups.setdefault(first, [first]).append(key)
        splits = {first: min(self._rows[(k, scale, boxes[k], True)] for k in members[1:])
                  for first, members in groups.items()}
        splits = {first: row for first, row in splits.items() if row > 0}
        # the filter the first copy's whole image takes (as pngfile.png would choose it)
        kinds = dict(zip(splits, pool.map(lambda first: pngfile.choose(images[first]),
                                          splits)))
        tops = dict(zip(splits, pool.map(
            lambda first: pngfile.band(images[first].crop((0, 0, images[first].width,
                                                           splits[first])), kinds[first]),
            splits)))
        shared = {k: first for first in splits for k in groups[first]}

        def encode(key: str) -> bytes:
            image = images[key]
            if key not in shared:
                return pngfile.png(image, DPI)
            first = shared[key]
            rest = image.crop((0, splits[first], image.width, image.height))
            return pngfile.from_bands(image.mode, image.size,
                                      [tops[first], pngfile.band(rest, kinds[first])], DPI)
        return list(pool.map(encode, images))

    def trimmed(self, key: str, width_px: int, height_px: int):
        """A PIL image of the face cut at the trim (no bleed), e.g. for a TTS sheet cell."""
        scale = width_px / (CARD_W * PT_PER_MM)
        bleed_px = round(ART_BLEED * PT_PER_MM * scale)
        return self.image(key, scale, (bleed_px, bleed_px, width_px, height_px))


def trim_dpi(width_px: int) -> float:
    """The resolution a trimmed cell of width_px has."""
    return width_px / (CARD_W / MM_PER_INCH)
