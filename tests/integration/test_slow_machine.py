"""No test fails because the machine is slow unless speed is what it tests: the suite measures
how slow the machine is once per run (`conftest.slowness`), and every time limit written for
the reference machine (pytest-timeout's, `wait_for`'s, a build's) grows with it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, SLOWNESS, slowness

SLOW_TEST = """\
import time

import pytest

from conftest import wait_for


@pytest.mark.timeout(2)
def test_a_test_slower_than_its_limit_on_the_reference_machine():
    time.sleep(3)


def test_a_wait_longer_than_its_limit_on_the_reference_machine():
    start = time.monotonic()
    wait_for(lambda: time.monotonic() - start > 3, 2)
"""


def run_pytest(folder: Path, factor: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, SLOWNESS: factor}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=folder,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def slow_tests(tmp_path: Path) -> Path:
    """A folder with the suite's conftest and two tests that take 3 s where 2 s are allowed."""
    shutil.copy(REPO / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_slow.py").write_text(SLOW_TEST)
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 900\n")
    return tmp_path


def test_limits_grow_with_the_measured_slowness(slow_tests):
    reference = run_pytest(slow_tests, "1")
    assert "2 failed" in reference.stdout, reference.stdout[-3000:]
    assert "Timeout (>2.0s" in reference.stdout, reference.stdout[-3000:]
    slower = run_pytest(slow_tests, "2")
    assert "2 passed" in slower.stdout, slower.stdout[-3000:]


def test_the_slowness_is_measured_once_and_shared_with_the_workers():
    """The controller's measure, in the environment its xdist workers inherit."""
    assert slowness() >= 1.0
    assert float(os.environ[SLOWNESS]) == pytest.approx(slowness(), abs=0.01)
