"""`tether check`: prove that every card, Champion ability and faction passive resolves.

Entry point: `run_check(content, cards, games=..., seed=...) -> Report`. The names load on
first use, so importing a light part of the package (memo.py) does not import the check.
"""

__all__ = ["DEFAULT_GAMES", "Failure", "Report", "run_check"]


def __getattr__(name: str):
    if name in ("Failure", "Report"):
        from . import model
        return getattr(model, name)
    if name in ("DEFAULT_GAMES", "run_check"):
        from . import run
        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
