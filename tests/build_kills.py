"""Builds killed at random points (SIGKILL): every time all-old or all-new outputs, and no
temporary file left once the next build has run (issue 43).

A `Killer` holds a throw-away project (tests/build_edits.Project) whose output folder has been
built from the old content; a second content folder holds the new one (one card's text
edited). It records the outputs of the old build and of the new one, made in the same folder
(some outputs name their folder). Each trial puts the old build back, starts the new build in
a subprocess, reads its progress lines, and after the k-th line and a random delay (both
seeded) kills its whole process group with SIGKILL. Then, as every command that reads or
writes the folder does first (buildlock.output_lock), the killed build's swap is completed or
rolled back, and the outputs must equal the old or the new ones; the manifest must describe
them. Last the new build runs to the end: all-new, and no temporary file, staging folder or
lock file is left.

Used by tests/test_build_kill.py (a few kills, three quick stages) and
benchmarks/kill_builds.py (20 kills of a full build).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from build_edits import Project

SKIP = (".cache/", ".tether-build.json", ".tether-lock")
# A slow disk (test harness only): each staged file and each move of the swap takes `slow`
# seconds more, so that kills land inside the swap often, not only by luck.
SLOW = ("import os, time, types\nimport tether_build.buildsys.commit as c\n"
        "w, r = c._write, os.replace\n"
        "c._write = lambda p, d: (time.sleep({slow}), w(p, d))[1]\n"
        "c.os = types.SimpleNamespace(**{{**vars(os), 'replace': "
        "lambda a, b: (time.sleep({slow}), r(a, b))[1]}})\n")
TIDY = ("import sys\nfrom pathlib import Path\nfrom tether_build.buildsys.lock import output_lock\n"
        "with output_lock(Path(sys.argv[1]), 'kill test') as done:\n    print(done or '')\n")


def outputs(out: Path) -> dict[str, str]:
    """Every output's SHA-256 (the render cache, the manifest and the lock left out)."""
    found = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        rel = path.relative_to(out).as_posix()
        if not rel.startswith(SKIP) and ".tether-staging" not in rel:
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def leftovers(out: Path) -> list[str]:
    """Temporary files, a staging folder or a lock file anywhere under `out`."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                  if p.name.endswith(".tmp") or p.name in (".tether-staging", ".tether-lock"))


def manifest_mismatches(out: Path) -> list[str]:
    """Outputs the manifest lists whose bytes on disk differ from its digest."""
    try:
        manifest = json.loads((out / ".tether-build.json").read_text())
    except (OSError, ValueError):
        return ["(no manifest)"]
    bad = []
    for entry in manifest.values():
        for rel, digest in entry.get("outputs", {}).items():
            path = out / rel
            if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
                bad.append(rel)
    return bad


@dataclass
class Kill:
    line: int          # killed after this many progress lines ...
    delay: float       # ... and this many seconds more
    ended: bool        # the build had ended by itself before the kill
    in_swap: str       # "decided" (commit record written), "staged" (not yet), "" (neither)
    raw: str           # the outputs right after the kill, before any command ran: the same
    verdict: str       # "old", "new" or "MIXED", once the next command has begun
    tidy: str          # what the next command did with the folder
    left: list[str]    # temporary files after the next full build
    differs: list[str]  # outputs neither old nor new (MIXED), or not as the manifest says


class Killer:
    def __init__(self, root: Path, args: tuple[str, ...], edit, slow: float = 0.0):
        """`args`: the build's options (after --content/--out); `edit(content)` makes the
        new content from a copy of the old one; `slow`: seconds added to each file of the
        killed builds' swaps."""
        self.project = Project.make(root)
        self.slow = slow
        self.args = args
        self.out = root / "build"
        self.new = root / "content-new"
        shutil.copytree(self.project.content, self.new)
        edit(self.new)
        self.run("content")
        self.old = outputs(self.out)
        self.pristine = root / "build-old"
        shutil.copytree(self.out, self.pristine, symlinks=True)
        proc = self.run("content-new")
        self.lines = len(proc.stderr.splitlines())
        self.new_outputs = outputs(self.out)
        changed = [r for r in self.new_outputs if self.old.get(r) != self.new_outputs[r]]
        if len(changed) < 2:
            raise AssertionError(f"the edit changes too few outputs to see a mix: {changed}")
        self.changed = changed

    def command(self, content: str, slow: float = 0.0) -> list[str]:
        code = (SLOW.format(slow=slow) if slow else "") + "from tether_build.cli import run; run()"
        return [sys.executable, "-c", code, "build", "--content", content, "--out", "build",
                *self.args]

    def env(self) -> dict:
        return dict(os.environ, PYTHONPATH=str(self.project.root))

    def run(self, content: str) -> subprocess.CompletedProcess:
        proc = subprocess.run(self.command(content), cwd=self.project.root, env=self.env(),
                              capture_output=True, text=True, timeout=900, check=False)
        if proc.returncode != 0:
            raise AssertionError(f"build failed:\n{proc.stdout}\n{proc.stderr}")
        return proc

    def trial(self, rng: random.Random, max_delay: float = 0.5, last: bool = False) -> Kill:
        """One kill: after a random number of progress lines (`last`: after the last one, as
        the swap starts) and a random delay up to `max_delay` seconds."""
        shutil.rmtree(self.out)
        shutil.copytree(self.pristine, self.out, symlinks=True)
        line = self.lines if last else rng.randint(0, self.lines)
        delay = rng.uniform(0.0, max_delay)
        proc = subprocess.Popen(self.command("content-new", self.slow), cwd=self.project.root,
                                env=self.env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        ended = False
        for _ in range(line):
            if not proc.stderr.readline():
                ended = True
                break
        time.sleep(delay)
        ended = ended or proc.poll() is not None
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        proc.stderr.close()
        staging = self.out / ".tether-staging"
        in_swap = ("decided" if (staging / "COMMIT.json").exists() else
                   "staged" if staging.exists() else "")
        raw = self.verdict(outputs(self.out))
        tidy = subprocess.run([sys.executable, "-c", TIDY, str(self.out)],
                              cwd=self.project.root, env=self.env(), capture_output=True,
                              text=True, timeout=120, check=True).stdout.strip()
        now = outputs(self.out)
        verdict = self.verdict(now)
        differs = []
        if verdict == "MIXED":
            for rel in sorted(set(now) | set(self.old) | set(self.new_outputs)):
                was, will, has = self.old.get(rel), self.new_outputs.get(rel), now.get(rel)
                if was != will or has not in (was, will):
                    differs.append(f"{'old' if has == was else 'new' if has == will else '??'}"
                                   f": {rel}")
        differs += [f"manifest: {r}" for r in manifest_mismatches(self.out)]
        self.run("content-new")
        left = leftovers(self.out)
        if outputs(self.out) != self.new_outputs:
            differs.append("the next build did not give the new outputs")
        return Kill(line, round(delay, 3), ended, in_swap, raw, verdict, tidy, left, differs)

    def verdict(self, now: dict[str, str]) -> str:
        return "old" if now == self.old else "new" if now == self.new_outputs else "MIXED"
