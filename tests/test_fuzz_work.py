"""The content fuzzer, grown by issue 43's classes of bounded work and hostile inputs: seeded
random nests of repeats, choices and rolls in a card's effect; damaged replay logs; random
--cluster addresses. Each ends as a located error (or a one-line error) or a valid result,
never a traceback, and never runs past HANG_SECONDS. (Builds running into each other and
builds killed at random points: tests/test_buildlock.py, tests/test_build_kill.py.)"""

from __future__ import annotations

import json
import random
import shutil
import signal

import pytest
from tether_cli import Hang, alarm, run_no_traceback

from tests.conftest import CONTENT

SEED = 43
HANG_SECONDS = 60
PLAIN = "    effect:\n      - {step: gain_gold, amount: 2}\n    examples:"
TIMES = [1, 2, 3, 10, 50, 100, "all", {"of": "last_count"}, {"of": "cards_in_hand", "max": 3},
         {"of": "champions_in_play", "times": 5}]


def _nest(rng: random.Random, depth: int) -> list[dict]:
    steps = [{"step": "gain_gold", "amount": 2}]
    for _ in range(depth):
        kind = rng.choice(["repeat", "repeat", "repeat", "choose_one", "roll"])
        if kind == "repeat":
            steps = [{"step": "repeat", "times": rng.choice(TIMES), "steps": steps}]
        elif kind == "choose_one":
            steps = [{"step": "choose_one", "options": [
                {"label": "a", "steps": steps}, {"label": "b", "steps": [{"step": "noop"}]}]}]
        else:
            steps = [{"step": "roll", "outcomes": [{"faces": [1, 6], "steps": steps}]}]
    return steps


def test_random_nests_of_repeats_are_refused_with_their_place_or_played(tmp_path):
    rng = random.Random(SEED)
    old = signal.signal(signal.SIGALRM, alarm)
    verdicts = {"refused": 0, "played": 0}
    try:
        for n in range(12):
            content = tmp_path / f"c{n}"
            shutil.copytree(CONTENT, content)
            path = content / "cards" / "starter.yaml"
            effect = _nest(rng, rng.randint(1, 6))
            path.write_text(path.read_text().replace(
                PLAIN, f"    effect: {json.dumps(effect)}\n    examples:", 1))
            signal.alarm(HANG_SECONDS)
            try:
                r = run_no_traceback("validate", "--content", str(content), "--quiet")
                if r.exit_code == 0:
                    engine = tmp_path / f"e{n}"
                    run_no_traceback("engine-build", "--content", str(content), "--out", str(engine),
                         "--quiet")
                    s = run_no_traceback("simulate", "--engine", str(engine / "engine"), "--games", "1",
                             "--players", "2", "--seed", str(n), "--quiet")
                    assert s.exit_code == 0, s.output
                    verdicts["played"] += 1
                else:
                    assert r.exit_code == 1
                    if "steps" in r.output:
                        assert "starter.yaml:" in r.output, r.output
                    verdicts["refused"] += 1
            except Hang:
                pytest.fail(f"nest {n} ({json.dumps(effect)[:300]}) ran over {HANG_SECONDS} s")
            finally:
                signal.alarm(0)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert verdicts["refused"] and verdicts["played"], verdicts


def test_random_cluster_addresses_are_one_line_errors():
    from tether_build.analysis.cluster import check_address

    rng = random.Random(SEED)
    parts = ["tcp://", "tls://", "ucx://", "inproc://", "ws://", "", "::", "[", "]", "host",
             "10.0.0.5", ":", "8786", "0", "99999", "-1", " ", "\x00", "é", "/", "@"]
    for _ in range(300):
        address = "".join(rng.choice(parts) for _ in range(rng.randint(0, 5)))
        try:
            got = check_address(address)
        except ValueError as exc:
            assert "\n" not in str(exc)
        else:
            assert got.startswith("tcp://") and 0 < int(got.rsplit(":", 1)[1]) < 65536


def test_damaged_replay_logs_are_one_line_failures(tmp_path):
    from tether_build.engine.play import ReplayError, read_log

    rng = random.Random(SEED)
    good = b'{"e": "setup", "players": 2, "seed": 1, "options": {}}\n{"e": "end"}\n'
    for n in range(60):
        data = bytearray(good * rng.randint(1, 3))
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i:i + 1] = rng.choice([b"", b"\xff", b"\n", b"[" * 50, b"\x00", b'"', b"{"])
        log = tmp_path / f"{n}.jsonl"
        log.write_bytes(bytes(data))
        try:
            read_log(log)
        except ReplayError as exc:
            assert "\n" not in str(exc)
