"""Issue 43: `tether balance --cluster` checks the address, and gives up in one line on a
scheduler that is not there or accepts and never answers."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from tether_cli import run_cli

from tether_build.analysis import cluster
from tether_build.analysis.cluster import check_address

CONTENT = "tests/fixtures/content"


@pytest.mark.parametrize("address", ["", "  ", "ucx://10.0.0.5:8786", "tls://host:8786",
                                     "inproc", "inproc://x", "tcp://", "tcp://host",
                                     "tcp://host:0", "tcp://host:99999", "tcp://:8786",
                                     "tcp://ho st:1", "tcp://a:b"])
def test_addresses_other_than_tcp_host_port_are_refused_in_one_line(address):
    with pytest.raises(ValueError) as err:
        check_address(address)
    assert "\n" not in str(err.value) and "--cluster" in str(err.value)


def test_tcp_host_port_is_taken():
    assert check_address("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert check_address("sched.lan:8786") == "tcp://sched.lan:8786"
    assert check_address("tcp://[::1]:8786") == "tcp://[::1]:8786"


@pytest.mark.parametrize("address", ["", "ucx://h:1", "tls://h:1", "inproc"])
def test_the_command_refuses_them_before_any_game(address):
    start = time.monotonic()
    result = run_cli("balance", "--content", CONTENT, "--games", "2", "--quiet",
                     "--cluster", address)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert time.monotonic() - start < 30


def test_a_scheduler_that_accepts_and_never_answers_is_given_up(monkeypatch, tmp_path):
    monkeypatch.setattr(cluster, "CONNECT_WAIT", 2.0)
    monkeypatch.setattr(cluster, "ANSWER_WAIT", 2.0)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []

    def accept():
        while True:
            try:
                held.append(server.accept()[0])   # accepted, never answered
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    port = server.getsockname()[1]
    start = time.monotonic()
    try:
        result = run_cli("balance", "--content", CONTENT, "--games", "2", "--quiet",
                         "--cluster", f"tcp://127.0.0.1:{port}", "--out", str(tmp_path))
    finally:
        server.close()
        for conn in held:
            conn.close()
    assert result.exit_code == 1, result.output
    assert "did not answer" in result.output or "cannot reach" in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert time.monotonic() - start < 45
