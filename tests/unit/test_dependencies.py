"""Every dependency earns its place: the guide says why each is there, and each is declared.

Two distributions: the engine (`hooks/pyproject.toml`, package `bookexec`), which depends only
on what it imports and never on JAX but through an extra that pins nothing, and the book
(`pyproject.toml`, package `jaxbook`), which depends on the engine and pins JAX. Read from both
pyproject.toml files, the guide's architecture page and the sources; no build, no network.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

from conftest import REPO, suite_files

# The page of the authors' and maintainers' guide that holds the reasons, and its section.
GUIDE = REPO / "docs" / "guide" / "architecture.md"
SECTION = "## Dependencies"
# A list item that names one package, then says why: "- `name`: the reason."
ITEM = re.compile(r"^- `(?P<name>[A-Za-z0-9._-]+)`: (?P<reason>\S.*)$")


def normal(name: str) -> str:
    """A distribution name as PEP 503 compares it: case and runs of -_. do not matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(specs: list[str]) -> set[str]:
    return {normal(re.match(r"[A-Za-z0-9._-]+", spec)[0]) for spec in specs}


def declared() -> dict[str, set[str]]:
    """By normalised name: the engine's dependencies and its extras' (`engine`, `extras`), the
    book's (`runtime`, without the engine itself) and the book's test extra (`test`)."""
    engine = tomllib.loads((REPO / "hooks" / "pyproject.toml").read_text())["project"]
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    # The engine's `test` extra is its suite's tools (./book test-engine), not what it imports.
    optional = engine["optional-dependencies"].items()
    extras = [spec for name, specs in optional if name != "test" for spec in specs]
    return {
        "engine": _names(engine["dependencies"]),
        "extras": _names(extras),
        "runtime": _names(project["dependencies"]) - {"executed-book"},
        "test": _names(project["optional-dependencies"]["test"]),
    }


def guide_reasons(page: str) -> dict[str, str]:
    """Each package the guide's Dependencies section names, with the reason it gives."""
    section = page.split(f"\n{SECTION}\n", 1)[1].split("\n## ", 1)[0]
    return {
        normal(found["name"]): found["reason"]
        for found in map(ITEM.match, section.splitlines())
        if found
    }


def test_every_dependency_has_a_reason_in_the_guide():
    reasons = guide_reasons(GUIDE.read_text())
    wanted = set().union(*declared().values())
    assert sorted(wanted - reasons.keys()) == [], f"a dependency without a reason in {GUIDE}"
    assert sorted(reasons.keys() - wanted) == [], f"{GUIDE} gives a reason for no dependency"


def test_a_new_dependency_without_a_reason_is_caught():
    """The check above can fail: a guide page that leaves one package out is reported."""
    page = GUIDE.read_text()
    dropped = re.sub(r"^- `matplotlib`: .*\n", "", page, flags=re.MULTILINE)
    assert dropped != page
    assert "matplotlib" not in guide_reasons(dropped)


def imported_packages(folder: str) -> set[str]:
    """The top-level names the Python files under `folder` import, but their own packages."""
    names = set()
    for path in (REPO / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    # `_typeshed` is the type checkers' own (imported under TYPE_CHECKING alone): no package.
    ours = {"bookexec", "jaxbook", "__future__", "_typeshed"}
    return names - set(sys.stdlib_module_names) - ours


def undeclared(names: set[str], allowed: set[str]) -> dict[str, list[str]]:
    """The imported names no allowed distribution provides, with what provides them here."""
    distributions = packages_distributions()
    return {
        name: distributions.get(name, [])
        for name in sorted(names)
        if not {normal(d) for d in distributions.get(name, [name])} & allowed
    }


def test_the_engine_imports_only_declared_packages():
    """A package the engine imports is its dependency (or an extra's, imported only where
    that extra's feature runs), not a lucky one of a dependency's."""
    have = declared()
    assert undeclared(imported_packages("hooks/bookexec"), have["engine"] | have["extras"]) == {}


def test_the_engine_depends_on_no_jax_and_on_none_of_this_book_s_packages():
    """Installing the engine keeps a project's own JAX: JAX only in an extra, pinning nothing."""
    have = declared()
    book_only = {"jax", "jaxlib", "matplotlib", "nbformat", "mkdocs-jupyter", "mkdocs-material"}
    assert have["engine"] & book_only == set()
    extras = tomllib.loads((REPO / "hooks" / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extras["jax"] == ["jax"]


def test_the_book_imports_only_declared_packages():
    have = declared()
    allowed = have["runtime"] | have["engine"] | have["extras"]
    assert undeclared(imported_packages("hooks/jaxbook"), allowed) == {}


def test_the_tests_import_only_declared_packages():
    local = {path.stem for path in suite_files()}
    local |= {path.parent.name for path in suite_files() if path.name == "__init__.py"}
    have = declared()
    allowed = have["runtime"] | have["engine"] | have["extras"] | have["test"]
    assert undeclared(imported_packages("tests") - local, allowed) == {}


def test_another_jax_takes_the_pins_place_and_nothing_else_changes():
    """`.cache/jax-X.Y.Z` installs the book's requirements in one resolve, with that release
    in place of the pin, and the engine's own requirements (with the extras the book asks
    for) in place of the engine: every other requirement exactly as the two pyproject.toml
    files have it, each package once."""
    from jaxbook.cli.environments import requirements_with

    engine = tomllib.loads((REPO / "hooks" / "pyproject.toml").read_text())["project"]
    ours = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    book = [spec for spec in ours if not spec.startswith("executed-book")]
    (requirement,) = [spec for spec in ours if spec.startswith("executed-book")]
    asked = re.search(r"\[([^\]]*)\]", requirement)[1].split(",")  # the extras the book asks for
    extras = [spec for name in asked for spec in engine["optional-dependencies"][name.strip()]]
    theirs = requirements_with(REPO, "0.11.2")
    assert len(_names(theirs)) == len(theirs), "a package twice"
    wanted = {*book, *engine["dependencies"], *extras} - {
        "jax",
        "jax==0.12.0.1",
        "jaxlib==0.12.0.1",
    }
    assert sorted(theirs) == sorted({*wanted, "jax==0.11.2", "jaxlib==0.11.2"})
