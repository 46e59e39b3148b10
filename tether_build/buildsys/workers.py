"""Rendering a build's stale stages: the independent ones side by side, in forked processes.

The heavy stages (check, cards, rulebook, tiles, board) read only the validated content and
the render cache, so they can run at once. The content is loaded once, here, before forking:
every worker inherits it. Each stage's outputs come back to this process and are used in
build order, so the bytes a build writes are the same whatever the number of workers, and the
same as one stage after another. A stage may run `after` another when both run, or wait for
one midway (`wait_for`: the rulebook lays out its pages, then waits for the cards stage and
reuses the faces it laid out into the render cache). A failure is reported
as a serial build would: the first failing stage in build order; the others finish first.
Light stages (validate, engine, notes) run in this process, and so does everything when only
one heavy stage is stale or the machine has one core; so does a heavy stage whose work is in
the render cache (`quick`: the check after a text edit), while the workers run the others.

A build in a fresh process forks the process its workers will fork from as soon as one heavy
stage's key has changed (`preload`: before the content is loaded). That process imports
WeasyPrint and the layout code while this one loads the content and hashes the other keys;
then it gets the loaded content and the stages to run (pickled: a few milliseconds), forks
the workers and sends back each stage's outcome as it ends. Both halves take about 0.2 s, so
a card edit's build starts laying out about 0.2 s sooner. This process runs the light stages
once the job is sent, not before (they took about 0.1 s that the preloaded process, done
importing, spent waiting for its job); then a heavy stage that lays nothing out (`lays_out`
False: the check), rather than wait for the workers: it needs no layout library, and
leaves the workers to the stages that lay out.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import time
from collections.abc import Callable

from .. import forking
from ..forking import fork_pool
from .commit import Outputs

_JOB: dict = {}              # set before forking the workers, read by _work in the child
_PRELOADED: dict = {}        # this build's preloaded process (preload): its pid and pipe end

Render = Callable[[object, object], dict[str, bytes]]   # (stage, ctx) -> {relpath: bytes}
Outcome = tuple[Outputs, list[str], float]                # outputs, new warnings, seconds


def _workers(heavy: int, jobs: int | None) -> int:
    """Worker processes for `heavy` stages that may run side by side (1: in this process);
    jobs: the most at once (None: one per core)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1   # the workers inherit the loaded content by fork
    return max(1, min(heavy, jobs or os.cpu_count() or 1))


def _run(render: Render, stage, ctx, beside: bool = False) -> Outcome:
    """Render one stage: its outputs (compared with the output folder's files here, so a
    worker sends back only those that changed), the warnings it added and its seconds.
    beside: other stages run meanwhile, so one that gives way forks its own workers (the
    check's sweep) at a lower CPU priority (forking.giving_way)."""
    from dataclasses import replace

    from ..forking import giving_way
    from .reads import recording

    before, t0 = len(ctx.warnings), time.perf_counter()
    with giving_way() if beside and getattr(stage, "gives_way", False) \
            else contextlib.nullcontext(), recording() as record:
        outputs = render(stage, ctx)
    seconds = round(time.perf_counter() - t0, 2)
    done = replace(Outputs.against(ctx.out, outputs), reads=frozenset(record))
    return done, ctx.warnings[before:], seconds


def _work(index: int) -> Outcome:
    """In a worker: render the stage at `index` of the job."""
    return _run(_JOB["render"], _JOB["stages"][index], _JOB["ctx"], beside=True)


