"""What each patch of another library's internals gains (issue 40: keep one only for > ~5 %).

    python benchmarks/bench_patches.py               # 3 rounds, every patch
    python benchmarks/bench_patches.py --rounds 1 --patch lines --patch derive

The project copies itself (content/, schemas/, templates/, tether_build/) into a temporary
folder and builds it once. Then, round after round, it lays out the card sheets and the
rulebook again from nothing (`tether build --force --only cards --only rulebook --paper a4`,
the bulk of a clean build's layout work, with nothing read from the render cache) under each
setting of `TETHER_STOCK_LAYOUT` (render/patches.py): every patch in force, each patch alone
switched off, and every one off. The settings alternate within a round, so a machine that
slows down slows every setting alike. Reported per setting: the median wall and CPU seconds
(the process and the workers it waited for) and the CPU a patch saves, as a share of the
all-patched figure. The CPU figure is the one to act on: on the shared 2-core machine the
wall clock follows the load. Runs on demand, not in pytest.
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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tether_build.render.patches import PATCHES, STOCK_ENV


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


def _build(repo: Path, setting: str, force: bool) -> tuple[float, float]:
    cmd = [sys.executable, "-c", "from tether_build.cli import run; run()", "build",
           "--content", str(repo / "content"), "--out", str(repo / "build"), "--paper", "a4",
           "--quiet", "--only", "cards", "--only", "rulebook"]
    if force:
        cmd.append("--force")
    env = dict(os.environ, PYTHONPATH=str(repo), **{STOCK_ENV: setting})
    cpu, start = _cpu_of_children(), time.perf_counter()
    done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"build failed under {STOCK_ENV}={setting!r}:\n{done.stdout[-2000:]}"
                 f"\n{done.stderr[-2000:]}")
    return wall, _cpu_of_children() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--patch", action="append", choices=PATCHES,
                    help="measure only these patches (repeatable; default: every one)")
    args = ap.parse_args()
    settings = ["0", *[p for p in PATCHES if not args.patch or p in args.patch], "1"]
    figures: dict[str, list[tuple[float, float]]] = {s: [] for s in settings}
    with tempfile.TemporaryDirectory(prefix="tether-patches-") as tmp:
        repo = _copy(Path(tmp))
        _build(repo, "0", force=False)   # every other stage's outputs and the code's caches
        loads = [os.getloadavg()[0]]
        for _ in range(args.rounds):
            for setting in settings:
                figures[setting].append(_build(repo, setting, force=True))
            loads.append(os.getloadavg()[0])
    base_cpu = statistics.median(c for _, c in figures["0"])
    print(f"card sheets and rulebook (A4) laid out from nothing, {args.rounds} round(s), "
          f"{os.cpu_count()} cores, 1-min load " + ", ".join(f"{x:.2f}" for x in loads))
    print(f"{'setting':<24} {'wall s':>8} {'CPU s':>8}  CPU saved by the patch")
    for setting in settings:
        wall = statistics.median(w for w, _ in figures[setting])
        cpu = statistics.median(c for _, c in figures[setting])
        name = {"0": "every patch", "1": "no patch (stock)"}.get(setting, f"without {setting}")
        saved = "" if setting == "0" else f"{(cpu - base_cpu) / base_cpu * 100:+.1f} %"
        if setting not in ("0", "1"):
            saved += ("  (keep: > 5 %)" if (cpu - base_cpu) / base_cpu > 0.05 else
                      "  (under 5 %)")
        print(f"{name:<24} {wall:8.2f} {cpu:8.2f}  {saved}")


if __name__ == "__main__":
    main()
