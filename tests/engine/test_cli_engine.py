"""`tether engine-build`, `tether simulate`, `tether odds`: flags, JSON, clean errors."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from tests.engine.conftest import ROOT
from tether_build.cli.engine import register


def _cli():
    @click.group()
    def main():
        """test group"""
    register(main)
    return main


def _run(*args):
    return CliRunner().invoke(_cli(), ["--help"] if not args else list(args),
                              catch_exceptions=False)


@pytest.fixture(scope="module")
def engine(compiled, tmp_path_factory):
    """A build/engine folder written from the compiled fixture (no YAML in the tests)."""
    d = tmp_path_factory.mktemp("engine")
    for name, data in compiled.items():
        (d / name).write_bytes(data)
    return str(d)


def test_engine_build_writes_files(tmp_path):
    r = _run("engine-build", "--content", str(ROOT / "tests" / "fixtures" / "content"), "--out", str(tmp_path))
    assert r.exit_code == 0, r.output
    for name in ("cards.json", "game.json", "factions.json", "tiles.json"):
        assert (tmp_path / "engine" / name).exists()
    r2 = _run("engine-build", "--content", str(ROOT / "tests" / "fixtures" / "content"), "--out", str(tmp_path))
    assert "unchanged" in r2.output
    r3 = _run("simulate", "--engine", str(tmp_path / "engine"), "--games", "2",
              "--players", "2", "--seed", "1", "--json")
    assert r3.exit_code == 0 and json.loads(r3.output)["games"] == 2


def test_simulate_json(engine):
    r = _run("simulate", "--engine", engine, "--games", "4", "--players", "3",
             "--agents", "random,heuristic", "--factions", "leadbound,cipher", "--seed", "5",
             "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["games"] == 4 and set(data["factions"]) == {"leadbound", "cipher"}
    assert sum(data["endings"].values()) == 4
    assert all(0 <= v["ci95"][0] <= v["win_rate"] <= v["ci95"][1] <= 1
               for v in data["factions"].values())
    assert data["most_played"] and data["least_played"]


def test_simulate_text_and_errors(engine):
    r = _run("simulate", "--engine", engine, "--games", "2", "--players", "2",
             "--seed", "1")
    assert r.exit_code == 0 and "win rate" in r.output
    bad = _run("simulate", "--engine", engine, "--games", "1", "--agents", "genius")
    assert bad.exit_code == 1 and "unknown agent" in bad.output and "Traceback" not in bad.output
    bad = _run("simulate", "--engine", engine, "--games", "1", "--option",
               "initiative=third")
    assert bad.exit_code == 2 and "initiative" in bad.output
    bad = _run("simulate", "--engine", "/nonexistent", "--games", "1")
    assert bad.exit_code == 1 and "engine-build" in bad.output


def test_odds_json(engine):
    r = _run("odds", "--engine", engine, "--attacker",
             "forces=3,champion=shadeblade", "--defender", "forces=2",
             "--defender-faction", "leadbound", "--where", "capital", "--trials", "300",
             "--seed", "3", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    total = d["attacker_wins"] + d["defender_wins"] + d["both_destroyed"]
    assert abs(total - 1) < 1e-9 and d["attacker_wins"] > 0.5
    bad = _run("odds", "--engine", engine, "--attacker", "champion=nobody",
               "--defender", "forces=1")
    assert bad.exit_code == 1 and "no Champion card" in bad.output
    assert "Champion ids: " in bad.output and "shadeblade" in bad.output


def test_simulate_logs_and_replay(tmp_path, engine):
    r = _run("simulate", "--engine", engine, "--games", "1", "--players", "2",
             "--seed", "9", "--quiet", "--log-dir", str(tmp_path))
    assert r.exit_code == 0, r.output
    log = tmp_path / "game-9.jsonl"
    ok = _run("replay", "--engine", engine, str(log))
    assert ok.exit_code == 0 and "final state matches" in ok.output
    lines = log.read_text().splitlines()
    end = json.loads(lines[-1])
    end["digest"] = "0" * 64
    lines[-1] = json.dumps(end)
    log.write_text("\n".join(lines) + "\n")
    bad = _run("replay", "--engine", engine, str(log))
    assert bad.exit_code == 1 and "replay failed" in bad.output


@pytest.mark.parametrize("side", ["forces=1000000000", "forces=" + "9" * 5000,
                                  "champion=" + ",champion=".join(["shadeblade"] * 11)])
def test_odds_refuses_unbounded_sides_cleanly(engine, side):
    """Issue 17.13: a billion Cohorts is an error, not an hour of dice."""
    r = _run("odds", "--engine", engine, "--attacker", side, "--defender", "forces=2",
             "--seed", "1")
    assert r.exit_code != 0 and "at most" in r.output


def _tamper_decision(lines, field, value):
    i = next(n for n, line in enumerate(lines) if '"e": "decide"' in line)
    event = json.loads(lines[i])
    event[field] = value
    lines[i] = json.dumps(event)


def _tamper_setup(lines, field, value):
    event = json.loads(lines[0])
    event[field] = value
    lines[0] = json.dumps(event)


def _tamper_end(lines, field, value):
    event = json.loads(lines[-1])
    event[field] = value
    lines[-1] = json.dumps(event)


@pytest.mark.parametrize("tamper, expect", [
    (lambda ls: _tamper_end(ls, "winners", [5]), "end line says winners [5]"),
    (lambda ls: _tamper_end(ls, "round", 99), "end line says round 99"),
    (lambda ls: ls.append(ls[-1]), "only one"),
    (lambda ls: ls.insert(1, "[1, 2]"), "not an event object"),
    (lambda ls: ls.insert(1, "[" * 100_000 + "]" * 100_000), "not a JSON event"),
    (lambda ls: ls.insert(1, "not json"), "not a JSON event"),
    (lambda ls: _tamper_decision(ls, "i", "3"), "index"),
    (lambda ls: _tamper_decision(ls, "i", None), "index"),
    (lambda ls: _tamper_decision(ls, "i", 10**9), "index"),
    (lambda ls: _tamper_setup(ls, "players", 1_000_000_000), "players"),
    (lambda ls: _tamper_setup(ls, "options", {"initiative": ["x"]}), "option"),
    (lambda ls: ls.pop(), "no end event"),
])
def test_replay_of_a_damaged_log_is_a_clean_failure(tmp_path, engine, tamper, expect):
    """Issue 17.9: a damaged log is never a traceback, and never certified as matching."""
    r = _run("simulate", "--engine", engine, "--games", "1", "--players", "2",
             "--seed", "9", "--quiet", "--log-dir", str(tmp_path))
    assert r.exit_code == 0, r.output
    log = tmp_path / "game-9.jsonl"
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["e"] == "setup" and json.loads(lines[-1])["e"] == "end"
    tamper(lines)
    log.write_text("\n".join(lines) + "\n")
    bad = CliRunner().invoke(_cli(), ["replay", "--engine", engine, str(log)])
    assert bad.exit_code == 1, bad.output
    assert "replay failed" in bad.output and expect in bad.output
    assert bad.exception is None or isinstance(bad.exception, SystemExit)


@pytest.mark.parametrize("kind", ["device", "fifo", "huge", "folder-like"])
def test_replay_looks_at_the_file_before_reading_it(tmp_path, engine, kind):
    """Issue 43: /dev/urandom, a FIFO and a 3 GB file are refused at once, in one line."""
    import os
    import time

    if kind == "device":
        log = tmp_path / "urandom.jsonl"
        log.symlink_to("/dev/urandom")
    elif kind == "fifo":
        log = tmp_path / "pipe.jsonl"
        os.mkfifo(log)
    elif kind == "huge":
        log = tmp_path / "huge.jsonl"
        with open(log, "wb") as fh:
            fh.truncate(3 * 10**9)   # sparse: 3 GB that take no disk
    else:
        log = tmp_path / "zero.jsonl"
        log.symlink_to("/dev/zero")
    start = time.monotonic()
    bad = CliRunner().invoke(_cli(), ["replay", "--engine", engine, str(log)])
    assert time.monotonic() - start < 10
    assert bad.exit_code == 1 and "replay failed" in bad.output, bad.output
    assert ("not a regular file" if kind != "huge" else "larger than any game log") in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_simulate_log_dir_that_is_a_file_is_a_one_line_error(tmp_path, engine):
    from tether_build.cli import main

    target = tmp_path / "a-file"
    target.write_text("x")
    r = CliRunner().invoke(main, ["simulate", "--engine", engine, "--games", "1",
                                  "--players", "2", "--seed", "1", "--log-dir", str(target)])
    assert r.exit_code == 1 and r.output.startswith("Error:"), r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception,
                                                                               SystemExit)
