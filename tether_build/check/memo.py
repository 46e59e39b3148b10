"""What the check's scenario and sweep results depend on, and whether the render cache holds
them (run.py keeps them there): a light module, so a build can ask before it starts its
stages without importing the check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..print.cache import digest, files_digest

DEFAULT_GAMES = 120  # a multiple of 30: every player count meets every faction rotation equally
_PKG = Path(__file__).resolve().parent.parent
# The code that decides what the scenarios and the sweep find: these folders and board.py.
PLAY_CODE = ("check", "engine", "effects")
MEMO_KIND = "check"


def play_form(compiled: dict[str, bytes]) -> dict[str, bytes]:
    """The compiled definitions without each card's text and source position."""
    doc = json.loads(compiled["cards.json"])
    for card in doc["cards"]:
        card.pop("text", None)
        card.pop("source", None)
    out = dict(compiled)
    out["cards.json"] = json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()
    return out


def play_key(play: dict[str, bytes], games: int, seed: int) -> str:
    """What the scenario and sweep results depend on, hashed."""
    return _played(play, sys.version, str(games), str(seed))


def _played(play: dict[str, bytes], *head: str) -> str:
    """`head`, the compiled definitions `play` and the code that plays them, hashed."""
    from ..engine import board  # read through its module: the file may move (scripts/relayout.py)

    return digest(*head, *(part for name in sorted(play) for part in (name, play[name])),
                  files_digest(_PKG, PLAY_CODE), Path(board.__file__).read_bytes())


SCENARIOS_KIND = "check-scenarios"


def scenarios_key(play: dict[str, bytes], seed: int) -> str:
    """What the scenario results depend on besides the game constants they read, hashed:
    the compiled definitions with no constant in them (the ages, decks, cards, factions and
    tiles stay), and the code. The entry under it keeps the constants read (reads.py)."""
    game = json.loads(play["game.json"])
    game.pop("constants", None)
    rest = dict(play, **{"game.json": json.dumps(game, sort_keys=True).encode()})
    return _played(rest, "scenarios/1", sys.version, str(seed))


EXAMPLES_KIND = "check-examples"


def examples_key(play: dict[str, bytes], seed: int, examples: list) -> str:
    """What the card examples' results depend on besides the game constants they read: the
    scenarios' (scenarios_key) and the examples themselves (examples.examples_form)."""
    return digest("examples/1", scenarios_key(play, seed),
                  json.dumps(examples, sort_keys=True, default=str))


def memoized(compiled: dict[str, bytes], memo, games: int = DEFAULT_GAMES, seed: int = 1
             ) -> bool:
    """Whether run_check(memo=) finds the scenario and sweep results of these compiled
    definitions in the cache (then it takes a tenth of a second, not seconds)."""
    return memo.get(MEMO_KIND, play_key(play_form(compiled), games, seed)) is not None
