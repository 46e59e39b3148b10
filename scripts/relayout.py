#!/usr/bin/env python3
"""Move every module of tether_build/ to its home in the package layout of docs/architecture.md,
and rewrite every reference to it (issue 40, item 4). Run once, on main, after every branch has
merged, from the repository root:

    python3 scripts/relayout.py && python3 -m pytest -q

What it does, deterministically (the same tree gives the same result), printing each step:
1. plans the moves from RULES below: a file's rule is its own entry, else its folder's (so a
   file another branch added to render/, printing/, rulebook/... follows its folder); a
   top-level module with no rule stops the script before anything is touched, naming it;
2. `git mv`s every file, and writes an __init__.py with a docstring in each new package;
3. rewrites, in tether_build/, tests/, benchmarks/, scripts/ (Python, parsed with ast):
   - every import statement naming a moved module, relative ones recomputed from the new
     place of both ends (a relative import stays relative, an absolute one absolute);
   - dotted names in the rest of the code and in strings ("tether_build.render.cache" in
     mock.patch, importlib, stage targets "tether_build.build:cards_stage");
   - paths of the package's files ("tether_build/render/pdf.py", in docs and messages too);
   - package-relative code paths in tuples and calls ("render/*.py", "cards.py": the code
     render/cache.code_digest hashes and the modules a stage warms);
   - `Path(__file__)...parent` chains that reach the package folder or above, recomputed for
     the file's new depth (a chain to the file's own folder is left alone: it moves with it);
   and in docs/*.md, README.md, pyproject.toml, .ci/run, the dotted names and file paths;
4. removes the folders left empty and prints a summary.

`print` is a package name here (tether_build/print/): no import the script writes binds the
name `print` (`from tether_build import print` would shadow the builtin); dotted imports
(`from tether_build.print.cards import build`) bind the module's own name.
The engine's native build (engine/native) does not move.
"""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = "tether_build"

# old path under tether_build/ -> new path. A folder rule ends in "/"; a file rule names the
# file. The most specific rule wins (a file over its folder's).
RULES = {
    # kept where they are: shared by every layer
    "__init__.py": "__init__.py",
    "errors.py": "errors.py",
    "digests.py": "digests.py",
    "fsutil.py": "fsutil.py",
    "forking.py": "forking.py",
    # content/: load, schema-check, validate, the model's views of itself
    "content.py": "content/load.py",
    "yamlio.py": "content/yamlio.py",
    "schemacheck.py": "content/schemacheck.py",
    "fastschema.py": "content/fastschema.py",
    "validate.py": "content/validate.py",
    "cards.py": "content/cards.py",
    "text.py": "content/text.py",
    "textcheck.py": "content/textcheck.py",
    "constants.py": "content/constants.py",
    "contentwalk.py": "content/walk.py",
    "crosscheck.py": "content/consistency.py",
    "departures.py": "content/departures.py",
    "designdoc.py": "content/designdoc.py",
    "report.py": "content/report.py",
    "paths_guard.py": "content/paths_guard.py",
    "pictures.py": "content/pictures.py",
    "versions/": "content/versions/",
    # schemas/: generated from the code
    "schemas.py": "schemas/generate.py",
    "schemaparts.py": "schemas/parts.py",
    "content_kinds.py": "schemas/kinds.py",
    "schema_examples.py": "schemas/examples.py",
    # effects/, engine/, check/, analysis/: in place
    "compile.py": "effects/compile.py",
    "effects/": "effects/",
    "board.py": "engine/board.py",
    "engine/": "engine/",
    "check/": "check/",
    "analysis/": "analysis/",
    "openspiel.py": "openspiel/__init__.py",
    # commands/: the only code that loads content
    "commands/": "commands/",
    "build.py": "commands/build.py",
    # buildsys/: keys from reads, workers, commit, manifest, watch, verify
    "buildlock.py": "buildsys/lock.py",
    "commit.py": "buildsys/commit.py",
    "manifest.py": "buildsys/manifest.py",
    "watch.py": "buildsys/watch.py",
    "verify.py": "buildsys/verify.py",
    "reads.py": "buildsys/reads.py",
    "stagerun.py": "buildsys/workers.py",
    "stageviews.py": "buildsys/views.py",
    "stagecall.py": "buildsys/stagecall.py",
    "render/preload.py": "buildsys/preload.py",
    # print/: layout/ (the libraries' internals), shared page code, cards/, tiles/, rulebook/, tts/
    "render/": "print/cards/",
    "render/patches.py": "print/layout/patches.py",
    "render/wpffi.py": "print/layout/wpffi.py",
    "render/boxes.py": "print/layout/boxes.py",
    "render/pdf.py": "print/layout/pdf.py",
    "render/resources.py": "print/layout/resources.py",
    "render/cache.py": "print/cache.py",
    "render/geometry.py": "print/geometry.py",
    "render/raster.py": "print/raster.py",
    "render/pngfile.py": "print/pngfile.py",
    "render/templatecode.py": "print/templatecode.py",
    "render/html.py": "print/html.py",
    "render/modes.py": "print/modes.py",
    "render/fragment.py": "print/pdfparts/fragment.py",
    "render/pdfasm.py": "print/pdfparts/pdfasm.py",
    "render/pdfobjects.py": "print/pdfparts/pdfobjects.py",
    "render/pdfraw.py": "print/pdfparts/pdfraw.py",
    "render/tts.py": "print/tts/decks.py",
    "printing/": "print/tiles/",
    "printing/ttstable.py": "print/tts/table.py",
    "rulebook/": "print/rulebook/",
    # cli/: click only
    "cli.py": "cli/__init__.py",
    "cli_balance.py": "cli/balance.py",
    "cli_board.py": "cli/board.py",
    "cli_check.py": "cli/check.py",
    "cli_engine.py": "cli/engine.py",
    "cli_play.py": "cli/play.py",
    "cli_print.py": "cli/print_cards.py",
    "cli_rules.py": "cli/rules.py",
    "cli_versions.py": "cli/versions.py",
    # serve/: the preview and the play table
    "serve.py": "serve/app.py",
    "preview.py": "serve/preview.py",
    "playserve.py": "serve/play.py",
    "playseats.py": "serve/seats.py",
    "playstate.py": "serve/playstate.py",
    "playwords.py": "serve/words.py",
    "playterm.py": "serve/term.py",
    "playboard.py": "serve/board.py",   # from h-45c
    "playseal.py": "serve/seal.py",     # from h-45c
}

