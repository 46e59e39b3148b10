"""The guard of tests/conftest.py: a test that reads the designer's content/ fails the run."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def _run_pytest_on(tmp_path, body: str) -> subprocess.CompletedProcess:
    test = tmp_path / "test_probe.py"
    test.write_text(body)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.conftest",
                           "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(test)],
                          check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_a_test_reading_the_designers_content_fails_the_run(tmp_path):
    done = _run_pytest_on(tmp_path, "from tests.conftest import ROOT\n\n"
                                    "def test_reads():\n"
                                    "    (ROOT / 'content' / 'game.yaml').read_text()\n")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "read the designer's content/" in done.stderr


def test_a_test_reading_the_fixture_passes(tmp_path):
    done = _run_pytest_on(tmp_path, "from tests.conftest import CONTENT\n\n"
                                    "def test_reads():\n"
                                    "    (CONTENT / 'game.yaml').read_text()\n")
    assert done.returncode == 0, done.stdout + done.stderr
