"""A build in a fresh process forks the process its stage workers fork from as soon as a heavy
stage's key has changed, and that one imports the layout library while the build loads the
content (stagerun.preload): the same bytes, the same errors, no process left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from test_build_parallel import _outputs

from tests.conftest import SERIAL_STAGES

ROOT = Path(__file__).resolve().parent.parent
STAGES = SERIAL_STAGES   # two heavy stages that lay out, one light

DRIVER = """
import json, os, sys
from tether_build.commands import build; from tether_build.buildsys import workers as stagerun
from tether_build.errors import TetherError

forked = []
real = stagerun.preload
def preload(ctx, *warm):
    real(ctx, *warm)
    forked.append(bool(stagerun._PRELOADED))
stagerun.preload = preload
if {fail!r}:
    def fails(name):
        def stage(ctx):
            raise TetherError(name + " failed")
        return stage
    build.tiles_stage, build.board_stage = fails("tiles"), fails("board")
from tether_build.cli import main
try:
    main({args!r})
except SystemExit as exc:
    code = exc.code
print(json.dumps({{"code": code, "weasyprint": "weasyprint" in sys.modules,
                  "preloaded": any(forked), "left": stagerun._PRELOADED}}), file=sys.stderr)
"""


def _fresh(content: Path, out: Path, fail: bool = False) -> tuple[dict, str, str]:
    """`tether build` of STAGES in a new process: (what the driver saw, stdout, the rest of
    stderr)."""
    args = ["build", "--content", str(content), "--out", str(out), "--paper", "a4", "--json"]
    args += [a for stage in STAGES for a in ("--only", stage)]
    done = subprocess.run([sys.executable, "-c", DRIVER.format(args=args, fail=fail)],
                          cwd=ROOT, capture_output=True, text=True, check=False,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    *said, last = done.stderr.strip().splitlines()
    return json.loads(last), done.stdout, "\n".join(said)


def test_a_fresh_build_lays_out_in_its_preloaded_process_and_writes_the_same_bytes(
        small_content, tmp_path, small_serial_build):
    """Compared with the run's shared serial build of the same stages (--jobs 1)."""
    seen, out, _ = _fresh(small_content, tmp_path / "fresh")
    assert seen == {"code": 0, "weasyprint": False, "preloaded": True, "left": {}}, out
    summary = json.loads(out)
    assert all(summary["stages"][name]["status"] == "built" for name in STAGES)
    assert small_serial_build["exit_code"] == 0, small_serial_build["output"]
    serial = Path(small_serial_build["out"])
    assert _outputs(tmp_path / "fresh") == _outputs(serial)
    # nothing to build: no stage key changed, nothing is forked, the outputs stay
    seen, out, _ = _fresh(small_content, tmp_path / "fresh")
    assert seen == {"code": 0, "weasyprint": False, "preloaded": False, "left": {}}
    assert {s["status"] for s in json.loads(out)["stages"].values()} == {"up to date"}
    assert _outputs(tmp_path / "fresh") == _outputs(serial)


def test_a_failing_stage_in_the_preloaded_process_is_reported_in_build_order(small_content,
                                                                             tmp_path):
    out = tmp_path / "build"
    seen, said, told = _fresh(small_content, out, fail=True)
    text = said + told
    assert seen["code"] == 1 and seen["preloaded"] and seen["left"] == {}
    assert "tiles failed" in text and "board failed" not in text
    assert not out.exists() or _outputs(out) == {}   # nothing written


