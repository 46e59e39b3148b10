"""The faces' split between layout workers (print/cards/fit.py _split)."""

from __future__ import annotations

from tether_build.print.cards.fit import _split


def _faces(chunk: list[dict]) -> int:
    return sum(c["copies"] for c in chunk)


def test_each_copy_counts_in_full_and_the_backs_weigh_on_the_first_chunk():
    # a Starter-like deck of many copies first, then single cards: every copy is laid
    # out in full, so the first chunk must not take the whole Starter deck and half the rest
    cards = [{"id": f"s{i}", "copies": 12} for i in range(5)] + \
        [{"id": f"m{i}", "copies": 1} for i in range(120)]
    first, second = _split(cards, 2, backs=14)
    assert [c["id"] for c in first + second] == [c["id"] for c in cards]   # order kept
    assert abs((_faces(first) + 14) - _faces(second)) <= 12
    no_backs = _split(cards, 2)
    assert _faces(no_backs[0]) > _faces(first)   # the backs' share moved to the other chunk


def test_one_worker_or_no_card():
    cards = [{"id": "a", "copies": 3}]
    assert _split(cards, 1, backs=2) == [cards]
    assert _split([], 2, backs=2) == [[]]
