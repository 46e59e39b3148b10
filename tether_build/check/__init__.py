"""`tether check`: prove that every card, Champion ability and faction passive resolves.

Entry point: `run_check(content, cards, games=..., seed=...) -> Report`.
"""

from .model import Failure, Report
from .run import DEFAULT_GAMES, run_check

__all__ = ["DEFAULT_GAMES", "Failure", "Report", "run_check"]
