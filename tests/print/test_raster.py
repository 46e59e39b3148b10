"""print/raster.py draws a face as PDFium's default rendering would, only faster."""

from __future__ import annotations


def test_rgb_rendering_gives_the_pixels_of_the_default_bgr_one(small_build):
    """raster._render asks PDFium for RGB (rev_byteorder) rather than for BGR that Pillow
    then converts: the same pixels, for a PNG (the whole page) and a TTS cell (cut)."""
    from tether_build.print import raster

    parts = small_build["result"].face_pdfs
    keys = ["zap-1", "back:starter"]
    drawn = raster.Raster(parts)
    try:
        for key in keys:
            page = drawn.page(key)
            box = raster._preset_box(page, "tgc")
            default = page.render(scale=raster.DPI / 72).to_pil()
            assert default.mode == "RGB"
            fast = raster._render(page, raster.DPI / 72, box)
            left, top, width, height = box
            assert fast.size == (width, height)
            assert fast.tobytes() == default.crop((left, top, left + width,
                                                   top + height)).tobytes(), key
            four = raster._render(page, raster.DPI / 72, box, rgbx=True)   # for the PNGs
            assert four.mode == "RGBX" and four.tobytes("raw", "RGB") == fast.tobytes(), key
            cell = drawn.trimmed(key, 400, 560)
            scale = 400 / (raster.CARD_W * raster.PT_PER_MM)
            bleed = round(raster.ART_BLEED * raster.PT_PER_MM * scale)
            whole = page.render(scale=scale).to_pil()
            assert cell.tobytes() == whole.crop((bleed, bleed, bleed + 400,
                                                 bleed + 560)).tobytes(), key
    finally:
        drawn.close()


def test_a_face_page_is_loaded_once_for_its_png_and_its_cell(small_build):
    """PDFium parses a page when it loads it: Raster.page loads each face's page once, and
    the page drawn twice gives the pixels of a page loaded for each drawing."""
    from tether_build.print import raster

    parts = small_build["result"].face_pdfs
    drawn = raster.Raster(parts)
    fresh = raster.Raster(parts)
    try:
        page = drawn.page("zap-1")
        assert drawn.page("zap-1") is page
        box = raster._preset_box(page, "tgc")
        first = raster._render(page, raster.DPI / 72, box, rgbx=True)
        assert drawn.trimmed("zap-1", 400, 560).tobytes() == \
            fresh.trimmed("zap-1", 400, 560).tobytes()
        assert first.tobytes() == raster._render(fresh.page("zap-1"), raster.DPI / 72, box,
                                                 rgbx=True).tobytes()
    finally:
        drawn.close()
        fresh.close()
