"""Assemble PDFs from laid-out pages without parsing them again: the card sheets and the
rulebook draw each face page as a Form XObject, and this module writes those files directly.

Why: pypdf parses, clones and re-serializes every face on every build, seconds for 190 faces.
Here a face page becomes a `Fragment` once (its content stream and every object its resources
reach, serialized, references kept as local indices) and is cached by the face PDF's hash;
an output is then the concatenation of fragments, references renumbered, small objects packed
into compressed object streams, with a cross-reference stream. Same parts in, same bytes
out, whichever build made the parts. The files this project writes are read without pypdf
(pdfraw.py); pypdf, and the code that works on its objects (pdfobjects.py), is imported only
for a file pdfraw does not read and for the rulebook's skeleton (print/rulebook/stamp.py).
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable

from .fragment import Fragment

OBJECTS_PER_STREAM = 200
REF = re.compile(rb"\x00(\d+)\x00")   # a reference to local object n, inside a serialized part


def stack(parts: list[Fragment], mediabox: list[float]) -> Fragment:
    """One page drawing each part's page in turn at the same origin (each a Form XObject with
    its own resources), or as much lower as its `lower` says: pages laid out separately that
    share one printed page."""
    if len(parts) == 1 and parts[0].mediabox == mediabox and not parts[0].lower:
        return parts[0]
    objects: list = []
    forms, ops = [], []
    for i, part in enumerate(parts):
        base = len(objects)

        def shift(data: bytes, base: int = base) -> bytes:
            return REF.sub(lambda m: b"\x00%d\x00" % (int(m[1]) + base), data)

        objects += [(shift(head), data) for head, data in part.objects]
        head = (b"/Type /XObject\n/Subtype /Form\n/BBox ["
                + b" ".join(num_bytes(v) for v in part.mediabox) + b"]\n/Resources "
                + shift(part.resources) + b"\n")
        if part.group:
            head += b"/Group " + shift(part.group) + b"\n"
        if part.lower:
            head += b"/Matrix [1 0 0 1 0 " + num_bytes(-part.lower) + b"]\n"
        forms.append(len(objects))
        objects.append((head + b"/Filter /FlateDecode\n", part.content))
        ops.append(b"q /P%d Do Q" % i)
    resources = (b"<</XObject <<" + b" ".join(b"/P%d \x00%d\x00" % (i, n)
                                                for i, n in enumerate(forms)) + b">>>>")
    return Fragment(list(mediabox), zlib.compress(b"\n".join(ops) + b"\n"), resources, b"",
                    objects)


def num_bytes(v: float) -> bytes:
    return (f"{v:.6f}".rstrip("0").rstrip(".") or "0").encode()


def stream(head: bytes, data: bytes) -> bytes:
    """A stream object's body from its dictionary entries and (encoded) data."""
    return b"<<" + head + b"/Length %d>>\nstream\n" % len(data) + data + b"\nendstream"


