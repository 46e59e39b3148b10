"""PNG files of the card images (a card's PNG for print on demand, TTS sheets and backs).

Pillow's PNG writer picks a filter for every row by trying all five on it, which takes longer
than compressing the row. On card faces (flat colour and type) no filter at all compresses
best. So each image is written here with one filter for all its rows, None or Up, whichever
compresses a sample of its rows smaller (a band of 8 rows in every 256: five bands of a face,
three of a TTS row): a face of flat colour takes None, a face with a photograph takes Up.
The sample was a band in every 64 rows until that sampling was measured at about a third of
a face's encoding time (compressing the sample both ways, and the Up filter of its bands);
a band in every 256 chooses as it did on 259 of a build's 263 images.

Measured against Pillow at the same zlib level, on 20 faces of the shipped Age II Market deck
(825 x 1125 px): 7.6 ms a face instead of 13.6 ms, 13 % smaller; on a TTS sheet of 50 faces
(4000 x 2800 px, drawn whole): 0.12 s instead of 0.18 s, 8 % smaller; on a photograph at face
size: Up, 4 % larger than Pillow's. The pixels are the image's exactly (tested); the bytes
follow zlib's version, which the render cache keys name.

A TTS sheet is written as bands of rows, each compressed on its own (band, from_bands), so a
sheet whose row of faces changed compresses that row again, not the whole sheet (tts.py).
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image, ImageChops

LEVEL = 1          # zlib level (as Pillow's compress_level): the faces gain little above it
BAND, EVERY = 8, 256   # the sample: BAND rows out of every EVERY
# mode -> (PNG colour type, bytes a pixel written); RGBX is written as RGB (raster.py)
_COLOUR = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4), "RGBX": (2, 3)}
_NONE, _UP = 0, 2   # PNG filter types


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data)))


def _rows(data: bytes, stride: int, kind: int, starts=None) -> bytes:
    """The scanlines of `data` (rows of `stride` bytes), each after its filter byte; only
    the rows of `starts` (each a row's first byte) when given."""
    view, tag = memoryview(data), bytes([kind])
    parts = []
    for start in range(0, len(data), stride) if starts is None else starts:
        parts += (tag, view[start:start + stride])
    return b"".join(parts)


def _bytes(image: Image.Image) -> bytes:
    """The pixels as written: an RGBX image's RGB bytes, any other image's own."""
    return image.tobytes("raw", "RGB") if image.mode == "RGBX" else image.tobytes()


def _up(image: Image.Image) -> bytes:
    """Each row minus the row above it, byte by byte modulo 256 (PNG's Up filter)."""
    width, height = image.size
    above = Image.new(image.mode, image.size)   # all zero: the first row stays as it is
    above.paste(image.crop((0, 0, width, height - 1)), (0, 1))
    return _bytes(ImageChops.subtract_modulo(image, above))


def choose(image: Image.Image, plain: bytes | None = None) -> int:
    """The filter for the image's rows, None or Up: whichever compresses a sample of its
    rows smaller. plain: _bytes(image), when at hand."""
    width, height = image.size
    stride = width * _COLOUR[image.mode][1]
    plain = plain if plain is not None else _bytes(image)
    bands = range(0, height, EVERY)
    sample = {_NONE: _rows(plain, stride, _NONE, [row * stride for band in bands for row in
                                                  range(band, min(band + BAND, height))]),
              _UP: b"".join(_rows(_up(image.crop((0, max(band - 1, 0), width,
                                                   min(band + BAND, height)))),
                                  stride, _UP)[(stride + 1) * (band > 0):] for band in bands)}
    return min(sample, key=lambda k: len(zlib.compress(sample[k], LEVEL)))


def scanlines(image: Image.Image, kind: int | None = None) -> bytes:
    """The image's rows as PNG scanlines, each after its filter byte: one filter for the
    image, None or Up (`kind`; by default whichever compresses a sample of its rows smaller,
    choose). The first row is tagged None (Up on it changes nothing, as the row above counts
    as zero), so a band of rows stands on its own (see band)."""
    width, _ = image.size
    stride = width * _COLOUR[image.mode][1]
    plain = _bytes(image)
    kind = kind if kind is not None else choose(image, plain)
    if kind == _NONE:
        return _rows(plain, stride, _NONE)
    lines = bytearray(_rows(_up(image), stride, _UP))
    lines[0] = _NONE
    return bytes(lines)


def band(image: Image.Image, kind: int | None = None) -> tuple[bytes, int, int]:
    """Rows of an image, compressed on their own: (deflate data ending in a full flush,
    Adler-32 and length of the scanlines). A PNG made of such bands (from_bands) is valid
    whatever the bands around each, so a band whose pixels did not change is reused as is.
    kind: the filter (scanlines), e.g. the one chosen for the whole image the band is of."""
    lines = scanlines(image, kind)
    deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return (deflate.compress(lines) + deflate.flush(zlib.Z_FULL_FLUSH), zlib.adler32(lines),
            len(lines))


def _adler_combine(first: int, second: int, second_length: int) -> int:
    """Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    base = 65521
    rem = second_length % base
    low = first & 0xFFFF
    high = (rem * low + (first >> 16) + (second >> 16) + base - rem) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    return low | (high << 16)


def _file(mode: str, size: tuple[int, int], deflate: bytes, dpi: int | None) -> bytes:
    """A PNG file: its header, resolution and one IDAT of the zlib stream."""
    colour, _ = _COLOUR[mode]
    head = struct.pack(">IIBBBBB", *size, 8, colour, 0, 0, 0)
    phys = [_chunk(b"pHYs", struct.pack(">IIB", *[int(dpi / 0.0254 + 0.5)] * 2, 1))] \
        if dpi else []
    return b"".join([b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", head), *phys,
                     _chunk(b"IDAT", deflate), _chunk(b"IEND", b"")])


def from_bands(mode: str, size: tuple[int, int], bands: list[tuple[bytes, int, int]],
               dpi: int | None = None) -> bytes:
    """The PNG file of an image given as its bands of rows, top to bottom (band)."""
    adler, data = 1, []
    for deflate, checksum, length in bands:
        adler = _adler_combine(adler, checksum, length)
        data.append(deflate)
    stream = b"\x78\x01" + b"".join(data) + b"\x03\x00" + struct.pack(">I", adler)
    return _file(mode, size, stream, dpi)   # (0x7801: zlib's header; 0300: the last block)


def png(image: Image.Image, dpi: int | None = None) -> bytes:
    """The PNG file of `image` (L, RGB or RGBA; RGBX as RGB; other modes are written by
    Pillow), with its resolution when `dpi` is given."""
    if image.mode not in _COLOUR or 0 in image.size:
        import io

        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=LEVEL, **({"dpi": (dpi, dpi)} if dpi else {}))
        return buf.getvalue()
    return _file(image.mode, image.size, zlib.compress(scanlines(image), LEVEL), dpi)
