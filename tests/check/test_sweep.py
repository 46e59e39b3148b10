"""The sweep: per-card counts over seeded games, errors named by card, dead cards."""

from __future__ import annotations

import pytest

from tether_build.check.sweep import FIELDS, sweep
from tether_build.content.cards import normalized_cards
from tether_build.effects.compile import compile_engine
from tether_build.engine.game import Game


@pytest.fixture(scope="module")
def built(content):
    """(compiled engine files, normalized cards) of the shipped content."""
    cards = normalized_cards(content)
    return compile_engine(cards, content), cards


def test_counts_every_card(built):
    compiled, cards = built
    summary, failures, dead = sweep(compiled, 10, 3, cards)
    assert failures == []
    assert summary["games"] == 10 and summary["played"] > 0
    assert set(summary["cards"]) == {c["id"] for c in cards}
    for counts in summary["cards"].values():
        assert set(counts) == set(FIELDS)
        assert counts["resolved"] + counts["fizzled"] <= counts["played"]
        assert counts["played"] == 0 or counts["playable"] > 0
    offered = sum(c["offered"] for c in summary["cards"].values())
    bought = sum(c["bought"] for c in summary["cards"].values())
    assert offered > bought > 0
    assert dead == sorted(c for c, v in summary["cards"].items() if not v["playable"])


def test_the_sweep_is_seeded(built):
    compiled, cards = built
    assert sweep(compiled, 4, 11, cards)[0] == sweep(compiled, 4, 11, cards)[0]


def test_an_engine_error_names_the_card(built, monkeypatch):
    compiled, cards = built
    monkeypatch.setenv("TETHER_ENGINE", "python")   # the Python engine's heal is broken

    def broken(self, ch, n):
        raise RuntimeError("heal is broken")
    monkeypatch.setattr(Game, "heal", broken)
    summary, failures, _ = sweep(compiled, 12, 1, cards)
    heals = {c["id"] for c in cards if "'heal'" in repr(c["effect"])}
    named = [f for f in failures if f.subject in heals]
    assert named, [str(f) for f in failures]
    f = named[0]
    assert f.kind == "sweep" and f.file.endswith(".yaml") and f.line > 0
    assert "RuntimeError: heal is broken" in f.why and "sweep game seed" in f.step
    assert summary["errors"] == len(failures)
    # each failure is counted against the card it names (a faction passive names no card)
    on_cards = [f for f in failures if f.subject in summary["cards"]]
    assert sum(v["errored"] for v in summary["cards"].values()) == len(on_cards)
    assert all(f.subject.startswith("faction ") for f in failures if f not in on_cards)


def test_the_sweep_over_two_processes_finds_what_one_finds(built, monkeypatch):
    """Games are shared out by number over forked workers; the counts and the failures (in
    game order) are those of one process, errors included."""
    from tether_build.check import sweep as module

    compiled, cards = built
    monkeypatch.setenv("TETHER_ENGINE", "python")   # the Python engine's heal is broken

    def broken(self, ch, n):
        raise RuntimeError("heal is broken")
    monkeypatch.setattr(Game, "heal", broken)
    found = {}
    for workers in (1, 2):
        monkeypatch.setattr(module, "WORKERS", workers)
        ran: list[int] = []
        summary, failures, dead = sweep(compiled, 20, 5, cards, lambda ran=ran: ran.append(1))
        found[workers] = (summary, [str(f) + f.step + f.why for f in failures], dead)
        assert ran == [1]   # the work given to do meanwhile, once
    assert found[1][1], "the broken heal should fail some games"
    assert found[1] == found[2]


def test_beside_a_build_the_native_sweep_is_played_without_forking(built, monkeypatch):
    """Natively played games are not worth a fork beside a build's other stages (they give
    way: forking.giving_way): the default sweep is played in the checking process; alone,
    over two workers; the counts are the same."""
    from tether_build.check import sweep as module
    from tether_build.engine import native
    from tether_build.forking import giving_way

    if not native.available():
        pytest.skip("the native engine is not built (scripts/setup.sh builds it)")
    compiled, cards = built
    monkeypatch.setattr(module, "WORKERS", 2)
    pools: list[int] = []
    real = module.fork_pool

    def counted(workers, *args, **kwargs):
        pools.append(workers)
        return real(workers, *args, **kwargs)
    monkeypatch.setattr(module, "fork_pool", counted)
    alone = sweep(compiled, 120, 7, cards)
    assert pools == [2]
    with giving_way():
        beside = sweep(compiled, 120, 7, cards)
    assert pools == [2], "beside other work, the native sweep forked workers"
    assert beside == alone


def test_the_invariant_games_seat_every_player_count():
    """Every INVARIANT_EVERY-th game checks the rules invariants after each step, and they
    seat every player count (a 3-player game can break what a 2-player one cannot)."""
    from tether_build.check.sweep import _invariant_game, _players

    checked = [k for k in range(120) if _invariant_game(k)]
    assert len(checked) == 12
    assert {_players(k) for k in checked} == {2, 3, 4, 5, 6}


@pytest.mark.parametrize("python_agrees", [True, False])
def test_an_invariant_the_native_engine_breaks_is_reported(built, monkeypatch,
                                                           python_agrees):
    """A game the native engine declines for a broken invariant is played again in Python,
    checking the invariants: the Python engine's finding is reported; when the Python
    engine keeps them (the engines disagree), the native engine's is, against the engine."""
    from tether_build.check import sweep as module
    from tether_build.engine import invariants, native

    compiled, cards = built
    if not native.available():
        pytest.skip("the native engine is not built (scripts/setup.sh builds it)")
    real = native.play_agents

    def breaks_game_one(rules, players, games, options, log=False, book=False,
                        declined=None):
        got = real(rules, players, games, options, log, book, declined)
        for i, game in enumerate(games):
            if game[0] == 3 + 1:   # seed 3, game 1
                got[i] = None
                if declined is not None:
                    declined[i] = "InvariantError: round 2 after card: seat 0 gold -1"
        return got
    monkeypatch.setattr(native, "play_agents", breaks_game_one)
    monkeypatch.setattr(module, "WORKERS", 1)
    if not python_agrees:   # (a real break: the Python checks find one too)
        monkeypatch.setattr(invariants, "problems_of", lambda g, where: iter(()))
    else:
        monkeypatch.setattr(invariants, "problems_of",
                            lambda g, where: iter(["seat 0 gold -1"] if g.s.round == 2 else []))
    summary, failures, _ = sweep(compiled, 4, 3, cards)
    assert len(failures) == 1 and failures[0].kind == "sweep"
    assert "sweep game seed 4" in failures[0].step
    if python_agrees:
        assert "InvariantError: round 2 after" in failures[0].why
        assert "the native engine" not in failures[0].why
    else:
        assert failures[0].subject == "engine"
        assert "the native engine: InvariantError: round 2 after card" in failures[0].why
    assert summary["errors"] == 1
