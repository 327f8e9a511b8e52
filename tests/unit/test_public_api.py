"""The engine's public API is `bookexec.__all__`, held to a snapshot (`public_api.txt` beside
this file): a name, or a signature of one, that changes without the snapshot changing with it
fails here. An adopting project relies on these; everything else in `bookexec` is internal.

To change the API on purpose: say so in CHANGELOG.md (under `## [Unreleased]`, in `Added`,
`Changed`, `Deprecated` or `Removed`), then write the snapshot again with
`BOOKEXEC_API_SNAPSHOT=write python -m pytest tests/unit/test_public_api.py`.
"""

from __future__ import annotations

import ast
import difflib
import inspect
import os
from pathlib import Path

import pytest

import bookexec
from bookexec import facts, guard
from bookexec.jax import stepper
from conftest import REPO

pytestmark = pytest.mark.engine

SNAPSHOT = REPO / "tests" / "unit" / "public_api.txt"
HOW = (
    "the public API (bookexec.__all__) changed. If on purpose: add an entry to CHANGELOG.md "
    "under '## [Unreleased]' (Added, Changed, Deprecated or Removed: what an adopting project "
    "must do), then write the snapshot again with "
    "BOOKEXEC_API_SNAPSHOT=write python -m pytest tests/unit/test_public_api.py. "
    "If not: put the name or signature back."
)


def _signature(thing: object) -> str:
    try:
        return str(inspect.signature(thing))
    except (TypeError, ValueError):
        return "(...)"


def _members(cls: type) -> list[str]:
    """A class's public methods, properties (with their types) and class attributes, its own
    and inherited from the engine (not from object or a library's base). A protocol's
    `__init__` is typing's, not the engine's."""
    lines = []
    owners = [c for c in cls.__mro__ if c.__module__.startswith("bookexec")]
    names = {n for c in owners for n in vars(c) if not n.startswith("_")}
    if not getattr(cls, "_is_protocol", False):
        names.add("__init__")
    for name in sorted(names):
        value = inspect.getattr_static(cls, name)
        if isinstance(value, property):
            lines.append(f"  property {name}: {_returns(value.fget)}")
        elif isinstance(value, (staticmethod, classmethod)):
            lines.append(f"  {type(value).__name__} {name}{_signature(value.__func__)}")
        elif inspect.isfunction(value):
            if name == "__init__" and not any("__init__" in vars(c) for c in owners):
                continue
            lines.append(f"  def {name}{_signature(value)}")
        elif not name.startswith("_"):
            lines.append(f"  {name}: {type(value).__name__}")
    return lines


def _returns(getter: object) -> str:
    """A property's type, as its getter's return annotation says it."""
    try:
        returns = inspect.signature(getter).return_annotation
    except (TypeError, ValueError):
        return "..."
    return "..." if returns is inspect.Signature.empty else repr(returns)


def api() -> str:
    """The public API as text: each name in `__all__`, its kind, and its signatures."""
    lines = [f"__all__ = {sorted(bookexec.__all__)}"]
    for name in sorted(bookexec.__all__):
        thing = getattr(bookexec, name)
        if inspect.isclass(thing):
            bases = ", ".join(b.__name__ for b in thing.__bases__)
            lines.append(f"class {name}({bases})")
            lines += _members(thing)
        else:
            lines.append(f"def {name}{_signature(thing)}")
    # What a snippet imports: a public module of its own.
    lines.append(f"bookexec.facts.__all__ = {sorted(facts.__all__)}")
    for name in sorted(facts.__all__):
        lines.append(f"def facts.{name}{_signature(getattr(facts, name))}")
    # Beside them, by path: the trace stepper a JAX snippet imports in a hidden line, and the
    # Markdown extension mkdocs.yml names.
    lines.append(f"def bookexec.jax.stepper.stepper{_signature(stepper.stepper)}")
    lines.append(f"def bookexec.guard.makeExtension{_signature(guard.makeExtension)}")
    return "\n".join(lines) + "\n"


def test_the_public_api_is_the_snapshot():
    now = api()
    if os.environ.get("BOOKEXEC_API_SNAPSHOT") == "write":
        SNAPSHOT.write_text(now)
    held = SNAPSHOT.read_text()
    diff = "".join(difflib.unified_diff(held.splitlines(True), now.splitlines(True), "held", "now"))
    assert now == held, f"{HOW}\n{diff}"


