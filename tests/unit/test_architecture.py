"""The engine's layout is its architecture: layers by sub-package, imports only going down.

The layers are one table in code, `bookexec._LAYERS`, lowest first (a module imports only
from its own layer or lower ones). This file enforces it on every import of every module
(lazy ones too), checks that the package docstring lists every module there is and no other,
and that the layer table of docs/guide/architecture.md is the same table. Beside the order:

- `execute` and `goldens` never import `jax` (JAX itself or `bookexec._internal.jax`);
- nothing of the engine imports the book's own code, `jaxbook` (its own distribution);
- the only imports up are `ALLOWED_UP`, each by name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import bookexec
from conftest import REPO

PACKAGE = REPO / "hooks" / "bookexec"
GUIDE = REPO / "docs" / "guide" / "architecture.md"
LAYERS = {name: number for number, names in enumerate(bookexec._LAYERS) for name in names}
# The book's own code, which the engine must never import.
BOOK = ("jaxbook",)

# The imports up, each allowed by name and for a reason; none today: keep it so.
ALLOWED_UP: set[tuple[str, str]] = set()


def _short(module: str) -> str:
    """'bookexec._internal.goldens.store' -> 'goldens.store', 'bookexec.jax.stepper' ->
    'jax.stepper': the name the package docstring and the layers give a module, public or
    internal."""
    return module.removeprefix("bookexec").lstrip(".").removeprefix("_internal").lstrip(".")


def _layer_of(module: str) -> str:
    """'bookexec._internal.goldens.store' -> 'goldens'; '' for the packages `bookexec` and
    `bookexec._internal` themselves (the package docstring)."""
    return _short(module).split(".")[0]


def _modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append((".".join(parts), path))
    return found


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    """Every module this file imports, absolute, with its line (lazy imports included)."""
    out = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return out


def _violations() -> list[str]:
    problems = []
    for module, path in _modules():
        layer = _layer_of(module)
        if not layer:
            continue
        assert layer in LAYERS, f"{module}: a module outside the known layers; add it to LAYERS"
        for line, imported in _imports(path, module):
            rel = f"{path.relative_to(PACKAGE.parent)}:{line}"
            if layer in ("execute", "goldens") and (
                imported == "jax" or imported.startswith("jax.") or imported == "jaxlib"
            ):
                problems.append(
                    f"{rel}: {layer} imports {imported} (JAX belongs to bookexec._internal.jax)"
                )
            book = any(imported == b or imported.startswith(f"{b}.") for b in BOOK)
            if book:
                problems.append(f"{rel}: {layer} imports {imported}: the book's, not the engine's")
            if not imported.startswith("bookexec.") or (module, imported) in ALLOWED_UP:
                continue
            target = _layer_of(imported)
            if target not in LAYERS or target == layer:
                continue
            if LAYERS[target] > LAYERS[layer]:
                problems.append(
                    f"{rel}: {layer} (layer {LAYERS[layer]}) imports {imported} "
                    f"(layer {LAYERS[target]}): imports only go down"
                )
    return problems


def test_imports_only_go_down():
    assert _violations() == []


def test_the_check_sees_a_violation(tmp_path, monkeypatch):
    """The rule itself can fail: an upward import planted in a copy is reported."""
    import shutil

    copy = tmp_path / "bookexec"
    shutil.copytree(PACKAGE, copy)
    planted = copy / "_internal" / "goldens" / "store.py"
    planted.write_text(
        planted.read_text() + "\nfrom jaxbook import census  # noqa\nimport jax  # noqa\n"
    )
    stage = copy / "_internal" / "pipeline" / "run.py"  # a stage that reaches up into serve
    stage.write_text(stage.read_text() + "\nfrom bookexec._internal.serve import rebuild  # noqa\n")
    engine = copy / "_internal" / "engine.py"  # the engine importing the book's own package
    engine.write_text(engine.read_text() + "\nimport jaxbook.extensions  # noqa\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", copy)
    found = _violations()
    assert any("goldens" in p and "jaxbook" in p for p in found), found
    assert any("goldens imports jax" in p for p in found), found
    assert any(
        p.startswith("bookexec/_internal/pipeline/run.py")
        and "imports bookexec._internal.serve" in p
        for p in found
    ), found
    assert any("engine imports jaxbook.extensions: the book's" in p for p in found), found


def _listed() -> list[str]:
    """The modules the package docstring lists, one `- `name`: ...` line each."""
    return re.findall(r"^- `([a-z_][\w.]*)`:", bookexec.__doc__ or "", re.M)


def test_the_package_docstring_lists_every_module_and_no_other():
    """One line per module, in the package docstring: added with the module, gone with it."""
    there = {_short(m) for m, path in _modules() if path.stem != "__init__"}
    listed = _listed()
    assert sorted(there - set(listed)) == [], "add each to hooks/bookexec/__init__.py's docstring"
    assert sorted(set(listed) - there) == [], "no such module: take it out of the docstring"
    assert len(listed) == len(set(listed)), "a module listed twice"
    packages = {_layer_of(m) for m, _ in _modules()} - {""}
    assert sorted(packages - set(LAYERS)) == [], "a package outside bookexec._LAYERS"


def test_the_package_docstring_lists_the_layers_in_order():
    """Its `Layer N, ...` headings name each layer's packages under the table's number."""
    doc = bookexec.__doc__ or ""
    said = [(int(n), names) for n, names in re.findall(r"^Layer (\d+), (.*)$", doc, re.M)]
    for number, line in said:
        for name in re.findall(r"`(\w+)`", line.split(":")[0]):
            assert LAYERS.get(name) == number, (
                f"Layer {number}: `{name}` is in layer {LAYERS.get(name)}"
            )
    assert sorted({n for n, _ in said}) == list(range(len(bookexec._LAYERS)))


def _guide_table() -> list[tuple[int, list[str]]]:
    """The rows of the guide's layer table: its number, and the names in its second cell."""
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", GUIDE.read_text(encoding="utf-8"), re.M)
    return [(int(n), re.findall(r"`([\w]+)(?:/|\.py)?`", cell)) for n, cell in rows]


