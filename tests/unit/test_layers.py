"""The suite's layers hold: a unit test builds nothing, serves nothing, drives no browser and
starts no worker; a test that needs the book's own build or a browser is an e2e test, and its
markers say so, so that `-m "not build and not browser"` leaves it out.

Read from the test files' syntax, running none of them. The layers are the folders of tests/
(pyproject.toml's testpaths): unit, integration (fixture books built by real MkDocs, workers,
the command line), e2e (the book's own strict build, `mkdocs serve`, the browser, upgrades).
"""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import LAYERS, REPO

# conftest's fixtures that build a book or drive a browser.
BUILDING_FIXTURES = {"site", "prebuilt", "built_book", "browser", "browser_page"}
# What builds, serves or starts workers when a test imports it: conftest's helpers, the
# executor and the serve background, and measure.py (its builds are measured).
BUILDING_NAMES = {
    "MKDOCS",
    "Site",
    "new_site",
    "serving",
    "static_server",
    "Executor",
    "Background",
}
BUILDING_MODULES = {"measure"}
# Command lines a unit test must not start, by the name of the program or of the `-m` module.
TOOLS = {"mkdocs", "properdocs", "zensical", "book"}
MODULES = {"mkdocs", "properdocs", "jaxbook.cli"}
# What only an e2e test needs: the book's own build, a browser, a running server.
E2E_FIXTURES = {"built_book": "build", "browser": "browser", "browser_page": "browser"}
E2E_NAMES = {"serving", "static_server"}


@dataclass
class Scanned:
    """What a test file's syntax says about the layer it belongs to."""

    path: Path
    imports: set[str] = field(default_factory=set)  # modules and the names taken from them
    spawns: list[str] = field(default_factory=list)  # the command lines it starts, as written
    own_path: bool = False  # whether it finds files from its own __file__
    tests: dict[str, tuple[set[str], set[str]]] = field(default_factory=dict)  # fixtures, marks

    @property
    def layer(self) -> str:
        return self.path.parent.name


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The `pytest.mark.X` names among decorators or a `pytestmark` value."""
    return {
        node.attr
        for decorator in decorators
        for node in ast.walk(decorator)
        if isinstance(node, ast.Attribute)
        if isinstance(node.value, ast.Attribute) and node.value.attr == "mark"
    }


def _is_fixture(function: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(decorator) for decorator in function.decorator_list)


def _spawned(call: ast.Call) -> str | None:
    """The command line a call to subprocess, pexpect or os.exec* starts, if it starts a tool."""
    name = ast.unparse(call.func)
    if not call.args or not name.startswith(("subprocess.", "pexpect.", "os.exec", "os.spawn")):
        return None
    words = [n.value for n in ast.walk(call.args[0]) if isinstance(n, ast.Constant)]
    words = [word for word in words if isinstance(word, str)]
    tool = any(Path(word).name in TOOLS for word in words)
    module = any(a == "-m" and b in MODULES for a, b in itertools.pairwise(words))
    return ast.unparse(call.args[0]) if tool or module else None


def read(path: Path) -> Scanned:
    """The imports, spawned command lines, and each test's fixtures and marks of a test file."""
    tree = ast.parse(path.read_text(), str(path))
    found = Scanned(path)
    module_marks: set[str] = set()
    functions: list[ast.FunctionDef] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.imports |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.imports |= {node.module, *(alias.name for alias in node.names)}
        elif isinstance(node, ast.Call) and (command := _spawned(node)):
            found.spawns.append(command)
        elif isinstance(node, ast.FunctionDef):
            functions.append(node)
        elif isinstance(node, ast.Name) and node.id == "__file__":
            found.own_path = True
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            ast.unparse(t) == "pytestmark" for t in node.targets
        ):
            module_marks = _marks([node.value])
    fixtures = {f.name: {a.arg for a in f.args.args} for f in functions if _is_fixture(f)}

    def needs(names: set[str]) -> set[str]:
        """The fixtures a test asks for, through the file's own fixtures too."""
        seen, todo = set(), list(names)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += fixtures.get(name, set()) - {name}  # a fixture may override its namesake
        return seen

    for function in functions:
        if function.name.startswith("test_"):
            used = needs({a.arg for a in function.args.args})
            found.tests[function.name] = (used, module_marks | _marks(function.decorator_list))
    return found


def suite() -> list[Scanned]:
    return [
        read(path) for layer in LAYERS for path in sorted((REPO / "tests" / layer).glob("*.py"))
    ]


def problems(files: list[Scanned]) -> list[str]:
    """Each way a test file breaks the layering, named with the file and the test."""
    others = {f.path.stem for f in files if f.layer != "unit"}
    found = []
    for file in files:
        where = file.path.relative_to(REPO)
        e2e = file.imports & E2E_NAMES
        for test, (fixtures, marks) in file.tests.items():
            for fixture, mark in E2E_FIXTURES.items():
                if fixture in fixtures:
                    e2e.add(fixture)
                    if mark not in marks:
                        found.append(f"{where}::{test} uses {fixture} but is not marked {mark}")
            if "browser" in marks:
                e2e.add("the browser mark")
            if file.layer == "unit":
                found += [
                    f"{where}::{test} is marked {m}" for m in sorted(marks & {"build", "browser"})
                ]
                found += [
                    f"{where}::{test} uses the fixture {f}"
                    for f in sorted(fixtures & BUILDING_FIXTURES)
                ]
        if file.own_path:  # a moved file would look in the wrong folder
            found.append(f"{where} uses __file__: take REPO from conftest")
        if e2e and file.layer != "e2e":
            found.append(f"{where} needs {', '.join(sorted(e2e))}: it belongs in tests/e2e")
        if file.layer == "unit":
            taken = file.imports & (BUILDING_NAMES | BUILDING_MODULES | others)
            found += [f"{where} imports {name}" for name in sorted(taken)]
            found += [f"{where} starts {command}" for command in file.spawns]
    return found


