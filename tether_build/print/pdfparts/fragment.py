"""A laid-out page ready to draw as a Form XObject (pdfasm), and its form in the cache."""

from __future__ import annotations

import json
from dataclasses import dataclass


def split(data: bytes, sizes: list[int]) -> list[bytes]:
    """Blobs of the given sizes, back to back; ValueError if they do not add up."""
    if sum(sizes) != len(data):
        raise ValueError("a cached PDF part is damaged (sizes do not add up)")
    blobs, at = [], 0
    for size in sizes:
        blobs.append(data[at:at + size])
        at += size
    return blobs


@dataclass
class Fragment:
    """A page ready to draw as a Form XObject: its objects serialized with local references."""

    mediabox: list[float]
    content: bytes          # the page's content stream, flate-compressed
    resources: bytes        # the /Resources value (references as \0n\0)
    group: bytes            # the /Group value, or b"" when the page has none
    objects: list[tuple[bytes, bytes | None]]
    lower: float = 0.0      # pt the page is drawn lower than its own origin (stack), its
    #                         mediabox then the part of it that is drawn, before the move

    def to_bytes(self) -> bytes:
        """The fragment as one blob (for the render cache)."""
        blobs = [self.content, self.resources, self.group]
        for head, data in self.objects:
            blobs += [head, data if data is not None else b""]
        meta = {"mediabox": self.mediabox, "sizes": [len(b) for b in blobs],
                "streams": [data is not None for _, data in self.objects]}
        if self.lower:
            meta["lower"] = self.lower
        return json.dumps(meta).encode() + b"\n" + b"".join(blobs)

    @classmethod
    def from_bytes(cls, data: bytes) -> Fragment:
        head, _, rest = data.partition(b"\n")
        meta = json.loads(head)
        blobs = split(rest, meta["sizes"])
        objects = [(blobs[3 + 2 * i], blobs[4 + 2 * i] if stream else None)
                   for i, stream in enumerate(meta["streams"])]
        return cls(meta["mediabox"], blobs[0], blobs[1], blobs[2], objects,
                   float(meta.get("lower", 0.0)))
