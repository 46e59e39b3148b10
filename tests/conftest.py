"""Shared fixtures: the frozen fixture content, and a writable copy of it per test.

The tool's tests stand apart from the designer's content: they read tests/fixtures/content,
never content/. A guard below watches every file the test process opens or lists; a test
that reads the designer's content/ fails the session, so a designer's edit to content/ can
never fail the tool's tests (it may fail `tether check`, which is its job).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "tests" / "fixtures" / "content"
LIVE = str(ROOT / "content")
_LIVE_READS: list[str] = []


def _audit(event: str, args: tuple) -> None:
    if event not in ("open", "os.scandir", "os.listdir") or not args:
        return
    path = args[0]
    if not isinstance(path, (str, bytes, os.PathLike)):
        return
    raw = os.fsdecode(path)
    full = os.path.abspath(raw)
    if not (full == LIVE or full.startswith(LIVE + os.sep)):
        return
    if not os.path.isabs(raw) and _inside_tree_walk():
        return  # shutil.rmtree / pytest's cleanup open names relative to a folder fd
    _LIVE_READS.append(full)


def _inside_tree_walk() -> bool:
    frame = sys._getframe(2)
    for _ in range(12):
        if frame is None:
            return False
        name = frame.f_code.co_filename
        if name.endswith("shutil.py") or f"{os.sep}_pytest{os.sep}" in name:
            return True
        frame = frame.f_back
    return False


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def _designer_content_untouched():
    """Fail the test itself if it read the designer's content/ (also under pytest-xdist,
    where each worker runs its own session)."""
    start = len(_LIVE_READS)
    yield
    if len(_LIVE_READS) > start:
        shown = sorted(set(_LIVE_READS[start:]))[:5]
        pytest.fail("this test read the designer's content/ (use the fixture "
                    "tests/fixtures/content instead): " + ", ".join(shown), pytrace=False)


def pytest_sessionfinish(session, exitstatus):
    """Fail the run if any test read the designer's content/ (tool tests use the fixture)."""
    if _LIVE_READS:
        shown = sorted(set(_LIVE_READS))[:10]
        sys.stderr.write("\nA tool test read the designer's content/ (use the fixture "
                         "tests/fixtures/content instead):\n  " + "\n  ".join(shown) + "\n")
        session.exitstatus = 1


# ---- dealing the files to the pytest-xdist workers: the heaviest first ---------------------
# `-n auto --dist loadfile` deals whole files to the workers, and xdist deals the files with
# the most tests first: a file of a few long tests (a differential build, a stock build) was
# dealt late and ran alone at the end while the other worker had nothing left. The files below
# are dealt first, heaviest first (about their CPU seconds: a whole run's --durations at load 20-30
# scaled by a file measured in CPU, tests/rulebook/test_chapter_docs.py; only their order matters);
# every other file follows, the files with the most tests first, as xdist deals them. A name
# here that no longer exists changes nothing. The stale-cache tests are a file of their own,
# apart from the differential test's edit series (one file ran both, about 280 s on one
# worker), so the two run side by side (its two tests: 151.6 CPU-s at -n 0, load 19-25);
# test_card_text's fits print two Starter sets, not six (about 30 CPU-s less). The
# build-cache, TTS-table and differential files copy the run's one small cards build
# (small_cards_build) instead of building it (about 14 CPU-s each time: test_build_cache
# 150 -> 125, test_tts_table 65 -> 53).
HEAVY_FILES = {
    "tests/test_build_differential.py": 200, "tests/rulebook/test_chapter_docs.py": 107,
    "tests/test_build_cache.py": 125, "tests/test_build_stale_cache.py": 150,
    "tests/rulebook/test_rulebook_pdf.py": 85,
    "tests/test_build_parallel.py": 60, "tests/print/test_stock_layout.py": 55,
    "tests/test_build_preload.py": 55, "tests/print/test_tts_table.py": 53,
    "tests/engine/test_native.py": 55, "tests/rulebook/test_reference_chain.py": 50,
    "tests/printing/test_tile_sheets.py": 45, "tests/print/test_card_text.py": 10,
    "tests/print/test_card_sheets.py": 30, "tests/analysis/test_verdicts.py": 27,
    "tests/engine/test_openspiel.py": 23, "tests/printing/test_components_table.py": 22,
    "tests/analysis/test_balance.py": 22, "tests/check/test_memo.py": 20,
    "tests/test_fuzz.py": 20, "tests/engine/test_views.py": 17,
}


def file_cost(scope: str, tests: int) -> float:
    """A file's expected seconds: measured for the heavy ones, else a second a test."""
    return HEAVY_FILES.get(scope, min(tests, 100) * 1.0)


