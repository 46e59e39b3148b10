"""Card faces into the book PDF: each face page, laid out once by the card helper, becomes a
Form XObject clipped to the trim and is drawn into the slot the book left for it.

Why: a face costs as much layout as a page of rules. The fitting pass (render.fit) already
lays out every face on its own page, so the book reserves an empty box of the right size
(`data-card-slot`), and this module places the vector face there: the text stays text, and
each face is laid out once per build instead of once per paper.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from ..errors import TetherError
from ..render.geometry import ART_BLEED, PT_PER_MM

PT_PER_PX = 0.75  # CSS px (1/96 in) -> PDF pt (1/72 in)


@dataclass(frozen=True)
class Slot:
    """Where a face goes: page index and border box in CSS px (top-left origin)."""

    page: int
    card: str
    x: float
    y: float
    w: float
    h: float


def _boxes(box):
    box = getattr(box, "_box", box)  # absolutely positioned boxes sit behind placeholders
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def slots(document) -> list[Slot]:
    """Every reserved face box of a laid-out WeasyPrint document."""
    out = []
    for index, page in enumerate(document.pages):
        for box in _boxes(page._page_box):
            element = getattr(box, "element", None)
            if element is not None and element.get("data-card-slot") and \
                    hasattr(box, "border_box_x"):
                out.append(Slot(index, element.get("data-card-slot"), box.border_box_x(),
                                box.border_box_y(), box.border_width(), box.border_height()))
    return out


def _form(writer, page) -> tuple:
    """A face page as a Form XObject clipped to the trim: (reference, trim width, x0, y0)."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    bleed = ART_BLEED * PT_PER_MM
    box = page.mediabox
    left, bottom = float(box.left) + bleed, float(box.bottom) + bleed
    right, top = float(box.right) - bleed, float(box.top) - bleed
    xo = DecodedStreamObject()
    xo.set_data(page.get_contents().get_data())
    xo.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (left, bottom, right, top)]),
        NameObject("/Resources"): page["/Resources"].clone(writer),  # shared objects once
    })
    return writer._add_object(xo.flate_encode()), right - left, left, bottom


def _draw(writer, page, placements: list[tuple[Slot, tuple]]) -> None:
    """Append `q s 0 0 s tx ty cm /Face Do Q` for each slot, after the page's own content."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    height = float(page.mediabox.height)
    resources = page.setdefault(NameObject("/Resources"), DictionaryObject()).get_object()
    xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject()).get_object()
    ops = []
    for slot, (ref, trim_w, x0, y0) in placements:
        name = NameObject(f"/RbFace_{slot.card}")  # card ids are [a-z0-9_]: a valid PDF name
        xobjects[name] = ref
        s = slot.w * PT_PER_PX / trim_w
        tx = slot.x * PT_PER_PX - x0 * s
        ty = height - (slot.y + slot.h) * PT_PER_PX - y0 * s
        ops.append(f"q {s:.6f} 0 0 {s:.6f} {tx:.4f} {ty:.4f} cm {name} Do Q")
    before, after = DecodedStreamObject(), DecodedStreamObject()
    before.set_data(b"q\n")  # the page's own content runs in a saved graphics state
    after.set_data(("\nQ\n" + "\n".join(ops) + "\n").encode())
    contents = page["/Contents"].get_object()
    old = list(contents) if isinstance(contents, ArrayObject) else [page["/Contents"]]
    page[NameObject("/Contents")] = ArrayObject(
        [writer._add_object(before)] + old + [writer._add_object(after.flate_encode())])


def stamp(book_pdf: bytes, placed: list[Slot], faces: dict[str, tuple[bytes, int]]) -> bytes:
    """The book with every slot filled by its face (faces: card id -> (pdf, page index))."""
    try:
        from pypdf import PdfReader, PdfWriter
    except ImportError:
        raise TetherError("the rulebook needs pypdf to place the card faces "
                          "(pip install 'pypdf>=4,<7')") from None

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(book_pdf)))
    readers: dict[int, PdfReader] = {}
    forms: dict[str, tuple] = {}
    by_page: dict[int, list[tuple[Slot, tuple]]] = {}
    for slot in placed:
        if slot.card not in forms:
            data, index = faces[slot.card]
            reader = readers.setdefault(id(data), PdfReader(io.BytesIO(data)))
            forms[slot.card] = _form(writer, reader.pages[index])
        by_page.setdefault(slot.page, []).append((slot, forms[slot.card]))
    for index, placements in sorted(by_page.items()):
        _draw(writer, writer.pages[index], placements)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