def test_the_guides_layer_table_is_the_layers():
    """docs/guide/architecture.md's table: one row per layer, its packages and modules."""
    table = _guide_table()
    assert [n for n, _ in table] == list(range(len(bookexec._LAYERS)))
    for (number, names), layer in zip(table, bookexec._LAYERS, strict=True):
        assert sorted(names) == sorted(layer), f"the guide's layer {number}"


@pytest.mark.parametrize("module,path", _modules(), ids=[m for m, _ in _modules()])
def test_public_functions_have_docstrings(module, path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    missing = []

    def visit(body, prefix=""):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = node.name
                public = not name.startswith("_")
                if public and ast.get_docstring(node) is None and not _trivial(node):
                    missing.append(f"{prefix}{name} (line {node.lineno})")
                if isinstance(node, ast.ClassDef) and public:
                    visit(node.body, prefix=f"{name}.")

    visit(tree.body)
    assert ast.get_docstring(tree), f"{module} has no module docstring"
    assert missing == [], f"{module}: public names without a docstring: {missing}"


def _trivial(node) -> bool:
    """Overrides of a documented base (e.g. a Runtime's methods) and properties named for what
    they return need no docstring of their own only if decorated @override."""
    return any(
        isinstance(d, ast.Name) and d.id == "override" for d in getattr(node, "decorator_list", [])
    )


def test_importing_the_engine_configures_no_logging():
    """A module that adds a log handler at import changes what MkDocs prints for every user of
    the package (the block cache once did); handlers are set up on first use. Other packages'
    loggers (traitlets adds its own) are theirs."""
    code = """
import importlib, logging, pkgutil, sys
import bookexec
names = [m.name for m in pkgutil.walk_packages(bookexec.__path__, "bookexec.")]
for name in names:
    importlib.import_module(name)
loggers = [logging.getLogger(n) for n in logging.root.manager.loggerDict]
ours = [l for l in loggers if l.name.startswith(("bookexec", "mkdocs"))]
handled = [l.name for l in [logging.root, *ours] if getattr(l, "handlers", None)]
print(len(names), handled)
"""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    count, handled = done.stdout.split(" ", 1)
    assert int(count) >= 40  # every module was imported
    assert handled.strip() == "[]", f"loggers with handlers after import: {handled}"


# Where the process's environment and command line may be read: the plugin, once per build
# (`bookexec._internal.settings` is handed what it read), the command line (`jaxbook.cli`), the
# `python -m` mains, and the generated
# notebook's setup cell (a string, run in the reader's kernel, not here).
ENVIRONMENT_READERS = {
    "bookexec._internal.plugin",
    "bookexec._internal.execute.worker",
    "bookexec._internal.execute.launch",
}


def _environment_reads(source: str) -> list[tuple[int, str]]:
    """Each `os.environ`, `os.getenv`, `os.putenv` and `sys.argv` in the code, with its line."""
    wanted = {("os", "environ"), ("os", "getenv"), ("os", "putenv"), ("sys", "argv")}
    return [
        (node.lineno, f"{node.value.id}.{node.attr}")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and (node.value.id, node.attr) in wanted
    ]


def test_only_the_plugin_and_the_mains_read_the_environment():
    """Settings are read in one place as a build starts, never at import nor deep down."""
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {name}"
        for module, path in _modules()
        if module not in ENVIRONMENT_READERS and not module.startswith("jaxbook.cli.")
        for line, name in _environment_reads(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "pass the build's Settings (or its environ) down instead"
    assert _environment_reads("import os\nx = os.environ.get('BOOK_X')\n") == [(2, "os.environ")]


def test_the_drift_watch_builds_in_the_environment_it_is_handed(tmp_path, monkeypatch):
    """The command line hands its environment down (`jaxbook.cli.commands`); the watch's
    builds add only their mode and no cache to it."""
    from jaxbook import drift_watch

    seen = []

    def run(argv, **kwargs):
        seen.append(kwargs["env"])
        return __import__("subprocess").CompletedProcess(argv, 0)

    monkeypatch.setattr(drift_watch.subprocess, "run", run)
    monkeypatch.setenv("BOOK_NOT_HANDED", "1")
    handed = {"PATH": "/usr/bin", "BOOK_HANDED": "1"}
    assert (
        drift_watch._build(tmp_path / "mkdocs", tmp_path, "check", tmp_path / "log", 1, handed) == 0
    )
    # Names, not values, in the assertion: a failure must not print the process's environment.
    expected = {**handed, "GOLDEN": "check", "BOOK_CACHE": "off", "NO_MKDOCS_2_WARNING": "1"}
    assert [sorted(env) for env in seen] == [sorted(expected)]
    assert seen[0] == expected


def _defined_twice(root: Path) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Class names and module names (but a package's `__init__` and `__main__`) that more than
    one place under `root` defines, with those places."""
    classes: dict[str, list[str]] = {}
    modules: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        if path.stem not in {"__init__", "__main__"}:
            modules.setdefault(path.stem, []).append(where)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(f"{where}:{node.lineno}")
    twice = {name: places for name, places in classes.items() if len(places) > 1}
    return twice, {name: places for name, places in modules.items() if len(places) > 1}


def test_no_class_or_module_name_is_defined_twice():
    """A name says one thing: a reader who meets `Entry` or `review.py` needs no path to know
    which one it is."""
    classes, modules = _defined_twice(REPO / "hooks")
    assert classes == {}, "class names defined twice"
    assert modules == {}, "module names defined twice"


def test_the_name_check_sees_a_second_class_and_module(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "same.py").write_text("class Twice:\n    pass\n")
    classes, modules = _defined_twice(tmp_path)
    assert list(classes) == ["Twice"] and list(modules) == ["same"]