def pytest_xdist_make_scheduler(config, log):
    """The loadfile scheduler of pytest-xdist, dealing the heaviest files first."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    if not hasattr(LoadFileScheduling, "_assign_work_unit"):   # another xdist: its own order
        return None

    class HeaviestFirst(LoadFileScheduling):
        _dealt = False

        def _assign_work_unit(self, node):
            if not self._dealt:   # the work queue is complete at the first deal
                self._dealt = True
                for scope in sorted(self.workqueue, key=lambda s: -file_cost(
                        s, len(self.workqueue[s]))):
                    self.workqueue.move_to_end(scope)
            super()._assign_work_unit(node)

    return HeaviestFirst(config, log)


@pytest.fixture(scope="session")
def content():
    """The fixture content, validated once per session."""
    from tether_build.content.validate import validate
    return validate(CONTENT)


@pytest.fixture(scope="session")
def built_project(tmp_path_factory) -> Path:
    """The cut-down fixture project (build_edits.Project: a copy of the tool and of the
    fixture content) after one clean `tether build --paper a4` with every library patch in
    force. Made once per test run, shared by the pytest-xdist workers: read-only, a test that
    edits it works on its own copy (build_edits.Project.copy)."""
    from build_edits import Project
    from run_once import once_per_run

    from tether_build.commands.build import AUDIT_ENV
    from tether_build.print.layout.patches import STOCK_ENV

    def make(base):
        project = Project.make(base / "project")
        stock = os.environ.pop(STOCK_ENV, None)   # the patched build (the default)
        # every stage's reads, unfiltered, for tests/test_stage_key_audit.py
        os.environ[AUDIT_ENV] = str(project.root / "reads-audit.jsonl")
        try:
            project.build()
        finally:
            os.environ.pop(AUDIT_ENV, None)
            if stock is not None:
                os.environ[STOCK_ENV] = stock
        return str(project.root)
    return Path(once_per_run(tmp_path_factory, "project", make))


@pytest.fixture
def content_copy(tmp_path) -> Path:
    """A copy of the fixture content (with schemas/ beside it) that a test may break."""
    dst = tmp_path / "content"
    shutil.copytree(CONTENT, dst)
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    return dst


def make_small_content(folder: Path) -> Path:
    """folder/content: the fixture content with every age deck cut to its first card (26
    cards), folder/schemas beside it."""
    dst = folder / "content"
    shutil.copytree(CONTENT, dst)
    shutil.copytree(ROOT / "schemas", folder / "schemas")
    for path in sorted((dst / "cards").glob("age*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        starts = [i for i, line in enumerate(lines) if line.startswith("  - id:")]
        path.write_text("".join(lines[:starts[1]]), encoding="utf-8")
    return dst


@pytest.fixture
def small_content(tmp_path) -> Path:
    """A copy of the fixture content with every age deck cut to its first card (26 cards),
    schemas beside it: quick builds for the build-cache and parallel-build tests."""
    return make_small_content(tmp_path)


@pytest.fixture(scope="session")
def small_cards_build(tmp_path_factory) -> Path:
    """A folder holding the small content (make_small_content: content/, schemas/) and
    build/, its `tether build --only cards --paper a4`: the first build of the build-cache
    tests, made once per test run and shared by the workers (read-only: a test works on
    its own copy, small_cards_copy)."""
    from run_once import once_per_run

    def make(base):
        from tether_cli import run_cli

        content = make_small_content(base)
        result = run_cli("build", "--content", str(content), "--out", str(base / "build"),
                         "--paper", "a4", "--only", "cards", "--quiet")
        assert result.exit_code == 0, result.output
        return str(base)
    return Path(once_per_run(tmp_path_factory, "small-cards", make))


@pytest.fixture
def small_cards_copy(small_cards_build, tmp_path) -> tuple[Path, Path]:
    """(content, out): a copy of small_cards_build of this test's own (content, schemas,
    the build folder and its caches, file times kept), built here once more: the TTS deck
    files name the build folder's file:// address, which is in the cards stage's key, so
    this build writes them for this folder (from the render cache: no face is laid out)."""
    from tether_cli import run_cli

    for name in ("content", "schemas", "build"):
        shutil.copytree(small_cards_build / name, tmp_path / name, symlinks=True)
    content, out = tmp_path / "content", tmp_path / "build"
    result = run_cli("build", "--content", str(content), "--out", str(out), "--paper", "a4",
                     "--only", "cards", "--quiet")
    assert result.exit_code == 0, result.output
    return content, out


SERIAL_STAGES = ("validate", "tiles", "board")


@pytest.fixture(scope="session")
def small_serial_build(tmp_path_factory) -> dict:
    """`tether build --jobs 1` of SERIAL_STAGES (two heavy stages that lay out, one light)
    of the small content, A4: the stages one after another, what the side-by-side builds of
    test_build_parallel and test_build_preload must write. Made once per test run, shared
    by the workers (read-only). "out": the build folder; "forked": the stages the build ran
    side by side (none, with one job); "exit_code", "output": the command's."""
    from run_once import once_per_run

    def make(base):
        from tether_cli import run_cli

        from tether_build.buildsys import workers

        content, out, forked = make_small_content(base), base / "build", []
        real = workers._side_by_side
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(workers, "_side_by_side", lambda ctx, stages, *a: forked.append(
                [s.name for s in stages]) or real(ctx, stages, *a))
            only = [arg for stage in SERIAL_STAGES for arg in ("--only", stage)]
            result = run_cli("build", "--content", str(content), "--out", str(out), "--paper",
                             "a4", "--json", "--jobs", "1", *only)
        return {"out": str(out), "forked": forked, "exit_code": result.exit_code,
                "output": result.output}
    return once_per_run(tmp_path_factory, "small-serial", make)
