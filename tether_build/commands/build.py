"""`tether build`: validate, check, then every output — incremental and atomic.

The MkDocs recipe: gather and validate everything, render each stage in memory, and write
last. A stage whose inputs (content, templates, fonts, code, options) hash the same as in the
previous build is skipped; a failed stage means nothing at all is written, so the previous
outputs stay byte-identical. The outputs are swapped in all together (commit.py: staged,
then moved, recovered after a kill), and unchanged bytes are skipped, so a no-change rebuild
writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..buildsys.commit import commit
from ..buildsys.manifest import MANIFEST, inside, load_manifest, record_stats, untouched
from ..buildsys.reads import changed, digests, real_path
from ..buildsys.stagecall import Only, call_stage
from ..errors import TetherError

ROOT = Path(__file__).resolve().parents[2]
# The first thing every stage key hashes: a new form of key makes every stage stale once.
# (Not the package's version: the key hashes every file of the package already, and looking
# the version up imports importlib.metadata, about 25 ms of a no-change build's CPU.)
KEY_FORM = "key-2"
PAPERS = ("a4", "letter")


@dataclass
class Context:
    """What every stage may read: content dir, validated content, normalized cards, options."""

    content_dir: Path
    out: Path
    papers: tuple[str, ...] = PAPERS
    allow_unresolved: bool = False
    board_players: int = 4
    seed: int = 1
    print_modes: tuple[str, ...] = ()   # card sheets also printed in these modes
    jobs: int | None = None   # heavy stages side by side at most (None: one per core)
    tts_url: str | None = None   # where TTS finds build/tts/ (None: file:// of out/tts)
    warnings: list[str] = field(default_factory=list)
    _content: object = None
    _cards: list | None = None
    _compiled: dict | None = None
    _git: dict = field(default_factory=dict)
    cards_reads: frozenset = frozenset()   # what normalizing the cards read (reads.py)

    @property
    def content(self):
        if self._content is None:
            from ..buildsys.reads import paused
            from ..print.cache import Cache
            from . import load
            with paused():   # the content's files: the stages' keys cover them (reads.py)
                self._content = load(self.content_dir, Cache(self.cache_dir))
        return self._content

    @property
    def cache_dir(self) -> Path:
        """The render cache (faces, PNGs, book layouts): content-addressed, under out/."""
        from ..print.cache import CACHE_DIR
        return self.out / CACHE_DIR

    @property
    def tts_base(self) -> str:
        """The address of build/tts/ that Tabletop Simulator files name (--tts-url), or the
        local-only file:// address of out/tts."""
        return (self.tts_url or (self.out / "tts").resolve().as_uri()).rstrip("/")

    def git_name(self, level: str) -> str | None:
        """The content's git name: "work" with +dirty, "commit" the last commit's."""
        if level not in self._git:
            from ..content.versions.gitcontent import describe
            self._git[level] = describe(self.content_dir, dirty=level == "work")
        return self._git[level]

    def content_version(self, level: str) -> str:
        """The game's version with the content's git name: '0.1.0 (v2-3-g1a2b3c4)'."""
        version = str(self.content.game.get("version", ""))
        name = self.git_name(level)
        return f"{version} ({name})" if name else version

    @property
    def compiled(self) -> dict[str, bytes]:
        """The engine's compiled definitions (compile_engine), made once a build: the engine
        stage writes them, the check plays them."""
        if self._compiled is None:
            from ..effects.compile import compile_engine
            self._compiled = compile_engine(self.cards, self.content)
        return self._compiled

    @property
    def cards(self) -> list[dict]:
        if self._cards is None:
            from ..buildsys.reads import recording
            from ..content.cards import normalized_cards
            content = self.content
            with recording() as record:   # a card's art, hashed here for every stage
                self._cards = normalized_cards(content)
            self.cards_reads = frozenset(record)
        return self._cards


