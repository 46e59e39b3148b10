"""The check fails when the engine does not do what a card declares.

Each test breaks one rule of the engine in memory (pytest's monkeypatch undoes it) and
expects `run_check` to name a card that depends on that rule: the proof can fail."""

from __future__ import annotations

import pytest

from tether_build.check import run_check
from tether_build.content.cards import normalized_cards
from tether_build.engine.core import REGISTRY
from tether_build.engine.game import Game
from tether_build.engine.mods import Active, Hooks


@pytest.fixture(scope="module")
def cards(content):
    """The shipped cards, normalized."""
    return normalized_cards(content)


def _failing(content, cards) -> dict[str, list[str]]:
    report = run_check(content, cards, games=0)
    out: dict[str, list[str]] = {}
    for f in report.failures:
        out.setdefault(f.subject, []).append(f"{f.step}: {f.why}")
    return out


def test_shipped_engine_passes(content, cards):
    assert _failing(content, cards) == {}


def _deploy_one_short(mp):
    real = Game.deploy
    mp.setattr(Game, "deploy", lambda self, p, h, n: real(self, p, h, n - 1))


def _heal_nothing(mp):
    mp.setattr(Game, "heal", lambda self, ch, n: 0)


def _draw_one_fewer(mp):
    real = Game.draw
    mp.setattr(Game, "draw", lambda self, p, n: real(self, p, max(0, n - 1)))


def _moves_stop_after_one_hex(mp):
    real = Game.do_move

    def short(self, p, opt, dist, ignore, stop):
        return real(self, p, (*opt[:4], opt[4][:1]), dist, ignore, stop)
    mp.setattr(Game, "do_move", short)


def _hit_on_ignored(mp):
    real = Game.unit_stats

    def stats(self, b, p, champ):
        saved = self.hooks.mods.pop("hit_on", None)
        try:
            return real(self, b, p, champ)
        finally:
            if saved is not None:
                self.hooks.mods["hit_on"] = saved
    mp.setattr(Game, "unit_stats", stats)


def _nothing_expires(mp):
    mp.setattr(Hooks, "remove_where", lambda self, pred: None)


def _battle_won_never_fires(mp):
    real = Game.fire
    mp.setattr(Game, "fire", lambda self, ev, info, only=None: None if ev == "battle_won"
               else real(self, ev, info, only))


def _limits_ignored(mp):
    mp.setattr(Active, "limit_ok", lambda self, g, battle=None: True)


def _if_ignores_its_condition(mp):
    real = REGISTRY["if"]
    mp.setitem(REGISTRY, "if", lambda d, comp: real({**d, "condition": {}}, comp))


@pytest.mark.parametrize(("breakage", "subject", "words"), [
    (_deploy_one_short, "paid_volunteers", "Forces 3 -> 6, expected 7"),
    (_heal_nothing, "field_medic", "expected 9 (heal 1)"),
    (_draw_one_fewer, "quick_study", "expected 2 (draw 2)"),
    (_moves_stop_after_one_hex, "quick_march", "Forces after the move"),
    (_hit_on_ignored, "inspiring_geezer.Rally", "never changed the rule it modifies"),
    (_nothing_expires, "frenzy", "still active after Cleanup"),
    (_battle_won_never_fires, "capturer.Capture", "never ran"),
    (_if_ignores_its_condition, "refinering", "condition was False, but ran ['then']"),
    (_limits_ignored, "field_surgeon.Stitchwork", "fired again in the same round"),
])
def test_a_broken_rule_fails_the_cards_that_use_it(content, cards, monkeypatch, breakage,
                                                   subject, words):
    breakage(monkeypatch)
    failing = _failing(content, cards)
    assert subject in failing, sorted(failing)
    assert any(words in line for line in failing[subject]), failing[subject]
