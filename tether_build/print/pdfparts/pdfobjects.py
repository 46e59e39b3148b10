"""The pypdf side of pdfasm: pypdf objects (a page of a file pdfraw does not read, the
rulebook's skeleton) serialized with local references, and a placeholder for an object the
writer supplies later. Apart from pdfasm, so a build that reads only its own files never
imports pypdf (about 0.06 s of the process every stage forks from)."""

from __future__ import annotations

import io
import zlib
from collections import deque
from collections.abc import Callable

from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NullObject,
    PdfObject,
    StreamObject,
)

from .fragment import Fragment


def _write(obj) -> bytes:
    buf = io.BytesIO()
    obj.write_to_stream(buf)
    return buf.getvalue()


class Placeholder(PdfObject):
    """A reference to an object the writer supplies later (a face form, a content stream)."""

    def __init__(self, name: str):
        self.name = name

    def clone(self, pdf_dest, force_duplicate: bool = False, ignore_fields=()):
        return self


class Serializer:
    """Writes pypdf objects as PDF syntax, each reference as its local index (\\0n\\0), and
    collects the objects the references reach, numbered in the order first met."""

    def __init__(self, resolve: Callable | None = None):
        self.index: dict[tuple, int] = {}      # reference (or placeholder name) -> local n
        self.todo: deque = deque()             # (local n, referenced object) to serialize
        self.placeholders: dict[str, int] = {}
        self._resolve = resolve or (lambda ref: ref.get_object())

    def ref(self, ref) -> bytes:
        placeholder = isinstance(ref, Placeholder)
        assert placeholder or isinstance(ref, IndirectObject)
        key = ("placeholder", ref.name) if placeholder else ("ref", ref.idnum, ref.generation)
        if key not in self.index:
            self.index[key] = len(self.index)
            if placeholder:
                self.placeholders[ref.name] = self.index[key]
            else:
                self.todo.append((self.index[key], self._resolve(ref)))
        return b"\x00%d\x00" % self.index[key]

    def value(self, obj) -> bytes:
        """A direct value (dictionaries and arrays recursively)."""
        if isinstance(obj, (IndirectObject, Placeholder)):
            return self.ref(obj)
        if isinstance(obj, DictionaryObject):
            return b"<<" + self.entries(obj) + b">>"
        if isinstance(obj, ArrayObject):
            return b"[" + b" ".join(self.value(v) for v in obj) + b"]"
        if obj is None:
            return _write(NullObject())
        out = _write(obj)
        if b"\x00" in out:  # pypdf escapes strings and names: a raw NUL would be ours alone
            raise ValueError(f"unexpected NUL byte in a PDF value: {out[:40]!r}")
        return out

    def entries(self, obj, skip=("/Length",)) -> bytes:
        """The entries of a dictionary without its << >>."""
        return b"".join(_write(NameObject(k)) + b" " + self.value(v) + b"\n"
                        for k, v in obj.items() if k not in skip)

    def objects(self) -> list[tuple[bytes, bytes | None] | None]:
        """Every collected object by local index: (head, stream data) or None (placeholder).

        A stream's head is its dictionary's entries (no /Length, no << >>)."""
        out: dict[int, tuple[bytes, bytes | None]] = {}
        while self.todo:
            n, obj = self.todo.popleft()
            if isinstance(obj, StreamObject):
                out[n] = (self.entries(obj), obj._data)
            else:
                out[n] = (self.value(obj), None)
        return [out.get(n) for n in range(len(self.index))]


def fragment(page) -> Fragment:
    """A pypdf page as a Fragment: content, resources and everything they reach."""
    ser = Serializer()
    resources = ser.value(page["/Resources"]) if "/Resources" in page else b"<<>>"
    group = ser.value(page["/Group"]) if "/Group" in page else b""
    objects = ser.objects()
    content = zlib.compress(page.get_contents().get_data()) if "/Contents" in page else b""
    return Fragment([float(v) for v in page.mediabox], content, resources, group, objects)


def reader_of(pdf: bytes):
    """A pypdf reader of PDF bytes."""
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(pdf))
