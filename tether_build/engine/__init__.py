"""The rules engine of The Last Tether (design document §1-21), driven only by the compiled
definitions of build/engine/*.json.

Entry points: `Ruleset.from_files` / `Ruleset.from_compiled`, `play_game`, `replay`,
`RandomAgent`, `HeuristicAgent`, `Options`. They load on first use: a stage that reads only
the rules options (the card faces print the initiative rule) does not import the engine
(about 0.05-0.08 s of each build worker that did).
"""

__all__ = ["HeuristicAgent", "Options", "RandomAgent", "Ruleset", "play_game", "replay"]

_WHERE = {"HeuristicAgent": "agents", "RandomAgent": "agents", "Options": "options",
          "play_game": "play", "replay": "play", "Ruleset": "ruleset"}


def __getattr__(name: str):
    if name in _WHERE:
        from importlib import import_module

        return getattr(import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
