"""The engine is type-checked strictly: `mypy --strict` over hooks/ reports no error.

`./book test` runs the project's `mypy` (pyproject's [tool.mypy],
tests/integration/test_book_script.py checks the call) and so does CI, through `.ci/run`
(tests/unit/test_workflows.py). These tests hold that configuration to strict, and run it.
No build; mypy's cache is the one `./book test` has just filled.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

from conftest import REPO

PYPROJECT = REPO / "pyproject.toml"


def mypy_config() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["tool"]["mypy"]


def mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(PYPROJECT), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )


def has_types(package: str) -> bool:
    """The package ships its types (py.typed), or stubs for it are installed."""
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.origin and (Path(spec.origin).parent / "py.typed").exists():
        return True
    return any((Path(folder) / f"{package}-stubs").is_dir() for folder in sys.path if folder)


def test_the_type_check_is_strict_over_hooks():
    config = mypy_config()
    assert config["strict"] is True
    assert config["files"] == ["hooks"]
    # Nothing turns one of strict's checks back off, for the engine or for any module.
    assert [key for key, value in config.items() if value is False] == []
    for override in config.get("overrides", []):
        assert set(override) == {"module", "ignore_missing_imports"}, override
    # Only calls into other packages' unannotated code may be excused, never the engine's own.
    assert all(not name.startswith("bookexec") for name in config["untyped_calls_exclude"])


def test_missing_imports_are_ignored_only_for_packages_without_types():
    """A package that ships types, or has stubs installed, is checked like any other."""
    ignored = [
        module.removesuffix(".*")
        for override in mypy_config().get("overrides", [])
        if override.get("ignore_missing_imports")
        for module in override["module"]
    ]
    assert ignored, "no override left: delete this test and the [[tool.mypy.overrides]] table"
    assert [package for package in ignored if has_types(package)] == []


def test_mypy_reports_no_error_in_hooks():
    checked = mypy()
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().startswith("Success: no issues found"), checked.stdout


def test_mypy_as_python_3_10_reports_no_error_in_the_engine():
    """The engine runs on Python 3.10 (hooks/pyproject.toml): `./book test` checks it again as
    3.10 reads it, where typeshed has none of 3.11's and later's names."""
    checked = mypy("--python-version", "3.10", "hooks/bookexec")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().startswith("Success: no issues found"), checked.stdout


def test_the_3_10_check_catches_a_name_python_3_10_lacks(tmp_path):
    module = tmp_path / "newer_helper.py"
    module.write_text("from enum import StrEnum\n\n\nclass Kind(StrEnum):\n    A = 'a'\n")
    assert mypy(str(module)).returncode == 0  # fine as the book's own Python reads it
    checked = mypy("--python-version", "3.10", str(module))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert 'Module "enum" has no attribute "StrEnum"' in checked.stdout, checked.stdout


def test_the_type_check_catches_an_untyped_function(tmp_path):
    """The configuration above can fail: a function without annotations is an error."""
    module = tmp_path / "untyped_helper.py"
    module.write_text("def helper(value):\n    return value\n")
    checked = mypy(str(module))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "[no-untyped-def]" in checked.stdout, checked.stdout
