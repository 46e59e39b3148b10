"""What each copy of a token shows: read by the token sheets, the fit check, the shrink and
the Tabletop Simulator table alike (a module of its own, so none of them imports another to
get it)."""

from __future__ import annotations

from . import common


def copy_face(token, i: int, content) -> dict:
    """What copy `i` (0-based) of a token (tokens.Token) shows: Champions are numbered, the
    first Permanence marker is the Enduring one."""
    face = dict(token.face)
    if token.group.startswith("champion"):
        face["value"] = str(i + 1)
    if token.group.startswith("vp_marker"):
        face["caption"] = common.term(content, "permanent_vp" if i == 0 else "vp")
    return face
