"""Another book gets the engine with `pip install <this repository>` and a few lines of config.

A scratch book outside the repository, a venv of its own made with the book's Python, this
repository installed into it by pip (not editable), and ProperDocs beside MkDocs. Under each
tool the update mode writes the block's golden, the strict build checks it, and a drift (the
snippet prints something else) turns the strict build red.

pip installs the book's dependencies (JAX, MkDocs, matplotlib...: about 0.9 GB) from a
wheelhouse under `.cache/`, downloaded once per pyproject.toml by `pip download`, so later
runs need no registry; installing from it takes from 30 seconds on a quiet machine to a few
minutes on a busy one.
"""

from __future__ import annotations

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

# The few lines a book needs: the plugin, with a runtime; markdown-exec lays out the fences.
CONFIG = """\
site_name: scratch
theme:
  name: material
plugins:
  - markdown-exec:
      languages: []
  - executed-book:
      runtime: bookexec.execute.runtime.PythonRuntime
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

# Which serve option each tool's command line gives the plugin (bookexec.plugin.live_reload).
LIVE_RELOAD = """
import sys
import click
from bookexec.plugin import live_reload
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


def wheelhouse() -> Path:
    """The book's dependencies and ProperDocs as wheels, downloaded once per pyproject.toml."""
    key = hashlib.sha256((REPO / "pyproject.toml").read_bytes() + PROPERDOCS.encode())
    folder = REPO / ".cache" / f"scratch-wheels-{key.hexdigest()[:16]}"
    if folder.is_dir():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    wanted = [str(REPO), f"properdocs=={PROPERDOCS}", "setuptools>=69"]
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(partial), *wanted]
    done = run(pip, 1800)
    assert done.returncode == 0, done.stderr[-3000:]
    partial.rename(folder)
    return folder


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A venv outside the repository with this repository and ProperDocs installed by pip."""
    folder = tmp_path_factory.mktemp("scratch") / "venv"
    base = getattr(sys, "_base_executable", sys.executable)  # the book's Python, not its venv
    made = run([base, "-m", "venv", str(folder)], 300)
    assert made.returncode == 0, made.stderr
    python = str(folder / "bin" / "python")
    install = [python, "-m", "pip", "install", "--quiet", "--no-compile", "--no-index"]
    install += ["--find-links", str(wheelhouse()), str(REPO), f"properdocs=={PROPERDOCS}"]
    done = run(install, 1800)
    assert done.returncode == 0, done.stderr[-3000:]
    where = run([python, "-c", "import bookexec; print(bookexec.__file__)"], 60)
    assert where.stdout.startswith(str(folder)), where  # the installed copy, not the checkout
    return folder


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
