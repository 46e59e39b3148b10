"""What a build stage reads of the content, when it reads less than all of it (Stage.view).

A stage keyed on its view stays up to date when an edit falls outside it; `ContentView`
hands the stage only that view, so it cannot read more than its key covers.
"""

from __future__ import annotations

from .stagecall import Only

# What the board stage reads of game.yaml (the map's layout, its title, the version stamp)
# besides the glossary, icons and tiles: a constant outside these leaves the board up to date.
BOARD_GAME_FIELDS = ("players", "board", "title", "version")


def board_view(ctx) -> dict:
    """All the board stage reads of the content (Stage.view)."""
    content = ctx.content
    return {"game": {k: content.game[k] for k in BOARD_GAME_FIELDS if k in content.game},
            "terms": content.terms, "icons": content.icons, "tiles": content.tiles}


class ContentView:
    """The content cut down to a stage's view: reading anything else is an error, so the
    stage can never depend on content its key leaves out."""

    def __init__(self, view: dict):
        self._view = view
        self.game = Only(view["game"])

    def __getattr__(self, name: str):
        if name.startswith("_") or name not in self._view:
            raise AttributeError(f"{name!r}: not in this stage's view of the content (add it)")
        return self._view[name]
