"""Every step kind's expectation: the registry of expect.py with the kinds of expect_board.py
and expect_cards.py registered (each registers itself as it is imported)."""

from __future__ import annotations

from . import expect_board, expect_cards  # noqa: F401  (they register their step kinds)
from .expect import EXPECT

__all__ = ["EXPECT"]