@dataclass
class Stage:
    """One output stage: inputs to hash, and a render function returning {relpath: bytes}."""

    name: str
    label: str
    target: str  # "module:function" taking a Context, returning dict[str, bytes]
    inputs: tuple[str, ...] = ("content/**/*",)  # globs relative to the repository
    code: tuple[str, ...] = ()  # globs of code files under tether_build/
    uses_paper: bool = False
    # "module:function" taking a Context: all the stage reads of the cards (JSON-able). With
    # it, a card edit outside that view leaves the stage up to date: its second key hashes
    # the view instead of content/cards/. The stage must read cards only through the view.
    card_view: str | None = None
    # "module:function" taking a Context: everything the stage reads of the content (JSON-able).
    # With it, the key hashes this view instead of the content files, so an edit to a field
    # the stage does not read (a rules constant, a note) leaves it up to date.
    view: str | None = None
    # prints the content's git version, so the key includes it: "work" (with +dirty, as the
    # card faces and the rulebook cover), "commit" (the last commit's name: outputs that
    # should not be redrawn by every edit, e.g. tiles and the JSON outputs)
    versioned: str = ""
    # may run side by side with the other `parallel` stages, in a forked process (stagerun)
    parallel: bool = False
    # when both run, this one starts once that stage is done (it reuses what that one cached)
    after: str | None = None
    # "module:function" taking a Context: True when the stage's slow work is in the render
    # cache, so it takes little time; side by side it then runs in the building process
    # while the workers run the others (a text edit: the cards stage and the rulebook)
    quick: str | None = None
    # lays pages out (needs the layout library); one that does not (the check) runs in the
    # building process while a preloaded process imports the library and runs the others
    lays_out: bool = True
    # beside the others, runs (its workers run) at a lower CPU priority: its work is shorter
    # than the rulebook's or the cards', which take the cores first (stagerun._pool)
    gives_way: bool = False
    # the build settings (Context fields) besides the paper that its outputs print; each is
    # in the key (the TTS files name their images' address: tts_base, the --tts-url or the
    # build folder's own file:// address, so a build folder moved or copied builds them again)
    settings: tuple[str, ...] = ("allow_unresolved", "board_players", "seed")
    # modules its work imports as it starts (lazily, inside functions), for the process its
    # worker forks from to import while it waits for its job (workers.preload: a speed hint
    # only, imports the worker would do itself; a name missing here costs time, not bytes)
    warm: tuple[str, ...] = ()

    def render(self, ctx: Context) -> dict[str, bytes]:
        from ..print.cache import one_reading

        with one_reading():   # the stage's template folders listed and stat'ed once
            return call_stage(self.target, ctx)


@dataclass
class Result:
    """What a build did, per stage."""

    stages: dict[str, dict] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _files(patterns: tuple[str, ...], base: Path) -> list[Path]:
    out: set[Path] = set()
    for pattern in patterns:
        out.update(p for p in base.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)
    return sorted(out)


# The tool's code in every stage's key: the whole package. Each stage imports 15-30 modules
# beyond the ones it once declared (Stage.code, now only the modules `--watch` loads ahead),
# and a code edit is a developer's, not a designer's: rebuilding everything then costs little.
# (and the package's data the layout reads: the faces' icon stand-in, print/cards/icons.py)
ALL_CODE = ("**/*.py", "engine/native/*.cpp", "engine/native/*.h", "print/cards/*.jpg")


def _listing(patterns: tuple[str, ...], base: Path, seen: dict) -> list[str]:
    """The paths _files finds, as strings, or the list the last build recorded when no
    folder it lists has changed (seen["stats"]: statcache.py)."""
    def listed() -> list[str]:
        return [str(path) for path in _files(patterns, base)]

    stats = seen.get("stats")
    return listed() if stats is None else stats.listing(base, patterns, listed)


def _under(path: str, folder: Path) -> str | None:
    """`path` relative to `folder` (both as given: a path _files found under it), or None
    when it is not below it."""
    top = str(folder)
    if top == ".":
        return None if os.path.isabs(path) or path.startswith("../") else path
    top = top.rstrip(os.sep) + os.sep
    return path[len(top):] if path.startswith(top) else None


def _named_files(base: Path, patterns: tuple[str, ...], content_dir: Path, seen: dict
                 ) -> list[tuple[str, bytes, bool]]:
    """(path, its name relative to `base` as the key hashes it, whether it lies in the
    content's cards folder) of every file the patterns match: worked out once a build
    (seen), not once for each of the nine stages that hash them."""
    named = seen.get(("named", base, patterns))
    if named is None:
        files = seen.get((base, patterns))
        if files is None:
            files = seen[base, patterns] = _listing(patterns, base, seen)
        cards_dir = content_dir / "cards"
        named = seen["named", base, patterns] = [
            (path, (_under(path, base) or str(Path(path).relative_to(base))).encode(),
             _under(path, cards_dir) is not None)
            for path in files]
    return named


def _file_digest(path: Path, base: Path, seen: dict | None = None) -> bytes:
    """SHA-256 of a stage input, read through the guard (a link out of `base`'s project, a
    FIFO or a device is never read: its refusal is hashed, validate reports it)."""
    from ..content.paths_guard import Refused, project_of, read_bytes

    seen = {} if seen is None else seen
    project = seen.get(("project", base))
    if project is None:   # (resolved once a build, not once a file)
        project = seen["project", base] = project_of(base)
    try:
        data = read_bytes(path, project, 2**31)
    except Refused as exc:
        data = b"refused\0" + exc.why.encode()
    return hashlib.sha256(data).digest()


