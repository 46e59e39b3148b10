"""`tether build` runs independent stages side by side (stagerun.py): same bytes, same errors.

The builds use a cut-down copy of the fixture content (one card per age deck) and A4 only.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest
from tether_cli import run_cli

from tests.conftest import SERIAL_STAGES

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("tiles", "board")   # the others are slower to build; the order test is below


def _build(content: Path, out: Path, jobs: int, *stages: str):
    only = [arg for stage in stages for arg in ("--only", stage)]
    return run_cli("build", "--content", str(content), "--out", str(out), "--paper", "a4",
                   "--json", "--jobs", str(jobs), *only)


def _outputs(out: Path) -> dict[str, bytes]:
    """Every output but the render cache and the manifest; TTS decks name their folder:
    made neutral."""
    files = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        rel = path.relative_to(out).as_posix()
        if not rel.startswith(".cache/") and rel != ".tether-build.json":  # times differ
            data = path.read_bytes()
            if rel.startswith("tts/") and rel.endswith(".json"):
                data = data.replace((out / "tts").resolve().as_uri().encode(), b"<out>/tts")
            files[rel] = data
    return files


def test_stages_side_by_side_write_the_bytes_of_one_after_another(small_content, tmp_path,
                                                                  monkeypatch,
                                                                  small_serial_build):
    """The serial build (--jobs 1) is the run's shared one, made with _side_by_side
    watched the same way (conftest.small_serial_build, with test_build_preload)."""
    from tether_build.buildsys import workers as stagerun

    assert SERIAL_STAGES == ("validate", *HEAVY)
    assert small_serial_build["exit_code"] == 0, small_serial_build["output"]
    assert small_serial_build["forked"] == []
    forked = []
    real = stagerun._side_by_side
    monkeypatch.setattr(stagerun, "_side_by_side",
                        lambda ctx, stages, *a: forked.append([s.name for s in stages])
                        or real(ctx, stages, *a))
    both = _build(small_content, tmp_path / "both", 2, "validate", *HEAVY)
    assert both.exit_code == 0, both.output
    assert forked == [list(HEAVY)]
    summary = json.loads(both.output)
    assert all(summary["stages"][name]["status"] == "built" for name in HEAVY)
    assert _outputs(Path(small_serial_build["out"])) == _outputs(tmp_path / "both")


def test_the_first_failure_in_build_order_is_the_one_reported(small_content, tmp_path,
                                                              monkeypatch):
    from tether_build.commands import build
    from tether_build.errors import TetherError

    def fails(name):
        def stage(ctx):
            raise TetherError(f"{name} failed")
        return stage

    monkeypatch.setattr(build, "tiles_stage", fails("tiles"))
    monkeypatch.setattr(build, "board_stage", fails("board"))
    out = tmp_path / "build"
    result = _build(small_content, out, 2, "board", "tiles", "notes")
    assert result.exit_code == 1
    assert "tiles failed" in result.output and "board failed" not in result.output
    assert not out.exists() or _outputs(out) == {}   # nothing written


@dataclass(eq=False)
class _Stage:
    """A stage as run_stages sees it: a name, whether it runs in a worker, what it follows."""

    name: str
    parallel: bool = True
    after: str | None = None
    quick: str | None = None


def quick(ctx) -> bool:
    """A stage's `quick` test that finds its work cached."""
    return True


def test_a_stage_after_another_starts_when_that_one_is_done(tmp_path):
    """The rulebook waits for the cards stage (it reuses its faces); the others do not."""
    import time

    from tether_build.buildsys.workers import run_stages
    from tether_build.commands.build import Context

    def render(stage, ctx):
        t0 = time.time()
        time.sleep(0.3 if stage.name == "first" else 0.05)
        return {stage.name: f"{t0} {time.time()}".encode()}

    stages = [_Stage("first"), _Stage("second", after="first"), _Stage("other"), _Stage("light", False)]
    ctx = Context(tmp_path, tmp_path / "out", jobs=2)
    ctx._content, ctx._cards = object(), []
    seen = []
    done = run_stages(ctx, stages, render, lambda name, status: seen.append(name))
    spans = {name: [float(t) for t in out[0].changed[name].split()] for name, out in done.items()}
    assert set(done) == {"light", "first", "other", "second"} and seen[0] == "light"
    assert spans["second"][0] >= spans["first"][1]          # after "first" ended
    assert spans["other"][0] < spans["first"][1]            # beside it


