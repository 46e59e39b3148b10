"""One digest for every key the tool makes (cache entries, stage keys, content marks)."""

from __future__ import annotations

import hashlib
import json


def digest(*parts) -> str:
    """SHA-256 of the parts (str, bytes, or anything JSON can write), each length-prefixed."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, str):
            part = part.encode()
        elif not isinstance(part, bytes):
            part = json.dumps(part, sort_keys=True, ensure_ascii=False, default=str).encode()
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()
