"""What each patch of another library's internals gains (issue 40: keep one only for > ~5 %).

    python benchmarks/bench_patches.py                  # 2 rounds, every patch
    python benchmarks/bench_patches.py --rounds 3 --patch import
    /tmp/venv/bin/python benchmarks/bench_patches.py --setting 1   # only the stock path (e.g.
                                                                   # on another WeasyPrint)
    python benchmarks/bench_patches.py --setting 0 --setting 1 --stage board

CPU seconds (the process and every worker it waited for), not wall: on the shared 2-core
machine the wall clock follows the load. The project copies itself (content/, schemas/,
templates/, tether_build/) into a temporary folder, and under each setting of
`TETHER_STOCK_LAYOUT` (print/layout/patches.py) measures only the stages that patch changes, laid
out from nothing (`tether build --force --only STAGE... --paper a4`: nothing read from the
render cache), so a round costs about a third of laying everything out under every setting:

- every patch / no patch (`1`): cards, rulebook, tiles (the bulk of a clean build's layout),
  one build a stage;
- `import`: a process's start: `import tether_build.print.layout.pdf` (WeasyPrint loaded and the
  patches installed), the fixed cost of every process that lays anything out (a clean build
  pays it once, and so does a card edit).

A patch's saving is the setting without it minus every patch, over the same stages. The
settings alternate within a round and the order turns each round, so a machine that slows
down slows every setting alike; medians of the rounds. Figures print as they come. Runs on
demand, not in pytest.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.print.layout.patches import PATCHES, STOCK_ENV

ALL = ("cards", "rulebook", "tiles")
STAGES = {"import": ()}   # the rest (and the removed patches, when measured): ALL
STARTS = 5   # process starts timed per setting and round (each about 0.5 CPU-s)


def _cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _copy(dest: Path) -> Path:
    for name in ("content", "schemas", "templates", "tether_build"):
        shutil.copytree(ROOT / name, dest / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for so in (ROOT / "tether_build" / "engine" / "native").glob("*.so"):
        shutil.copy2(so, dest / "tether_build" / "engine" / "native" / so.name)
    return dest


def _run(repo: Path, setting: str, args: list[str]) -> float:
    """CPU seconds of `python -c <args>` in a new process under TETHER_STOCK_LAYOUT=setting."""
    env = dict(os.environ, PYTHONPATH=str(repo), **{STOCK_ENV: setting})
    cpu = _cpu_of_children()
    done = subprocess.run([sys.executable, "-c", *args], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{args[0]} failed under {STOCK_ENV}={setting!r}:\n{done.stdout[-2000:]}"
                 f"\n{done.stderr[-2000:]}")
    return _cpu_of_children() - cpu


def _layout(repo: Path, setting: str, stages: tuple[str, ...]) -> float:
    args = ["from tether_build.cli import run; run()", "build", "--content",
            str(repo / "content"), "--out", str(repo / "build"), "--quiet", "--paper", "a4",
            "--force"]
    for stage in stages:
        args += ["--only", stage]
    return _run(repo, setting, args)


def _start(repo: Path, setting: str) -> float:
    return statistics.median(_run(repo, setting, ["import tether_build.print.layout.pdf"])
                             for _ in range(STARTS))


def _name(setting: str) -> str:
    return {"0": "every patch", "1": "no patch (stock)"}.get(setting, f"without {setting}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--patch", action="append", choices=PATCHES,
                    help="measure only these patches (repeatable; default: every one)")
    ap.add_argument("--setting", action="append",
                    help="measure only these TETHER_STOCK_LAYOUT values (e.g. 1)")
    ap.add_argument("--stage", action="append",
                    help="lay out only these stages under every setting (e.g. board)")
    args = ap.parse_args()
    settings = args.setting or ["0", *[p for p in PATCHES if not args.patch or p in args.patch],
                                "1"]
    layout: dict[tuple[str, str], list[float]] = {}   # (setting, stage): CPU-s a round
    start: dict[str, list[float]] = {}
    import weasyprint  # (the version measured: this interpreter's)

    print(f"WeasyPrint {weasyprint.__version__}, {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory(prefix="tether-patches-") as tmp:
        repo = _copy(Path(tmp))
        # warm-up, not counted: the code's byte-compiled files, the engine's definitions
        _run(repo, "0", ["from tether_build.cli import run; run()", "build", "--content",
                         str(repo / "content"), "--out", str(repo / "build"), "--quiet",
                         "--only", "validate", "--only", "engine"])
        loads = [os.getloadavg()[0]]
        for round_ in range(args.rounds):
            turn = round_ % len(settings)
            for setting in settings[turn:] + settings[:turn]:
                start.setdefault(setting, []).append(_start(repo, setting))
                done = []
                for stage in args.stage or STAGES.get(setting, ALL):   # one build a stage
                    cpu = _layout(repo, setting, (stage,))
                    layout.setdefault((setting, stage), []).append(cpu)
                    done.append(f"{stage} {cpu:.2f}")
                print(f"  round {round_ + 1} {_name(setting)}: start {start[setting][-1]:.3f}, "
                      f"{', '.join(done) or 'no layout'} CPU-s (load {os.getloadavg()[0]:.1f})",
                      flush=True)
            loads.append(os.getloadavg()[0])
    _report(settings, layout, start, args.rounds, loads)


def _report(settings, layout, start, rounds, loads) -> None:
    print(f"\nCPU seconds, median of {rounds} round(s), A4, nothing read from the render cache;"
          " 1-min load " + ", ".join(f"{x:.2f}" for x in loads))
    base_start = statistics.median(start["0"]) if "0" in start else None
    print(f"{'setting':<22} {'process start':>13}  stages laid out: CPU-s (saved by the patch)")
    for setting in settings:
        row = f"{_name(setting):<22} {statistics.median(start[setting]):13.3f}"
        if base_start is not None and setting != "0":
            row += f" ({statistics.median(start[setting]) - base_start:+.3f})"
        for (name, stage), runs in layout.items():
            if name != setting:
                continue
            cpu = statistics.median(runs)
            row += f"  {stage} {cpu:.2f}"
            base = layout.get(("0", stage))
            if base and setting != "0":
                base = statistics.median(base)
                row += f" ({cpu - base:+.2f} s, {100 * (cpu - base) / base:+.1f} %)"
        print(row)


if __name__ == "__main__":
    main()
