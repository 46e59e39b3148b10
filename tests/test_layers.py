"""The layers of docs/architecture.md, held by walking the package's imports (issue 40):

- only the commands layer loads and validates content: every other module (the print layer,
  the checks, the engine, the serve pages) receives the loaded model;
- the stages never import the build system (`buildsys/`: keys, cache, workers, commit, lock):
  what they need of it (the atomic writer, waiting for another stage) the commands layer hands
  them as an argument;
- a private name (`_x`) is private to its module: no other module of the package imports it or
  reads it from an imported module."""

from __future__ import annotations

import ast

from test_import_graph import PACKAGE, _modules

# what loads content: validate() and the loader under it
LOADERS = {"tether_build.content.validate": None,
           "tether_build.content.load": {"load_content", "load_partial"}}
# who may: the commands layer, and the loader's own modules
COMMANDS = "tether_build.commands"


def _resolve(name: str, path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".")
    base = base if path.name == "__init__.py" else base[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imported(name: str, path):
    """(module, imported name or None, line) for every import in the module, lazy ones too."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(name, path, node)
            for alias in node.names:
                yield module, alias.name, node.lineno


def _loads_content(module: str, what: str | None) -> bool:
    for loader, names in LOADERS.items():
        if names is None and (module == loader or f"{module}.{what}" == loader):
            return True
        if names is not None and module == loader and what in names:
            return True
    return False


def test_only_the_commands_layer_loads_content():
    found = []
    for name, path in sorted(_modules().items()):
        if name == COMMANDS or name.startswith(COMMANDS + ".") or name in LOADERS:
            continue
        for module, what, line in _imported(name, path):
            if _loads_content(module, what):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} {what}")
    assert found == [], "content loaded outside the commands layer:\n" + "\n".join(found)


def test_the_load_rule_can_fail():
    assert _loads_content("tether_build.content.validate", "validate")
    package, _, module = "tether_build.content.validate".rpartition(".")
    assert _loads_content(package, module)   # `from package import validate`
    assert _loads_content("tether_build.content.load", "load_partial")
    assert not _loads_content("tether_build.content.load", "Content")


# the stage layers, and the build system they never import
STAGE_LAYERS = ("print", "check", "engine", "effects", "content", "analysis")
BUILDSYS = "tether_build.buildsys"


def _imports_buildsys(module: str, what: str | None) -> bool:
    full = f"{module}.{what}" if what else module
    return any(m == BUILDSYS or m.startswith(BUILDSYS + ".") for m in (module, full))


def _stage_modules(mods) -> dict:
    return {name: path for name, path in mods.items()
            if any(name == f"tether_build.{layer}" or name.startswith(f"tether_build.{layer}.")
                   for layer in STAGE_LAYERS)}


def _buildsys_imports(mods) -> list[str]:
    return [f"{path}:{line}: {module} {what or ''}".rstrip()
            for name, path in sorted(_stage_modules(mods).items())
            for module, what, line in _imported(name, path) if _imports_buildsys(module, what)]


def test_stages_never_import_the_build_system():
    found = [f.replace(str(PACKAGE.parent) + "/", "") for f in _buildsys_imports(_modules())]
    assert found == [], "the build system imported by a stage layer:\n" + "\n".join(found)


def test_the_buildsys_rule_can_fail(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from ...buildsys.lock import write_outputs\n")
    plain = tmp_path / "plain.py"
    plain.write_text("from tether_build import buildsys\nimport tether_build.buildsys.reads\n")
    mods = {"tether_build.print.cards.lazy": lazy, "tether_build.check.plain": plain,
            "tether_build.commands.ok": lazy}   # the commands layer may
    assert [f.rsplit(":", 2)[1:] for f in _buildsys_imports(mods)] == [   # sorted by module
        ["1", " tether_build buildsys"], ["2", " tether_build.buildsys.reads"],
        ["2", " tether_build.buildsys.lock write_outputs"]]


def _private_uses(name: str, path, mods) -> list[str]:
    """The private names of other modules of the package that `name` uses, as
    "module._x": `from other import _x`, and `other._x` where `other` is imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, aliases = set(), {}
    for module, what, _line in _imported(name, path):
        full = f"{module}.{what}" if what else module
        if full in mods:   # a module imported by name: remember what it is bound to
            aliases[what or module.split(".")[0]] = full
        elif (module in mods and module != name and what and what.startswith("_")
              and not what.startswith("__")):
            found.add(f"{module}.{what}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and aliases.get(node.value.id, name) != name):
            found.add(f"{aliases[node.value.id]}.{node.attr}")
    return sorted(found)


# No module uses another module's private name (`_x`): what one module lends another is
# public. (The 29 such names of 2026-11-29 were made public by a one-off codemod.)
# By the name used, not the user: code may move.
def test_no_private_name_used_across_modules():
    mods = _modules()
    found = {f for name, path in mods.items() for f in _private_uses(name, path, mods)}
    assert sorted(found) == [], "private names used from another module"


def test_the_private_rule_can_fail(tmp_path):
    mods = {"tether_build.a": tmp_path / "a.py", "tether_build.b": tmp_path / "b.py"}
    mods["tether_build.b"].write_text("from .a import _x\nfrom . import a\na._y()\n")
    assert _private_uses("tether_build.b", mods["tether_build.b"], mods) == [
        "tether_build.a._x", "tether_build.a._y"]