# a docstring for each package the move creates
NEW_PACKAGES = {
    "content": "Content: load, schema-check and validate the designer's files; the model's own views.",
    "schemas": "The JSON Schemas of content, generated from the code (`tether schemas`).",
    "openspiel": "",   # openspiel.py becomes its __init__
    "buildsys": "The build system: keys from recorded reads, workers, commit, manifest, watch, "
                "verify. Stages never import it.",
    "print": "Everything printed: layout/ (the one place touching the layout libraries' "
             "internals), shared page code, cards/, tiles/, rulebook/, tts/.",
    "print/layout": "The one place that touches WeasyPrint, Pango, fontTools, cffi and pypdf "
                    "internals.",
    "print/pdfparts": "Cutting laid-out PDFs into reusable page fragments and joining them.",
    "print/tts": "Tabletop Simulator: card decks and the table.",
    "serve": "`tether serve`: the live preview and the Play page.",
}

# outside tether_build/: where references are rewritten
PY_DIRS = ("tether_build", "tests", "benchmarks", "scripts")
TEXT_FILES = ("README.md", "pyproject.toml", ".ci/run")
TEXT_GLOBS = ("docs/*.md", "benchmarks/*.md", "scripts/*.sh", "tests/**/*.md", "tests/*.txt")
SELF = Path(__file__).resolve()


STRAYS: list[str] = []


class Stop(Exception):
    """The plan cannot be made: nothing has been touched."""


def _rule(rel: str) -> str:
    """The new path of tether_build/<rel>, from the most specific rule."""
    if rel in RULES:
        return RULES[rel]
    parts = rel.split("/")
    for i in range(len(parts) - 1, 0, -1):
        folder = "/".join(parts[:i]) + "/"
        if folder in RULES:
            return RULES[folder] + "/".join(parts[i:])
    raise Stop(f"tether_build/{rel}: no rule in scripts/relayout.py RULES says where it goes "
               f"(add one, then run again)")


