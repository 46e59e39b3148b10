"""Sealed saves of Play page games with people: the seed and the answers kept from the reader.

The engine is deterministic: a game is its seed and its answers, and anyone holding both can
replay it offline and read every hand and every pile. A game with people therefore gets a
secret seed drawn by the server (`draw_seed`), and a mid-game save of it is *sealed*: the
seed and the answers travel encrypted and the whole save is authenticated, with a key that
never leaves the server's project (`.tether/play.key` beside `content/`, outside the build
outputs, made on first use, readable by its owner only).

Why the seed is encrypted rather than left out: a save that kept the game's state instead of
its seed would have to hold the draw piles' order and the other hands, the very things to
hide; either way something secret must be in the file, so it is encrypted. The answers are
sealed with it: another seat's secret bid or Action Step choice is one of them.

The cipher is the standard library's: HMAC-SHA256 as a pseudo-random function, used as a
counter-mode keystream under one key and as the authentication tag (encrypt-then-MAC) under
another, both derived from the project's key. A save changed in any byte, or sealed by
another project's key, is refused with a message saying which.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

SEED_BITS = 63          # a drawn seed: 0 .. 2**63 - 1 (what the engine's logs replay)
KEY_BYTES = 32


class SealError(Exception):
    """A sealed save that cannot be opened: changed, or sealed by another project's key."""


def draw_seed() -> int:
    """A secret seed for a game with people (2**63 seeds: not guessed from a hand)."""
    return secrets.randbits(SEED_BITS)


def default_key_file(content_dir: Path) -> Path:
    """The project's local state: `.tether/play.key` beside the content folder."""
    return Path(content_dir).resolve().parent / ".tether" / "play.key"


def load_key(path: Path) -> bytes:
    """The project's sealing key, made (owner-only) the first time it is asked for."""
    path = Path(path)
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = secrets.token_bytes(KEY_BYTES)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:   # another server made it meanwhile: use theirs
            key = path.read_bytes()
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(fresh)
            key = fresh
    if len(key) != KEY_BYTES:
        raise SealError(f"{path}: not a sealing key ({len(key)} bytes, not {KEY_BYTES}); "
                        "delete it to make a new one (saves sealed with it will not load)")
    return key


def _sub(key: bytes, purpose: bytes) -> bytes:
    return hmac.new(key, b"tether-play-seal/" + purpose, hashlib.sha256).digest()


def key_id(key: bytes) -> str:
    """A public name of a key (its saves say which key sealed them)."""
    return _sub(key, b"id").hex()[:12]


def _stream(key: bytes, nonce: bytes, n: int) -> bytes:
    k = _sub(key, b"enc")
    out = bytearray()
    block = 0
    while len(out) < n:
        out += hmac.new(k, nonce + block.to_bytes(8, "big"), hashlib.sha256).digest()
        block += 1
    return bytes(out[:n])


def _canonical(save: dict) -> bytes:
    body = {k: v for k, v in save.items() if k != "tag"}
    return json.dumps(body, sort_keys=True, ensure_ascii=True, separators=(",", ":")).encode()


def seal(key: bytes, public: dict, secret: dict) -> dict:
    """A save: `public` as it is, `secret` encrypted, the whole authenticated."""
    nonce = secrets.token_bytes(16)
    plain = json.dumps(secret, sort_keys=True).encode()
    box = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
    save = {**public, "sealed": {"key": key_id(key),
                                 "nonce": base64.b64encode(nonce).decode(),
                                 "box": base64.b64encode(box).decode()}}
    save["tag"] = hmac.new(_sub(key, b"mac"), _canonical(save), hashlib.sha256).hexdigest()
    return save


def unseal(key: bytes, save: dict) -> dict:
    """The secret part of a sealed save; SealError if it was changed or sealed elsewhere."""
    sealed = save.get("sealed")
    if not isinstance(sealed, dict) or not isinstance(save.get("tag"), str):
        raise SealError("the save's seal is missing: it was cut or edited")
    if sealed.get("key") != key_id(key):
        raise SealError(f"this game was sealed by another project's server (key "
                        f"{sealed.get('key')!r}, this one is {key_id(key)!r}): a game with "
                        "people loads only where it was saved")
    want = hmac.new(_sub(key, b"mac"), _canonical(save), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(want, save["tag"]):
        raise SealError("the saved game was changed after it was saved (its seal does not "
                        "match): it is not loaded")
    try:
        nonce = base64.b64decode(sealed["nonce"], validate=True)
        box = base64.b64decode(sealed["box"], validate=True)
        plain = bytes(a ^ b for a, b in zip(box, _stream(key, nonce, len(box)), strict=True))
        secret = json.loads(plain)
    except (KeyError, ValueError, TypeError) as exc:  # (authenticated, so only a bug)
        raise SealError(f"the save's sealed part does not open: {exc}") from None
    if not isinstance(secret, dict):
        raise SealError("the save's sealed part is not a game's seed and answers")
    return secret
