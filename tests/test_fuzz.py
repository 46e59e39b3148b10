"""A seeded content fuzzer (issue 17): every mutant of the fixture content ends as a located
error or a valid result, never a traceback or a hang.

Mutants are made from the fixture's YAML and Markdown files by small text edits of the kinds
designers and hostile files produce (lines dropped, duplicated, re-indented or cut; scalars
replaced by huge, negative, fractional, empty, tagged, aliased or templated values; files
emptied or removed). Each mutant is validated in-process, in a project with a build folder
as a designer's is once it has built (so validate's render cache holds what the batch's
earlier mutants left: the mutated file is parsed afresh, the others mostly come from the
cache); every mutant that validates is also compiled for the engine, played for one game and
given to the designer report.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
from pathlib import Path

import pytest
from tether_cli import Hang, alarm, run_no_traceback

from tests.conftest import CONTENT, ROOT

# mutants of the suite's run (four seeded batches, a quarter each; the full size was 200);
# benchmarks/fuzz.py runs the same batches longer (TETHER_FUZZ_MUTANTS=400: each batch's
# first 25 mutants are the suite's)
MUTANTS = int(os.environ.get("TETHER_FUZZ_MUTANTS", "100"))
HEAVY = 4  # valid mutants per batch that also go through engine-build, a game and the report
SEED = 17
HANG_SECONDS = 60
LOCATED = re.compile(r"^\S+\.(yaml|md):\d+:\d+: [^:]+: .+")

HOSTILE = ["1" + "0" * 30, "9" * 5000, "-1", "2.0", "1e400", "''", "[]", "{}", "null",
           "!!python/name:os.system x", "!custom x", "&a [1]", "*a", "<<: {a: 1}",
           '"{{ cycler.__init__ }}"', '"{% for x in y %}"', '"\u202eevil"', '"a\\0b"',
           "[" * 80 + "]" * 80, "true", '"[force:pl] {gold} [nope]"', "0", "1000000000"]


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(8)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = rng.choice(["  ", "\t", " "]) + lines[i]
    elif op == 4:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif op == 5 and ":" in lines[i]:
        head = lines[i].split(":", 1)[0]
        lines[i] = f"{head}: {rng.choice(HOSTILE)}"
    elif op == 6:
        return text[: rng.randrange(len(text) + 1)]
    else:
        numbers = [m for m in re.finditer(r"\b\d+\b", text)]
        if numbers:
            m = rng.choice(numbers)
            return text[:m.start()] + rng.choice(["0", "-3", "7", "99999", "2.5"]) + \
                text[m.end():]
    return "\n".join(lines)


def _mutant(base: Path, rng: random.Random) -> str:
    files = sorted(p for p in base.rglob("*") if p.suffix in (".yaml", ".md"))
    path = rng.choice(files)
    roll = rng.random()
    if roll < 0.03:
        path.unlink()
        return f"removed {path.name}"
    if roll < 0.06:
        path.write_text("")
        return f"emptied {path.name}"
    text = path.read_text(encoding="utf-8")
    for _ in range(rng.randint(1, 3)):
        text = _mutate(text, rng)
    path.write_text(text, encoding="utf-8")
    return f"edited {path.name}"


@pytest.mark.parametrize("batch", range(4))
def test_every_mutant_is_a_located_error_or_valid(tmp_path, batch):
    rng = random.Random(f"{SEED}-{batch}")
    valid = 0
    old = signal.signal(signal.SIGALRM, alarm)
    work = tmp_path / "project"
    content = work / "content"
    # a build folder beside the content, as a designer's project has once it has built:
    # validate keeps the files it parsed and found schema-valid in its render cache, so
    # each mutant after the first is validated as an edit is, against what earlier mutants
    # left there (the mutated file parsed afresh, the others found in the cache)
    (work / "build").mkdir(parents=True)
    try:
        for n in range(MUTANTS // 4):
            shutil.copytree(CONTENT, content)
            what = _mutant(content, rng)
            signal.alarm(HANG_SECONDS)
            try:
                r = run_no_traceback("validate", "--content", str(content), "--quiet")
                if r.exit_code == 0:
                    valid += 1
                if r.exit_code == 0 and valid <= HEAVY:
                    engine = work / "engine"
                    run_no_traceback("engine-build", "--content", str(content), "--out", str(engine))
                    run_no_traceback("simulate", "--engine", str(engine), "--games", "1", "--players",
                         "2", "--seed", str(n), "--quiet")
                    run_no_traceback("notes", "--content", str(content), "--out", str(work / "notes"))
                elif r.exit_code != 0:
                    assert r.exit_code == 1, (what, r.output)
                    problems = [ln.removeprefix("Error: ") for ln in r.output.splitlines()
                                if not ln.endswith("in content")]
                    assert problems and all(LOCATED.match(p) for p in problems), \
                        (what, r.output[:2000])
            except Hang:
                pytest.fail(f"mutant {batch}/{n} ({what}) ran over {HANG_SECONDS} s")
            finally:
                signal.alarm(0)
            for made in (content, work / "engine", work / "notes"):
                shutil.rmtree(made, ignore_errors=True)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert valid < MUTANTS // 4  # the fuzzer really breaks content
    assert ROOT.exists()


# ---- hostile files (issue 43): raw HTML, SVG, links and special files --------------------
HOSTILE_MUTANTS = 32
SECRET = "s3cret-the-fuzzer-plants-outside"
WRAPS = ["<div>\n{img}\n</div>", "<!-- {img} -->", "<pre>{img}</pre>", "<script>\n{img}\n</script>",
         "<x-card>{img}</x-card>", "<table><tr><td>\n\n{img}\n\n</td></tr></table>",
         "[{img}](https://example.org)", "> {img}"]
SVGS = ['<image href="file://{o}/red.png" width="9" height="9"/>',
        '<image xlink:href="{o}/red.png"/>', '<image href="../../{n}/red.png"/>',
        '<rect style="fill:url(file://{o}/red.png)"/>', "<script>x()</script>",
        "<foreignObject><img src='{o}/red.png'/></foreignObject>", "<g>", "&x;"]


def _hostile(content: Path, outside: Path, rng: random.Random) -> str:
    """One hostile edit of a fresh content copy; returns what it did."""
    import os

    project = content.parent
    kind = rng.choice(["html", "svg", "entity", "huge-svg", "link", "special", "png"])
    if kind == "html":
        chapter = rng.choice(sorted((content / "rules").glob("*.md")))
        src = rng.choice([f"../../{outside.name}/red.png", f"{outside}/red.png",
                          f"../{outside.name}/red.png", "rules/img/../../../x.png"])
        img = f"![a picture]({src})"
        with chapter.open("a", encoding="utf-8") as fh:
            fh.write("\n" + rng.choice(WRAPS).format(img=img) + "\n")
        return f"raw HTML around {src} in {chapter.name}"
    if kind in ("svg", "entity", "huge-svg", "png"):
        (project / "art").mkdir(exist_ok=True)
        suffix = ".png" if kind == "png" else ".svg"
        art = project / "art" / f"a{suffix}"
        if kind == "png":
            data = (outside / "red.png").read_bytes()
            art.write_bytes(data[: rng.randrange(8, len(data))])
        elif kind == "entity":
            art.write_text(f'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM '
                           f'"file://{outside}/secret.yaml">]><svg xmlns="http://www.w3.org/'
                           f'2000/svg"><text>&x;</text></svg>')
        elif kind == "huge-svg":
            art.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1e5" height="1e4"/>')
        else:
            body = rng.choice(SVGS).format(o=outside, n=outside.name)
            art.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.'
                           f'w3.org/1999/xlink">{body}</svg>')
        cards = content / "cards" / "starter.yaml"
        text = cards.read_text(encoding="utf-8")
        at = text.index("  - id: zap\n") + len("  - id: zap\n")
        cards.write_text(text[:at] + f"    art: art/a{suffix}\n" + text[at:], encoding="utf-8")
        return f"{kind} art"
    files = sorted(p for p in content.rglob("*") if p.suffix in (".yaml", ".md"))
    victim = rng.choice(files)
    victim.unlink()
    if kind == "special":
        os.mkfifo(victim)
        return f"FIFO for {victim.name}"
    target = rng.choice([outside / "secret.yaml", Path("/dev/zero"), Path("/etc/passwd"),
                         outside / "missing.yaml", victim, outside])
    victim.symlink_to(target)
    return f"{victim.name} -> {target}"


@pytest.mark.parametrize("batch", range(2))
def test_hostile_files_are_located_errors_and_nothing_outside_is_read(tmp_path, batch):
    """Raw HTML around images, SVG art with outside references or entities, corrupt PNGs,
    content files that are links (out of the project, to /dev/zero, dangling, to
    themselves) or FIFOs: each one a located error or valid, no traceback, no hang, and
    no file outside the project opened (an audit hook watches every open)."""
    import os
    import sys

    from PIL import Image

    rng = random.Random(f"{SEED}-hostile-{batch}")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"x: {SECRET}\n")
    Image.new("RGB", (8, 8), (220, 20, 30)).save(outside / "red.png")
    watched = [str(outside.resolve()), "/dev/zero", "/etc/passwd"]
    opened: list[str] = []
    state = {"on": False}

    def audit(event, args):
        if state["on"] and event == "open" and args and isinstance(args[0], (str, Path)):
            real = os.path.realpath(args[0])
            if any(real == w or real.startswith(w + os.sep) for w in watched):
                opened.append(real)

    sys.addaudithook(audit)
    old = signal.signal(signal.SIGALRM, alarm)
    work = tmp_path / "project"
    content = work / "content"
    (work / "build").mkdir(parents=True)
    try:
        for n in range(HOSTILE_MUTANTS // 2):
            shutil.copytree(CONTENT, content)
            what = _hostile(content, outside, rng)
            signal.alarm(HANG_SECONDS)
            state["on"] = True
            try:
                r = run_no_traceback("validate", "--content", str(content), "--quiet")
            except Hang:
                pytest.fail(f"hostile mutant {batch}/{n} ({what}) ran over {HANG_SECONDS} s")
            finally:
                state["on"] = False
                signal.alarm(0)
            assert SECRET not in r.output and "root:x:0" not in r.output, (what, r.output)
            assert not opened, (what, opened)
            if r.exit_code != 0:
                assert r.exit_code == 1, (what, r.output)
                problems = [ln.removeprefix("Error: ") for ln in r.output.splitlines()
                            if not ln.endswith("in content") and not ln.startswith("warning")]
                assert problems and all(LOCATED.match(p) for p in problems), \
                    (what, r.output[:2000])
            shutil.rmtree(content)
            shutil.rmtree(work / "art", ignore_errors=True)
    finally:
        state["on"] = False
        signal.signal(signal.SIGALRM, old)