# the environment variables that change what a stage writes: fontTools and the PDF writers
# date their output by SOURCE_DATE_EPOCH (print/layout/pdf.py sets "0" when it is unset: the
# same key either way), with its value when unset
OUTPUT_ENV = {"SOURCE_DATE_EPOCH": "0"}
_LIBRARIES: list[str] = []


def libraries() -> str:
    """Python's version and every installed distribution with its version (the names of the
    site-packages' *.dist-info folders: one listing, about 0.3 ms), in every stage's key: a
    library upgrade (WeasyPrint, fontTools, Pillow, PyYAML...) changes the bytes a stage
    writes, and its key with it. And which font subsetter the layout would use (HarfBuzz's
    subset library or fontTools: a system library, not a distribution; the subset fonts'
    bytes differ): patches.subsetter_probe. Read once a process."""
    if not _LIBRARIES:
        import os
        import sys

        names = []
        for folder in sys.path:
            if folder.endswith("-packages") and os.path.isdir(folder):
                names += [n for n in os.listdir(folder) if n.endswith(".dist-info")]
        from ..print.cache import system_fonts, text_libraries
        from ..print.layout.patches import subsetter_probe

        _LIBRARIES.append(f"{sys.version}|" + ",".join(sorted(names))
                          + f"|subsetter={subsetter_probe()}|" + system_fonts()
                          + "|" + text_libraries())
    return _LIBRARIES[0]



def _digest(path: str, base: Path, seen: dict) -> bytes:
    """_file_digest, or the digest the last build recorded when the file's stat is the
    recorded one (seen["stats"]: statcache.py)."""
    stats = seen.get("stats")
    if stats is None:
        return _file_digest(Path(path), base, seen)
    return stats.digest(path, lambda: _file_digest(Path(path), base, seen))


def stage_key(stage: Stage, ctx: Context, view: bool = False, seen: dict | None = None) -> str:
    """Hash of everything a stage's output depends on.

    The plain key hashes the files (cheap: a no-change build reads no content). view: hash
    the stage's declared view instead, of the cards (card_view: the other content files
    still count) or of the whole content (view), so an edit outside it leaves the stage
    up to date. seen: what one build has globbed and hashed already (every stage reads the
    content and most of the same code), so each file is read once a build.
    """
    seen = {} if seen is None else seen
    import os

    h = hashlib.sha256(f"{KEY_FORM}|{stage.name}|{libraries()}".encode())
    for name, unset in OUTPUT_ENV.items():
        h.update(f"|{name}={os.environ.get(name, unset)}".encode())
    if stage.uses_paper:
        h.update(("|".join(ctx.papers + ctx.print_modes)).encode())
    for name in stage.settings:
        h.update(f"|{name}={getattr(ctx, name)!r}".encode())
    if stage.versioned:
        h.update(f"|git={ctx.git_name(stage.versioned)}".encode())
    # content/... patterns name files of the content folder the stage reads, whatever its
    # name (--content DIR): the key hashes exactly what the stage read
    content_globs = tuple(p.removeprefix("content/") for p in stage.inputs
                          if p.startswith("content/"))
    if view and stage.view:
        content_globs = ()
        h.update(b"|view|" + json.dumps(call_stage(stage.view, ctx), sort_keys=True, default=str,
                                        ensure_ascii=False).encode())
    groups = [(ctx.content_dir, content_globs),
              (ROOT, tuple(p for p in stage.inputs if not p.startswith("content/"))),
              (ROOT / "tether_build", ALL_CODE)]
    card_view = view and stage.card_view
    for base, patterns in groups:
        for path, name, in_cards in _named_files(base, patterns, ctx.content_dir, seen):
            if card_view and in_cards:
                continue
            h.update(name)
            digest = seen.get(("digest", path))
            if digest is None:
                digest = seen["digest", path] = _digest(path, base, seen)
            h.update(digest)
    if card_view:
        cards = json.dumps(call_stage(stage.card_view, ctx), sort_keys=True, ensure_ascii=False)
        h.update(b"|cards|" + cards.encode())
    return h.hexdigest()


def _git_names(ctx: Context, seen: dict) -> None:
    """The content's git names (Context.git_name) worked out ahead of the keys: none outside
    a repository, the recorded ones while nothing git reads has changed (gitstate.py), else
    git's, recorded when nothing changed while git ran."""
    from ..buildsys.gitstate import fingerprint, outside_git

    if outside_git(ctx.content_dir):
        ctx._git.update(work=None, commit=None)
        return
    stats = seen["stats"]
    content = b"".join(name + b"\0" + _digest(path, ctx.content_dir, seen)
                       for path, name, _ in _named_files(ctx.content_dir, ("**/*",),
                                                         ctx.content_dir, seen))
    before = fingerprint(ctx.content_dir, content, stats)
    if before is None:
        return   # (git runs when a key asks)
    if stats.old_git.get("fingerprint") == before:
        ctx._git.update(stats.old_git["names"])
        stats.git = stats.old_git
        return
    names = {level: ctx.git_name(level) for level in ("work", "commit")}
    if fingerprint(ctx.content_dir, content, stats) == before:
        stats.git = {"fingerprint": before, "names": names}


