"""The `tether` command ends its process at once when its work is done (cli.run: no
interpreter teardown): a user sees the same output and exit status as with the ordinary
ending, whatever the command's outcome, and all of a long output through a pipe."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "content"
ROOT = Path(__file__).resolve().parents[1]
RUN = "from tether_build.cli import run; run()"     # the console script's entry point
MAIN = "from tether_build.cli import main; main()"  # click's own ending


def _tether(entry: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", entry, *args], check=False,
                          capture_output=True, text=True, cwd=cwd, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))


@pytest.fixture(scope="module")
def contents(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("cli-exit")
    good = base / "good" / "content"
    shutil.copytree(FIXTURE, good)
    bad = base / "bad" / "content"
    shutil.copytree(FIXTURE, bad)
    game = bad / "game.yaml"
    game.write_text(game.read_text().replace("round_cap:", "round_cap: [", 1))
    return {"good": good, "bad": bad}


@pytest.mark.parametrize("case, args, status", [
    ("good", ["validate"], 0),
    ("good", ["validate", "--quiet"], 0),
    ("bad", ["validate"], 1),          # a located error, exit 1
    ("good", ["--version"], 0),
    ("good", ["no-such-command"], 2),  # a usage error
])
def test_the_same_output_and_status_as_the_ordinary_ending(contents, case, args, status):
    content = contents[case]
    if args and args[0] == "validate":
        args = [*args, "--content", str(content)]
    fast = _tether(RUN, *args, cwd=content.parent)
    plain = _tether(MAIN, *args, cwd=content.parent)
    assert fast.returncode == plain.returncode == status, (fast.stderr, plain.stderr)
    assert fast.stdout == plain.stdout
    assert fast.stderr == plain.stderr


def test_a_long_output_through_a_pipe_arrives_whole(contents):
    content = contents["good"]
    fast = _tether(RUN, "cards", "--json", "--content", str(content), cwd=content.parent)
    plain = _tether(MAIN, "cards", "--json", "--content", str(content), cwd=content.parent)
    assert fast.returncode == 0 and fast.stdout == plain.stdout
    rows = [json.loads(line) for line in fast.stdout.splitlines()]
    assert len(rows) > 5 and len(fast.stdout) > 5000


def test_the_console_script_is_the_quick_ending():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'tether = "tether_build.cli:run"' in text


def test_version_names_the_installed_package(contents):
    from importlib.metadata import PackageNotFoundError, version

    try:
        expected = version("tether_build")
    except PackageNotFoundError:
        expected = "0.0.0"
    shown = _tether(RUN, "--version", cwd=contents["good"].parent)
    assert shown.returncode == 0 and shown.stdout == f"tether, version {expected}\n"
