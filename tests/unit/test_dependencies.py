"""Every dependency earns its place: the guide says why each is there, and each is declared.

Read from pyproject.toml, the guide's architecture page and the sources; no build, no network.
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


def declared() -> dict[str, set[str]]:
    """The runtime dependencies and the test extra, by normalised name."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    groups = {"runtime": project["dependencies"], "test": project["optional-dependencies"]["test"]}
    return {
        group: {normal(re.match(r"[A-Za-z0-9._-]+", spec)[0]) for spec in specs}
        for group, specs in groups.items()
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
    return names - set(sys.stdlib_module_names) - {"bookexec", "__future__"}


def undeclared(names: set[str], allowed: set[str]) -> dict[str, list[str]]:
    """The imported names no allowed distribution provides, with what provides them here."""
    distributions = packages_distributions()
    return {
        name: distributions.get(name, [])
        for name in sorted(names)
        if not {normal(d) for d in distributions.get(name, [name])} & allowed
    }


def test_the_engine_imports_only_declared_packages():
    """A package hooks/ imports is a runtime dependency, not a lucky one of a dependency's."""
    assert undeclared(imported_packages("hooks"), declared()["runtime"]) == {}


def test_the_tests_import_only_declared_packages():
    local = {path.stem for path in suite_files()}
    allowed = declared()["runtime"] | declared()["test"]
    assert undeclared(imported_packages("tests") - local, allowed) == {}


def test_another_jax_takes_the_pins_place_and_nothing_else_changes():
    """`.cache/jax-X.Y.Z` installs the book's requirements in one resolve, with that release
    in place of the pin: every other requirement exactly as pyproject.toml has it."""
    from bookexec.cli.environments import requirements_with

    ours = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    theirs = requirements_with(REPO, "0.11.2")
    assert len(theirs) == len(ours)
    changed = {old: new for old, new in zip(ours, theirs, strict=True) if old != new}
    assert changed == {"jax==0.12.0.1": "jax==0.11.2", "jaxlib==0.12.0.1": "jaxlib==0.11.2"}
