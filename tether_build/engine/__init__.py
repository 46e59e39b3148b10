"""The rules engine of The Last Tether (design document §1-21), driven only by the compiled
definitions of build/engine/*.json.

Entry points: `Ruleset.from_files` / `Ruleset.from_compiled`, `play_game`, `replay`,
`RandomAgent`, `HeuristicAgent`, `Options`.
"""

from .agents import HeuristicAgent, RandomAgent
from .options import Options
from .play import play_game, replay
from .ruleset import Ruleset

__all__ = ["HeuristicAgent", "Options", "RandomAgent", "Ruleset", "play_game", "replay"]
