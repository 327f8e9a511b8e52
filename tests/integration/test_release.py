"""The engine's release, made as .github/workflows/release.yml makes it: `python -m build` of
hooks/ (the sdist, then the wheel built from that sdist) and `twine check --strict` of both.

The build runs in this venv (`--no-isolation`: setuptools is a test dependency), from a copy of
hooks/, so that setuptools' egg-info never lands in the checkout and no registry is needed.
That the built wheel installs into a fresh venv and builds a book is
tests/e2e/test_scratch_book.py's.
"""

from __future__ import annotations

import email.parser
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from conftest import REPO

ENGINE = tomllib.loads((REPO / "hooks" / "pyproject.toml").read_text())["project"]
VERSION = ENGINE["version"]
SDIST = f"executed_book-{VERSION}.tar.gz"
WHEEL = f"executed_book-{VERSION}-py3-none-any.whl"


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ}
    environ.pop("PYTHONPATH", None)
    return subprocess.run(
        command, cwd=cwd, env=environ, capture_output=True, text=True, timeout=600
    )


def build(source: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """`python -m build` of `source` into `out`: the sdist, then the wheel from the sdist."""
    return run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), "."], source)


def twine_check(files: list[Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-m", "twine", "check", "--strict", *map(str, files)], cwd)


def copy_hooks(folder: Path) -> Path:
    """hooks/ as a checkout has it, beside the repository's LICENSE that hooks/LICENSE links
    to: jaxbook included, so a leak into the sdist would show; this machine's caches not."""
    source = folder / "hooks"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "dist")
    shutil.copytree(REPO / "hooks", source, ignore=ignore, symlinks=True)
    shutil.copy(REPO / "LICENSE", folder / "LICENSE")
    return source


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("release")
    out = work / "dist"
    done = build(copy_hooks(work), out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return out


def test_build_makes_one_sdist_and_one_pure_wheel_of_the_version(dist):
    assert sorted(p.name for p in dist.iterdir()) == sorted([SDIST, WHEEL])


def test_twine_check_passes_on_both(dist):
    done = twine_check(sorted(dist.iterdir()), dist)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


def wheel_metadata(dist: Path) -> email.message.Message:
    with zipfile.ZipFile(dist / WHEEL) as wheel:
        text = wheel.read(f"executed_book-{VERSION}.dist-info/METADATA").decode()
    return email.parser.Parser().parsestr(text)


def test_the_wheel_says_what_the_package_index_shows(dist):
    """The project URLs, the status, the licence and the README as its description."""
    meta = wheel_metadata(dist)
    urls = dict(line.split(", ", 1) for line in meta.get_all("Project-URL", []))
    assert urls == ENGINE["urls"]
    assert "Development Status :: 4 - Beta" in meta.get_all("Classifier", [])
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Description-Content-Type"] == "text/markdown"
    assert urls["Documentation"] in meta.get_payload()  # the README links the adopter's guide


def test_the_distributions_hold_the_engine_and_nothing_of_this_book(dist):
    with zipfile.ZipFile(dist / WHEEL) as wheel:
        names = wheel.namelist()
    with tarfile.open(dist / SDIST) as sdist:
        names += sdist.getnames()
    assert not [n for n in names if "jaxbook" in n or "templates/" in n or "tests/" in n]
    assert "bookexec/py.typed" in names and "bookexec/_internal/render/assets/stepper.js" in names
    license_text = (REPO / "LICENSE").read_text()
    with tarfile.open(dist / SDIST) as sdist:
        member = sdist.extractfile(f"executed_book-{VERSION}/LICENSE")
        assert member is not None and member.read().decode() == license_text


def test_twine_check_fails_a_distribution_without_a_description(tmp_path):
    """The check can fail: the same engine built without its README is refused."""
    source = copy_hooks(tmp_path)
    pyproject = source / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('readme = "README.md"\n', "", 1))
    done = build(source, tmp_path / "dist")
    assert done.returncode == 0, done.stderr[-3000:]
    checked = twine_check(sorted((tmp_path / "dist").iterdir()), tmp_path)
    assert checked.returncode != 0, checked.stdout
    assert "long_description" in checked.stdout + checked.stderr
