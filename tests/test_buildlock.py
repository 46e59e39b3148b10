"""Issue 43: one writer per output folder; a killed writer's lock, swap and temporary files
are dealt with by the next command; an output folder inside the content is refused."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tether_cli import run_cli

from tether_build.buildsys.lock import LOCK, output_lock, write_outputs
from tether_build.errors import TetherError
from tether_build.fsutil import sweep_temps, write_atomic

ROOT = Path(__file__).resolve().parent.parent
HOLD = ("import sys, time\nfrom pathlib import Path\nfrom tether_build.buildsys.lock import "
        "output_lock\nwith output_lock(Path(sys.argv[1]), 'tether build'):\n"
        "    print('held', flush=True)\n    time.sleep(float(sys.argv[2]))\n")


def _holder(out: Path, seconds: float) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out), str(seconds)], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_writer_waits_a_bounded_time_then_refuses_in_one_line(tmp_path, monkeypatch):
    out = tmp_path / "build"
    proc = _holder(out, 30)
    try:
        monkeypatch.setenv("TETHER_LOCK_WAIT", "0.5")
        start = time.monotonic()
        with pytest.raises(TetherError) as err, output_lock(out, "tether rulebook"):
            pass
        assert time.monotonic() - start < 5
        message = err.value.format_message()
        assert "\n" not in message and f"pid {proc.pid}" in message and "in use" in message
        # the command line: exit 1, that line, no traceback
        result = run_cli("build", "--content", str(ROOT / "tests/fixtures/content"),
                         "--out", str(out), "--only", "validate")
        assert result.exit_code == 1 and "in use by tether build" in result.output
        assert "Traceback" not in result.output
    finally:
        proc.kill()
        proc.wait()


def test_a_second_writer_that_waits_goes_on_when_the_first_ends(tmp_path, monkeypatch):
    out = tmp_path / "build"
    proc = _holder(out, 0.5)
    monkeypatch.setenv("TETHER_LOCK_WAIT", "20")
    said = []
    with output_lock(out, "tether build", said.append):
        assert (out / LOCK).read_text().startswith("tether build (pid ")
    proc.wait()
    assert said and "waiting" in said[0]
    assert not (out / LOCK).exists()


def test_the_lock_of_a_killed_process_is_taken_over(tmp_path, monkeypatch):
    out = tmp_path / "build"
    proc = _holder(out, 30)
    proc.kill()   # SIGKILL: its lock file stays, naming a dead pid
    proc.wait()
    assert (out / LOCK).exists()
    monkeypatch.setenv("TETHER_LOCK_WAIT", "0")
    with output_lock(out):
        assert str(os.getpid()) in (out / LOCK).read_text()
    assert not (out / LOCK).exists()


def test_temporary_files_of_dead_writers_are_removed_and_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (tmp_path / "print").mkdir()
    stale = tmp_path / "print" / f".rulebook.pdf.{dead}~abc123.tmp"
    live = tmp_path / f".cards.jsonl.{os.getpid()}~xyz.tmp"
    other = tmp_path / "notes.tmp"   # not one of ours: left alone
    for path in (stale, live, other):
        path.write_bytes(b"x")
    assert sweep_temps(tmp_path) == [stale]
    assert live.exists() and other.exists()
    write_atomic(tmp_path / "a.txt", b"new")   # its temporary file names this process
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == \
        sorted([live.name, other.name])


def test_write_outputs_swaps_all_files_and_the_next_command_finishes_a_killed_swap(tmp_path):
    from tether_build.buildsys import commit

    out = tmp_path / "build"
    write_outputs(out, {"rulebook-a4.pdf": b"old a4", "rulebook-letter.pdf": b"old letter"})
    staging = out / commit.STAGING
    (staging / "files").mkdir(parents=True)   # a rulebook killed half-way through its swap
    (staging / "files" / "rulebook-letter.pdf").write_bytes(b"new letter")
    (out / "rulebook-a4.pdf").write_bytes(b"new a4")   # already moved
    (staging / commit.RECORD).write_text('{"moves": ["rulebook-a4.pdf", '
                                         '"rulebook-letter.pdf"], "removals": []}')
    with output_lock(out) as done:
        assert "completed" in done
    assert (out / "rulebook-letter.pdf").read_bytes() == b"new letter"
    assert not staging.exists() and sorted(p.name for p in out.iterdir()) == [
        "rulebook-a4.pdf", "rulebook-letter.pdf"]


@pytest.mark.parametrize("inside", ["content/o", "content", "templates/x"])
def test_an_output_folder_inside_the_content_is_refused(tmp_path, inside, monkeypatch):
    content = tmp_path / "content"
    content.mkdir()
    monkeypatch.chdir(tmp_path)
    out = Path(inside) if not inside.startswith("templates") else ROOT / inside
    for extra in ((), ("--watch",)):
        result = run_cli("build", "--content", "content", "--out", str(out), *extra)
        assert result.exit_code == 1, result.output
        assert "is inside the" in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert not (ROOT / "templates" / "x").exists()