def _tracked() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", PKG], cwd=ROOT, check=True,
                         capture_output=True).stdout.decode()
    return sorted(p for p in out.split("\0") if p and (ROOT / p).exists())


def _modname(rel: str) -> str:
    """tether_build/<rel>.py -> its dotted module name (a package's __init__: the package)."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PKG, *parts])


def plan() -> dict[str, str]:
    """{old path under tether_build/: new path} of every tracked file (unchanged ones too)."""
    moves, unruled = {}, []
    for path in _tracked():
        rel = path[len(PKG) + 1:]
        if "__pycache__" in rel:
            continue
        try:
            moves[rel] = _rule(rel)
        except Stop as exc:
            unruled.append(str(exc))
    if unruled:
        raise Stop("\n".join(unruled))
    targets: dict[str, str] = {}
    for old, new in moves.items():
        if new in targets:
            raise Stop(f"tether_build/{old} and tether_build/{targets[new]} both go to {new}")
        targets[new] = old
    return moves


def module_map(moves: dict[str, str]) -> dict[str, str]:
    """{old dotted module: new dotted module}, packages included (a folder that moves whole
    maps to its new folder; one split over several maps to its __init__'s new home)."""
    mods = {_modname(o): _modname(n) for o, n in moves.items() if o.endswith(".py")}
    return dict(sorted(mods.items()))


def path_map(moves: dict[str, str]) -> dict[str, list[str]]:
    """{old path under tether_build/: new ones}: every moved file; for a folder whose modules
    move, "x/*.py" (one glob per new folder) and "x/" (where its __init__ goes)."""
    out = {old: [new] for old, new in moves.items() if old != new}
    homes: dict[str, set[str]] = {}
    for old, new in moves.items():
        if "/" in old and old.endswith(".py"):
            homes.setdefault(old.rsplit("/", 1)[0], set()).add(new.rsplit("/", 1)[0])
    for folder, new in sorted(homes.items()):
        if new != {folder}:
            out[folder + "/*.py"] = [f"{h}/*.py" for h in sorted(new)]
            init = moves.get(folder + "/__init__.py")
            out[folder + "/"] = [(init.rsplit("/", 1)[0] if init else min(new)) + "/"]
    return out


# --- the rewriting ------------------------------------------------------------------------

def _resolve(modname: str, is_init: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = modname.split(".")
    base = base if is_init else base[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _new_name(name: str, mods: dict[str, str]) -> str:
    """A dotted name after the move: its longest old-module prefix replaced."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        head = ".".join(parts[:i])
        if head in mods:
            return ".".join([mods[head], *parts[i:]])
    return name


def _relative(target: str, modname: str, is_init: bool) -> str:
    """`target` (a dotted module or package) as a relative import from `modname`."""
    here = modname.split(".") if is_init else modname.split(".")[:-1]
    there = target.split(".")
    common = 0
    while common < min(len(here), len(there)) and here[common] == there[common]:
        common += 1
    if common == 0:
        return target
    return "." * (len(here) - common + 1) + ".".join(there[common:])


def _import_text(node, old_mod: str, new_mod: str, is_init_old: bool, is_init_new: bool,
                 mods: dict[str, str], allmods: set[str], moved: bool):
    """The statement rewritten, or None when it names nothing that moved."""
    if isinstance(node, ast.Import):
        names, changed = [], False
        for a in node.names:
            new = _new_name(a.name, mods)
            if new != a.name:
                changed = True
                if a.asname is None and new.split(".")[0] != a.name.split(".")[0]:
                    raise Stop(f"`import {a.name}` binds another top name after the move")
            names.append(new + (f" as {a.asname}" if a.asname else ""))
        return f"import {', '.join(names)}" if changed else None
    module = _resolve(old_mod, is_init_old, node)
    if not module.startswith(PKG):
        return None
    groups: dict[str, list[str]] = {}
    changed = bool(node.level) and moved
    for a in node.names:
        full = f"{module}.{a.name}"
        if full in allmods:   # `from package import module`
            new = mods.get(full, full)
            parent, _, last = new.rpartition(".")
            if parent == PKG and last == "print":
                raise Stop(f"{old_mod}: would bind `print` (from {PKG} import print)")
            bound = a.asname or a.name
            groups.setdefault(parent, []).append(last if bound == last else f"{last} as {bound}")
            changed |= new != full
        else:
            new = _new_name(module, mods)
            bound = f"{a.name} as {a.asname}" if a.asname else a.name
            groups.setdefault(new, []).append(bound)
            changed |= new != module
    if not changed:
        return None
    lines = []
    for src, names in groups.items():
        where = _relative(src, new_mod, is_init_new) if node.level else src
        lines.append(f"from {where} import {', '.join(names)}")
    return lines


DOTTED = re.compile(r"(?<![\w.])" + PKG + r"(?:\.[A-Za-z_]\w*)+")
SLASHED = re.compile(r"(?<![\w/.])" + PKG + r"/([\w./*-]*)")


FROM_TEXT = re.compile(r"(?<![\w.])from (" + PKG + r"(?:\.\w+)*) import "
                       r"(\w+(?: as \w+)?(?:, *\w+(?: as \w+)?)*)")


def _from_text(m, mods: dict[str, str]) -> str:
    """`from tether_build import stagerun` written in a string (code a test runs with -c)."""
    module, groups = m.group(1), {}
    for item in re.split(r", *", m.group(2)):
        name, _, alias = item.partition(" as ")
        full = f"{module}.{name}"
        if full in mods:
            parent, _, last = mods[full].rpartition(".")
            bound = alias or name
            groups.setdefault(parent, []).append(last if last == bound else f"{last} as {bound}")
        else:
            groups.setdefault(_new_name(module, mods), []).append(item)
    return "; ".join(f"from {p} import {', '.join(n)}" for p, n in groups.items())


def _rewrite_dotted(text: str, mods: dict[str, str]) -> str:
    """Dotted names, and `from tether_build... import module` outside import statements (in
    strings), in one pass: nothing is rewritten twice."""
    both = re.compile(FROM_TEXT.pattern + "|" + DOTTED.pattern)
    return both.sub(lambda m: _from_text(m, mods) if m.group(1)
                    else _new_name(m.group(0), mods), text)


def _rewrite_slashed(text: str, paths: dict[str, list[str]]) -> str:
    """tether_build/<old path> -> tether_build/<new path>: a file, a glob, or under a folder."""
    def one(m):
        rest = m.group(1)
        for key in sorted(paths, key=len, reverse=True):
            if rest == key or (key.endswith("/") and rest.startswith(key)):
                return ", ".join(f"{PKG}/{new}{rest[len(key):]}" for new in paths[key])
            if key.endswith("/") and rest == key[:-1]:
                return f"{PKG}/{paths[key][0][:-1]}"
        return m.group(0)
    return SLASHED.sub(one, text)


BARE = re.compile(r"(?<![\w/.-])([a-z_]+/[\w/]*\w\.py)\b")


def _rewrite_bare(text: str, paths: dict[str, list[str]]) -> str:
    """A module's path under tether_build/ written without the prefix ("render/pdf.py" in a
    doc or a message) -> its new path. Files in a folder only: a bare "cards.py" could be
    anything."""
    return BARE.sub(lambda m: paths[m.group(1)][0] if m.group(1) in paths else m.group(0),
                    text)


def _rewrite(text: str, mods, paths) -> str:
    return _rewrite_bare(_rewrite_slashed(_rewrite_dotted(text, mods), paths), paths)


def _file_chain(node) -> tuple[int, bool] | None:
    """(how many folders up, resolved?) of `Path(__file__)[.resolve()].parent...` or
    `.parents[k]`, or None."""
    ups = 0
    while True:
        if isinstance(node, ast.Attribute) and node.attr == "parent":
            ups += 1
            node = node.value
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)
              and node.value.attr == "parents" and isinstance(node.slice, ast.Constant)):
            ups += node.slice.value + 1
            node = node.value.value
        else:
            break
    if ups == 0:
        return None
    resolved = False
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "resolve" and not node.args):
        resolved, node = True, node.func.value
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Path"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "__file__"):
        return ups, resolved
    return None


def _outermost_chains(tree):
    """Path(__file__) chains, the longest only (not their inner .parent parts)."""
    seen, out = set(), []
    for node in ast.walk(tree):
        chain = _file_chain(node)
        if chain and id(node) not in seen:
            out.append((node, chain))
            inner = node
            while isinstance(inner, (ast.Attribute, ast.Subscript)):
                inner = inner.value if isinstance(inner, ast.Attribute) else inner.value.value
                seen.add(id(inner))
    return out


def _chain_text(ups: int, resolved: bool) -> str:
    base = "Path(__file__).resolve()" if resolved else "Path(__file__)"
    return base + (".parent" * ups if ups <= 2 else f".parents[{ups - 1}]")


def _stray_paths(tree, paths: dict[str, list[str]], done) -> list:
    """String constants equal to a moved module's old path that _code_paths left alone
    (`folder / "board.py"`): printed for a person to look at."""
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value in paths and node.value.endswith(".py") and id(node) not in done]


def _code_paths(tree, paths: dict[str, list[str]]):
    """(node, new text) of string constants naming package code by path under tether_build/
    ("render/pdf.py", "render/*.py", "cards.py") inside a tuple, a list or a call."""
    out = []
    for parent in ast.walk(tree):
        if isinstance(parent, (ast.Tuple, ast.List)):
            elts = parent.elts
        elif isinstance(parent, ast.Call):
            elts = parent.args
        else:
            continue
        for node in elts:
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.endswith(".py") and node.value in paths):
                out.append((node, ", ".join(repr(p) .replace("'", '"') for p in paths[node.value])))
    return out


def _offsets(text: str) -> list[int]:
    starts, pos = [0], 0
    for line in text.splitlines(keepends=True):
        pos += len(line)
        starts.append(pos)
    return starts


def rewrite_python(path: Path, old_rel: str | None, new_rel: str | None, mods, paths,
                   allmods, log) -> bool:
    """Rewrite one Python file (old_rel/new_rel: its place under tether_build/, if there)."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    starts = _offsets(text)

    def off(line, col):
        return starts[line - 1] + len(text[starts[line - 1]:].encode()[:col].decode())

    if old_rel is not None:
        old_mod, new_mod = _modname(old_rel), _modname(new_rel)
        init_old, init_new = old_rel.endswith("__init__.py"), new_rel.endswith("__init__.py")
    else:
        old_mod = new_mod = path.stem
        init_old = init_new = False
    edits = []   # (start, end, new text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            new = _import_text(node, old_mod, new_mod, init_old, init_new, mods, allmods,
                               old_rel != new_rel)
            if new is None:
                continue
            if isinstance(new, str):
                new = [new]
            start, end = off(node.lineno, node.col_offset), off(node.end_lineno,
                                                                 node.end_col_offset)
            line_start = starts[node.lineno - 1]
            indent = text[line_start:start]
            sep = "\n" + indent if indent.strip() == "" else "; "
            # a trailing comment (a noqa) goes with every line the statement becomes
            rest = text[end:starts[node.end_lineno]].rstrip("\n")
            if len(new) > 1 and sep != "; " and rest.lstrip().startswith("#"):
                new = [line + rest for line in new[:-1]] + new[-1:]
            edits.append((start, end, sep.join(new)))
    if old_rel is not None:
        depth_old, depth_new = old_rel.count("/"), new_rel.count("/")
        for node, (ups, resolved) in _outermost_chains(tree):
            # the folder reached: ups - 1 above the file's own folder; the package's folder
            # is depth_old + 1 up
            if ups >= depth_old + 1:
                new_ups = ups - depth_old + depth_new
                if new_ups != ups:
                    edits.append((off(node.lineno, node.col_offset),
                                  off(node.end_lineno, node.end_col_offset),
                                  _chain_text(new_ups, resolved)))
                    log(f"  {PKG}/{new_rel}:{node.lineno}: Path(__file__) {ups} up -> {new_ups} up")
        done = set()
        for node, new in _code_paths(tree, paths):
            edits.append((off(node.lineno, node.col_offset),
                          off(node.end_lineno, node.end_col_offset), new))
            done.add(id(node))
            log(f"  {PKG}/{new_rel}:{node.lineno}: code path {node.value!r} -> {new}")
        for node in _stray_paths(tree, paths, done):
            STRAYS.append(f"{PKG}/{new_rel}:{node.lineno}: {node.value!r} names a module that "
                          f"moved to {paths[node.value][0]}: left as it is, look at it")
    edits.sort()
    for (s1, e1, _), (s2, _, _) in itertools.pairwise(edits):
        if s2 < e1:
            raise Stop(f"{path}: overlapping rewrites at {s1}-{e1} and {s2}")
    out, pos = [], 0
    for start, end, new in edits:
        out.append(_rewrite(text[pos:start], mods, paths))
        out.append(new)
        pos = end
    out.append(_rewrite(text[pos:], mods, paths))
    result = "".join(out)
    if result != text:
        path.write_text(result, encoding="utf-8")
        return True
    return False


def rewrite_text(path: Path, mods, paths) -> bool:
    text = path.read_text(encoding="utf-8")
    result = _rewrite(text, mods, paths)
    if result != text:
        path.write_text(result, encoding="utf-8")
        return True
    return False


def _git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def main() -> int:
    if (ROOT / PKG / "cli" / "__init__.py").exists():
        print("relayout: tether_build/cli/ exists already: the layout is in place",
              file=sys.stderr)
        return 1
    try:
        moves = plan()
    except Stop as exc:
        print(f"relayout: stopped, nothing changed:\n{exc}", file=sys.stderr)
        return 1
    mods = module_map(moves)
    paths = path_map(moves)
    allmods = set(mods) | set(mods.values())
    moved = {o: n for o, n in moves.items() if o != n}
    print(f"relayout: {len(moved)} of {len(moves)} files move")
    log = print
    # 1. rewrite every file in place first (the old tree: each file knows its old name), then move
    changed = []
    for folder in PY_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.resolve() == SELF or "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT).as_posix()
            old_rel = rel[len(PKG) + 1:] if rel.startswith(PKG + "/") else None
            new_rel = moves.get(old_rel, old_rel) if old_rel else None
            try:
                if rewrite_python(path, old_rel, new_rel, mods, paths, allmods, log):
                    changed.append(rel)
            except Stop as exc:
                print(f"relayout: stopped in {rel}: {exc}", file=sys.stderr)
                return 1
    texts = [ROOT / f for f in TEXT_FILES if (ROOT / f).exists()]
    texts += sorted(p for g in TEXT_GLOBS for p in ROOT.glob(g))
    for path in texts:
        if rewrite_text(path, mods, paths):
            changed.append(path.relative_to(ROOT).as_posix())
    print(f"relayout: references rewritten in {len(changed)} files")
    # 2. move
    for old, new in sorted(moved.items()):
        target = ROOT / PKG / new
        target.parent.mkdir(parents=True, exist_ok=True)
        _git("mv", f"{PKG}/{old}", f"{PKG}/{new}")
        print(f"  git mv {PKG}/{old} {PKG}/{new}")
    for package, doc in sorted(NEW_PACKAGES.items()):
        init = ROOT / PKG / package / "__init__.py"
        if not init.exists():
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            _git("add", init.relative_to(ROOT).as_posix())
            print(f"  new {init.relative_to(ROOT)}")
    for folder in sorted({(ROOT / PKG / o).parent for o in moved}, reverse=True):
        for cache in folder.glob("__pycache__"):
            if not any(folder.glob("*.py")):
                for f in cache.iterdir():
                    f.unlink()
                cache.rmdir()
        if folder.exists() and folder != ROOT / PKG and not any(folder.iterdir()):
            folder.rmdir()
            print(f"  removed empty {folder.relative_to(ROOT)}/")
    # the imports the script wrote, sorted as the project's ruff settings want them
    sort = subprocess.run([sys.executable, "-m", "ruff", "check", "--fix", "--quiet",
                           "--select", "I001", *PY_DIRS], cwd=ROOT, check=False)
    print("relayout: imports sorted (ruff check --fix --select I001)" if sort.returncode == 0
          else "relayout: sorting the imports failed: run `ruff check --fix --select I001`")
    for stray in STRAYS:
        print(f"relayout: warning: {stray}")
    print("relayout: done. Next: python3 -m tether_build.engine.native --optional "
          "(the .so is untracked and stays), ruff check tether_build tests, python3 -m pytest -q")
    return 0


if __name__ == "__main__":
    sys.exit(main())
