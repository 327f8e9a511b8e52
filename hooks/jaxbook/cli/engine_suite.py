"""`./book test-engine [PYTHON...]`: the engine's own suite on each Python it supports (issue 58).

The engine (`executed-book`, hooks/pyproject.toml) runs on Python 3.10 and later; the book needs
its JAX's Python. Its suite is the tests marked `engine` and not `needs_book` (pyproject's
markers): they exercise `bookexec` with nothing of this book installed. Each interpreter gets
`.cache/engine-pyX.Y`, a venv of the engine's wheel alone, built from hooks/ as pip builds it for
anyone who installs it, with the wheel's `test` extra; it is made again when
hooks/pyproject.toml changes, and the wheel is installed afresh on every run. The wheel is built
once for every Python and kept in `.cache/engine-wheel/` while the engine's sources stay the
same byte for byte (an edit builds a new one).
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jaxbook.cli.environments import STAMP, Environment
from jaxbook.cli.process import Failed, call

# Every Python the engine supports, as its classifiers list them; `./book test` runs each.
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
# The pytest selection of the engine's suite; tests/conftest.py reads only the files marked
# `engine` under it (the others may import JAX or jaxbook, which these venvs do not have).
SUITE = "engine and not needs_book"
# What goes into the engine's wheel: its package and what its pyproject.toml names.
_SOURCES = ("bookexec", "pyproject.toml", "README.md", "LICENSE")
# Every module of the installed engine imported, each named if it fails (a SyntaxError from
# newer Python's syntax shows here before any test).
_IMPORT_ALL = """\
import importlib, pkgutil, bookexec
for module in pkgutil.walk_packages(bookexec.__path__, "bookexec."):
    importlib.import_module(module.name)