class Writer:
    """Objects numbered 1, 2, ... in the order added; writes the file with a classic xref."""

    def __init__(self, header: bytes = b"%PDF-1.7", share: bool = False, used: bool = False,
                 once: bool = False):
        self.header = header
        self.bodies: list[bytes | None] = []
        # once: an object that names no other and is the same bytes as one written before
        # (a face's icon forms, print/cards/icons.py: the same in every face PDF) is
        # written once, and every fragment refers to that one (add_objects)
        self.once: dict[tuple, int] | None = {} if once else None
        # share: forms whose fragments share one list of objects (the pages of one laid-out
        # document: document_fragments) write those objects once, their fonts among them;
        # used: only those the forms drawn refer to (add_used), not the whole list
        self.shared: dict[int, tuple[list, Callable]] | None = {} if share else None
        self.used = used

    def reserve(self) -> int:
        self.bodies.append(None)
        return len(self.bodies)

    def put(self, num: int, body: bytes) -> None:
        self.bodies[num - 1] = body

    def add(self, body: bytes) -> int:
        self.bodies.append(body)
        return len(self.bodies)

    def add_objects(self, objects: list, known: dict[int, int] | None = None) -> Callable:
        """Add serialized objects (local references); returns the renumbering function.

        known: local index -> object number for placeholders the caller has numbered."""
        known = known or {}
        numbers, written = {}, set()
        for n, obj in enumerate(objects):
            if obj is None:
                numbers[n] = known[n]
            elif self.once is not None and REF.search(obj[0]) is None:
                key = (obj[0], obj[1])
                found = self.once.get(key)
                if found is None:
                    found = self.once[key] = self.reserve()
                    written.add(n)
                numbers[n] = found
            else:
                numbers[n] = self.reserve()
                written.add(n)

        def renumber(part: bytes) -> bytes:
            return REF.sub(lambda m: b"%d 0 R" % numbers[int(m[1])], part)

        for n, obj in enumerate(objects):
            if n in written:
                head, data = obj
                self.put(numbers[n], renumber(head) if data is None
                         else stream(renumber(head), data))
        return renumber

    def add_used(self, objects: list) -> Callable:
        """As add_objects (no placeholders), but an object is numbered and written only when
        a part renumbered refers to it (and what it refers to, in turn): the objects of a
        document's pages that the forms drawn never name are left out of the file (the
        overviews draw a few of one document's many pieces each)."""
        numbers: dict[int, int] = {}

        def number(m) -> bytes:
            n = int(m[1])
            if n not in numbers:
                numbers[n] = self.reserve()
                head, data = objects[n]
                self.put(numbers[n], renumber(head) if data is None
                         else stream(renumber(head), data))
            return b"%d 0 R" % numbers[n]

        def renumber(part: bytes) -> bytes:
            return REF.sub(number, part)
        return renumber

    def add_form(self, frag: Fragment, bbox: list[float], group: bool = True,
                 num: int | None = None) -> int:
        """A fragment as a Form XObject clipped to bbox (at object `num` if reserved);
        returns its object number."""
        if self.shared is None:
            renumber = self.add_objects(frag.objects)
        elif id(frag.objects) in self.shared:
            renumber = self.shared[id(frag.objects)][1]
        else:
            renumber = (self.add_used if self.used else self.add_objects)(frag.objects)
            self.shared[id(frag.objects)] = (frag.objects, renumber)   # (the list kept alive)
        head = (b"/Type /XObject\n/Subtype /Form\n/BBox [" + b" ".join(num_bytes(v) for v in bbox)
                + b"]\n/Resources " + renumber(frag.resources) + b"\n")
        if group and frag.group:
            head += b"/Group " + renumber(frag.group) + b"\n"
        if frag.lower:
            head += b"/Matrix [1 0 0 1 0 " + num_bytes(-frag.lower) + b"]\n"
        body = stream(head + b"/Filter /FlateDecode\n", frag.content)
        if num is None:
            return self.add(body)
        self.put(num, body)
        return num

    def write(self, trailer: bytes) -> bytes:
        """The file; trailer: the trailer's entries other than /Size.

        Streams are written as they are; every other object goes into compressed object
        streams (PDF 1.5), and a cross-reference stream closes the file: the many small
        dictionaries of per-face fonts shrink twenty-fold."""
        plain = [n for n, body in enumerate(self.bodies, start=1)
                 if body is None or not body.endswith(b"endstream")]
        if any(self.bodies[n - 1] is None for n in plain):
            missing = [n for n in plain if self.bodies[n - 1] is None]
            raise ValueError(f"PDF objects {missing[:5]} reserved but never written")
        where: dict[int, tuple[int, int]] = {}       # object -> (object stream, index)
        packs = [plain[i:i + OBJECTS_PER_STREAM]
                 for i in range(0, len(plain), OBJECTS_PER_STREAM)]
        first_pack = len(self.bodies) + 1
        out = io.BytesIO()
        out.write(self.header + b"\n%\xe2\xe3\xcf\xd3\n")
        offsets: dict[int, int] = {}
        for num, body in enumerate(self.bodies, start=1):
            if body.endswith(b"endstream"):
                offsets[num] = out.tell()
                out.write(b"%d 0 obj\n" % num + body + b"\nendobj\n")
        for p, pack in enumerate(packs):
            index, data = [], []
            at = 0
            for i, num in enumerate(pack):
                where[num] = (first_pack + p, i)
                index.append(b"%d %d" % (num, at))
                data.append(self.bodies[num - 1])
                at += len(self.bodies[num - 1]) + 1
            head = b" ".join(index) + b"\n"
            offsets[first_pack + p] = out.tell()
            body = stream(b"/Type /ObjStm\n/N %d\n/First %d\n/Filter /FlateDecode\n"
                          % (len(pack), len(head)),
                          zlib.compress(head + b"\n".join(data) + b"\n"))
            out.write(b"%d 0 obj\n" % (first_pack + p) + body + b"\nendobj\n")
        xref_num = first_pack + len(packs)
        offsets[xref_num] = out.tell()
        rows = [b"\x00" + (0).to_bytes(4, "big") + (65535).to_bytes(2, "big")]
        for num in range(1, xref_num + 1):
            if num in where:
                pack, i = where[num]
                rows.append(b"\x02" + pack.to_bytes(4, "big") + i.to_bytes(2, "big"))
            else:
                rows.append(b"\x01" + offsets[num].to_bytes(4, "big") + b"\x00\x00")
        body = stream(b"/Type /XRef\n/Size %d\n/W [1 4 2]\n" % (xref_num + 1) + trailer
                      + b"/Filter /FlateDecode\n", zlib.compress(b"".join(rows)))
        out.write(b"%d 0 obj\n" % xref_num + body + b"\nendobj\n")
        out.write(b"startxref\n%d\n%%%%EOF\n" % offsets[xref_num])
        return out.getvalue()