def test_every_public_name_is_documented_in_the_package():
    """Each name of `__all__` is said in the package docstring, and imports."""
    doc = bookexec.__doc__ or ""
    assert [n for n in bookexec.__all__ if f"`{n}`" not in doc] == []
    assert all(getattr(bookexec, name) is not None for name in bookexec.__all__)


# The modules outside `bookexec._internal`, by path: the package, its public modules, and
# `python -m bookexec`. Every other module is internal, and lives under `_internal`.
PUBLIC_MODULES = {
    "__init__.py",
    "__main__.py",
    "facts.py",
    "guard.py",
    "jax/__init__.py",
    "jax/stepper.py",
}


def public_modules(package: Path) -> set[str]:
    """The modules of the package at `package` that are not under its `_internal`."""
    found = {p.relative_to(package).as_posix() for p in package.rglob("*.py")}
    return {name for name in found if not name.startswith("_internal/")}


def test_every_module_but_the_public_ones_is_internal():
    """A module added beside the public ones would read as public: it belongs under
    `bookexec/_internal/`, or, if public on purpose, here and in the snapshot."""
    found = public_modules(REPO / "hooks" / "bookexec")
    assert sorted(found - PUBLIC_MODULES) == [], "move it under hooks/bookexec/_internal/"
    assert sorted(PUBLIC_MODULES - found) == [], "a public module is gone: announce it"


def test_the_module_check_sees_a_module_outside_internal(tmp_path):
    (tmp_path / "_internal").mkdir()
    (tmp_path / "_internal" / "engine.py").write_text("")
    (tmp_path / "engine.py").write_text("")
    assert public_modules(tmp_path) == {"engine.py"}


def test_a_changed_signature_fails_with_how_to_announce_it(monkeypatch):
    """The check itself can fail: a public method given a new parameter changes the text."""
    before = api()

    def scan(self, build, src, path, extra=None):  # pragma: no cover - never called
        return None

    monkeypatch.setattr(bookexec.Extension, "scan", scan)
    assert api() != before
    assert "CHANGELOG.md" in HOW


def test_a_changed_view_member_fails_too(monkeypatch):
    """A property's type is in the text: the extensions' view handing out a mutable dict
    changes it."""
    before = api()

    def plans(self) -> dict[str, list[bookexec.Block]]:  # pragma: no cover - never called
        return {}

    monkeypatch.setattr(bookexec.BuildView, "plans", property(plans))
    assert api() != before


# The book's own package, `jaxbook`, is released with this repository, never on its own: beside
# the public API it reaches into these engine modules, each for the reason given. Anything it
# imports beyond them and `bookexec.__all__` fails here; an adopting book has only the latter.
JAXBOOK_INTERNALS = {
    # The engine's own review terminal, behind `./book review`; `./book run --shard` runs a
    # shard of the book with the configured runtime (issue 57).
    "cli/commands.py": {
        "bookexec._internal.command.terminal",
        "bookexec._internal.pipeline.records",
        "bookexec._internal.plugin",
    },
    # The chromium helper reads a yes/no variable with the fences' one rule.
    "cli/chromium.py": {"bookexec._internal.discover.options"},
    # The prose audit reads the stepper's markers, and skips fenced code as the engine does.
    "audit.py": {"bookexec._internal.discover.blocks", "bookexec._internal.render.stepper_html"},
    # The census reads printed jaxprs.
    "census.py": {"bookexec._internal.jax.parse"},
    # The accelerator's page scans each chapter's blocks, to tell a record older than its code,
    # compares two backends' records after the goldens' normaliser of ids and addresses, and
    # writes its page as jax-changes does.
    "backends.py": {
        "bookexec._internal.discover.blocks",
        "bookexec._internal.files",
        "bookexec._internal.goldens.normalize",
    },
    # The drift watch reads the VERSIONS file and the review's report.
    "drift_watch.py": {"bookexec._internal.goldens.review", "bookexec._internal.goldens.store"},
    # The book's extensions read goldens (provenance, other releases' facts), fill prose and
    # quiet a log; under serve the labs' scans are kept as the pages' are (`discover.memo`).
    "extensions.py": {
        "bookexec._internal.discover.memo",
        "bookexec._internal.goldens.store",
        "bookexec._internal.logs",
        "bookexec._internal.render.prose",
    },
    # jax-changes runs the whole book under other JAX releases through the build's own stages
    # (plan, run, normalise, compare, write goldens): it is the engine run another way.
    "jax_changes.py": {
        "bookexec._internal.discover.blocks",
        "bookexec._internal.execute.model",
        "bookexec._internal.execute.protocol",
        "bookexec._internal.files",
        "bookexec._internal.goldens.compare",
        "bookexec._internal.goldens.measured",
        "bookexec._internal.goldens.normalize",
        "bookexec._internal.goldens.store",
        "bookexec._internal.jax.diff",
        "bookexec._internal.jax.parse",
        "bookexec._internal.pipeline.drive",
    },
    # The lab cache writes atomically.
    "labcache.py": {"bookexec._internal.files"},
    # Labs are pages the book owns: their blocks are made with the engine's scanner's rules,
    # and the files a scan reads are noted as the scanner notes them (`discover.memo`).
    "labs.py": {
        "bookexec._internal.discover.blocks",
        "bookexec._internal.discover.hidden",
        "bookexec._internal.discover.memo",
        "bookexec._internal.discover.options",
        "bookexec._internal.render.fence",
    },
    # Chapter notebooks are written from goldens, atomically, when they are fresh.
    "notebooks.py": {
        "bookexec._internal.execute.limits",
        "bookexec._internal.files",
        "bookexec._internal.goldens.store",
    },
    # The provenance page reads the goldens' headers.
    # The note closing a page reads each block's backend and device count from its run.
    "provenance.py": {"bookexec._internal.execute.model", "bookexec._internal.goldens.store"},
}