print(f"book: the engine's modules import on Python {__import__('sys').version.split()[0]}")
"""


def test_engine(root: Path, env: Environment, versions: list[str], pytest_args: list[str]) -> None:
    """Build the wheel once, then run the suite in each version's venv; `Failed` naming the
    versions whose run failed, after running every one."""
    pythons = {version: find_interpreter(version) for version in versions or PYTHONS}
    wheel = engine_wheel(root, env)
    failed = [
        v for v, python in pythons.items() if not _passes(root, env, v, python, wheel, pytest_args)
    ]
    if failed:
        raise Failed(1, f"book: the engine's suite failed on Python {', '.join(failed)} (above)")


def _passes(
    root: Path, env: Environment, version: str, python: Path, wheel: Path, pytest_args: list[str]
) -> bool:
    started = time.monotonic()
    print(f"book: the engine's suite on Python {version} ({python})", flush=True)
    venv = engine_venv(root, env, version, python, wheel)
    runs = [
        [venv / "bin" / "python", "-c", _IMPORT_ALL],
        [venv / "bin" / "python", "-m", "pytest", "-m", SUITE, "-n", "2", "--dist", "loadfile"],
    ]
    runs[1] += pytest_args
    for command in runs:
        if subprocess.run([str(c) for c in command], cwd=root, check=False).returncode:
            print(f"book: the engine's suite FAILED on Python {version}", flush=True)
            return False
    print(f"book: Python {version} done in {time.monotonic() - started:.0f} s", flush=True)
    return True


def find_interpreter(version: str) -> Path:
    """Python `version`: `pythonX.Y` on PATH, else pyenv's newest X.Y.*, else uv's; each asked
    its version (pyenv's shim answers for a version it does not have active)."""
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    found = sorted(glob.glob(f"{pyenv}/versions/{version}.*/bin/python{version}"), key=_numeric)
    candidates = [shutil.which(f"python{version}") or "", *reversed(found)]
    if shutil.which("uv"):
        uv = subprocess.run(["uv", "python", "find", version], capture_output=True, text=True)
        candidates.append(uv.stdout.strip() if uv.returncode == 0 else "")
    # The interpreter itself, as it names itself: a shim's path would stand for another later.
    want = tuple(map(int, version.split(".")))
    probe = f"import sys; print(sys.executable); sys.exit(sys.version_info[:2] != {want})"
    for candidate in filter(None, candidates):
        asked = subprocess.run([candidate, "-c", probe], capture_output=True, text=True)
        if asked.returncode == 0 and asked.stdout.strip():
            return Path(asked.stdout.strip())
    raise Failed(
        1,
        f"book: no Python {version} found for the engine's suite (it runs on each Python the "
        f"engine supports: {', '.join(PYTHONS)}).\n"
        f"book: install it (pyenv install {version}, or uv python install {version}) and run "
        "this again.",
    )


def _numeric(path: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", Path(path).parent.parent.name)]


def engine_wheel(root: Path, env: Environment) -> Path:
    """The engine's wheel for these sources: `.cache/engine-wheel/DIGEST/`, built by
    `build_wheel` the first time and kept while every file that goes into it is the same; the
    wheels of other sources are removed."""
    digest = hashlib.sha256()
    for path in _source_files(root):
        digest.update(f"{path.relative_to(root).as_posix()}\0{path.stat().st_size}\0".encode())
        digest.update(path.read_bytes())
    cache = root / ".cache" / "engine-wheel"
    kept = cache / digest.hexdigest()[:16]
    found = list(kept.glob("executed_book-*.whl"))
    if len(found) == 1:
        return found[0]
    for other in cache.glob("*"):  # not another run's build under way
        if not other.name.startswith("building-"):
            shutil.rmtree(other, ignore_errors=True)
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="building-", dir=cache) as scratch:
        wheel = build_wheel(root, env, Path(scratch))
        kept.mkdir(exist_ok=True)
        return Path(shutil.move(wheel, kept / wheel.name))


def _source_files(root: Path) -> list[Path]:
    """Every file `build_wheel` copies, in a fixed order."""
    found = []
    for name in _SOURCES:
        path = root / "hooks" / name
        inside = sorted(path.rglob("*")) if path.is_dir() else [path]
        found += [p for p in inside if p.is_file() and "__pycache__" not in p.parts]
    return found


def build_wheel(root: Path, env: Environment, scratch: Path) -> Path:
    """The engine's wheel, built by pip from a copy of its sources (a build leaves build/ and
    an .egg-info beside what it builds: not in the checkout)."""
    source = scratch / "hooks"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__")
    for name in _SOURCES:
        path = root / "hooks" / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    out = scratch / "dist"
    _pip(env.tool("python"), "wheel", "--no-deps", "-w", out, source)
    (wheel,) = out.glob("executed_book-*.whl")
    return wheel


def engine_venv(root: Path, env: Environment, version: str, python: Path, wheel: Path) -> Path:
    """`.cache/engine-pyVERSION` with this wheel installed: the venv and the wheel's
    dependencies kept while hooks/pyproject.toml stays the same, the wheel itself always
    reinstalled (the engine's code changes between runs, its version number does not).

    The venv has no pip of its own: the book's pip installs into it (`pip --python`), which
    spares each venv the copy of pip that `venv` would install and compile."""
    venv = root / ".cache" / f"engine-py{version}"
    want = hashlib.sha256((root / "hooks" / "pyproject.toml").read_bytes()).hexdigest()
    stamp = venv / STAMP
    into = ("--python", venv / "bin" / "python", "install")
    if stamp.is_file() and stamp.read_text().strip() == f"{want} {python}":
        _pip(env.tool("python"), *into, "--no-deps", "--force-reinstall", wheel)
        return venv
    shutil.rmtree(venv, ignore_errors=True)
    call([python, "-m", "venv", "--without-pip", venv])
    _pip(env.tool("python"), *into, f"{wheel}[test]")
    stamp.write_text(f"{want} {python}\n")
    return venv


def _pip(python: Path, *args: str | Path) -> None:
    """One pip command, quiet: what pip says (warnings about the machine's indexes) is shown
    only when it fails."""
    argv = [str(a) for a in (python, "-m", "pip", *args, "--quiet", "--disable-pip-version-check")]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.stdout.write(done.stdout + done.stderr)
        raise Failed(done.returncode, f"book: {' '.join(argv[1:])} failed (above)")