def keyed_files(stage: Stage, ctx: Context, seen: dict) -> frozenset[str]:
    """The files (real paths) a stage's key hashes whichever key decides (plain or view):
    its templates, fonts and icons, and the content files unless a view stands for them. A
    read of one of these needs no record (reads.py): an edit to it changes the key already,
    so the manifest does not keep it and a no-change build does not hash it a second time."""
    cached = seen.get(("keyed", stage.name))
    if cached is not None:
        return cached
    groups = [(ROOT, tuple(p for p in stage.inputs if not p.startswith("content/")))]
    if not stage.view:
        groups.append((ctx.content_dir, tuple(p.removeprefix("content/") for p in stage.inputs
                                              if p.startswith("content/"))))
    cards_dir = ctx.content_dir / "cards"
    out = set()
    folders: dict[str, str] = {}   # (real_path's memo: each folder resolved once)
    for base, patterns in groups:
        files = seen.get((base, patterns))
        if files is None:
            files = seen[base, patterns] = _listing(patterns, base, seen)
        out.update(real_path(path, folders) for path in files
                   if not (stage.card_view and _under(path, cards_dir) is not None))
    seen["keyed", stage.name] = frozenset(out)
    return seen["keyed", stage.name]


def refuse_out_inside(out: Path, inputs: dict[str, Path]) -> None:
    """An output folder inside a folder the build reads (the content, the templates) would
    change the build's own inputs: every build would make the next one stale (with --watch,
    a build without end). Refused in one line."""
    where = Path(out).resolve()
    for label, folder in inputs.items():
        root = Path(folder).resolve()
        if where == root or where.is_relative_to(root):
            raise TetherError(f"--out {out} is inside the {label} folder {folder}/: the build "
                              f"would read its own outputs (choose a folder outside {folder}/,"
                              " e.g. build/)")


def run_build(ctx: Context, stages: list[Stage], progress: Callable[[str, str], None],
              force: bool = False) -> Result:
    """Run stages; write every output only after all succeeded; return what happened.
    The output folder is locked meanwhile (buildlock.py: a second build waits, then refuses)."""
    import sys

    from ..buildsys.lock import output_lock
    from ..print.cache import refreshing

    try:
        with output_lock(ctx.out, "tether build",
                         lambda msg: progress("lock", msg)) as done, refreshing(force):
            if done:
                ctx.warnings.append(done)   # (--force: nothing read from the render cache)
            return _run_build(ctx, stages, progress, force)
    finally:   # the preloaded process, if any (workers.preload; a build with nothing to run
        # never imports the workers, nor multiprocessing: about 10 ms of its CPU)
        if "tether_build.buildsys.workers" in sys.modules:
            sys.modules["tether_build.buildsys.workers"].release()


