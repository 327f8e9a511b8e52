"""An extension reads a build through `BuildView` alone: exactly the members the book's
extensions use, read-only, which the engine's `Build` answers; mypy refuses an extension that
reaches past it (the whole check over `hooks/`, jaxbook's extensions included, is
tests/unit/test_types.py's)."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
import typing
from collections.abc import Mapping, Sequence, Set

import pytest
from test_engine import IDS, PAGE, FakeExecutor, make_build

import bookexec
from bookexec._internal.engine import Build
from bookexec._internal.extension import BuildView, Extension
from conftest import REPO

pytestmark = pytest.mark.engine

# The view, member by member: a new one is a decision, made here and in the public API.
MEMBERS = {
    "context",
    "paths",
    "mode",
    "execute",
    "only_page",
    "versions",
    "plans",
    "sources",
    "offsets",
    "pending_blocks",
    "pending",
    "results",
    "judged",
    "mask_shown",
    "say",
}

# The hooks an extension may define; each is handed the view, never the `Build`.
HOOKS = {
    "start",
    "read_only",
    "scan",
    "files",
    "pre_page",
    "page_markdown",
    "rendered",
    "content",
    "facts",
    "reads",
    "problems",
    "check",
    "after_update",
    "post_build",
}


@pytest.mark.needs_book
def test_the_view_has_exactly_the_members_the_extensions_use():
    assert typing.get_protocol_members(BuildView) == MEMBERS
    assert bookexec.BuildView is BuildView and "BuildView" in bookexec.__all__


def test_every_data_member_of_the_view_is_read_only():
    """A property each (no setter), typed as a read-only collection where it is one."""
    for name in MEMBERS:
        member = inspect.getattr_static(BuildView, name)
        assert inspect.isfunction(member) or (
            isinstance(member, property) and member.fset is None
        ), name
    mutable = ("dict[", "list[", "set[")
    hints = {
        name: str(getattr(BuildView, name).fget.__annotations__["return"])
        for name in MEMBERS
        if isinstance(getattr(BuildView, name), property)
    }
    assert [name for name, hint in hints.items() if hint.startswith(mutable)] == []


def test_every_hook_is_handed_the_view_and_mkdocs_types():
    hooks = {n for n, v in vars(Extension).items() if inspect.isfunction(v) and n[0] != "_"}
    assert hooks == HOOKS
    for name in HOOKS:
        annotations = getattr(Extension, name).__annotations__
        assert "Any" not in str(annotations), name
        assert "Build'" not in repr(annotations) and annotations.get("build") in (None, "BuildView")
    assert Extension.page_markdown.__annotations__["page"] == "Page"
    assert Extension.files.__annotations__["files"] == "Files"
    assert Extension.start.__annotations__["config"] == "MkDocsConfig"


def test_a_build_answers_the_view(tmp_path):
    """The engine's `Build` has every member, and each reads what the build holds."""
    build: Build = make_build(tmp_path, FakeExecutor({i: f"out {i}\n" for i in IDS}))
    view: BuildView = build
    assert [name for name in MEMBERS if not hasattr(build, name)] == []
    assert view.context.root == tmp_path
    assert view.context.golden_dir == tmp_path / "tests" / "golden"
    assert isinstance(view.plans, Mapping) and [b.id for b in view.plans[PAGE]] == list(IDS)
    assert isinstance(view.pending_blocks, Set) and isinstance(view.versions, Mapping)
    results, run = view.results(PAGE)
    assert isinstance(results, Sequence) and run is not None
    assert [output for _, output, _ in results] == [f"out {i}\n" for i in IDS]
    assert view.judged(PAGE, view.plans[PAGE][0])[0] == "out first\n"
    assert view.only_page is None and view.mode == "check" and view.execute
    assert view.pending(PAGE) is False


def test_the_only_page_is_golden_onlys_page(tmp_path):
    from test_engine import BOOK

    from bookexec._internal.settings import Settings

    settings = Settings(mode="update", only=PAGE, **BOOK)
    build = make_build(tmp_path, FakeExecutor({i: f"out {i}\n" for i in IDS}), settings=settings)
    assert build.only_page == PAGE


REACHING = """\
from __future__ import annotations

from bookexec._internal.extension import BuildView, Extension


class Reaching(Extension):
    def post_build(self, build: BuildView) -> None:
        build.runs.executor.stop()
        build.mode = build.mode
        build.plans["page.md"] = []
"""


@pytest.mark.needs_book
def test_mypy_refuses_an_extension_reaching_past_the_view(tmp_path):
    """What the view leaves out is out of reach: the runs, and any write."""
    module = tmp_path / "reaching_extension.py"
    module.write_text(textwrap.dedent(REACHING))
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"), str(module)],
        cwd=REPO,
        env={**os.environ, "MYPYPATH": str(REPO / "hooks")},  # this checkout's engine
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = checked.stdout
    assert checked.returncode == 1, out + checked.stderr
    assert '"BuildView" has no attribute "runs"' in out, out
    assert 'Property "mode" defined in "BuildView" is read-only' in out, out
    assert 'indexed assignment ("Mapping[str, Sequence[Block]]")' in out, out
