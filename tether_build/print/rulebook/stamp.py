"""Card faces into the book PDF: each face page, laid out once by the card helper, becomes a
Form XObject clipped to the trim and is drawn into the slot the book left for it.

Why: a face costs as much layout as a page of rules. The fitting pass (render.fit) already
lays out every face on its own page, so the book reserves an empty box of the right size
(`data-card-slot`), and this module places the vector face there: the text stays text, and
each face is laid out once per build instead of once per paper.

The book is parsed once per layout into a `Skeleton` (cached with the layout, see
book._layouts) and faces come as cached `render.pdfasm.Fragment`s, so stamping after a card
edit only concatenates bytes: no layout, no PDF parsing.
"""

from __future__ import annotations

import io
import json
import zlib
from dataclasses import dataclass

from ...errors import TetherError
from ..geometry import ART_BLEED, PT_PER_MM
from ..layout.patches import page_root

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


def boxes(box):
    box = getattr(box, "_box", box)  # absolutely positioned boxes sit behind placeholders
    yield box
    for child in getattr(box, "children", ()):
        yield from boxes(child)


def slots(document) -> list[Slot]:
    """Every reserved face box of a laid-out WeasyPrint document."""
    out = []
    for index, page in enumerate(document.pages):
        for box in boxes(page_root(page)):
            element = getattr(box, "element", None)
            if element is not None and element.get("data-card-slot") and \
                    hasattr(box, "border_box_x"):
                out.append(Slot(index, element.get("data-card-slot"), box.border_box_x(),
                                box.border_box_y(), box.border_width(), box.border_height()))
    return out


@dataclass
class Skeleton:
    """The laid-out book, serialized, with its slots wired to placeholders: each page that
    holds faces draws its own content in a saved graphics state ("before" ... "Q"), then
    its faces ("after:<page>"); its resources name each face /RbFace_<card> ("face:<card>").
    Depends on the book's HTML only, so it is cached with the layout and a card edit only
    re-runs `stamp` (which concatenates; nothing is parsed again)."""

    header: bytes
    objects: list            # pdfasm objects, placeholders as None
    placeholders: dict[str, int]
    trailer: bytes           # trailer entries (/Root, /Info, /ID), local references
    heights: dict[int, float]  # page index -> height in pt, for the pages that hold faces

    def to_bytes(self) -> bytes:
        """The skeleton as one blob (for the render cache)."""
        blobs = [self.header, self.trailer]
        for obj in self.objects:
            blobs += [b"", b""] if obj is None else [obj[0], obj[1] or b""]
        meta = {"sizes": [len(b) for b in blobs], "placeholders": self.placeholders,
                "kinds": [0 if o is None else 1 if o[1] is None else 2 for o in self.objects],
                "heights": {str(k): v for k, v in self.heights.items()}}
        return json.dumps(meta, sort_keys=True).encode() + b"\n" + b"".join(blobs)

    @classmethod
    def from_bytes(cls, data: bytes) -> Skeleton:
        from ..pdfparts.fragment import split

        head, _, rest = data.partition(b"\n")
        meta = json.loads(head)
        blobs = split(rest, meta["sizes"])
        objects = [None if kind == 0 else (blobs[2 + 2 * i], None if kind == 1
                                           else blobs[3 + 2 * i])
                   for i, kind in enumerate(meta["kinds"])]
        return cls(blobs[0], objects, meta["placeholders"], blobs[1],
                   {int(k): v for k, v in meta["heights"].items()})


def _copy(value):
    """A shallow copy of a pypdf dictionary, references kept as references."""
    from pypdf.generic import DictionaryObject

    return DictionaryObject({k: value.raw_get(k) for k in value})


def _own(holder, key: str, overrides: dict):
    """holder[key] as a dictionary this build may change: a copy that replaces the shared
    object (overrides, by object number) or, when direct, the holder's own entry."""
    from pypdf.generic import DictionaryObject, IndirectObject, NameObject

    raw = holder.raw_get(key) if key in holder else None
    if isinstance(raw, IndirectObject):
        if raw.idnum not in overrides:
            overrides[raw.idnum] = _copy(raw.get_object())
        return overrides[raw.idnum]
    value = _copy(raw) if raw is not None else DictionaryObject()
    holder[NameObject(key)] = value
    return value