def _run_build(ctx: Context, stages: list[Stage], progress: Callable[[str, str], None],
               force: bool) -> Result:
    start = time.perf_counter()
    if ctx.out.exists() and not ctx.out.is_dir():
        raise TetherError(f"the output folder {ctx.out} is a file (choose another --out)")
    manifest = load_manifest(ctx.out, ctx.warnings.append)
    result = Result()
    pending: dict[str, bytes] = {}
    produced: set[str] = set()
    new_manifest = dict(manifest)
    stale: list[tuple[Stage, str, dict, str | None]] = []
    from ..buildsys.statcache import StatCache
    # files globbed and hashed by this build's keys; "stats": the digests and listings the
    # last build recorded with each file's and folder's stat (none trusted under --force)
    seen: dict = {"stats": StatCache(ctx.cache_dir, trust=not force)}
    # where a stage's recorded reads may lie (reads.py): the project and the tool, not the
    # output folder nor the tool's code (in every key)
    read_roots = ((ctx.content_dir.parent, ROOT), (ctx.out, ROOT / "tether_build"))
    if any(stage.versioned for stage in stages):
        _git_names(ctx, seen)
    for stage in stages:
        key = stage_key(stage, ctx, seen=seen)
        old = manifest.get(stage.name, {})
        if stage.parallel and (force or old.get("key") != key):
            from ..buildsys.workers import preload
            preload(ctx, warm_modules(stages))   # a heavy stage may run: the process its
            #                                  workers will fork from
        outputs_present = untouched(ctx.out, old)
        fresh, view_key = old.get("key") == key, None
        moved = changed(old.get("reads", {}), *read_roots, seen)   # read beyond its key
        if moved:
            fresh = outputs_present = False
        viewed = stage.card_view or stage.view
        if viewed and not (fresh or force) and outputs_present and old.get("view"):
            view_key = stage_key(stage, ctx, view=True, seen=seen)  # only fields it does not read?
            fresh = old["view"] == view_key
        if not force and fresh and outputs_present:
            progress(stage.name, "up to date")
            result.stages[stage.name] = {"status": "up to date", "outputs": len(old["outputs"])}
            new_manifest[stage.name] = dict(old, key=key)
            continue
        stale.append((stage, key, old, view_key))
    done = {}
    if stale:
        from ..buildsys.workers import run_stages
        done = run_stages(ctx, [s for s, *_ in stale], _render, progress)
    for stage, key, old, view_key in stale:
        outputs, warnings, seconds = done[stage.name]
        ctx.warnings += warnings
        for rel in outputs.digests:
            if rel in produced:
                raise TetherError(f"stage {stage.name} writes {rel}, already written by "
                                  "another stage")
            produced.add(rel)
        pending.update(outputs.changed)   # the others are in the output folder already
        new_manifest[stage.name] = {"key": key, "outputs": dict(sorted(outputs.digests.items())),
                                    "reads": digests(outputs.reads | ctx.cards_reads,
                                                     *read_roots, seen,
                                                     keyed_files(stage, ctx, seen))}
        _audit(stage, ctx, outputs.reads | ctx.cards_reads, seen)
        if stage.card_view or stage.view:
            new_manifest[stage.name]["view"] = view_key or stage_key(stage, ctx, view=True,
                                                                      seen=seen)
        stale_outputs = set(old.get("outputs", {})) - set(outputs.digests)
        result.removed += sorted(stale_outputs)
        result.stages[stage.name] = {"status": "built", "outputs": len(outputs.digests),
                                     "seconds": seconds}
        progress(stage.name, f"built {len(outputs.digests)} file(s)")
    # every stage succeeded: now, and only now, touch the output folder, all or nothing
    manifest_bytes = None
    if new_manifest != manifest:
        manifest_bytes = (MANIFEST, (json.dumps(new_manifest, indent=1, sort_keys=True)
                                     + "\n").encode())
    removals = [rel for rel in result.removed if inside(ctx.out, rel)]
    result.written, unchanged = commit(ctx.out, pending, removals, manifest_bytes)
    result.unchanged = unchanged + len(produced) - len(pending)
    record_stats(ctx.out, new_manifest)
    seen["stats"].save()
    if any(s["status"] == "built" for s in result.stages.values()) and ctx.cache_dir.is_dir():
        from ..print.cache import prune
        prune(ctx.cache_dir)  # the render cache: least recently used entries beyond its bound
    result.seconds = round(time.perf_counter() - start, 2)
    return result


# a file to which a build appends, per stage it ran, every file it opened and folder it
# listed (unfiltered) and the files its key hashes: tests/test_stage_key_audit.py checks
# that each read is keyed (by the key's files, the tool's code, the libraries, the record)
AUDIT_ENV = "TETHER_READS_AUDIT"


