"""Benchmark `tether build` (issue 8): clean full build, no-change rebuild, one-card edit.

    python benchmarks/bench_build.py                # every stage, both papers, 3 rounds
    python benchmarks/bench_build.py --repeat 1 --only cards --only rulebook

Each round copies the project (content/, schemas/, templates/ and the tether_build code, so
edits made elsewhere while it runs cannot disturb it) into a fresh temporary folder and runs
the real CLI (`tether build --json`) there in a new process, so the figures include
interpreter start-up and imports, as a designer sees them:

1. clean full build into an empty output folder (no cache);
2. rebuild with nothing changed;
3. rebuild after editing one card's text (until every affected output is updated);
4. rebuild after editing one card's effect and text together (the check plays again);
5. the same card's text edited again while `tether build --watch` runs (save to built).

Targets (2-core machine, the bars of issue 40; run_all.py holds the same): clean < 20 s,
nothing changed < 0.3 s, one card edited < 1.5 s (also under --watch).
Reports the median over rounds, each run's figures, per-stage seconds and the load average
(other work on the machine slows every figure; compare medians taken at similar load).
Runs on demand, not in pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# One card's rules text, in the biggest deck (its TTS sheet is the largest to redo).
EDIT = ("cards/age2_market.yaml", "Gain +2 {gold}.", "Gain +2 {gold} now.")
# The same card's number, in its text and its effect: the engine's definitions change.
EFFECT_EDIT = ("cards/age2_market.yaml",
               ('enemy [capital] right now, gain +3 {gold} more."\n    effect:\n'
               "      - {step: gain_gold, amount: 2}\n      - step: if\n"
               "        condition: {occupies: {enemy_capital: true}}\n        then:\n"
               "          - {step: gain_gold, amount: 3}"),
               ('enemy [capital] right now, gain +4 {gold} more."\n    effect:\n'
               "      - {step: gain_gold, amount: 2}\n      - step: if\n"
               "        condition: {occupies: {enemy_capital: true}}\n        then:\n"
               "          - {step: gain_gold, amount: 4}"))
EDITS_EXTRA: list[tuple[str, tuple[str, str, str]]] = []  # (name, edit) run_all.py adds
# The same card's text edited again while `tether build --watch` runs: new words, so nothing
# of it is in the render cache; timed from the save to the watcher's status line.
WATCH_EDIT = ("cards/age2_market.yaml", "Gain +2 {gold} now.", "Gain +2 {gold} at once.")
TARGETS = {"clean": 20.0, "nothing": 0.3, "one_card": 1.5, "one_effect": None,
           "one_card_watched": 1.5}


def cpu_of_children() -> float:
    """CPU seconds (user + system) of this process's ended children, and of theirs that
    they waited for (a build's stage and layout workers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _build(content: Path, out: Path, only: list[str]) -> tuple[float, dict]:
    """One `tether build --json` in a new process: (wall seconds, its JSON summary, with
    the CPU seconds it and its workers used as "cpu_s")."""
    repo = content.parent
    cmd = [sys.executable, "-c", "from tether_build.cli import run; run()", "build",
           "--content", str(content), "--out", str(out), "--json"]
    for stage in only:
        cmd += ["--only", stage]
    env = dict(os.environ, PYTHONPATH=str(repo))
    cpu = cpu_of_children()
    start = time.perf_counter()
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=repo,
                          env=env)
    wall = time.perf_counter() - start
    if proc.returncode:
        sys.exit(f"build failed:\n{proc.stdout}\n{proc.stderr}")
    return wall, dict(json.loads(proc.stdout), cpu_s=cpu_of_children() - cpu)