def test_the_suite_is_in_its_layers():
    files = suite()
    assert {f.layer for f in files} == set(LAYERS)
    assert problems(files) == []


def test_no_test_file_lies_outside_the_layers():
    """pytest collects only the layers (testpaths): a test file left beside them never runs."""
    stray = sorted(str(p.relative_to(REPO)) for p in (REPO / "tests").rglob("test_*.py"))
    assert [p for p in stray if Path(p).parent.name not in LAYERS] == []


UNIT_BUILDS = """
import subprocess, sys
import pytest
from conftest import REPO, new_site
from test_execution import run_page

def test_spawns(tmp_path):
    assert (Path(__file__).parent / "x").exists()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=REPO)
    subprocess.run(["bash", str(REPO / "book"), "build"])

@pytest.mark.build
def test_builds(site):
    site.build()
"""


@pytest.mark.parametrize("layer", ["unit", "integration"])
def test_the_check_sees_a_build_in_a_unit_test_and_the_book_outside_e2e(tmp_path, layer):
    planted = tmp_path / layer / "test_planted.py"
    planted.parent.mkdir()
    planted.write_text(
        UNIT_BUILDS + "\ndef test_reads(built_book, browser_page):\n    browser_page(built_book)\n"
    )
    file = read(planted)
    file.path = REPO / "tests" / layer / planted.name  # reported as if it were in the suite
    found = problems([file, read(REPO / "tests" / "integration" / "test_execution.py")])
    e2e = [
        "tests/{}/test_planted.py::test_reads uses built_book but is not marked build",
        "tests/{}/test_planted.py::test_reads uses browser_page but is not marked browser",
        "tests/{}/test_planted.py needs browser_page, built_book: it belongs in tests/e2e",
        "tests/{}/test_planted.py uses __file__: take REPO from conftest",
    ]
    unit = [
        "tests/unit/test_planted.py::test_builds is marked build",
        "tests/unit/test_planted.py::test_builds uses the fixture site",
        "tests/unit/test_planted.py::test_reads uses the fixture browser_page",
        "tests/unit/test_planted.py::test_reads uses the fixture built_book",
        "tests/unit/test_planted.py imports new_site",
        "tests/unit/test_planted.py imports test_execution",
        "tests/unit/test_planted.py starts [sys.executable, '-m', 'mkdocs', 'build', '--strict']",
        "tests/unit/test_planted.py starts ['bash', str(REPO / 'book'), 'build']",
    ]
    wanted = [line.format(layer) for line in e2e] + (unit if layer == "unit" else [])
    assert sorted(found) == sorted(wanted)


def test_the_heaviest_layer_is_collected_first():
    """Beyond the longest files, the e2e layer's files first, so that the unit layer's short
    ones fill the end instead of one long file running alone."""
    pytest_options = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]
    order = [Path(path).name for path in pytest_options["ini_options"]["testpaths"]]
    assert order == ["e2e", "integration", "unit"]


def test_the_longest_files_are_collected_first():
    """The longest files, longest first, then every other file in the layers' order."""
    from conftest import HEAVIEST_FIRST

    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout.splitlines()
    files = list(dict.fromkeys(line.split("::")[0] for line in listed if "::" in line))
    assert files[: len(HEAVIEST_FIRST)] == list(HEAVIEST_FIRST), files[:4]
    layers = [Path(name).parts[1] for name in files[len(HEAVIEST_FIRST) :]]
    assert layers == sorted(layers, key=["e2e", "integration", "unit"].index)


class Worker:
    """What pytest-xdist's scheduler sees of a worker: the tests it was sent, by index."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_the_suite_hands_out_its_files_in_order_and_the_next_at_a_file_s_last_test():
    """xdist's own loadfile hands out the files with the most tests first and two files per
    worker at once (a long file's neighbour waits behind it); the suite's scheduler keeps the
    collection order (the longest files first) and hands a worker its next file only as it
    holds the last test of its file (a worker runs a test once it holds the next)."""
    from conftest import pytest_xdist_make_scheduler

    config = SimpleNamespace(
        getvalue=lambda name: ["2*popen"],
        getoption=lambda name: "loadfile",
        option=SimpleNamespace(loadscopereorder=True),
    )
    scheduler = pytest_xdist_make_scheduler(config, None)
    counts = {"a.py": 1, "b.py": 3, "c.py": 4, "d.py": 2}
    collection = [f"{name}::t{i}" for name, count in counts.items() for i in range(count)]
    workers = [Worker("gw0"), Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()

    def files(worker: Worker) -> list[str]:
        return list(dict.fromkeys(collection[i].split("::")[0] for i in worker.sent))

    assert (files(workers[0]), files(workers[1])) == (["a.py", "c.py"], ["b.py"])
    scheduler.mark_test_complete(workers[1], collection.index("b.py::t0"))
    assert files(workers[1]) == ["b.py"]  # two tests of b.py left: nothing more yet
    scheduler.mark_test_complete(workers[1], collection.index("b.py::t1"))
    assert files(workers[1]) == ["b.py", "d.py"]
