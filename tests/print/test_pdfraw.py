"""Face pages are read back as bytes (print/pdfparts/pdfraw.py), not by pypdf: the same pages, drawn
the same, and any file that reader does not know is read by pypdf instead."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader, PdfWriter

from tether_build.print.cards.sheets import build_sheets
from tether_build.print.geometry import sheet_for
from tether_build.print.pdfparts import pdfasm, pdfobjects, pdfraw


def _by_pypdf(pdf: bytes) -> list[pdfasm.Fragment]:
    return [pdfobjects.fragment(page) for page in PdfReader(io.BytesIO(pdf)).pages]


def _pixels(pdf: bytes) -> list[bytes]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].render(scale=1.5).to_pil().tobytes() for i in range(len(doc))]
    finally:
        doc.close()


def test_the_builds_face_pdfs_are_read_as_bytes_into_the_same_pages(small_build):
    parts = small_build["result"].face_pdfs
    assert parts
    raw, plain = {}, {}
    for pdf, keys in parts:
        fast = pdfraw.fragments(pdf)   # raises Unsupported if this build's file is not known
        slow = _by_pypdf(pdf)
        assert len(fast) == len(slow) == len(keys)
        for key, a, b in zip(keys, fast, slow):
            assert a.mediabox == b.mediabox and a.content == b.content
            assert [data for _, data in a.objects] == [data for _, data in b.objects]
            raw[key], plain[key] = a, b
    keys = [k for k in raw if not k.startswith("back:")]
    decks = {k: next(b for b in raw if b.startswith("back:")).split(":", 1)[1] for k in keys}
    sheets = [build_sheets(sheet_for("a4"), frags, keys, decks) for frags in (raw, plain)]
    assert _pixels(sheets[0]) == _pixels(sheets[1])


def test_a_file_it_does_not_know_is_read_by_pypdf(small_build):
    pdf, keys = small_build["result"].face_pdfs[0]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))   # a classic xref table
    buf = io.BytesIO()
    writer.write(buf)
    other = buf.getvalue()
    with pytest.raises(pdfraw.Unsupported):
        pdfraw.fragments(other)
    read = pdfasm.fragments([(other, keys)])
    assert [read[k].content for k in keys] == [f.content for f in _by_pypdf(other)]
    with pytest.raises(pdfraw.Unsupported):
        pdfraw.fragments(b"not a pdf")


def test_text_strings_are_written_as_pypdf_writes_them():
    """A PDF's title is written without pypdf (pdfasm.text), with the bytes pypdf wrote:
    PDFDocEncoding where it holds every character, UTF-16 with its byte order mark else,
    escaped alike."""
    from pypdf.generic import TextStringObject

    def by_pypdf(value: str) -> bytes:
        return pdfobjects._write(TextStringObject(value))

    samples = ["The Last Tether – Cards (A4)", "", "a(b)c\\d)", "€ ﬁ ł Ÿ", "\x00x", "\x16",
               "Axis Mundi · 日本", "😀 emoji", "tab\tnew\nline"]
    samples += [chr(i) for i in range(0xD800)]   # every character up to the surrogates
    for value in samples:
        assert pdfasm.text(value) == by_pypdf(value), repr(value)