def _watched(content: Path, out: Path, only: list[str], edit: tuple[str, str, str]
             ) -> tuple[float, dict]:
    """One edit saved while `tether build --watch` runs (started after the watcher's first
    build): (seconds from the save to the end of its build, an empty summary)."""
    repo = content.parent
    cmd = [sys.executable, "-c", "from tether_build.cli import run; run()", "build",
           "--watch", "--quiet", "--content", str(content), "--out", str(out)]
    for stage in only:
        cmd += ["--only", stage]
    # Ctrl-C (SIGINT) stops the watcher, even when this benchmark runs in the background of
    # a shell without job control, which starts it with SIGINT ignored: a child inherits an
    # ignored signal, and a handled one is back to its default in the child
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    proc = subprocess.Popen(cmd, cwd=repo, env=dict(os.environ, PYTHONPATH=str(repo)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def status() -> str:
        for line in proc.stderr:
            if line.startswith("[watch] build"):
                return line
        sys.exit("the watcher stopped before reporting a build")

    try:
        if " done " not in status():
            sys.exit("the watcher's first build failed")
        time.sleep(0.5)   # the watcher's first look at the files after its build
        rel, old, new = edit
        path = content / rel
        text = path.read_text()
        if old not in text:
            sys.exit(f"benchmark edit not found in {path}: {old!r}")
        path.write_text(text.replace(old, new, 1))
        start = time.perf_counter()
        line = status()
        wall = time.perf_counter() - start
        if " done " not in line:
            sys.exit(f"the watched build failed: {line}")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    return wall, {"stages": {}, "written": []}


def _stages(summary: dict) -> dict[str, float]:
    return {name: s.get("seconds", 0.0) for name, s in summary["stages"].items()}


def copy_project(root: Path, dest: Path) -> None:
    """The project's content, schemas, templates and code into `dest` (a run there cannot
    be disturbed by edits made elsewhere meanwhile), the code's bytecode written as
    scripts/setup.sh writes it in a clone."""
    import compileall

    for name in ("content", "schemas", "templates", "tether_build"):
        shutil.copytree(root / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    compileall.compile_dir(str(dest / "tether_build"), quiet=1)


def run_round(only: list[str], root: Path = ROOT) -> dict:
    """Clean build, no-change rebuild and one-card rebuild in a fresh temp folder."""
    with tempfile.TemporaryDirectory(prefix="tether-bench-") as tmp:
        tmp = Path(tmp)
        content = tmp / "content"
        copy_project(root, tmp)
        out = tmp / "build"
        which = "import tether_build; print(tether_build.__file__)"
        used = subprocess.run([sys.executable, "-c", which], check=True, capture_output=True,
                              text=True, cwd=tmp, env=dict(os.environ, PYTHONPATH=str(tmp)))
        used = used.stdout.strip()
        if not Path(used).is_relative_to(tmp):
            sys.exit(f"the benchmark would run {used}, not its copy under {tmp}")
        runs = {}
        runs["clean"] = _build(content, out, only)
        runs["nothing"] = _build(content, out, only)
        for name, (rel, old, new) in [("one_card", EDIT), ("one_effect", EFFECT_EDIT),
                                      *EDITS_EXTRA]:
            path = content / rel
            text = path.read_text()
            if old not in text:
                sys.exit(f"benchmark edit not found in {path}: {old!r}")
            path.write_text(text.replace(old, new, 1))
            runs[name] = _build(content, out, only)
        runs["one_card_watched"] = _watched(content, out, only, WATCH_EDIT)
        if runs["nothing"][1]["written"]:   # e.g. code edited while the benchmark ran
            print(f"warning: no-change rebuild wrote {runs['nothing'][1]['written']}",
                  file=sys.stderr)
        return {name: {"wall": wall, "cpu": summary.get("cpu_s"), "stages": _stages(summary),
                       "written": len(summary["written"])}
                for name, (wall, summary) in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds (median reported)")
    parser.add_argument("--only", action="append", default=[], metavar="STAGE",
                        help="build only this stage (repeatable)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="project to measure (e.g. a checkout of an older version)")
    args = parser.parse_args()
    rounds, loads = [], [os.getloadavg()[0]]
    for _ in range(args.repeat):
        rounds.append(run_round(args.only, args.root))
        loads.append(os.getloadavg()[0])
    print(f"tether build benchmark of {args.root}: {args.repeat} round(s), "
          f"{os.cpu_count()} cores, 1-min load average at start and after each round: "
          f"{', '.join(f'{x:.2f}' for x in loads)}")
    for name, label in (("clean", "clean full build"), ("nothing", "nothing changed"),
                        ("one_card", "one card's text edited"),
                        ("one_effect", "one card's effect edited"),
                        ("one_card_watched", "same, --watch running")):
        walls = [r[name]["wall"] for r in rounds]
        med = statistics.median(walls)
        cpus = [r[name]["cpu"] for r in rounds if r[name]["cpu"] is not None]
        cpu = f", CPU {statistics.median(cpus):.2f} s" if cpus else ""
        target = TARGETS[name]
        verdict = ("no target" if target is None else
                   f"target < {target:g} s: {'met' if med < target else 'MISSED'}")
        print(f"{label:<26} median {med:6.2f} s{cpu}  (runs: "
              f"{', '.join(f'{w:.2f}' for w in walls)})  {verdict}; "
              f"{rounds[0][name]['written']} file(s) written")
        stages = rounds[0][name]["stages"]
        if not stages:
            continue
        per_stage = {s: statistics.median(r[name]["stages"].get(s, 0.0) for r in rounds)
                     for s in stages}
        print("    stages (median s): " + ", ".join(
            f"{s} {v:.2f}" if v else f"{s} -" for s, v in per_stage.items()))


if __name__ == "__main__":
    main()
