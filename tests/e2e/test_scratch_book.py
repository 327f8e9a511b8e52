"""Another book gets the engine from its own distribution, `executed-book` (hooks/), in a venv
that has no JAX, and a few lines of config.

The engine's wheel is built from a copy of hooks/ (never in the checkout), then installed by
pip (not editable) into a venv of its own made with the book's Python, with ProperDocs beside
MkDocs, Material, and what the outside book's blocks import. Nothing in that venv is JAX.

- A scratch book outside the repository: under each tool the update mode writes the block's
  golden, the strict build checks it, and a drift (the snippet prints something else) turns
  the strict build red.
- An outside book written for markdown-exec by someone else (tests/sites/mathesis/ORIGIN.md)
  switches to the engine by one line of its mkdocs.yml, records its goldens, passes its check,
  and goes red when an output changes.

pip installs from a wheelhouse under `.cache/`, downloaded once per hooks/pyproject.toml by
`pip download`, so later runs need no registry.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

pytestmark = pytest.mark.build

PROPERDOCS = "1.6.7"
TOOLS = ("mkdocs", "properdocs")
# What the outside book's blocks import (tests/sites/mathesis/ORIGIN.md), and its theme.
OUTSIDE = ("mathesis==0.6.0", "mkdocs-material>=9.6,<10")
OUTSIDE_BOOK = REPO / "tests" / "sites" / "mathesis"

# The few lines a book needs: the plugin, with a runtime; markdown-exec lays out the fences.
CONFIG = """\
site_name: scratch
theme:
  name: material
plugins:
  - markdown-exec:
      languages: []
  - executed-book:
      runtime: bookexec._internal.execute.runtime.PythonRuntime
      goldens: tests/golden
      snippets: page-folders
      fences: engine
markdown_extensions:
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""
PAGE = '# Sums\n\n```python exec="on" id="sum"\n--8<-- "snippets/index/sum.py"\n```\n'

# Which serve option each tool's command line gives the plugin
# (bookexec._internal.plugin.live_reload).
LIVE_RELOAD = """
import sys
import click
from bookexec._internal.plugin import live_reload
from {tool}.__main__ import cli

serve = cli.commands["serve"]
for args, wanted in (([], True), (["--no-livereload"], False)):
    with serve.make_context("serve", list(args)):
        assert live_reload() is wanted, (args, live_reload())
print("live reload read")
"""


def run(
    command: list[str], timeout: float, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess:
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **env}
    environ.pop("PYTHONPATH", None)  # only what pip installed
    return subprocess.run(
        command, env=environ, capture_output=True, text=True, timeout=timeout, cwd=cwd
    )


def engine_wheel(folder: Path) -> Path:
    """The engine's wheel, built from a copy of hooks/: setuptools writes its build folder
    into the project it builds. The backend hooks/pyproject.toml names is in the book's venv
    (one of pyproject.toml's test tools): no throwaway build environment is made and filled
    for it."""
    source = folder / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "jaxbook", "templates")
    shutil.copytree(REPO / "hooks", source, ignore=ignore)  # LICENSE: the file, not the link
    pip = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
    pip += ["-w", str(folder)]
    done = run([*pip, str(source)], 600)
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = folder.glob("executed_book-*.whl")
    return wheel


def wheelhouse(wheel: Path) -> Path:
    """The dependencies of the engine's `wheel`, ProperDocs and the outside book's packages as
    wheels, downloaded once per hooks/pyproject.toml."""
    wanted = [f"properdocs=={PROPERDOCS}", "setuptools>=77", *OUTSIDE]
    key = hashlib.sha256((REPO / "hooks" / "pyproject.toml").read_bytes() + str(wanted).encode())
    folder = REPO / ".cache" / f"engine-wheels-{key.hexdigest()[:16]}"
    if folder.is_dir():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(partial)]
    done = run([*pip, str(wheel), *wanted], 1800)
    assert done.returncode == 0, done.stderr[-3000:]
    for built in partial.glob("executed_book-*"):  # its own is built fresh for each venv
        built.unlink()
    partial.rename(folder)
    return folder


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A venv outside the repository with the engine's wheel, ProperDocs, Material and the
    outside book's packages installed by pip, and no JAX."""
    work = tmp_path_factory.mktemp("scratch")
    folder = work / "venv"
    base = getattr(sys, "_base_executable", sys.executable)  # the book's Python, not its venv
    made = run([base, "-m", "venv", str(folder)], 300)
    assert made.returncode == 0, made.stderr
    python = str(folder / "bin" / "python")
    install = [python, "-m", "pip", "install", "--quiet", "--no-compile", "--no-index"]
    wheel = engine_wheel(work)
    install += ["--find-links", str(wheelhouse(wheel)), str(wheel)]
    done = run([*install, f"properdocs=={PROPERDOCS}", *OUTSIDE], 1800)
    assert done.returncode == 0, done.stderr[-3000:]
    where = run([python, "-c", "import bookexec; print(bookexec.__file__)"], 60)
    assert where.stdout.startswith(str(folder)), where  # the installed copy, not the checkout
    return folder


