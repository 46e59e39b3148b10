"""Read the pages of PDFs this build wrote into pdfasm.Fragments without a general PDF parser.

Why: the faces, the rules chapters and the reference pages are read back once each to be drawn
on sheets and into the book. pypdf reads every number of every font's width table as a Python
object and writes it back: about 10 ms a face, 2 s a full set. The files here come from
WeasyPrint (pydyf) or from pdfasm.Writer: a cross-reference stream, plain objects and object
streams, no encryption. Their objects are copied as bytes: only the references are found (by
pattern) and renumbered, and only the page dictionary is taken apart.

Anything else (a classic cross-reference table, a literal string or a NUL byte in an object
copied, an inherited page attribute, several content streams, a filter other than
FlateDecode...) raises Unsupported, and the caller reads that file with pypdf instead: the
same drawing, written differently.
"""

from __future__ import annotations

import re
import zlib

from .fragment import Fragment

REF = re.compile(rb"(\d+)\s+(\d+)\s+R(?![A-Za-z0-9])")
LENGTH = re.compile(rb"/Length\s+(\d+)(?![\d.]|\s+\d+\s+R)")
NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)")
_DELIMS = b"()<>[]{}/%"
_SPACE = b" \t\r\n\f\x00"


class Unsupported(ValueError):
    """This reader does not handle the file: read it with pypdf."""


def _skip_space(data: bytes, at: int) -> int:
    while at < len(data) and data[at] in _SPACE:
        at += 1
    return at


def _value_end(data: bytes, at: int) -> int:
    """The index just past the PDF value starting at `at` (after any white space)."""
    at = _skip_space(data, at)
    if data.startswith(b"<<", at):
        at += 2
        while True:
            at = _skip_space(data, at)
            if data.startswith(b">>", at):
                return at + 2
            at = _value_end(data, _value_end(data, at))   # the key, then its value
    head = data[at:at + 1]
    if head == b"[":
        at += 1
        while True:
            at = _skip_space(data, at)
            if data.startswith(b"]", at):
                return at + 1
            at = _value_end(data, at)
    if head == b"(":   # a literal string: balanced parentheses, backslash escapes
        depth, at = 1, at + 1
        while depth:
            char = data[at]
            at += 2 if char == 0x5C else 1
            depth += (char == 0x28) - (char == 0x29)
        return at
    if not head:
        raise Unsupported("a value cut short")
    if head == b"<":
        end = data.index(b">", at)
        return end + 1
    if head == b"/":
        at += 1
        while at < len(data) and data[at] not in _SPACE and data[at] not in _DELIMS:
            at += 1
        return at
    ref = REF.match(data, at)
    if ref:
        return ref.end()
    number = NUMBER.match(data, at)
    if number:
        return number.end()
    for word in (b"true", b"false", b"null"):
        if data.startswith(word, at):
            return at + len(word)
    raise Unsupported(f"unexpected PDF syntax {data[at:at + 12]!r}")


def entries(body: bytes) -> dict[bytes, bytes]:
    """A dictionary's entries: name (with its slash) -> the value's bytes."""
    at = _skip_space(body, 0)
    if not body.startswith(b"<<", at):
        raise Unsupported("not a dictionary")
    at += 2
    out = {}
    while True:
        at = _skip_space(body, at)
        if body.startswith(b">>", at):
            return out
        key_end = _value_end(body, at)
        key = body[at:key_end]
        if not key.startswith(b"/"):
            raise Unsupported("a dictionary key that is not a name")
        value_start = _skip_space(body, key_end)
        at = _value_end(body, value_start)
        out[key] = body[value_start:at]


def _ref(value: bytes) -> int:
    match = REF.fullmatch(value.strip())
    if not match:
        raise Unsupported(f"not a reference: {value[:20]!r}")
    return int(match[1])


class _Objects(dict):
    """number -> (body, stream data or None); a plain object is read from its offset when
    first asked for (objects no page needs are never parsed)."""

    def __init__(self, raw: RawPdf):
        super().__init__()
        self.raw, self.offsets = raw, {}

    def __missing__(self, num: int):
        self[num] = self.raw._at(self.offsets[num])
        return self[num]


