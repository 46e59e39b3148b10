"""The faces' split between layout workers (print/cards/fit.py _split)."""

from __future__ import annotations

from tether_build.print.cards.copies import COPY_WORK
from tether_build.print.cards.fit import _split


def _work(chunk: list[dict]) -> float:
    """A chunk's layout work in faces: a card's face once, a further copy a small share."""
    return sum(1 + (c["copies"] - 1) * COPY_WORK for c in chunk)


def test_a_copy_counts_a_share_of_a_face_and_the_backs_weigh_on_the_first_chunk():
    # a Starter-like deck of many copies first, then single cards: a card's face is laid
    # out once and its further copies are numbers over it (print/cards/copies.py), so the
    # first chunk takes the Starter deck and about half of the rest
    cards = [{"id": f"s{i}", "copies": 12} for i in range(5)] + \
        [{"id": f"m{i}", "copies": 1} for i in range(120)]
    first, second = _split(cards, 2, backs=14)
    assert [c["id"] for c in first + second] == [c["id"] for c in cards]   # order kept
    assert abs((_work(first) + 14) - _work(second)) <= 2
    assert len(second) > 50   # not weighed as 60 whole faces
    no_backs = _split(cards, 2)
    assert _work(no_backs[0]) > _work(first)   # the backs' share moved to the other chunk


def test_one_worker_or_no_card():
    cards = [{"id": "a", "copies": 3}]
    assert _split(cards, 1, backs=2) == [cards]
    assert _split([], 2, backs=2) == [[]]