def run_stages(ctx, stages: list, render: Render,
               progress: Callable[[str, str], None]) -> dict[str, Outcome]:
    """Render every stage (in build order); raise the first failure in build order."""
    heavy = [s for s in stages if s.parallel]
    workers = _workers(len(heavy), ctx.jobs)
    if workers < 2:
        heavy = []
    results: dict[str, Outcome | BaseException] = {}
    if heavy and _PRELOADED:   # the workers' job first, then the light stages: see _side_by_side
        _prefetch(ctx, layout=False)
        results.update(_side_by_side(ctx, heavy, render, progress, workers, _quick(ctx, heavy),
                                     [s for s in stages if s not in heavy], stages))
    else:
        for index, stage in enumerate(stages):
            if stage not in heavy:
                progress(stage.name, "running")
                try:
                    results[stage.name] = _run(render, stage, ctx)
                except Exception as exc:  # noqa: BLE001  (raised below, in build order)
                    results[stage.name] = exc
                    heavy = [s for s in heavy if stages.index(s) < index]  # a serial build's
                    break
        if heavy:
            _prefetch(ctx)
            results.update(_side_by_side(ctx, heavy, render, progress, workers,
                                         _quick(ctx, heavy)))
    for stage in stages:
        if isinstance(results.get(stage.name), BaseException):
            raise results[stage.name]
    return results


def _prefetch(ctx, layout: bool = True) -> None:
    """Load the content and cards, and import the layout library (unless a preloaded process
    has: `layout` False), once, before forking, so no worker does it again (two or more
    heavy stages: at least one of them lays out)."""
    if layout:
        _import_layout()
    _ = ctx.content
    try:
        _ = ctx.cards
    except Exception:  # noqa: BLE001, S110  (the stage that reads the cards raises it)
        pass


def _import_layout() -> None:
    from ..print.preload import load_layout

    load_layout()   # the layout libraries and the versions the cache keys name: inherited


def preload(ctx, warm: tuple[str, ...] = ()) -> None:
    """Fork now the process this build's workers will fork from, which imports the layout
    library meanwhile (see the module docstring); release() ends it. Not when the stages
    would run one after another (one core, --jobs 1), nor when this process has the
    library already (a `--watch` build). warm: modules the stages import as they start,
    imported there too while it waits for its job (_warm)."""
    if _PRELOADED or ctx.jobs == 1 or (os.cpu_count() or 1) < 2 \
            or "fork" not in multiprocessing.get_all_start_methods() \
            or "weasyprint" in sys.modules:
        return
    ours, theirs = multiprocessing.Pipe()
    sys.stdout.flush()   # (what is buffered would be written twice)
    sys.stderr.flush()
    pid = forking.fork()
    if pid == 0:
        code = 1
        try:
            os.setpgid(0, 0)   # a group of its own, with the workers it forks: see release()
            ours.close()
            _preloaded(theirs, warm)
            code = 0
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)   # nothing of the parent's to run or clean up here
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)   # (either side may set it first)
    theirs.close()
    _PRELOADED.update(pid=pid, pipe=ours)


def release() -> None:
    """End this build's preloaded process: at once, with every worker it forked (its process
    group), unless it has said its stages ended (it had nothing to do, or the build stops on
    an error or Ctrl-C: a terminal's Ctrl-C reaches this process alone)."""
    if not _PRELOADED:
        return
    pid, pipe, ended = _PRELOADED["pid"], _PRELOADED["pipe"], _PRELOADED.get("ended", False)
    _PRELOADED.clear()
    pipe.close()
    if not ended:
        import signal

        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:   # (not its group's leader yet: the process alone)
            os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _warm(pipe, modules: tuple[str, ...]) -> None:
    """Import `modules` one by one while no job has come (pipe.poll): what each stage's
    worker would import on its own as it starts (the rulebook's chapters, examples and
    engine, about 0.24 CPU-s; the cards' and the table's 0.07 each, some of them shared),
    imported once here and inherited by every worker, on a core that would otherwise wait
    for this build's process to load the content and work out the keys. Stopped as soon
    as the job is there; a module that fails to import is left to the stage that needs
    it (it reports the error itself). Imports only: a module that reads a file as it is
    imported reads the tool's own code, which every stage's key hashes (reads.py)."""
    import importlib

    for name in modules:
        if pipe.poll():
            return
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001, S112  (the stage that imports it reports it)
            continue


