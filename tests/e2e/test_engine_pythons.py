"""The engine on every Python it supports (issue 58): its wheel says so, and its own suite passes
on each, in a venv of the wheel alone (`./book test-engine`, jaxbook.cli.engine_suite).

The book needs its JAX's Python; the engine, `executed-book`, installs and runs on 3.10 and
later. Its suite is the tests marked `engine` and not `needs_book`; each run installs the wheel
pip builds from hooks/ (built once for all four, `.cache/engine-wheel/`) with its `test` extra
and nothing of the book in `.cache/engine-pyX.Y`, imports every module of the engine, then runs
that suite.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from conftest import ENGINE_SUITE, REPO
from jaxbook.cli.engine_suite import _SOURCES, PYTHONS, SUITE, engine_wheel
from jaxbook.cli.environments import Environment

pytestmark = pytest.mark.build


def book_test_engine(root: Path, *versions: str) -> subprocess.CompletedProcess[str]:
    """`book test-engine VERSIONS -q` in `root`, with no trace of the pytest that runs this."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "jaxbook.cli", "test-engine", *versions, "-q"],
        cwd=root,
        env=environ,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=900,
    )


def test_the_wheel_says_which_pythons_it_runs_on():
    """The wheel every run below installs (the first to ask builds it)."""
    wheel = engine_wheel(REPO, Environment.of(REPO))
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(name).decode())
    assert metadata["Requires-Python"] == f">={PYTHONS[0]}", metadata["Requires-Python"]
    listed = [
        c.removeprefix("Programming Language :: Python :: ")
        for c in metadata.get_all("Classifier")
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert listed == list(PYTHONS), listed
    assert 'pytest>=8; extra == "test"' in metadata.get_all("Requires-Dist"), metadata


def test_the_suite_the_command_runs_is_the_one_the_tests_select():
    assert SUITE == ENGINE_SUITE


@pytest.mark.parametrize("version", PYTHONS)
def test_the_engine_s_suite_passes_on(version):
    ran = book_test_engine(REPO, version)
    assert ran.returncode == 0, ran.stdout[-6000:]
    assert f"the engine's modules import on Python {version}." in ran.stdout, ran.stdout[-3000:]
    assert re.search(r"^\d+ passed in ", ran.stdout, re.M), ran.stdout[-3000:]
    assert f"book: Python {version} done" in ran.stdout


def test_newer_syntax_in_the_engine_fails_its_3_10_run(tmp_path):
    """The runs above can fail: a PEP 695 alias (Python 3.12's syntax) in one module of the
    engine, and its 3.10 run stops at that module's import, naming it."""
    root = tmp_path / "checkout"
    for name in _SOURCES:
        source, copy = REPO / "hooks" / name, root / "hooks" / name
        if source.is_dir():
            shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
    errors = root / "hooks" / "bookexec" / "_internal" / "errors.py"
    errors.write_text(errors.read_text() + "\ntype Where = str\n")
    kept_venv(root, "3.10")
    ran = book_test_engine(root, "3.10")
    assert ran.returncode == 1, ran.stdout[-6000:]
    assert re.search(
        r'bookexec/_internal/errors\.py", line \d+\n\s+type Where = str', ran.stdout
    ), ran.stdout
    assert "SyntaxError: invalid syntax" in ran.stdout, ran.stdout
    assert "book: the engine's suite failed on Python 3.10 (above)" in ran.stdout, ran.stdout


def kept_venv(root: Path, version: str) -> None:
    """The checkout's venv for `version`, made by the run above, kept in the copy `root` as a
    later run keeps it (its stamp names the same pyproject and interpreter): the run installs
    its own wheel into it, not the `test` extra again. Hard links where the folders share a
    disk, since pip replaces files rather than writing into them; nothing when the run above
    has not made it."""
    made = REPO / ".cache" / f"engine-py{version}"
    if made.is_dir():
        shutil.copytree(made, root / ".cache" / made.name, symlinks=True, copy_function=_link)


def _link(source: str, copy: str) -> None:
    try:
        os.link(source, copy)
    except OSError:  # another disk
        shutil.copy2(source, copy)
