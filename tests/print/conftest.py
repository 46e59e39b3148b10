"""Print-test fixtures: one full-set build (with a renamed glossary term) and one small build
with PNGs and Tabletop Simulator decks. Both are built once per test run, shared by the
pytest-xdist workers (read-only: no test writes into them)."""

from __future__ import annotations

import pytest
from cardtest_helpers import RENAMED, ROOT, SMALL, copy_content, rename_term
from run_once import once_per_run


@pytest.fixture(scope="session")
def full_build(tmp_path_factory):
    """Every card, both papers, backs, no PNG/TTS; the glossary term `force` renamed."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    def make(base):
        content_dir = copy_content(base)
        rename_term(content_dir, "force", **RENAMED)
        out = base / "build"
        result = build_print(content_dir, out, PrintOptions(png=None, tts=False))
        return {"out": out, "result": result, "content": content_dir}
    return once_per_run(tmp_path_factory, "full", make)


@pytest.fixture(scope="session")
def small_build(tmp_path_factory, shipped_content):
    """The SMALL subset of the shipped content: sheets, PNGs and TTS."""
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    def make(base):
        out = base / "build"
        result = build_print(ROOT / "tests" / "fixtures" / "content", out,
                             PrintOptions(cards=SMALL, tts_url="https://x.test/tts"),
                             content=shipped_content)
        return {"out": out, "result": result}
    return once_per_run(tmp_path_factory, "small", make)


@pytest.fixture(scope="session")
def shipped_content():
    """The shipped content, validated once."""
    from tether_build.content.validate import validate

    return validate(ROOT / "tests" / "fixtures" / "content")


@pytest.fixture(scope="session")
def shipped_cards(shipped_content):
    """Normalized cards of the shipped content, by id."""
    from tether_build.content.cards import normalized_cards

    return {c["id"]: c for c in normalized_cards(shipped_content)}


@pytest.fixture(scope="session")
def printed_cards(shipped_content, shipped_cards):
    """shipped_cards with the copies a print holds: a Starter card once per Starter set
    (game.yaml players.max sets by default)."""
    sets = shipped_content.game["players"]["max"]
    kinds = {d: v["kind"] for d, v in shipped_content.ages["decks"].items()}
    return {cid: dict(c, copies=c["copies"] * (sets if kinds[c["deck"]] == "starter" else 1))
            for cid, c in shipped_cards.items()}