def test_the_engine_s_wheel_brings_no_jax_and_its_requirements_hold(venv):
    python = str(venv / "bin" / "python")
    listed = run([python, "-m", "pip", "list", "--format=freeze"], 120).stdout.lower()
    names = {line.split("==")[0] for line in listed.splitlines()}
    assert "executed-book" in names
    assert not names & {"jax", "jaxlib", "jax-tracing-book", "matplotlib", "mkdocs-jupyter"}
    assert run([python, "-c", "import jax"], 60).returncode != 0
    check = run([python, "-m", "pip", "check"], 120)
    assert check.returncode == 0, check.stdout


@pytest.mark.parametrize("tool", TOOLS)
def test_a_scratch_book_installs_the_engine_and_its_strict_build_checks_its_goldens(
    venv, tmp_path, tool
):
    book = tmp_path / "book"
    assert not book.is_relative_to(REPO)
    (book / "docs").mkdir(parents=True)
    (book / "snippets" / "index").mkdir(parents=True)
    (book / "mkdocs.yml").write_text(CONFIG)
    (book / "docs" / "index.md").write_text(PAGE)
    snippet = book / "snippets" / "index" / "sum.py"
    snippet.write_text("print('sum:', sum(range(10)))\n")
    exe = str(venv / "bin" / tool)

    def build(mode: str) -> subprocess.CompletedProcess:
        done = run([exe, "build", "--strict", "-f", "mkdocs.yml"], 300, book, GOLDEN=mode)
        done.stdout += done.stderr  # MkDocs logs to stderr
        return done

    update = build("update")
    assert update.returncode == 0, update.stdout
    assert "bookexec: wrote new tests/golden/index/sum.txt" in update.stdout
    golden = book / "tests" / "golden" / "index" / "sum.txt"
    assert golden.read_text().endswith("---\nsum: 45\n")

    check = build("check")
    assert check.returncode == 0, check.stdout
    clean = "golden check: 1 block checked, 0 failed, 0 drifted, 0 new, 0 stale"
    assert clean in check.stdout, check.stdout
    assert "sum: 45" in (book / "site" / "index.html").read_text()

    snippet.write_text("print('sum:', sum(range(11)))\n")
    drifted = build("check")
    assert drifted.returncode != 0, drifted.stdout
    assert "DRIFTED (text): page docs/index.md, block 'sum'" in drifted.stdout, drifted.stdout
    assert "-sum: 45\n+sum: 55" in drifted.stdout
    assert golden.read_text().endswith("---\nsum: 45\n")  # a check never writes a golden

    # Live reload, read from this tool's own command line (no public API says it).
    python = str(venv / "bin" / "python")
    read = run([python, "-c", LIVE_RELOAD.format(tool=tool)], 120)
    assert read.returncode == 0, read.stderr


def test_an_outside_markdown_exec_book_switches_by_one_line_and_its_goldens_hold(venv, tmp_path):
    """Mathesis' documentation (tests/sites/mathesis/ORIGIN.md), written for markdown-exec:
    `markdown-exec` becomes `executed-book` in its plugins, and nothing else changes."""
    book = tmp_path / "mathesis"
    shutil.copytree(OUTSIDE_BOOK, book)
    config = book / "mkdocs.yml"
    before = config.read_text()
    after = before.replace("\n  - markdown-exec\n", "\n  - executed-book\n")
    changed = [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert changed == ["-  - markdown-exec", "+  - executed-book"]
    config.write_text(after)
    exe = str(venv / "bin" / "mkdocs")

    def build(mode: str) -> subprocess.CompletedProcess:
        # Not --strict: the author's book is not (`strict: true` is commented out in its
        # mkdocs.yml), and one of its pages links to a notebook page this copy leaves out.
        done = run([exe, "build"], 600, book, GOLDEN=mode)
        done.stdout += done.stderr  # MkDocs logs to stderr
        return done

    update = build("update")
    assert update.returncode == 0, update.stdout
    assert "golden update: 13 blocks checked, 13 written (13 new)" in update.stdout, update.stdout
    check = build("check")
    assert check.returncode == 0, check.stdout
    clean = "golden check: 13 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale"
    assert clean in check.stdout, check.stdout
    # Laid out as markdown-exec lays it out: the author's `result="text"` output, on the page.
    page = (book / "site" / "usage" / "tableaux" / "index.html").read_text()
    assert "Closed: True" in page

    grammars = book / "docs" / "usage" / "grammars.md"
    text = grammars.read_text()
    edited = text.replace("print(fml, repr(fml))", 'print(fml, "(edited)")', 1)
    assert edited != text
    grammars.write_text(edited)
    drifted = build("check")
    assert drifted.returncode != 0, drifted.stdout
    assert "DRIFTED" in drifted.stdout and "docs/usage/grammars.md" in drifted.stdout
    assert "(edited)" in drifted.stdout, drifted.stdout  # the diff shows the new line