def _preloaded(pipe, warm: tuple[str, ...] = ()) -> None:
    """The preloaded process: import, then run the stages it is sent over the workers it
    forks, sending ("progress", name, status) and ("stage", name, outcome or exception) as
    they come, then ("end", None); a BaseException ends it as ("raised", exception). While
    it waits for its job, it imports the `warm` modules (_warm)."""
    try:
        _import_layout()
    except Exception:  # noqa: BLE001, S110  (no print extra, no Pango...: the stages that lay out say so)
        pass
    _warm(pipe, warm)
    try:
        job = pipe.recv()
    except EOFError:
        return   # the build needed no worker
    ctx, stages, render, workers = job
    try:
        _pool(ctx, stages, render, lambda name, status: pipe.send(("progress", name, status)),
              workers, lambda name, got: pipe.send(("stage", name, got)))
    except BaseException as exc:  # (Ctrl-C in a worker: the build stops)
        pipe.send(("raised", exc))
        raise
    pipe.send(("end", None))


def _remote(ctx, stages: list, render: Render, progress, workers: int,
            here: Callable[[], None]) -> dict[str, Outcome | BaseException] | None:
    """The stages in the preloaded process (its workers), `here` run meanwhile; None (and
    nothing run) when the job cannot be pickled."""
    import pickle
    import threading
    from multiprocessing.reduction import ForkingPickler

    pipe = _PRELOADED["pipe"]
    try:
        job = ForkingPickler.dumps((ctx, stages, render, workers))
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    # (the job is larger than the pipe holds: it is sent while `here` runs, however long
    # the preloaded process still takes to import)
    sending = threading.Thread(target=pipe.send_bytes, args=(job,))
    sending.start()
    try:
        here()
    finally:
        sending.join()
    out: dict[str, Outcome | BaseException] = {}
    while True:
        try:
            kind, *what = pipe.recv()
        except EOFError:
            from ..errors import TetherError
            raise TetherError("the process that ran the build's stages side by side ended "
                              "before they did (out of memory?)") from None
        if kind == "progress":
            progress(*what)
        elif kind == "stage":
            out[what[0]] = what[1]
        elif kind == "raised":
            raise what[0]
        else:
            _PRELOADED["ended"] = True
            return out


def _quick(ctx, stages: list) -> set[str]:
    """The stages whose work is cached (`quick`): they run in this process while the workers
    run the others, so no slow stage waits for a worker that one of them holds. Not a stage
    that another runs `after`; one whose quick test raises is not quick (the stage reports
    the error itself, in build order)."""
    from .stagecall import call_stage

    def quick(stage) -> bool:
        if not stage.quick or stage.name in {s.after for s in stages}:
            return False
        try:
            return bool(call_stage(stage.quick, ctx))
        except Exception:  # noqa: BLE001
            return False
    return {s.name for s in stages if quick(s)}


def wait_for(name: str) -> None:
    """In a stage: block until the stage `name` of this build is done, when it runs side by
    side (in build order, or when it is not stale, it is done already). Only for a stage
    earlier in build order: the workers take stages in that order, so it is running."""
    event = _JOB.get("events", {}).get(name)
    if event is not None:
        event.wait()


def _side_by_side(ctx, stages: list, render: Render, progress, workers: int,
                  here: set[str] = frozenset(), light: list = (), order: list = ()
                  ) -> dict[str, Outcome | BaseException]:
    """The stages over `workers` forked processes (from the preloaded process when there is
    one), each started once what it runs after is done; those named in `here` run in this
    process once the workers have theirs.

    light: stages that run in this process first, once the workers have theirs (a fresh
    build's validate, engine and notes: the preloaded process, done importing, need not
    wait for them, about 0.1 s); `order`, the build's stages in build order. As a serial
    build would, one that fails stops them, and the `here` stages after it in build order
    are not run; the workers' stages after it run (they were sent first) and are not used."""
    out: dict[str, Outcome | BaseException] = {}
    first = [s for s in stages if s.name in here]   # quick: their work is cached
    if _PRELOADED:   # and this process would wait meanwhile: see _plain
        here = set(here) | _plain(stages, here)

    def run_here() -> None:
        failed = len(order)   # build-order index of the light stage that failed
        for stage in light:
            progress(stage.name, "running")
            try:
                out[stage.name] = _run(render, stage, ctx)
            except Exception as exc:  # noqa: BLE001  (raised in build order)
                out[stage.name], failed = exc, order.index(stage)
                break
        for stage in first + [s for s in stages if s.name in here and s not in first]:
            if light and order.index(stage) > failed:
                continue
            progress(stage.name, "running")
            try:
                out[stage.name] = _run(render, stage, ctx, beside=True)
            except Exception as exc:  # noqa: BLE001  (raised in build order)
                out[stage.name] = exc

    away = [s for s in stages if s.name not in here]
    if _PRELOADED and away:
        got = _remote(ctx, away, render, progress, workers, run_here)
        if got is not None:
            out.update(got)
            return out
        _import_layout()   # (the preloaded process is ended by release)
    out.update(_pool(ctx, away, render, progress, workers, lambda name, got: None, run_here))
    return out