# PDFDocEncoding (PDF 1.7, Annex D): Latin-1 but for these bytes (pypdf's table: the bytes a
# text string was written with when pypdf wrote it; 0 marks a byte that encodes nothing)
_PDFDOC_OWN = {24: "˘ˇˆ˙˝˛˚˜", 128: "•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž", 160: "€"}
_PDFDOC_NONE = (0, 22, 127, 159, 173)


def _pdfdoc() -> dict[str, int]:
    table = [chr(i) for i in range(256)]
    for start, chars in _PDFDOC_OWN.items():
        table[start:start + len(chars)] = chars
    return {c: i for i, c in enumerate(table) if i not in _PDFDOC_NONE}


_PDFDOC_REV = _pdfdoc()
_PLAIN = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ")


def text(value: str) -> bytes:
    """A PDF text string (for /Title and the like): PDFDocEncoding when every character has a
    byte there, else UTF-16BE after its byte order mark; every byte but a letter, a digit or a
    space written as an octal escape. The bytes pypdf's TextStringObject writes (a test
    compares them), without importing pypdf."""
    try:
        data = bytes(_PDFDOC_REV[c] for c in value)
    except KeyError:
        data = b"\xfe\xff" + value.encode("utf-16be")
    return b"(" + b"".join(bytes((c,)) if c in _PLAIN else b"\\%03o" % c for c in data) + b")"


def fragments(parts: list[tuple[bytes, list[str]]], cache=None,
              known: dict[str, bytes] | None = None) -> dict[str, Fragment]:
    """A Fragment per page key of the faces PDFs; cached by the PDF's hash and the page.
    `known`: fragments already made (as bytes) by the layout workers, by page key."""
    import hashlib

    from ..cache import Cache, code_digest, digest, versions
    from .pdfraw import Unsupported
    from .pdfraw import fragments as read_raw

    cache = cache if cache is not None else Cache(None)
    salt = digest("fragment/2", code_digest("print/pdfparts/pdfasm.py", "print/pdfparts/fragment.py",
                                            "print/pdfparts/pdfraw.py", "print/pdfparts/pdfobjects.py"),
                  versions("pypdf"))
    out = {}
    for pdf, keys in parts:
        sha, reader, raw = hashlib.sha256(pdf).hexdigest(), None, None
        for index, key in enumerate(keys):
            ckey = digest(salt, sha, index)
            entry = (known or {}).get(key)
            if entry is not None:
                out[key] = Fragment.from_bytes(entry)
                cache.put("forms", ckey, entry)
                continue
            entry = cache.get("forms", ckey)
            if entry is not None:
                try:
                    out[key] = Fragment.from_bytes(entry)
                    continue
                except (ValueError, KeyError, IndexError):
                    pass
            if raw is None:   # this build's own files are read as bytes (pdfraw.py)
                try:
                    raw = read_raw(pdf)
                except Unsupported:
                    raw = []
            if index < len(raw):
                out[key] = raw[index]
            else:   # (a file pdfraw does not read: pypdf does)
                from .pdfobjects import fragment, reader_of

                reader = reader or reader_of(pdf)
                out[key] = fragment(reader.pages[index])
            cache.put("forms", ckey, out[key].to_bytes())
    return out


def document_fragments(pdf: bytes, cache=None) -> list:
    """Every page of one PDF as a Fragment, all sharing one list of objects (a document's
    fonts once: drawn by a Writer(share=True), written once); cached by the PDF's hash."""
    import hashlib
    import json

    from ..cache import Cache, code_digest, digest, versions
    from .fragment import split
    from .pdfraw import Unsupported, shared_fragments

    cache = cache if cache is not None else Cache(None)
    key = digest("document-fragments/1", code_digest(
        "print/pdfparts/pdfasm.py", "print/pdfparts/fragment.py", "print/pdfparts/pdfraw.py",
        "print/pdfparts/pdfobjects.py"), versions("pypdf"), hashlib.sha256(pdf).hexdigest())
    entry = cache.get("forms", key)
    if entry is not None:
        try:
            head, _, rest = entry.partition(b"\n")
            parts = [Fragment.from_bytes(b) for b in split(rest, json.loads(head))]
            return [Fragment(p.mediabox, p.content, p.resources, p.group, parts[0].objects)
                    for p in parts[1:]]
        except (ValueError, KeyError, IndexError):
            pass
    try:
        pages = shared_fragments(pdf)
    except Unsupported:   # (a file pdfraw does not read: pypdf does, each page on its own)
        from .pdfobjects import fragment, reader_of

        return [fragment(page) for page in reader_of(pdf).pages]
    blobs = [Fragment([], b"", b"", b"", pages[0].objects if pages else []).to_bytes()]
    blobs += [Fragment(p.mediabox, p.content, p.resources, p.group, []).to_bytes()
              for p in pages]
    cache.put("forms", key, json.dumps([len(b) for b in blobs]).encode() + b"\n"
              + b"".join(blobs))
    return pages
