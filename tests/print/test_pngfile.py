"""The PNG writer of the card images (per-card PNGs, TTS sheets and backs): every pixel as
drawn, a resolution a print shop reads, and files no bigger than Pillow's for flat faces nor
much bigger for a photograph."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from tether_build.print.pngfile import png


def _flat(size=(330, 450), mode="RGB") -> Image.Image:
    """A face-like image: flat panels, a frame and lines of 'type'."""
    image = Image.new(mode, size, "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, size[0] - 10, 80), fill="#7a2e1f")
    draw.rectangle((5, 5, size[0] - 5, size[1] - 5), outline="black", width=4)
    for y in range(120, size[1] - 40, 18):
        draw.text((20, y), "Gain +2 Gold. Deploy up to 2 Cohorts.", fill="black")
    return image


def _photo(size=(330, 450), mode="RGB") -> Image.Image:
    """A photograph-like image: smooth gradients with seeded grain."""
    rng = random.Random(7)
    width, height = size
    data = bytes(min(255, max(0, (x * 255 // width + y * 128 // height + c * 40) % 256
                              + rng.randint(-6, 6)))
                 for y in range(height) for x in range(width) for c in range(3))
    return Image.frombytes("RGB", size, data).convert(mode)


def _filters(data: bytes) -> list[int]:
    """The filter type of each row of a PNG written by png()."""
    width, height, _, colour = struct.unpack(">IIBB", data[16:26])
    depth = {0: 1, 2: 3, 6: 4}[colour]
    start = data.index(b"IDAT") + 4
    length = struct.unpack(">I", data[start - 8:start - 4])[0]
    raw = zlib.decompress(data[start:start + length])
    stride = width * depth + 1
    assert len(raw) == stride * height
    return [raw[row * stride] for row in range(height)]


@pytest.mark.parametrize("make", [_flat, _photo])
@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_every_pixel_and_the_resolution_come_back(make, mode):
    image = make(mode=mode)
    data = png(image, 300)
    with Image.open(io.BytesIO(data)) as back:
        back.load()
        assert back.format == "PNG" and back.mode == mode and back.size == image.size
        assert back.tobytes() == image.tobytes()
        assert [round(d) for d in back.info["dpi"]] == [300, 300]


@pytest.mark.parametrize("size", [(1, 1), (1, 70), (70, 1), (13, 65), (400, 129)])
def test_odd_sizes(size):
    image = _photo(size)
    with Image.open(io.BytesIO(png(image))) as back:
        back.load()
        assert back.tobytes() == image.tobytes() and "dpi" not in back.info


def test_a_flat_face_is_not_filtered_a_photograph_is_and_neither_grows():
    def pillow(image: Image.Image) -> int:
        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=1)
        return len(buf.getvalue())

    flat, photo = _flat(), _photo()
    assert set(_filters(png(flat))) == {0}
    assert _filters(png(photo)) == [0] + [2] * (photo.size[1] - 1)   # (Up on the first row
    #                                                          is the row itself: tagged None)
    assert len(png(flat)) <= pillow(flat)
    assert len(png(photo)) <= 1.1 * pillow(photo)


def test_the_same_image_gives_the_same_bytes():
    assert png(_photo(), 300) == png(_photo(), 300)


@pytest.mark.parametrize("make", [_flat, _photo])
def test_an_rgbx_image_is_written_as_its_rgb_pixels(make):
    """PDFium's 4-byte pixels (raster.py draws the faces so): the PNG is RGB, the same
    bytes as the RGB image's, whatever the unused fourth byte holds."""
    image = make()
    rgbx = Image.merge("RGBX", (*image.split(), Image.new("L", image.size, 77)))
    data = png(rgbx, 300)
    assert data == png(image, 300)
    with Image.open(io.BytesIO(data)) as back:
        back.load()
        assert back.mode == "RGB" and back.tobytes() == image.tobytes()
