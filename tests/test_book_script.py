"""The `book` script: what each command installs, what it says, and its missing-Python error.

Each case runs the real script on a copy of it, with a stand-in `.venv` whose `python`,
`mkdocs`, `ruff`, `mypy` and `chromium` only record how they were called, so nothing is installed.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from conftest import REPO

RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""


@pytest.fixture
def checkout(tmp_path):
    root = tmp_path / "checkout"
    root.mkdir()
    for name in ("book", "pyproject.toml", ".python-version"):
        shutil.copy2(REPO / name, root / name)
    return root


def stand_in_venv(root: Path, log: Path) -> None:
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("python", "mkdocs", "ruff", "mypy"):
        path = bin_dir / tool
        path.write_text(RECORDER.format(log=log))
        path.chmod(path.stat().st_mode | stat.S_IEXEC)


def run(root: Path, *args: str, path: str | None = None, **env: str):
    environ = {k: v for k, v in os.environ.items() if k != "CI"}
    environ.update(env)
    if path is not None:
        environ["PATH"] = path
    return subprocess.run(
        ["bash", str(root / "book"), *args],
        cwd=root,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_serve_installs_only_what_serving_needs_and_says_so(checkout, tmp_path):
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    result = run(checkout, "serve", "-a", "127.0.0.1:9")
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    installs = [call for call in calls if " install " in call and "--upgrade pip" not in call]
    assert installs == ["python -m pip install --quiet --disable-pip-version-check -e ."]
    assert calls[-1] == "mkdocs serve -a 127.0.0.1:9"
    # One line says what is being installed and about how long it takes.
    assert "installing the book, JAX 0.12.0.1 and MkDocs" in result.stdout
    assert "30 to 60 seconds" in result.stdout
    assert "ready in" in result.stdout

    log.unlink()
    again = run(checkout, "serve")  # set up already: nothing is installed again
    assert again.returncode == 0
    assert log.read_text().splitlines() == ["mkdocs serve"]


def test_test_installs_the_test_tools_and_serve_then_reuses_them(checkout, tmp_path):
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    chromium = fake_bin / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    result = run(checkout, "test", "--yes", "-x", path=f"{fake_bin}:{os.environ['PATH']}")
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    assert "python -m pip install --quiet --disable-pip-version-check -e .[test]" in calls
    assert "test tools (pytest, Playwright" in result.stdout
    # Two processes, a file each; --yes is the script's, not pytest's.
    assert calls[-1] == "python -m pytest -n 2 --dist loadfile -x"
    # Lint, then the type checker over hooks/ (pyproject's [tool.mypy]), then the suite.
    assert calls[-4:-1] == ["ruff check .", "ruff format --check .", "mypy "]
    log.unlink()
    assert run(checkout, "serve").returncode == 0  # the test set includes the serve set
    assert log.read_text().splitlines() == ["mkdocs serve"]


def test_chromium_is_not_installed_without_asking(checkout, tmp_path):
    """Without a terminal to ask on, and without CI or --yes, nothing is installed."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("the question is asked only where the script could run apt-get")
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    # A PATH with bash and the basic tools but no chromium.
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in ("bash", "cat", "sha256sum", "cut", "id", "apt-get", "dirname", "tr", "sed"):
        found = shutil.which(tool)
        assert found, tool
        (tools / tool).symlink_to(found)
    result = run(checkout, "test", path=str(tools))
    assert result.returncode != 0
    assert "run ./book test --yes to install it" in result.stderr
    assert "--no-install-recommends" in result.stderr
    assert "pytest" not in log.read_text()


def test_missing_python_names_the_version_python_version_asks_for(checkout, tmp_path):
    (checkout / ".python-version").write_text("3.99\n")
    tools = tmp_path / "tools"
    tools.mkdir()
    for tool in ("bash", "cat", "sha256sum", "cut", "tr", "dirname"):
        (tools / tool).symlink_to(shutil.which(tool))
    result = run(checkout, "setup", path=str(tools))
    assert result.returncode != 0
    assert "no Python 3.99 found (.python-version asks for it" in result.stderr
    assert "pyenv install 3.99" in result.stderr


def test_help_lists_setup_and_help(checkout):
    result = run(checkout, "help")
    assert result.returncode == 0
    assert "./book setup" in result.stdout and "./book help" in result.stdout
    assert "set -euo" not in result.stdout
