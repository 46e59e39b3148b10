"""Card anatomy: part positions measured from the real face's layout, and the figure in the
rulebook with its numbered key and the icon key (read from the PDF in test_printguide.py,
which shares the built book)."""

from __future__ import annotations

import itertools

import pytest

from tether_build.print.geometry import CARD_H, CARD_W
from tether_build.print.rulebook import anatomy
from tether_build.print.rulebook.faces import Faces
from tether_build.print.rulebook.words import Words

CORE = {("cost", "mana"), ("name-box",), ("typeline",), ("init-tab",), ("text-box",),
        ("footer",)}


def test_parts_are_measured_on_the_card(content):
    faces = Faces(content)
    card = anatomy.pick_card(faces.cards)
    assert card["champion"]
    parts = anatomy.measure(faces, card)
    assert CORE <= {p["classes"] for p in parts}
    for p in parts:
        assert -0.5 <= p["x"] and p["x"] + p["w"] <= CARD_W + 0.5, p
        assert -0.5 <= p["y"] and p["y"] + p["h"] <= CARD_H + 0.5, p
    by = {p["classes"]: p for p in parts}
    assert by[("name-box",)]["y"] < by[("text-box",)]["y"] < by[("footer",)]["y"]
    assert by[("init-tab",)]["x"] > CARD_W / 2  # the tab hangs at the right
    badges = anatomy._badges(parts)
    assert [b["n"] for b in badges] == list(range(1, len(parts) + 1))
    for side in ("left", "right"):
        ys = [b["badge_y"] for b in badges if b["side"] == side]
        assert all(b - a >= anatomy.BADGE_GAP_MM - 1e-9 for a, b in itertools.pairwise(ys))
    key = anatomy.figure(faces, Words(content))["key"]
    assert len(key) == len(parts)


def test_the_measure_is_kept_in_the_render_cache(content, tmp_path, monkeypatch):
    """A rulebook rebuild reads the parts' places from the render cache (the face's HTML and
    all that shapes its layout are the key) instead of laying the face out again."""
    from tether_build.print.cache import Cache

    faces = Faces(content, Cache(tmp_path))
    card = anatomy.pick_card(faces.cards)
    fresh = anatomy.measure(faces, card)
    monkeypatch.setattr(anatomy, "_measure", lambda *a: (_ for _ in ()).throw(AssertionError))
    assert anatomy.measure(faces, card) == fresh
    faces.fits[card["id"]] = {"name": 1, "text": 1, "reminders": False}  # another layout
    with pytest.raises(AssertionError):
        anatomy.measure(faces, card)
