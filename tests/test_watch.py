"""`tether build --watch`: a saved edit is built, a broken one reported, Ctrl-C stops."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WAIT = 120.0   # seconds a build may take on a loaded machine before the test gives up


# Ctrl-C at a terminal: SIGINT raises KeyboardInterrupt in the watcher. A test run started
# as a background job of a non-interactive shell (`(cmd &)`, `setsid`) ignores SIGINT, and
# every process it starts inherits that: the watcher restores Python's handler first, as a
# terminal's process has it (as tests/test_build_preload.py does for a build).
START = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
         "from tether_build.cli import main; main()")


class Watcher:
    """`tether build --watch` in a process of its own; its stderr read line by line."""

    def __init__(self, content: Path, out: Path):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", START, "build",
             "--watch", "--content", str(content), "--out", str(out),
             "--only", "validate", "--only", "notes"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)))
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.lines.put(line.rstrip("\n"))

    def next_build(self) -> str:
        """The watcher's status line of its next build (every line before it is kept)."""
        while True:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                pytest.fail("no build reported; output so far:\n" + "\n".join(self.seen))
            self.seen.append(line)
            if line.startswith("[watch] build"):
                return line

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            pytest.fail("the watcher did not stop on SIGINT; its output:\n"
                        + "\n".join(self.seen + list(self.lines.queue)))
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def _texts(out: Path) -> dict[str, str]:
    return {card["id"]: card["text"] for card in
            map(json.loads, (out / "cards.jsonl").read_text().splitlines())}


def test_watch_builds_each_save_reports_errors_and_stops_on_ctrl_c(content_copy, tmp_path):
    out = tmp_path / "build"
    card = content_copy / "cards" / "starter.yaml"
    original = card.read_text()
    watcher = Watcher(content_copy, out)
    try:
        assert watcher.next_build().startswith("[watch] build 1 done")
        assert _texts(out)["supply_cache"].endswith("Gain +2 Gold.")

        card.write_text(original.replace("Gain +2 {gold}.", "Gain +2 {gold} now."))
        assert watcher.next_build().startswith("[watch] build 2 done")
        assert _texts(out)["supply_cache"].endswith("now.")

        before = (out / "cards.jsonl").read_bytes()
        card.write_text(original.replace("Gain +2 {gold}.", "Gain +2 Gold."))
        assert watcher.next_build().startswith("[watch] build 3 FAILED (exit 1)")
        report = "\n".join(watcher.seen)
        assert "starter.yaml:" in report and "typed literally" in report
        assert "Traceback" not in report
        assert (out / "cards.jsonl").read_bytes() == before   # the failed build wrote nothing

        card.write_text(original)   # fixed: the watcher is still there and builds again
        assert watcher.next_build().startswith("[watch] build 4 done")
        assert _texts(out)["supply_cache"].endswith("Gain +2 Gold.")
    finally:
        code = watcher.stop()
    assert code == 0
    assert any(line.startswith("[watch] stopped after 4 build(s)")
               for line in watcher.seen + list(watcher.lines.queue))


def test_the_warm_up_page_lays_out_with_the_bundled_fonts_and_icons():
    """The page the watcher lays out before its first build uses only bundled files (a
    failure there is swallowed by the watcher, so it is checked here)."""
    from tether_build.print.html import TEMPLATES
    from tether_build.print.layout.pdf import warm_up

    warm_up(TEMPLATES.as_uri() + "/")


class _Stop(Exception):
    """Raised in the watcher's place by a test signal (Ctrl-C stands for it)."""


def _interrupt_after(seconds: float) -> None:
    def raise_stop(signum, frame):
        raise _Stop
    signal.signal(signal.SIGUSR1, raise_stop)
    threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGUSR1)).start()


def _sleeping_build(ignore_sigint: bool):
    def run():
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        time.sleep(600)
    return run


@pytest.mark.parametrize("ignore_sigint", [False, True])
def test_stopping_the_watcher_stops_the_build_it_runs(monkeypatch, ignore_sigint):
    """A Ctrl-C that reaches the watcher alone (`kill -INT`) while a build runs stops that
    build (SIGINT passed on; SIGKILL after STOP_WAIT when it does not stop) and reaps it,
    instead of waiting for the build to end."""
    from tether_build.buildsys import watch

    forked: list[int] = []
    real_fork = os.fork

    def fork():
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", fork)
    monkeypatch.setattr(watch, "STOP_WAIT", 0.5)
    before = signal.getsignal(signal.SIGUSR1)
    start = time.monotonic()
    try:
        _interrupt_after(0.5)
        with pytest.raises(_Stop):
            watch.build_once(_sleeping_build(ignore_sigint))
    finally:
        signal.signal(signal.SIGUSR1, before)
    assert time.monotonic() - start < 60   # not the build's 600 s
    (pid,) = forked
    with pytest.raises(ChildProcessError):   # the build child has ended and been reaped
        os.waitpid(pid, os.WNOHANG)