def _audit(stage: Stage, ctx: Context, record, seen: dict) -> None:
    import os

    where = os.environ.get(AUDIT_ENV)
    if where:
        line = {"stage": stage.name, "reads": sorted(record),
                "keyed": sorted(keyed_files(stage, ctx, seen)),
                "content": str(ctx.content_dir.resolve()), "out": str(ctx.out.resolve()),
                "root": str(ROOT), "view": bool(stage.view)}
        with open(where, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")


def _render(stage: Stage, ctx: Context) -> dict[str, bytes]:
    """A stage's outputs, its JSON stamped with the content version when it is versioned."""
    outputs = stage.render(ctx)
    if stage.versioned:
        outputs = _stamp_json(outputs, ctx.content_version(stage.versioned))
    return outputs


def _stamp_json(outputs: dict[str, bytes], version: str) -> dict[str, bytes]:
    """Every JSON object a stage writes carries the content version it was built from
    (Tabletop Simulator's deck files are left as that program expects them)."""
    out = dict(outputs)
    for rel, data in outputs.items():
        if rel.endswith(".json") and not rel.startswith("tts/"):
            obj = json.loads(data)
            if isinstance(obj, dict):
                obj = {"content_version": version, **obj}
                out[rel] = (json.dumps(obj, indent=1, ensure_ascii=False) + "\n").encode()
    return out


def designer_notes(ctx: Context) -> dict[str, bytes]:
    """Stage: the designer report."""
    from ..content.report import render_html
    from ..print.cache import Cache
    return {"designer-notes.html": render_html(ctx.content, ctx.content_dir / "rules",
                                               ctx.cards, Cache(ctx.cache_dir))}


def validate_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: validate content and write the normalized cards (what other tools read), each
    with the content version it was built from."""
    version = ctx.content_version("work")
    lines = [json.dumps({**c, "content_version": version}, ensure_ascii=False,
                        sort_keys=True) for c in ctx.cards]
    return {"cards.jsonl": ("\n".join(lines) + "\n").encode()}


def check_memoized(ctx: Context) -> bool:
    """Whether the check stage finds its games' results in the render cache."""
    from ..check.memo import memoized
    from ..print.cache import Cache
    return memoized(ctx.compiled, Cache(ctx.cache_dir))


def check_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: every card resolves in the engine and its text agrees with its effect.

    A failure stops the build (nothing is written) unless --allow-unresolved, which builds
    anyway and records a loud warning. The scenario and sweep results live in the render
    cache, keyed on the definitions they play, so a text-only edit re-checks only the drift.
    check.json holds no timings: the same content gives the same bytes."""
    from ..check import run_check
    from ..print.cache import Cache
    report = run_check(ctx.content, ctx.cards, memo=Cache(ctx.cache_dir), compiled=ctx.compiled)
    if not report.ok:
        lines = report.summary()
        why = " and ".join(w for w, n in (("a card does not resolve", report.failures),
                                          ("a card's text drifts from its effect",
                                           report.drift)) if n)
        if not ctx.allow_unresolved:
            raise TetherError(report.verdict() + "\n" + "\n".join(lines)
                              + f"\nthe build writes nothing while {why} "
                              "(see 'tether check'; --allow-unresolved builds anyway)")
        ctx.warnings.append(f"BUILT ALTHOUGH {why.upper()}:\n" + "\n".join(lines))
    return {"check.json": (json.dumps(report.to_json(timings=False), indent=1, sort_keys=True)
                           + "\n").encode()}


def engine_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: the engine's compiled definitions (build/engine/*.json)."""
    return {f"engine/{name}": data for name, data in ctx.compiled.items()}


def cards_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: card sheets (A4, Letter), per-card PNGs and Tabletop Simulator decks."""
    from ..buildsys.views import ContentView
    from ..print.cards.build import PrintOptions, PrintResult, render_all, select_cards
    opts = PrintOptions(papers=ctx.papers, tts_url=ctx.tts_base, cache=ctx.cache_dir)
    view = cards_view(ctx)   # the stage reads its view, nothing else: its key cannot miss
    content = ContentView(view)
    chosen = select_cards(content, view["cards"], opts)
    result = PrintResult(faces=sum(c["copies"] for c in chosen), cards=len(chosen))
    files = render_all(content, chosen, opts, Path(""), lambda message: None, result)
    if ctx.print_modes:   # the sheets for home printers, beside the normal ones
        mode = replace(opts, modes=ctx.print_modes, png=None, tts=False)
        files |= render_all(content, chosen, mode, Path(""), lambda message: None,
                            PrintResult(faces=result.faces, cards=result.cards))
    return {path.as_posix(): data for path, data in files.items()}


def cards_view(ctx: Context) -> dict:
    """All the cards stage reads of the content (render/ reads these and nothing else):
    the normalized cards without their file positions, the version stamp of each face,
    decks, factions, the title and version, the glossary, icons and keywords. A constant no
    card prints is not in it."""
    from ..content.versions.stamp import stamps

    content = ctx.content
    version = str(content.game.get("version", ""))
    return {"cards": [{k: v for k, v in c.items() if k != "source"} for c in ctx.cards],
            "card_stamps": stamps(ctx.content_dir, version, ctx.cards,
                                  name=ctx.git_name("work")),
            "ages": content.ages, "factions": content.factions,
            "game": {k: content.game.get(k) for k in ("title", "version", "players")},
            "terms": content.terms, "icons": content.icons, "keywords": content.keywords}


# What the tiles stage reads of a card: the components manifest lists decks and cards by
# name, type and faction; the HP tracks need the highest Champion HP, the dice count the most
# dice a Champion rolls (components.dice_count). Nothing else, so an
# edit to a card's text (or cost, or effect) leaves tiles, tokens and manifest up to date.
TILE_CARD_FIELDS = ("id", "name", "type", "type_name", "faction", "copies", "deck",
                    "deck_kind", "deck_name")


def tiles_cards(ctx: Context) -> list[dict]:
    """The tiles stage's view of the cards (Stage.card_view)."""
    return [Only({**{f: c[f] for f in TILE_CARD_FIELDS},
                   "champion": Only(hp=c["champion"]["hp"], dice=c["champion"].get("dice", 1))
                   if c.get("champion") else None})
            for c in ctx.cards]


def tiles_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: hex tiles, tokens and the components manifest."""
    from dataclasses import replace

    from ..print.tiles import build as printing
    from ..print.tiles import common
    content = ctx.content   # without the card files: the stage sees cards only through its view
    content = replace(content, cards=[], card_docs=[], bad_cards={}, docs={
        k: v for k, v in content.docs.items() if k not in content.card_docs})
    with common.cached(ctx.cache_dir):
        files, _ = printing.print_files(content, tiles_cards(ctx), list(ctx.papers),
                                        common.DEFAULT_TILE_MM, lambda message: None)
    return files


def rulebook_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: the rulebook for the build's papers, and print/README.pdf. Side by side with
    the cards stage, it waits for that stage midway to reuse the faces it laid out."""
    import os

    from ..buildsys.workers import wait_for
    from ..print.rulebook.book import render_rulebook

    book = render_rulebook(ctx.content, ctx.content_dir, tuple(ctx.papers), ctx.cache_dir,
                           (ctx.board_players, ctx.seed),
                           faces_ready=lambda: wait_for("cards"),
                           workers=ctx.jobs or os.cpu_count() or 1)
    ctx.warnings += book.warnings
    return book.files


def board_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: a board layout (JSON), its real-size map and overview."""
    from ..buildsys.views import ContentView, board_view
    from ..print.tiles import build as printing
    from ..print.tiles import common
    content = ContentView(board_view(ctx))
    papers, flat = list(ctx.papers), common.DEFAULT_TILE_MM
    with common.cached(ctx.cache_dir), _aside(
            ctx, lambda: printing.grid_map_files(content, papers, flat),
            ready=lambda: common.ready(("hexpieces.html.j2", "hexes.j2", "map.html.j2"))
    ) as grids:
        # the grid maps (about half the stage's work) in a process of their own meanwhile:
        # the stage ends last in a clean build, its documents one after another on one core
        files = printing.board_files(content, ctx.board_players, ctx.seed, papers, flat,
                                     overviews=False)
        counts = printing.count_files(content, ctx.seed, papers, flat, skip=ctx.board_players,
                                      skip_overview=False)   # (every overview together)
        return files | grids() | counts   # (every_count_files: the grids, then the counts)


_ASIDE: list = []   # the work _aside's forked process does (set before it forks)


@contextmanager
def _aside(ctx: Context, work: Callable[[], dict], ready: Callable[[], None] | None = None
           ) -> Iterator[Callable[[], dict]]:
    """Within: `work` runs in a forked process (when the build may use two or more: --jobs),
    and what is yielded waits for its result; else that does the work here. `ready`, when it
    forks, runs here first: what both processes need before their first document (the
    templates compiled, the fonts read), done once and inherited. What the
    process read is added to this one's records (reads.note), so the stage's recorded reads
    are the same either way; so are the bytes (the same code on the same inherited content).
    Left early (an error here), the process is waited for and its result dropped."""
    import multiprocessing

    if (ctx.jobs or os.cpu_count() or 1) < 2 \
            or "fork" not in multiprocessing.get_all_start_methods():
        yield work
        return
    from ..buildsys.reads import note
    from ..forking import fork_pool

    if ready is not None:
        ready()   # (what both processes need first, done once: the forked one inherits it)
    _ASIDE[:] = [work]
    try:
        with fork_pool(1, cancel=True, nice=0) as pool:   # (as low as this process, no lower)
            future = pool.submit(_aside_work)

            def result() -> dict:
                files, reads = future.result()
                note(reads)
                return files
            yield result
    finally:
        _ASIDE.clear()


def _aside_work() -> tuple[dict, set[str]]:
    """In _aside's process: its work, and the files it read (reads.recording)."""
    from ..buildsys.reads import recording

    with recording() as record:
        files = _ASIDE[0]()
    return files, set(record)


def table_stage(ctx: Context) -> dict[str, bytes]:
    """Stage: the whole Tabletop Simulator table (tts/table.json and its pictures)."""
    from ..print.tiles import common
    from ..print.tts import table as ttstable
    with common.cached(ctx.cache_dir):
        return ttstable.table_files(ctx.content, ctx.cards, ctx.board_players, ctx.seed,
                                    ctx.tts_base, workers=ctx.jobs or os.cpu_count() or 1)


STAGES: list[Stage] = [
    Stage("validate", "validate content", "tether_build.commands.build:validate_stage",
          ("content/**/*", "schemas/*.json"), ("schemas/generate.py", "content/schemacheck.py", "content/fastschema.py",
                                               "content/yamlio.py", "effects/*.py", "content/departures.py"),
          versioned="work"),
    Stage("check", "every card resolves", "tether_build.commands.build:check_stage",
          ("content/**/*",), ("check/*.py", "engine/*.py", "effects/compile.py", "content/textcheck.py",
                              "effects/*.py", "engine/board.py"), versioned="commit", parallel=True,
          quick="tether_build.commands.build:check_memoized", lays_out=False, gives_way=True),
    Stage("engine", "engine definitions", "tether_build.commands.build:engine_stage",
          ("content/**/*",), ("effects/compile.py", "effects/*.py"), versioned="commit"),
    Stage("notes", "designer report", "tether_build.commands.build:designer_notes",
          ("content/**/*", "templates/report/*"), ("content/report.py", "content/departures.py")),
    Stage("cards", "card sheets, PNGs, TTS", "tether_build.commands.build:cards_stage",
          ("content/**/*", "templates/cards/**/*", "templates/backs/**/*",
           "templates/icons/**/*", "templates/fonts/**/*"), ("buildsys/*.py", "print/*.py", "print/cards/*.py", "print/layout/*.py", "print/pdfparts/*.py", "print/tts/*.py", "content/cards.py"),
          uses_paper=True, view="tether_build.commands.build:cards_view", versioned="work",
          parallel=True, settings=("allow_unresolved", "board_players", "seed", "tts_base"),
          warm=("tether_build.buildsys.views", "tether_build.content.versions.stamp",
                "tether_build.print.cards.build", "tether_build.print.cards.fit",
                "tether_build.print.cards.sheets", "tether_build.print.raster",
                "tether_build.print.tts.decks")),
    Stage("rulebook", "rulebook", "tether_build.commands.build:rulebook_stage",
          ("content/**/*", "templates/rulebook/**/*", "templates/cards/**/*",
           "templates/backs/**/*", "templates/fonts/**/*", "templates/icons/**/*"),
          ("print/rulebook/*.py", "buildsys/*.py", "print/*.py", "print/cards/*.py", "print/layout/*.py", "print/pdfparts/*.py", "print/tts/*.py", "print/tiles/*.py", "print/tts/*.py", "engine/board.py"), uses_paper=True,
          versioned="work", parallel=True,
          warm=("tether_build.print.rulebook.book", "tether_build.print.rulebook.directives",
                "tether_build.print.rulebook.examples", "tether_build.print.rulebook.worked",
                "tether_build.print.tiles.components", "tether_build.engine.setup",
                "tether_build.engine.agents", "tether_build.check.memo",
                "tether_build.print.cards.build", "tether_build.print.cards.fit",
                "tether_build.print.cards.sheets", "tether_build.content.versions.stamp")),
    Stage("tiles", "hex tiles, tokens, components", "tether_build.commands.build:tiles_stage",
          ("content/**/*", "templates/tiles/**/*", "templates/icons/**/*",
           "templates/fonts/**/*"), ("print/tiles/*.py", "print/tts/*.py", "print/layout/pdf.py", "engine/board.py"),
          uses_paper=True, card_view="tether_build.commands.build:tiles_cards", versioned="commit",
          parallel=True, gives_way=True),
    Stage("board", "board map", "tether_build.commands.build:board_stage",
          ("content/**/*", "templates/tiles/**/*", "templates/icons/**/*",
           "templates/fonts/**/*"), ("print/tiles/*.py", "print/tts/*.py", "print/layout/pdf.py", "engine/board.py",
                                     "buildsys/views.py"), uses_paper=True,
          view="tether_build.buildsys.views:board_view", versioned="commit", parallel=True,
          gives_way=True),
    Stage("table", "Tabletop Simulator table", "tether_build.commands.build:table_stage",
          ("content/**/*", "templates/tiles/**/*", "templates/icons/**/*",
           "templates/fonts/**/*"), ("print/tiles/*.py", "print/tts/*.py", "print/layout/pdf.py", "print/tts/decks.py",
                                     "print/cards/build.py", "engine/board.py"), parallel=True,
          gives_way=True, settings=("allow_unresolved", "board_players", "seed", "tts_base"),
          warm=("tether_build.print.tts.table",)),
]


def warm_modules(stages: list[Stage]) -> tuple[str, ...]:
    """The modules the build's stages that lay out in workers import as they start
    (Stage.warm), the longest stage's first (the rulebook: it ends last after a text
    edit), each once."""
    heavy = sorted((s for s in stages if s.parallel and s.lays_out),
                   key=lambda s: s.name != "rulebook")
    return tuple(dict.fromkeys(m for s in heavy for m in s.warm))


def stage_modules(stages: list[Stage]) -> list[str]:
    """The modules of every code file the stages name (and of their targets), for a process
    that imports them ahead of builds (`tether build --watch`)."""
    names = {s.target.split(":")[0] for s in stages}
    code = ROOT / "tether_build"
    for stage in stages:
        for path in _files(stage.code, code):
            parts = path.relative_to(ROOT).with_suffix("").parts
            names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(names)


def select(only: tuple[str, ...]) -> list[Stage]:
    """Stages named by --only (all when empty), in build order."""
    names = [s.name for s in STAGES]
    unknown = [n for n in only if n not in names]
    if unknown:
        raise TetherError(f"unknown stage {', '.join(unknown)} (stages: {', '.join(names)})")
    return [s for s in STAGES if not only or s.name in only]
