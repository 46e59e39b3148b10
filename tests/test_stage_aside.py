"""A part of a stage done in a forked process (commands.build._aside, the board stage's grid
maps): the same result and the same recorded reads as done in the stage's own process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tether_build.buildsys.reads import recording
from tether_build.commands import build


@pytest.mark.parametrize("jobs", [1, 2])
def test_work_aside_gives_its_result_and_its_reads(tmp_path, jobs):
    read = tmp_path / "read.txt"
    read.write_text("words", encoding="utf-8")
    ctx = build.Context(content_dir=tmp_path, out=tmp_path / "out", jobs=jobs)

    def work():
        return {"pid": str(os.getpid()).encode(), "text": read.read_bytes()}

    with recording() as record, build._aside(ctx, work) as got:
        files = got()
    assert files["text"] == b"words"
    assert f"file:{read}" in record   # read in the forked process: noted here
    forked = files["pid"] != str(os.getpid()).encode()
    assert forked == (jobs > 1 and (os.cpu_count() or 1) > 1)
    assert build._ASIDE == []


def test_an_error_aside_is_raised_in_the_stage(tmp_path):
    ctx = build.Context(content_dir=tmp_path, out=tmp_path / "out", jobs=2)

    def work():
        raise ValueError(str(Path("nowhere")))

    with pytest.raises(ValueError, match="nowhere"), build._aside(ctx, work) as got:
        got()


def test_work_aside_runs_as_low_as_the_stage_no_lower(tmp_path):
    from tether_build.forking import giving_way

    ctx = build.Context(content_dir=tmp_path, out=tmp_path / "out", jobs=2)
    with giving_way(), build._aside(ctx, lambda: {"nice": os.nice(0)}) as got:
        assert got()["nice"] == os.nice(0)   # (a stage that gives way is niced already)


@pytest.mark.parametrize("jobs", [1, 2])
def test_what_both_processes_need_is_readied_here_once_before_forking(tmp_path, jobs):
    ctx = build.Context(content_dir=tmp_path, out=tmp_path / "out", jobs=jobs)
    readied = []

    def work():   # (forked: sees what this process had readied before the fork)
        return {"readied": ",".join(map(str, readied)).encode()}

    with build._aside(ctx, work, ready=lambda: readied.append(os.getpid())) as got:
        files = got()
    forked = jobs > 1 and (os.cpu_count() or 1) > 1
    assert readied == ([os.getpid()] if forked else [])   # (not forking: nothing to ready)
    assert files["readied"] == (str(os.getpid()).encode() if forked else b"")