class RawPdf:
    """The objects of one PDF: number -> (dictionary or value bytes, stream data or None)."""

    def __init__(self, pdf: bytes):
        self.pdf = pdf
        self.objects = _Objects(self)
        start = pdf.rfind(b"startxref")
        if start < 0:
            raise Unsupported("no startxref")
        offset = int(pdf[start + 9:].split()[0])
        xref, data = self._at(offset)
        info = entries(xref)
        if info.get(b"/Type") != b"/XRef" or data is None:
            raise Unsupported("a classic cross-reference table")
        self.root = _ref(info[b"/Root"])
        widths = [int(v) for v in NUMBER.findall(info[b"/W"])]
        size = int(info[b"/Size"])
        index = [int(v) for v in NUMBER.findall(info.get(b"/Index", b"[0 %d]" % size))]
        rows = self._decoded(info, data)
        step, at = sum(widths), 0
        packed: dict[int, list[int]] = {}
        for first, count in zip(index[::2], index[1::2]):
            for num in range(first, first + count):
                fields, pos = [], at
                for n, w in enumerate(widths):   # a field of width 0 has its default
                    fields.append(int.from_bytes(rows[pos:pos + w], "big") if w else
                                  int(n == 0))
                    pos += w
                at += step
                kind, second, _ = fields if len(fields) == 3 else (*fields, 0)
                if kind == 1:
                    self.objects.offsets[num] = second
                elif kind == 2:
                    packed.setdefault(second, []).append(num)
        for stream_num in packed:
            self._unpack(stream_num)

    @staticmethod
    def _decoded(info: dict, data: bytes) -> bytes:
        flt = info.get(b"/Filter", b"").strip()
        if b"/DecodeParms" in info or flt not in (b"", b"/FlateDecode"):
            raise Unsupported(f"filter {flt!r}")
        return zlib.decompress(data) if flt else data

    def _at(self, offset: int) -> tuple[bytes, bytes | None]:
        """The object written at `offset`: (body, stream data or None)."""
        head = re.compile(rb"\s*\d+\s+\d+\s+obj\b").match(self.pdf, offset)
        if not head:
            raise Unsupported("a cross-reference offset that is not an object")
        start = _skip_space(self.pdf, head.end())
        end = _value_end(self.pdf, start)
        body = self.pdf[start:end]
        after = _skip_space(self.pdf, end)
        if not self.pdf.startswith(b"stream", after):
            return body, None
        at = after + 6
        at += 2 if self.pdf.startswith(b"\r\n", at) else 1
        length = entries(body).get(b"/Length", b"")
        if not NUMBER.fullmatch(length.strip()):
            raise Unsupported("a stream length that is not a number")
        return body, self.pdf[at:at + int(length)]

    def _unpack(self, num: int) -> None:
        body, data = self.objects[num]
        info = entries(body)
        raw = self._decoded(info, data or b"")
        first, count = int(info[b"/First"]), int(info[b"/N"])
        numbers = [int(v) for v in raw[:first].split()]
        offsets = numbers[1::2] + [len(raw) - first]
        for i in range(count):
            value = raw[first + offsets[i]:first + offsets[i + 1]].strip()
            self.objects[numbers[2 * i]] = (value, None)

    def pages(self) -> list[dict[bytes, bytes]]:
        """Every page dictionary's entries, in order (a flat page tree)."""
        tree = entries(self.objects[self.root][0])
        kids = entries(self.objects[_ref(tree[b"/Pages"])][0])[b"/Kids"]
        out = []
        for match in REF.finditer(kids):
            page = entries(self.objects[int(match[1])][0])
            if page.get(b"/Type") != b"/Page":
                raise Unsupported("a nested page tree")
            out.append(page)
        return out

    def fragment(self, page: dict[bytes, bytes]) -> Fragment:
        """One page as a Fragment (see pdfasm.fragment): resources, group and every object
        they reach, references as local indices, streams as written."""
        return self.fragments_of([page])[0]

    def fragments_of(self, pages: list[dict[bytes, bytes]], prune: bool = False
                     ) -> list[Fragment]:
        """The pages as Fragments that share one list of objects (every object any of them
        reaches, once: the fonts of a document's pages), references as indices into it.
        prune: each page's resources only those its content names (WeasyPrint gives every
        page of a document the resources of all its pages)."""
        index: dict[int, int] = {}
        order: list[int] = []

        def swap(match: re.Match) -> bytes:
            num = int(match[1])
            if num not in index:
                index[num] = len(order)
                order.append(num)
            return b"\x00%d\x00" % index[num]

        def local(value: bytes) -> bytes:
            """The value with each reference as its local index (\\0n\\0), strings kept."""
            if b"\x00" in value:
                raise Unsupported("a NUL byte")
            out, at = [], 0
            while (start := value.find(b"(", at)) >= 0:
                end = _value_end(value, start)
                out += [REF.sub(swap, value[at:start]), value[start:end]]
                at = end
            out.append(REF.sub(swap, value[at:]))
            return b"".join(out)

        def direct(value: bytes) -> bytes:
            """A referenced dictionary's own body (as pypdf reads a page entry)."""
            if REF.fullmatch(value.strip()):
                body, data = self.objects[_ref(value)]
                if data is not None:
                    raise Unsupported("a stream where a dictionary belongs")
                return body
            return value

        objects: list = []
        out = []
        for page in pages:
            if b"/MediaBox" not in page or b"/Resources" not in page:
                raise Unsupported("an inherited page attribute")
            contents = page.get(b"/Contents", b"").strip()
            content = b""
            if contents:
                body, data = self.objects[_ref(contents)]
                if data is None:
                    raise Unsupported("content that is not one stream")
                info = entries(body)
                content = self._decoded(info, data)
            resources = direct(page[b"/Resources"])
            if prune:
                resources = self._pruned(resources, set(NAME.findall(content)))
            resources = local(resources)
            group = local(direct(page[b"/Group"])) if b"/Group" in page else b""
            content = zlib.compress(content) if contents else b""
            mediabox = [float(v) for v in NUMBER.findall(page[b"/MediaBox"])]
            out.append(Fragment(mediabox, content, resources, group, objects))
        done = 0
        while done < len(order):
            body, data = self.objects[order[done]]
            done += 1
            if data is None:
                objects.append((local(body), None))
            else:
                inner = body.strip()[2:-2]
                objects.append((local(LENGTH.sub(b"", inner, count=1)), data))
        return out


    def _pruned(self, resources: bytes, names: set[bytes]) -> bytes:
        """A resources dictionary with, in each of its named-resource dictionaries (fonts,
        XObjects, graphics states...), only the entries whose name is in `names`. (Each
        dictionary is read once a file: WeasyPrint gives every page the same ones, holding
        the whole document's resources, so reading them a page was the square of the
        pages.)"""
        out = []
        for key, value in self._entries(resources).items():
            if key in (b"/ProcSet",):
                out.append(key + b" " + value)
                continue
            inner = value
            if REF.fullmatch(value.strip()):
                inner, data = self.objects[_ref(value)]
                if data is not None:
                    raise Unsupported("a stream where a resource dictionary belongs")
            kept = [name + b" " + item for name, item in self._entries(inner).items()
                    if name in names]
            if kept:
                out.append(key + b" <<" + b" ".join(kept) + b">>")
        return b"<<" + b"\n".join(out) + b">>"


    def _entries(self, body: bytes) -> dict[bytes, bytes]:
        """entries(body), read once a file (_pruned: the same dictionaries every page)."""
        memo = self.__dict__.setdefault("_read", {})
        if body not in memo:
            memo[body] = entries(body)
        return memo[body]


NAME = re.compile(rb"/[^\s/\[\]()<>{}%]+")   # a name token in a content stream


def fragments(pdf: bytes) -> list[Fragment]:
    """Every page of the PDF as a Fragment; Unsupported when this reader cannot."""
    try:
        raw = RawPdf(pdf)
        return [raw.fragment(page) for page in raw.pages()]
    except Unsupported:
        raise
    except (KeyError, IndexError, ValueError, zlib.error) as exc:   # a file not as expected
        raise Unsupported(f"{type(exc).__name__}: {exc}") from None


def shared_fragments(pdf: bytes) -> list[Fragment]:
    """Every page of the PDF as a Fragment, all sharing one list of objects, each page's
    resources only those it uses (fragments_of); Unsupported when this reader cannot."""
    try:
        raw = RawPdf(pdf)
        return raw.fragments_of(raw.pages(), prune=True)
    except Unsupported:
        raise
    except (KeyError, IndexError, ValueError, zlib.error) as exc:   # a file not as expected
        raise Unsupported(f"{type(exc).__name__}: {exc}") from None
