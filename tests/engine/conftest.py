"""Engine fixtures: the compiled Ruleset of the shipped content, scripted agents."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def compiled():
    """build/engine/*.json of the shipped content, in memory."""
    from tether_build.content.cards import normalized_cards
    from tether_build.content.load import load_content
    from tether_build.effects.compile import compile_engine

    content = load_content(ROOT / "tests" / "fixtures" / "content")
    return compile_engine(normalized_cards(content), content)


@pytest.fixture(scope="session")
def rules(compiled):
    """The engine Ruleset (loaded from the compiled JSON only)."""
    from tether_build.engine.ruleset import Ruleset
    return Ruleset.from_compiled(compiled)


@pytest.fixture(scope="session")
def native_built():
    """The native engine's library, built from its sources if missing or stale (setup.sh
    builds it; here only where it was not run). Skips where no C++ compiler exists."""
    from tether_build.engine import native

    if not native.available():
        if native.compiler() is None:
            pytest.skip("no C++ compiler: the native engine cannot be built here")
        why = native.build()
        assert why is None, why
        native._LIB.clear()
    assert native.available()
    return native.library()


@pytest.fixture(scope="session")
def game_cfg():
    """content/game.yaml as a dict (the board generator's input)."""
    return yaml.safe_load((ROOT / "tests" / "fixtures" / "content" / "game.yaml").read_text())


class Scripted:
    """An agent answering by a function (kind, options, ctx) -> index; random fallback."""

    name = "scripted"

    def __init__(self, fn=None):
        import random
        self.fn = fn
        self.rng = random.Random(1)
        self.asked: list[tuple[str, list]] = []

    def seed(self, value):
        """Ignore the game seed (scripted)."""

    def choose(self, g, p, kind, options, ctx=None):
        """Ask the script; None means 'any' (random)."""
        self.asked.append((kind, list(options)))
        i = self.fn(kind, options, ctx) if self.fn else None
        return self.rng.randrange(len(options)) if i is None else i


@pytest.fixture
def scripted():
    """Factory of Scripted agents."""
    return Scripted