def test_an_unused_preloaded_process_is_ended_at_once(tmp_path):
    from tether_build.buildsys import workers as stagerun
    from tether_build.commands.build import Context

    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from tether_build.buildsys import workers as stagerun\n"
        "from tether_build.commands.build import Context\n"
        f"stagerun.preload(Context(Path({str(tmp_path)!r}), Path({str(tmp_path / 'o')!r})))\n"
        "pid = stagerun._PRELOADED['pid']\n"
        "stagerun.release()\n"
        "print(pid)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    pid = done.stdout.strip()
    try:
        os.kill(int(pid), 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive
    # no preloading for --jobs 1, nor where the layout library is loaded already
    stagerun.preload(Context(tmp_path, tmp_path / "o", jobs=1))
    assert stagerun._PRELOADED == {}
    import tether_build.print.layout.pdf  # noqa: F401

    stagerun.preload(Context(tmp_path, tmp_path / "o"))
    assert stagerun._PRELOADED == {}


def _stages_script(tmp_path, body: str) -> dict:
    """Run, in a new process, a script that runs stages of its own (S: a stage as
    run_stages sees it) with a Context `ctx` on tmp_path, two jobs, its content loaded
    (empty), `body` after that; what it printed, as JSON."""
    script = (
        "import json, os, sys\n"
        "from dataclasses import dataclass\n"
        "from pathlib import Path\n"
        "from tether_build.buildsys import workers as stagerun\n"
        "from tether_build.commands.build import Context\n"
        "@dataclass(eq=False)\n"
        "class S:\n"
        "    name: str\n"
        "    parallel: bool = True\n"
        "    after: str | None = None\n"
        "    quick: str | None = None\n"
        "    lays_out: bool = True\n"
        f"ctx = Context(Path({str(tmp_path)!r}), Path({str(tmp_path / 'o')!r}), jobs=2)\n"
        "ctx._content, ctx._cards = {}, []\n" + body)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, check=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    return json.loads(done.stdout)


def test_stages_whose_job_cannot_be_pickled_run_from_this_process(tmp_path):
    """The preloaded process gets its job pickled; a render function that pickle cannot name
    (a lambda) has the stages run from the building process instead, as without one."""
    seen = _stages_script(tmp_path, (
        "stagerun.preload(ctx)\n"
        "preloaded = bool(stagerun._PRELOADED)\n"
        "render = lambda stage, ctx: {stage.name: str(os.getppid()).encode()}\n"
        "done = stagerun.run_stages(ctx, [S('a'), S('b')], render, lambda *a: None)\n"
        "stagerun.release()\n"
        "print(json.dumps({'preloaded': preloaded, 'pid': os.getpid(),\n"
        "                  'parents': [int(out[0].changed[n]) for n, out in done.items()]}))\n"))
    assert seen["preloaded"] and seen["parents"] == [seen["pid"], seen["pid"]]


def test_a_stage_that_lays_nothing_out_runs_here_while_the_preloaded_process_imports(tmp_path):
    """The check lays nothing out: beside a preloaded process it runs in the building
    process (which would wait), from the start, not once the layout library is imported;
    the stages that lay out run in the preloaded process's workers. Without stages that lay
    out beside it, it runs with the others."""
    got = _stages_script(tmp_path, (
        "def render(stage, ctx):\n"
        "    return {stage.name: json.dumps([os.getpid(), 'weasyprint' in sys.modules]).encode()}\n"
        "seen = {}\n"
        "for stages in ([S('check', lays_out=False), S('rulebook'), S('tiles')],\n"
        "               [S('check', lays_out=False), S('other', lays_out=False)]):\n"
        "    stagerun.preload(ctx)\n"
        "    done = stagerun.run_stages(ctx, stages, render, lambda *a: None)\n"
        "    stagerun.release()\n"
        "    seen[len(seen)] = {n: json.loads(out[0].changed[n]) for n, out in done.items()}\n"
        "print(json.dumps({'pid': os.getpid(), 'seen': seen}))\n"))
    pid, (laying, plain) = got["pid"], got["seen"].values()
    assert laying["check"] == [pid, False]   # here, before the library was imported here
    assert all(laying[n][0] != pid and laying[n][1] for n in ("rulebook", "tiles"))
    assert all(plain[n][0] != pid for n in ("check", "other"))   # nothing beside to wait for


def test_the_light_stages_run_while_the_workers_run_theirs(tmp_path):
    """Beside a preloaded process, the building process sends the workers their job first,
    then runs the light stages (validate, engine, notes) and the check: a light stage sees
    what a worker's stage did meanwhile. A light stage that fails is the build's error, in
    build order, and the stages this process would run after it in build order are not."""
    got = _stages_script(tmp_path, (
        "import time\n"
        "flag = Path(ctx.content_dir) / 'laid-out'\n"
        "ran = []\n"
        "def render(stage, ctx):\n"
        "    if stage.name == 'rulebook':\n"
        "        flag.write_text('yes')\n"
        "    if stage.name == 'notes':   # (waits for the rulebook, at most 20 s)\n"
        "        end = time.time() + 20\n"
        "        while not flag.exists() and time.time() < end:\n"
        "            time.sleep(0.01)\n"
        "    if stage.name == FAIL:\n"
        "        raise ValueError(stage.name + ' failed')\n"
        "    ran.append(stage.name)\n"
        "    return {stage.name: str(flag.exists()).encode()}\n"
        "def stages():\n"
        "    return [S('validate', parallel=False), S('check', lays_out=False),\n"
        "            S('engine', parallel=False), S('notes', parallel=False), S('rulebook'),\n"
        "            S('tiles')]\n"
        "seen = {}\n"
        "for FAIL in ('', 'engine', 'validate'):\n"
        "    flag.unlink(missing_ok=True)\n"
        "    ran.clear()\n"
        "    stagerun.preload(ctx)\n"
        "    try:\n"
        "        done = stagerun.run_stages(ctx, stages(), render, lambda *a: None)\n"
        "        seen[FAIL] = {n: out[0].changed[n].decode() for n, out in done.items()}\n"
        "    except ValueError as exc:\n"
        "        seen[FAIL] = {'error': str(exc), 'here': list(ran)}\n"
        "    stagerun.release()\n"
        "print(json.dumps(seen))\n"))
    assert got[""]["notes"] == "True"   # the rulebook had run: its job went first
    assert set(got[""]) == {"validate", "check", "engine", "notes", "rulebook", "tiles"}
    assert got["engine"] == {"error": "engine failed", "here": ["validate", "check"]}
    assert got["validate"] == {"error": "validate failed", "here": []}


def _alive(pid: int) -> bool:
    """A process that runs (a zombie waiting to be reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children(pid: int) -> list[int]:
    done = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                          check=False)
    return [int(p) for p in done.stdout.split()]


def test_ctrl_c_while_the_workers_run_stops_every_process_and_writes_nothing(small_content,
                                                                             tmp_path):
    """Ctrl-C reaches the terminal's process group: the building process, not the preloaded
    process's group, which release() kills with every worker in it."""
    import signal
    import time

    out = tmp_path / "build"
    first, _, _ = _fresh(small_content, out)
    assert first["code"] == 0
    def written() -> dict:
        return {p: p.stat().st_mtime_ns for p in out.rglob("*")
                if p.is_file() and ".cache" not in p.relative_to(out).parts}

    before = written()
    args = ["build", "--content", str(small_content), "--out", str(out), "--paper", "a4",
            "--quiet", "--force", *(a for stage in STAGES for a in ("--only", stage))]
    interactive = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
                   "from tether_build.cli import main; main()")   # (as at a terminal)
    build = subprocess.Popen([sys.executable, "-c", interactive, *args], cwd=ROOT,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             start_new_session=True, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    preloaded = workers = []
    deadline = time.monotonic() + 60
    while not workers and build.poll() is None and time.monotonic() < deadline:
        preloaded = _children(build.pid)
        workers = [w for p in preloaded for w in _children(p)]
        time.sleep(0.01)
    assert workers, "the preloaded process forked no worker"
    os.killpg(build.pid, signal.SIGINT)   # what a terminal's Ctrl-C does
    _, said = build.communicate(timeout=60)
    assert build.returncode != 0 and "Aborted" in said
    time.sleep(0.2)
    assert [p for p in [*preloaded, *workers] if _alive(p)] == []
    assert written() == before   # no output written (nor the manifest)

