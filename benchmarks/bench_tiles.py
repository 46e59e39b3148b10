"""The tiles, board and table stages alone, each from an empty render cache, in CPU seconds.

    python benchmarks/bench_tiles.py                       # all three, one process each
    python benchmarks/bench_tiles.py --stage board         # one of them
    python benchmarks/bench_tiles.py --save DIR            # also write the outputs
    python benchmarks/bench_tiles.py --profile board       # cProfile of one stage (top 40)

What a clean `tether build` asks of these stages: the content is copied to a temporary
folder outside git (so the version the sheets print does not change with a commit), then
each stage runs in a fresh process with its own empty render cache (in a clean build the
three run side by side, so none finds another's sheets cached), with one job (the board
stage's grid maps are then drawn here, not in a forked process: the CPU is the same). The
figure is the process's CPU seconds and its children's (resource.getrusage), not wall time.
Runs on demand, not in pytest.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("tiles", "board", "table")


def cpu() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        used = resource.getrusage(who)
        total += used.ru_utime + used.ru_stime
    return total


def run_one(stage: str, content: Path, save: Path | None, profile: bool) -> None:
    """In a process of its own: the stage from an empty cache, timed; its outputs saved."""
    sys.path.insert(0, str(ROOT))
    from tether_build.commands import build
    from tether_build.print import preload

    preload.load_layout()   # (imported before the clock starts, as a build's workers are)
    with tempfile.TemporaryDirectory() as tmp:
        ctx = build.Context(content_dir=content, out=Path(tmp) / "out", jobs=1,
                            tts_url="https://example.org/tts")   # (the same every run)
        ctx.content  # noqa: B018  (loaded before the clock starts, as the build does)
        if stage == "table":
            ctx.cards  # noqa: B018
        target = next(s for s in build.STAGES if s.name == stage)
        if profile:
            import cProfile
            import pstats
            prof = cProfile.Profile()
            prof.enable()
        start = cpu()
        files = target.render(ctx)
        used = cpu() - start
        if profile:
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
            pstats.Stats(prof).sort_stats("tottime").print_stats(30)
    import tether_build
    print(f"{stage}: {used:.2f} CPU-s, {len(files)} files, load {os.getloadavg()[0]:.1f} "
          f"({Path(tether_build.__file__).parent.parent.name})", flush=True)
    if save:
        for name, data in files.items():
            path = save / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", choices=STAGES, action="append")
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--save", type=Path, help="write the outputs under this folder")
    parser.add_argument("--profile", choices=STAGES)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--one", choices=STAGES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        run_one(args.one, args.content, args.save, args.profile == args.one)
        return
    stages = [args.profile] if args.profile else (args.stage or list(STAGES))
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        shutil.copytree(args.content, content)
        for _ in range(args.repeat):
            for stage in stages:
                cmd = [sys.executable, __file__, "--one", stage, "--content", str(content)]
                if args.save:
                    cmd += ["--save", str(args.save)]
                if args.profile:
                    cmd += ["--profile", args.profile]
                subprocess.run(cmd, check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
