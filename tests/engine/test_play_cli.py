"""`tether play`: a person plays a seeded game at the terminal through stdin."""

from __future__ import annotations

import click
from click.testing import CliRunner

from tests.engine.conftest import ROOT
from tether_build.cli.play import register

FIXTURE = str(ROOT / "tests" / "fixtures" / "content")


def _run(args, text):
    @click.group()
    def main():
        """test group"""
    register(main)
    return CliRunner().invoke(main, ["play", "--content", FIXTURE, *args], input=text,
                              catch_exceptions=False)


def test_a_whole_game_played_from_stdin_shows_board_hand_and_options():
    r = _run(["--seed", "2", "--agents", "random"], "1\n" * 3000)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "Your Hand:" in out and "Units:" in out and "Action Step: choose your action" in out
    assert "1. Done (no more actions this Round)" in out
    assert "Game over in Round" in out and "Winner(s): Seat" in out
    # the glossary's words, never the engine's internals
    for raw in ("stack 26", "None", "start_bridge", "power_pick", "occupied_hex"):
        assert raw not in out
    assert "Seat 2 draws a card." in out  # another seat's draw is not named


def test_card_text_on_request_and_the_board_as_text():
    r = _run(["--seed", "2"], "?\nb\nq\n")
    out = r.output
    assert "Engine:" in out and "Supply Cache (Order; 1 Mana): Gain +2 Gold." in out
    assert out.count("Units:") == 2 and "Seat 1's Capital" in out


def test_bad_answers_are_asked_again_and_q_quits():
    r = _run(["--seed", "2"], "zzz\n999\nq\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("Please type a number from 1 to") == 2
    assert "Game ended by you." in r.output


def test_same_seed_and_answers_give_the_same_game():
    a = _run(["--seed", "5", "--agents", "heuristic"], "2\n1\n" * 1500)
    b = _run(["--seed", "5", "--agents", "heuristic"], "2\n1\n" * 1500)
    assert a.output == b.output and "Game over" in a.output


def test_unknown_agent_and_bad_seat_are_clean_errors():
    r = _run(["--agents", "nobody"], "")
    assert r.exit_code == 1 and "unknown agent 'nobody'" in r.output
    r = _run(["--seat", "3", "--players", "2"], "")
    assert r.exit_code == 1 and "--seat must be below" in r.output