def test_a_stage_waits_midway_for_an_earlier_one(tmp_path):
    """The rulebook lays out its pages beside the cards stage, then waits for it (wait_for)
    before it reads the faces: its first half overlaps, its second half follows."""
    import time

    from tether_build.buildsys.workers import run_stages, wait_for
    from tether_build.commands.build import Context

    def render(stage, ctx):
        t0 = time.time()
        if stage.name == "cards":
            time.sleep(0.4)
            return {stage.name: f"{t0} {time.time()}".encode()}
        time.sleep(0.05)          # "laying out" beside the cards stage
        wait_for("cards")
        t1 = time.time()
        return {stage.name: f"{t0} {t1}".encode()}

    ctx = Context(tmp_path, tmp_path / "out", jobs=2)
    ctx._content, ctx._cards = object(), []
    done = run_stages(ctx, [_Stage("cards"), _Stage("rulebook")], render, lambda *a: None)
    cards = [float(t) for t in done["cards"][0].changed["cards"].split()]
    book = [float(t) for t in done["rulebook"][0].changed["rulebook"].split()]
    assert book[0] < cards[1]       # started beside the cards stage
    assert book[1] >= cards[1]      # went on once it had ended
    wait_for("cards")               # outside a side-by-side build: returns at once


def test_a_stage_whose_work_is_cached_runs_here_beside_the_slow_ones(tmp_path):
    """A text edit finds the check's games in the cache (quick): the check runs in the
    building process while the two workers run the cards stage and the rulebook, so neither
    waits for a worker the check holds."""
    import os
    import time

    from tether_build.buildsys.workers import run_stages
    from tether_build.commands.build import Context

    def render(stage, ctx):
        t0 = time.time()
        time.sleep(0.05 if stage.name == "check" else 0.3)
        return {stage.name: f"{t0} {time.time()} {os.getpid()}".encode()}

    def spans(done) -> dict:
        return {name: out[0].changed[name].decode().split() for name, out in done.items()}

    ctx = Context(tmp_path, tmp_path / "out", jobs=2)
    ctx._content, ctx._cards = object(), []
    stages = [_Stage("check", quick="test_build_parallel:quick"), _Stage("cards"),
              _Stage("rulebook")]
    got = spans(run_stages(ctx, stages, render, lambda *a: None))
    assert got["check"][2] == str(os.getpid()) != got["rulebook"][2]
    assert float(got["rulebook"][0]) < float(got["check"][1])   # it did not wait for it
    # not cached: the check takes a worker first, as in build order; the rulebook waits
    stages[0] = _Stage("check")
    got = spans(run_stages(ctx, stages, render, lambda *a: None))
    assert got["check"][2] != str(os.getpid())
    assert float(got["rulebook"][0]) >= float(got["check"][1])
    # only cached stages: they run here
    got = spans(run_stages(ctx, [_Stage("check", quick="test_build_parallel:quick"),
                                 _Stage("other", quick="test_build_parallel:quick")],
                           render, lambda *a: None))
    assert got["check"][2] == got["other"][2] == str(os.getpid())


def test_workers_inherit_a_frozen_heap_and_the_builder_keeps_none(tmp_path):
    """What the stage workers inherit is out of their garbage collector's way (forking.py);
    the building process (a `--watch` builds again and again) ends with its heap as before."""
    import gc

    from tether_build.buildsys.workers import run_stages
    from tether_build.commands.build import Context

    def render(stage, ctx):
        return {stage.name: str(gc.get_freeze_count()).encode()}

    ctx = Context(tmp_path, tmp_path / "out", jobs=2)
    ctx._content, ctx._cards = object(), []
    assert gc.get_freeze_count() == 0
    done = run_stages(ctx, [_Stage("a"), _Stage("b")], render, lambda *a: None)
    assert all(int(out[0].changed[name]) > 1000 for name, out in done.items())
    assert gc.get_freeze_count() == 0


def test_content_problems_cross_a_process_with_their_places():
    from tether_build.errors import ContentError, Problem

    error = ContentError([Problem("cards/a.yaml", 3, 5, "cards[0].cost", "too high", "0-9")])
    again = pickle.loads(pickle.dumps(error))
    assert again.problems == error.problems and again.format_message() == error.format_message()


def test_the_board_ignores_a_constant_it_does_not_read(small_content, tmp_path):
    """The board is keyed on its view of the content (stageviews.board_view): the round cap
    leaves it up to date; the stage cannot read outside the view."""
    from tether_build.buildsys.views import ContentView, board_view
    from tether_build.commands.build import Context

    out = tmp_path / "build"
    assert json.loads(_build(small_content, out, 2, "board").output)["stages"]["board"][
        "status"] == "built"
    game = small_content / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace("round_cap: 10", "round_cap: 9"), encoding="utf-8")
    again = json.loads(_build(small_content, out, 2, "board").output)
    assert again["stages"]["board"]["status"] == "up to date" and again["written"] == []
    ctx = Context(small_content, out)
    view = ContentView(board_view(ctx))
    assert view.game["board"] and view.game["title"] and view.terms and view.tiles
    with pytest.raises(KeyError, match="not in this stage's view"):
        view.game.get("victory")
    with pytest.raises(AttributeError, match="not in this stage's view"):
        _ = view.factions