def _plain(stages: list, here: set[str]) -> set[str]:
    """The stages that lay nothing out (the check), to run in this process while the
    preloaded one runs the others (at least one stays there): they start as soon as the
    content is loaded, not once the layout library is imported, and the workers are left
    to the stages that lay out. Not a stage that another runs `after`."""
    plain = {s.name for s in stages if not getattr(s, "lays_out", True)
             and s.name not in {t.after for t in stages}}
    rest = [s for s in stages if s.name not in here and s.name not in plain]
    return plain if rest else set()


def _gives_way(stage, stages: list) -> bool:
    """Whether a stage runs at a lower CPU priority beside the others: it says it gives way
    (`gives_way`: its work is shorter, the tiles), a stage that does not runs beside it,
    and none runs after it."""
    return bool(getattr(stage, "gives_way", False)) and stage.name not in {
        s.after for s in stages} and any(not getattr(s, "gives_way", False) for s in stages)


def _pool(ctx, stages: list, render: Render, progress, workers: int,
          done: Callable[[str, object], None], meanwhile: Callable[[], None] = lambda: None
          ) -> dict[str, Outcome | BaseException]:
    """The stages over `workers` forked processes, each started once what it runs after (if
    it is among them) is done; `meanwhile` runs here once the first have started, and
    done(name, outcome or exception) as each ends. The stages that give way (`gives_way`,
    when others run beside them) run in processes of their own at a lower CPU priority
    (forking.GIVE_WAY): they take the cores the others leave, as many at once as there are
    workers, so once the others have ended every core goes on with them (with one such
    process, the tiles, the board and the table ran one after another on one core while
    the other was idle)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    from ..forking import GIVE_WAY

    names = {s.name for s in stages}
    waiting = list(range(len(stages)))
    running: dict = {}
    out: dict[str, Outcome | BaseException] = {}
    fork = multiprocessing.get_context("fork")
    events = {s.name: fork.Event() for s in stages}   # made before the workers fork
    behind = {i for i, s in enumerate(stages) if _gives_way(s, stages)}
    _JOB.update(ctx=ctx, stages=stages, render=render, events=events)
    try:
        with fork_pool(max(1, min(workers, len(stages) - len(behind))), cancel=True) as pool, \
                (fork_pool(min(workers, len(behind)), cancel=True, nice=GIVE_WAY) if behind
                 else contextlib.nullcontext()) as slow:
            while True:
                for i in [i for i in waiting if stages[i].after not in names - set(out)]:
                    waiting.remove(i)
                    progress(stages[i].name, "running")
                    running[(slow if i in behind else pool).submit(_work, i)] = stages[i].name
                if meanwhile is not None:
                    meanwhile()
                    meanwhile = None
                if not running:   # (what still waits runs after a stage that failed: dropped)
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    name = running.pop(future)
                    error = future.exception()
                    if error is not None and not isinstance(error, Exception):
                        raise error   # Ctrl-C in a worker: stop now
                    out[name] = error if error is not None else future.result()
                    events[name].set()
                    done(name, out[name])
                    if error is not None:   # what runs after it is not needed: the build fails
                        waiting = [i for i in waiting if stages[i].after != name]
    finally:
        _JOB.clear()
    return out
