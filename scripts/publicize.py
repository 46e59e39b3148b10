"""Make public the private names used across modules (issue 40): a codemod, run once.

tests/private_names_known.txt lists the names (`_x`) one module of `tether_build` uses from
another ("tether_build.print.cards.sheets._num"). This script renames each of them, with
`ast`, everywhere it is that name:

- in its own module: the definition and every use (`_x` as a name, `global _x`);
- in every module of the package, of tests/, benchmarks/ and scripts/ that uses it:
  `from module import _x` (and the plain uses of `_x` there, unless it was imported `as`
  another name), `module._x` where `module` is bound to the defining module (by `import`
  or `from package import module`, with or without `as`), `setattr/getattr/delattr/hasattr`
  and `monkeypatch.setattr` / `mock.patch.object(module, "_x")`;
- in strings anywhere: the dotted name "tether_build.pkg.module._x" (mock.patch targets)
  and "tether_build.pkg.module:_x" (stage targets);
- in prose: "module._x" (the module's last name) in comments and docstrings, in docs/*.md,
  templates/ and the native engine's C++ comments.

Public names are the name without its underscore, or the one in RENAMES where that would be
unclear or would shadow something (a builtin, a module). Before it writes anything, the script
refuses (exit 2, nothing changed) a new name the defining module or a module importing it by
name already uses (a name, an argument, a definition, an import): rename it in RENAMES. A
listed name no longer defined at the top of its module (code moved or gone since) is reported
and skipped.

When done it walks the package again (tests/test_layers.py's rule) and writes what is still
used across modules to tests/private_names_known.txt: empty after a clean run, which is what
test_layers then demands. Exit 1 if anything is left.

    python3 scripts/publicize.py            # rewrite in place, imports re-sorted by ruff
                                            # (then: ruff check tether_build tests, the tests)
    python3 scripts/publicize.py --dry-run  # list the renames and the files they touch
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tether_build"
KNOWN = ROOT / "tests" / "private_names_known.txt"
TREES = ("tether_build", "tests", "benchmarks", "scripts")

# where dropping the underscore would be unclear, or shadow a builtin or a module
RENAMES = {
    "tether_build.engine.human._w": "term_word",
    "tether_build.print.pdfparts.pdfasm._num": "num_bytes",
    "tether_build.print.cards.sheets._num": "num_text",
    "tether_build.print.rulebook.svg._svg": "svg_figure",
    "tether_build.print.rulebook.svg._hex": "hex_shape",
    "tether_build.print.rulebook.svg._text": "svg_text",
    "tether_build.cli.engine._csv": "csv_list",
    "tether_build.cli.engine._options": "parse_options",
    "tether_build.content.versions.gitcontent._rules": "rules_files",
    "tether_build.print.tiles.boardmap._hexes": "placed_hexes",
    "tether_build.print.tiles.boardmap._style": "map_style",
    "tether_build.print.tiles.tiles._face": "tile_face",
    "tether_build.print.rulebook.runon._used": "used_height",
    "tether_build.serve.preview._browser": "browser_page",
    "tether_build.print.geometry._bleed": "bleed_for",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def source_files() -> list[Path]:
    files = []
    for tree in TREES:
        files += [p for p in sorted((ROOT / tree).rglob("*.py"))
                  if "__pycache__" not in p.parts and p != Path(__file__).resolve()]
    return files


def resolve(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module of a `from ... import`, relative ones resolved from `name`."""
    if not node.level:
        return node.module or ""
    base = name.split(".")
    base = base if path.name == "__init__.py" else base[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def defined_at_top(tree: ast.Module, private: str) -> bool:
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.name == private:
            return True
        targets = (node.targets if isinstance(node, ast.Assign) else
                   [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
        if any(isinstance(t, ast.Name) and t.id == private for t in targets):
            return True
    return False


def identifiers(tree: ast.AST) -> set[str]:
    """Every name a module binds or reads (names, arguments, definitions, imports, globals)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
    return out


class Edits:
    """Text replacements by (line, column) position, applied from the end of the file."""

    def __init__(self, text: str):
        self.lines = text.splitlines(keepends=True)
        self.starts = [0]   # byte offset of each line
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line.encode("utf-8")))
        self.raw = text.encode("utf-8")
        self.spans: set[tuple[int, int, str]] = set()

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col   # ast columns are UTF-8 byte offsets

    def replace(self, line: int, col: int, old: str, new: str) -> None:
        at = self.offset(line, col)
        assert self.raw[at:at + len(old.encode())] == old.encode(), (line, col, old)
        self.spans.add((at, at + len(old.encode()), new))

    def text(self) -> str:
        raw = self.raw
        for start, end, new in sorted(self.spans, reverse=True):
            raw = raw[:start] + new.encode() + raw[end:]
        return raw.decode("utf-8")


def rewrite(path: Path, tree: ast.Module, renames: dict[str, dict[str, str]]) -> str | None:
    """The new text of one file, or None when nothing in it changes. renames: defining
    module -> {private name: public name}."""
    text = path.read_text(encoding="utf-8")
    edits = Edits(text)
    own = module_name(path)
    mine = renames.get(own, {})
    plain: dict[str, str] = dict(mine)   # bare names to rename in this file
    bound: dict[str, str] = {}           # local name -> defining module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                # (`import a.b.c` binds `a`: a.b.c._x is an Attribute chain, handled below)
                if alias.name in renames and alias.asname:
                    bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            module = resolve(own, path, node)
            for alias in node.names:
                full = f"{module}.{alias.name}"
                if full in renames:
                    bound[alias.asname or alias.name] = full
                elif module in renames and alias.name in renames[module]:
                    new = renames[module][alias.name]
                    edits.replace(alias.lineno, alias.col_offset, alias.name, new)
                    if not alias.asname:
                        plain[alias.name] = new
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in plain:
            edits.replace(node.lineno, node.col_offset, node.id, plain[node.id])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.name in mine and node in tree.body:
            line = edits.lines[node.lineno - 1]   # (the `def` line, after any decorator)
            word = "class " if isinstance(node, ast.ClassDef) else "def "
            col = line.encode().index((word + node.name).encode()) + len(word)
            edits.replace(node.lineno, col, node.name, mine[node.name])
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and set(node.names) & set(mine):
            raise SystemExit(f"{path}:{node.lineno}: `global` of a renamed name: edit by hand")
        elif isinstance(node, ast.Attribute):
            target = _module_of(node.value, bound, renames)
            if target and node.attr in renames[target]:
                col = node.end_col_offset - len(node.attr.encode())
                edits.replace(node.end_lineno, col, node.attr, renames[target][node.attr])
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            name_arg = node.args[1]
            if called in ("setattr", "getattr", "delattr", "hasattr", "object") \
                    and isinstance(name_arg, ast.Constant) and isinstance(name_arg.value, str):
                target = _module_of(node.args[0], bound, renames)
                if target and name_arg.value in renames[target]:
                    _string_edit(edits, name_arg, name_arg.value,
                                 renames[target][name_arg.value])
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            for module, names in renames.items():
                for private, public in names.items():
                    for sep in (".", ":"):
                        dotted = f"{module}{sep}{private}"
                        if re.search(re.escape(dotted) + r"\b", node.value):
                            _string_edit(edits, node, dotted, f"{module}{sep}{public}",
                                         every=True)
    new = edits.text()
    return new if new != text else None


def _module_of(node: ast.expr, bound: dict[str, str], renames) -> str | None:
    """The defining module an expression names: a bound name, or a dotted chain
    `tether_build.print.cards.sheets` (after `import tether_build.print.cards.sheets`)."""
    if isinstance(node, ast.Name):
        return bound.get(node.id)
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        dotted = ".".join([node.id, *reversed(parts)])
        return dotted if dotted in renames else None
    return None


def _string_edit(edits: Edits, node: ast.Constant, old: str, new: str,
                 every: bool = False) -> None:
    """Replace `old` inside a string literal (a name is never split across lines)."""
    start = edits.offset(node.lineno, node.col_offset)
    end = edits.offset(node.end_lineno, node.end_col_offset)
    pattern = re.compile(re.escape(old.encode()) + rb"(?![A-Za-z0-9_])")
    hits = list(pattern.finditer(edits.raw, start, end))
    if not hits:
        raise SystemExit(f"line {node.lineno}: {old!r} not written plainly in its string: "
                         "edit by hand")
    for hit in hits if every else hits[:1]:
        edits.spans.add((hit.start(), hit.end(), new))


MENTION_FILES = ("docs/**/*.md", "templates/**/*", "tether_build/**/*.h",
                 "tether_build/**/*.cpp", "README.md")


def mention_patterns(renames) -> list[tuple[re.Pattern, str]]:
    """`module._x` as prose names it (the module's last name: "boardmap._style")."""
    return [(re.compile(rf"(?<![A-Za-z0-9_.]){re.escape(module.rsplit('.', 1)[-1])}\."
                        rf"{re.escape(private)}(?![A-Za-z0-9_])"),
             f"{module.rsplit('.', 1)[-1]}.{public}")
            for module, names in renames.items() for private, public in names.items()]


def mentions(text: str, patterns) -> str:
    for pattern, new in patterns:
        text = pattern.sub(new, text)
    return text


def python_mentions(path: Path, text: str, patterns) -> str:
    """The prose mentions in a Python file's comments and docstrings (its code is done)."""
    import io
    import tokenize

    tree = ast.parse(text)
    docs = {(n.value.lineno, n.value.col_offset) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)}
    edits = Edits(text)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        prose = tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING
                                                 and tok.start in _char_to_byte(text, docs))
        if prose and mentions(tok.string, patterns) != tok.string:
            line, col = tok.start
            col = len(edits.lines[line - 1][:col].encode("utf-8"))
            edits.replace(line, col, tok.string, mentions(tok.string, patterns))
    return edits.text()


def _char_to_byte(text: str, docs: set) -> set:
    """ast gives byte columns, tokenize character ones: the docstrings' starts as tokenize
    gives them."""
    lines = text.splitlines(keepends=True)
    return {(line, len(lines[line - 1].encode("utf-8")[:col].decode("utf-8")))
            for line, col in docs}


def plan(names: list[str], trees: dict[Path, ast.Module]):
    """(renames by module, skipped, conflicts)."""
    by_module = {module_name(p): (p, t) for p, t in trees.items()}
    renames: dict[str, dict[str, str]] = {}
    skipped, conflicts = [], []
    for full in names:
        module, _, private = full.rpartition(".")
        if module not in by_module or not defined_at_top(by_module[module][1], private):
            skipped.append(f"{full}: not defined at the top of its module any more")
            continue
        renames.setdefault(module, {})[private] = RENAMES.get(full, private.lstrip("_"))
    for module, names_ in renames.items():
        publics = list(names_.values())
        if len(set(publics)) != len(publics):
            conflicts.append(f"{module}: two names become one")
        path, tree = by_module[module]
        used = identifiers(tree)
        for private, public in names_.items():
            if public in used:
                conflicts.append(f"{path.relative_to(ROOT)}: {public!r} (for {private}) is "
                                 "already a name there")
    for path, tree in trees.items():   # the importers, by name
        own, brought = module_name(path), {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = resolve(own, path, node)
                for alias in node.names:
                    if module in renames and alias.name in renames[module] \
                            and not alias.asname:
                        brought[alias.name] = renames[module][alias.name]
        if not brought:
            continue
        used = identifiers(tree) - set(brought)
        if len(set(brought.values())) != len(brought):
            conflicts.append(f"{path.relative_to(ROOT)}: two imported names become one")
        for private, public in brought.items():
            if public in used:
                conflicts.append(f"{path.relative_to(ROOT)}: {public!r} (for {private}) is "
                                 "already a name there")
    return renames, skipped, conflicts


def still_used() -> list[str]:
    """The private names still used across modules (tests/test_layers.py's own walk)."""
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    from test_import_graph import _modules
    from test_layers import _private_uses

    mods = _modules()
    return sorted({f for name, path in mods.items() for f in _private_uses(name, path, mods)})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="list, change nothing")
    args = parser.parse_args(argv)
    names = [n for n in KNOWN.read_text(encoding="utf-8").splitlines() if n.strip()]
    trees = {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in source_files()}
    renames, skipped, conflicts = plan(names, trees)
    for line in skipped:
        print("skipped:", line)
    if conflicts:
        print("refused, nothing changed (choose another name in RENAMES):\n  "
              + "\n  ".join(conflicts))
        return 2
    new_texts = {}
    for path, tree in trees.items():
        new = rewrite(path, tree, renames)
        if new is not None:
            ast.parse(new, str(path))   # never write a file that does not parse
            new_texts[path] = new
    patterns = mention_patterns(renames)
    for path in trees:
        text = new_texts.get(path) or path.read_text(encoding="utf-8")
        prose = python_mentions(path, text, patterns)
        if prose != text:
            new_texts[path] = prose
    for pattern in MENTION_FILES:
        for path in sorted(ROOT.glob(pattern)):
            if path.is_file() and path.suffix not in (".ttf", ".otf", ".png", ".woff2"):
                try:
                    text = path.read_text(encoding="utf-8")
                except UnicodeDecodeError:
                    continue
                if mentions(text, patterns) != text:
                    new_texts[path] = mentions(text, patterns)
    for module, names_ in sorted(renames.items()):
        for private, public in sorted(names_.items()):
            print(f"{module}.{private} -> {public}")
    print(f"{len(new_texts)} file(s): " + ", ".join(str(p.relative_to(ROOT))
                                                   for p in sorted(new_texts)))
    if args.dry_run:
        return 0
    for path, new in new_texts.items():
        path.write_text(new, encoding="utf-8")
    # a renamed import may sort elsewhere in its block: ruff puts it back in order
    subprocess.run([sys.executable, "-m", "ruff", "check", "--fix", "--select", "I001", "-q",
                    *map(str, sorted(new_texts))], cwd=ROOT, check=False)
    left = still_used()
    KNOWN.write_text("".join(f"{n}\n" for n in left), encoding="utf-8")
    if left:
        print("still used across modules (listed in tests/private_names_known.txt):\n  "
              + "\n  ".join(left))
        return 1
    print("tests/private_names_known.txt emptied: no private name is used across modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