def _engine_module(module: str, name: str) -> str:
    """What `from module import name` reaches: the submodule `name`, or `module`."""
    folder = REPO / "hooks" / Path(*f"{module}.{name}".split("."))
    if folder.is_dir() or folder.with_suffix(".py").is_file() or module == "bookexec":
        return f"{module}.{name}"
    return module


def internal_imports(path: Path) -> set[str]:
    """The engine modules a file imports beyond the public API: a public name imported from
    `bookexec` or from its home (`bookexec._HOMES`) is public; anything else is internal."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("bookexec.")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bookexec"):
            module = node.module or ""
            for alias in node.names:
                public = alias.name in bookexec.__all__
                if not (public and module in ("bookexec", bookexec._HOMES[alias.name])):
                    found.add(_engine_module(module, alias.name))
    return found


def jaxbook_internals() -> dict[str, set[str]]:
    """Each jaxbook file that imports engine internals, and the modules it imports."""
    root = REPO / "hooks" / "jaxbook"
    found = {str(p.relative_to(root)): internal_imports(p) for p in sorted(root.rglob("*.py"))}
    return {path: modules for path, modules in found.items() if modules}


@pytest.mark.needs_book
def test_the_book_uses_the_engine_through_its_public_api_but_the_listed_exceptions():
    now = jaxbook_internals()
    new = {p: sorted(m - JAXBOOK_INTERNALS.get(p, set())) for p, m in now.items()}
    gone = {p: sorted(m - now.get(p, set())) for p, m in JAXBOOK_INTERNALS.items()}
    assert {p: m for p, m in new.items() if m} == {}, (
        "jaxbook imports engine internals that are not listed: use bookexec's public API "
        "(bookexec.__all__), or list the module in JAXBOOK_INTERNALS with the reason"
    )
    assert {p: m for p, m in gone.items() if m} == {}, "listed but no longer imported: drop them"


def test_the_import_check_sees_an_internal_import(tmp_path):
    """The check above can fail: an internal module imported is seen, a public name is not."""
    page = tmp_path / "x.py"
    page.write_text(
        "from bookexec import Extension\nfrom bookexec._internal.errors import BookError\n"
        "from bookexec._internal.engine import Build\n"
        "from bookexec._internal.goldens import store\n"
        "import bookexec._internal.files\n"
    )
    assert internal_imports(page) == {
        "bookexec._internal.engine",
        "bookexec._internal.goldens.store",
        "bookexec._internal.files",
    }


@pytest.mark.needs_book
def test_the_runtime_option_takes_the_public_spelling():
    """`runtime: bookexec.JaxRuntime`, as the adopter's guide writes it, is the same runtime as
    its module path."""
    from bookexec._internal.plugin import DottedPath, make_runtime

    for name in ("PythonRuntime", "JaxRuntime"):
        path = f"bookexec.{name}"
        assert DottedPath(bookexec.Runtime).validate(path) == path
        assert type(make_runtime(path)) is getattr(bookexec, name)
