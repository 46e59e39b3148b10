"""Every file a stage reads is in its key (issue 40, "keys that cannot miss").

The suite's shared clean build (conftest.built_project) runs with TETHER_READS_AUDIT set: each
stage appends every file it opened and every folder it listed (Python's audit hook, in the
process the stage ran in, unfiltered) and the files its key hashes. A read is keyed when it is

- one of the files the key hashes (the stage's templates, fonts, icons, content globs);
- the tool's own code (every stage's key hashes the whole package: commands.build.ALL_CODE);
- in the stage's recorded reads (the manifest's `reads`: a changed digest makes it stale);
  (the content's YAML, loaded with the record paused, is covered by the content globs or the
  stage's view: it never shows here; a content file that does was read some other way);
- the build's own output folder (the render cache: content-addressed, keyed itself);
- a file of Python or an installed library (every key names Python's version and each
  installed distribution with its version: commands.build.libraries);
- a kernel file that holds no input (/proc, /sys, /dev);
- the stage's own scratch files in the system's temporary folder (WeasyPrint writes each
  font it embeds to a temporary folder and reads it back) and the native engine's built
  library (made from the C++ sources the key hashes);
- two system files that change no output: /etc/machine-id (print/templatecode.py signs the
  compiled templates it caches with it: it decides whether a cache entry is trusted, not
  what is written) and /etc/mime.types (Python's mimetypes, for the type of a local file
  WeasyPrint loads: fonts, pictures and style sheets are told by their bytes).

Anything else escapes both the declared key and the record: a change to it would leave the
stage's outputs stale. C libraries open files the hook never sees (fontconfig's system fonts,
HarfBuzz): docs/architecture.md says what stands for them."""

from __future__ import annotations

import json
import os
import sys
import sysconfig
import tempfile

from tether_build.commands import build

# the tool's code every stage's key hashes, by kind (commands.build.ALL_CODE), and its
# compiled forms
CODE_SUFFIXES = tuple(sorted({os.path.splitext(p)[1] for p in build.ALL_CODE} | {".pyc", ".so"}))
SYSTEM = ("/proc/", "/sys/", "/dev/", "/etc/machine-id/", "/etc/mime.types/")


def _library_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, paths["stdlib"], paths["purelib"],
             paths["platlib"]}
    roots |= {p for p in sys.path if p.endswith("-packages")}
    return tuple(os.path.realpath(r) + os.sep for r in roots if r)


def escaped(line: dict, manifest: dict, libraries: tuple[str, ...]) -> list[str]:
    """The reads of one stage's audit line that no part of its key covers."""
    keyed = set(line["keyed"])
    recorded = set(manifest.get(line["stage"], {}).get("reads", {}))
    code = os.path.join(line["root"], "tether_build") + os.sep
    out = line["out"] + os.sep
    project = os.path.realpath(line["root"]) + os.sep
    scratch = os.path.realpath(tempfile.gettempdir()) + os.sep
    found = []
    for item in line["reads"]:
        kind, _, path = item.partition(":")
        real = os.path.realpath(path)
        if (f"{kind}:{real}" in recorded or (kind == "file" and real in keyed)
                or (real + os.sep).startswith(out)
                or (real + os.sep).startswith(SYSTEM) or (real + os.sep).startswith(libraries)
                or ((real + os.sep).startswith(scratch)
                    and not (real + os.sep).startswith(project))
                or ((real + os.sep).startswith(code)
                    and (kind == "dir" or real.endswith(CODE_SUFFIXES)))):
            continue
        if "__pycache__" in real.split(os.sep):
            continue
        found.append(f"{line['stage']}: {item}")
    return found


def test_every_file_a_stage_reads_is_keyed(built_project):
    lines = [json.loads(x) for x in
             (built_project / "reads-audit.jsonl").read_text(encoding="utf-8").splitlines()]
    manifest = json.loads((built_project / "build" / ".tether-build.json")
                          .read_text(encoding="utf-8"))
    assert {line["stage"] for line in lines} >= {"validate", "cards", "rulebook", "tiles",
                                                  "board", "table"}
    assert sum(len(line["reads"]) for line in lines) > 50   # the hook saw the stages' reads
    libraries = _library_roots()
    found = [f for line in lines for f in escaped(line, manifest, libraries)]
    assert found == [], "read by a stage, in no key:\n" + "\n".join(found)


def test_the_audit_can_fail(tmp_path):
    root, out = tmp_path / "project", tmp_path / "project" / "build"
    line = {"stage": "cards", "root": str(root), "content": str(root / "content"),
            "out": str(out), "keyed": [str(root / "templates" / "a.css")],
            "reads": [f"file:{root / 'templates' / 'a.css'}", f"file:{out / '.cache' / 'x'}",
                      f"file:{root / 'tether_build' / 'print' / 'html.py'}",
                      f"file:{root / 'templates' / 'b.css'}", f"file:{root / 'art.png'}",
                      "file:/opt/fonts/elsewhere.ttf",   # a system font read by Python
                      f"file:{tmp_path / 'weasyprint-x' / 'font'}"]}   # scratch: the stage's own
    manifest = {"cards": {"reads": {f"file:{root / 'art.png'}": "0" * 64}}}
    assert escaped(line, manifest, ()) == [f"cards: file:{root / 'templates' / 'b.css'}",
                                           "cards: file:/opt/fonts/elsewhere.ttf"]