def skeleton(book_pdf: bytes, placed: list[Slot], paper=None) -> Skeleton:
    """The book PDF with every page that holds faces wired to placeholders (see Skeleton).
    paper: (trim box -> box), the box (pt) of the sheet each page is printed on, around the
    page WeasyPrint laid out (its trim box) and within its bleed (runon.paper_box): set as
    every page's media, crop, bleed and trim box. None: the pages as laid out."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, FloatObject, IndirectObject, NameObject

    from ..pdfparts.pdfobjects import Placeholder, Serializer

    reader = PdfReader(io.BytesIO(book_pdf))
    overrides: dict[int, object] = {}
    heights = {}
    by_page: dict[int, list[Slot]] = {}
    for slot in placed:
        by_page.setdefault(slot.page, []).append(slot)
    for index, slots_here in sorted(by_page.items()):
        page = reader.pages[index]
        new = _copy(page)
        xobjects = _own(_own(new, "/Resources", overrides), "/XObject", overrides)
        for slot in slots_here:  # card ids are [a-z0-9_]: a valid PDF name
            xobjects[NameObject(f"/RbFace_{slot.card}")] = Placeholder(f"face:{slot.card}")
        old = new.raw_get("/Contents")
        old = list(old.get_object()) if isinstance(old.get_object(), ArrayObject) else [old]
        new[NameObject("/Contents")] = ArrayObject(
            [Placeholder("before"), *old, Placeholder(f"after:{index}")])
        overrides[page.indirect_reference.idnum] = new
        heights[index] = float(page.trimbox.top)   # CSS px are drawn from the trim's top
    if paper is not None:
        for page in reader.pages:
            num = page.indirect_reference.idnum
            new = overrides.setdefault(num, _copy(page))
            sheet = ArrayObject(FloatObject(round(v, 4)) for v in paper(
                tuple(float(v) for v in page.trimbox)))
            for key in ("/MediaBox", "/CropBox", "/BleedBox", "/TrimBox"):
                new[NameObject(key)] = sheet

    def resolve(ref: IndirectObject):
        return overrides[ref.idnum] if ref.idnum in overrides else ref.get_object()

    ser = Serializer(resolve)
    trailer = b"".join(b"%s %s\n" % (key.encode(), ser.value(reader.trailer.raw_get(key)))
                       for key in ("/Root", "/Info", "/ID") if key in reader.trailer)
    header = book_pdf.split(b"\n", 1)[0].strip()
    return Skeleton(header, ser.objects(), ser.placeholders, trailer, heights)


def _draw(slots_here: list[Slot], height: float, forms: dict[str, tuple]) -> bytes:
    """`q s 0 0 s tx ty cm /Face Do Q` for each slot of one page."""
    ops = []
    for slot in slots_here:
        trim_w, x0, y0 = forms[slot.card]
        s = slot.w * PT_PER_PX / trim_w
        tx = slot.x * PT_PER_PX - x0 * s
        ty = height - (slot.y + slot.h) * PT_PER_PX - y0 * s
        ops.append(f"q {s:.6f} 0 0 {s:.6f} {tx:.4f} {ty:.4f} cm /RbFace_{slot.card} Do Q")
    return ("\nQ\n" + "\n".join(ops) + "\n").encode()


def stamp(skel: Skeleton, placed: list[Slot], faces: dict) -> bytes:
    """The book with every slot filled by its face (faces: card id -> pdfasm.Fragment)."""
    from ..pdfparts.pdfasm import Writer, stream

    missing = sorted({s.card for s in placed} - set(faces))
    if missing:
        raise TetherError(f"the rulebook shows card(s) {', '.join(missing)} with no face")
    writer = Writer(skel.header)
    numbers = {name: writer.reserve() for name, _ in
               sorted(skel.placeholders.items(), key=lambda item: item[1])}
    renumber = writer.add_objects(skel.objects, {skel.placeholders[name]: num
                                                 for name, num in numbers.items()})
    bleed = ART_BLEED * PT_PER_MM
    forms = {}
    for name, num in numbers.items():
        kind, _, what = name.partition(":")
        if kind == "face":
            box = faces[what].mediabox
            trim = [box[0] + bleed, box[1] + bleed, box[2] - bleed, box[3] - bleed]
            writer.add_form(faces[what], trim, group=False, num=num)
            forms[what] = (trim[2] - trim[0], trim[0], trim[1])
    by_page: dict[int, list[Slot]] = {}
    for slot in placed:
        by_page.setdefault(slot.page, []).append(slot)
    if "before" in numbers:  # the page's own content runs in a saved graphics state
        writer.put(numbers["before"], stream(b"", b"q\n"))
    for index, slots_here in by_page.items():
        writer.put(numbers[f"after:{index}"], stream(
            b"/Filter /FlateDecode\n", zlib.compress(_draw(slots_here, skel.heights[index],
                                                           forms))))
    return writer.write(renumber(skel.trailer))
