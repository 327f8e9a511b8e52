"""The engine's public API is `bookexec.__all__`, held to a snapshot (`public_api.txt` beside
this file): a name, or a signature of one, that changes without the snapshot changing with it
fails here. An adopting project relies on these; everything else in `bookexec` is internal.

To change the API on purpose: say so in CHANGELOG.md (under `## [Unreleased]`, in `Added`,
`Changed`, `Deprecated` or `Removed`), then write the snapshot again with
`BOOKEXEC_API_SNAPSHOT=write python -m pytest tests/unit/test_public_api.py`.
"""

from __future__ import annotations

import difflib
import inspect
import os

import pytest

import bookexec
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
