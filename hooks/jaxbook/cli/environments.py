"""The environments the commands run in: the checkout's `.venv`, and `.cache/jax-X.Y.Z`.

What each command needs (issue 18): serving and building need only the book's own dependencies;
the test tools (pytest, Playwright, ruff, nbclient, ipykernel...) are installed by `./book test`
alone. A stamp in the venv records the hash of pyproject.toml and .python-version and which set
is installed, so a changed pin reinstalls on the next command.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from jaxbook.cli.process import Failed, call

Needs = Literal["book", "test"]
STAMP = ".book-installed"
_PIP = ("-m", "pip", "install", "--quiet", "--disable-pip-version-check")
# Each editable install a path in a .pth file, not setuptools' import hook: a worker process
# imports the engine as it would an installed copy, and no module a snippet could notice.
_EDITABLE = ("--config-settings", "editable_mode=compat")


@dataclass(frozen=True)
class Environment:
    """Where a command's tools are: `venv/bin`, or, with no venv, beside the running Python."""

    root: Path
    venv: Path | None

    @classmethod
    def of(cls, root: Path) -> Environment:
        """The checkout's `.venv` when there is one (`./book` makes it). Without one (a copy of
        the book that a test builds, a book that installed the engine with pip) the commands
        use the environment `book` runs in, and set nothing up."""
        venv = root / ".venv"
        return cls(root, venv if venv.is_dir() else None)

    def tool(self, name: str) -> Path:
        """The path of a command-line tool (`python`, `mkdocs`, `ruff`...) of this environment."""
        folder = self.venv / "bin" if self.venv else Path(sys.executable).parent
        return folder / name


# The two distributions `./book` installs from the checkout, the engine first: pip takes the
# book's `executed-book` requirement from `hooks/` only when both are in one install.
PROJECTS = ("hooks", ".")


def inputs_hash(root: Path) -> str:
    """What the installed packages follow: the engine's and the book's pyproject.toml and
    .python-version, in that order."""
    try:
        data = b"".join(
            (root / name).read_bytes()
            for name in ("hooks/pyproject.toml", "pyproject.toml", ".python-version")
        )
    except OSError as missing:
        raise Failed(
            1, f"book: {missing.filename} is missing: run ./book in the book's checkout"
        ) from None
    return hashlib.sha256(data).hexdigest()


def find_python(root: Path) -> str:
    """The interpreter .python-version names: pyenv's if it has one, else `pythonX.Y`, else
    `python3`, whichever reports that version."""
    want = "".join((root / ".python-version").read_text().split())
    candidates = []
    if shutil.which("pyenv"):
        which = subprocess.run(["pyenv", "which", "python"], capture_output=True, text=True)
        candidates.append(which.stdout.strip())
    candidates += [shutil.which(f"python{want}") or "", shutil.which("python3") or ""]
    probe = f"import sys; sys.exit(0 if sys.version.startswith('{want}.') else 1)"
    for candidate in candidates:
        usable = candidate and os.access(candidate, os.X_OK)
        if usable and subprocess.run([candidate, "-c", probe], check=False).returncode == 0:
            return candidate
    raise Failed(
        1,
        f"book: no Python {want} found (.python-version asks for it; JAX 0.12 needs 3.12+).\n"
        f"book: install it, e.g. 'pyenv install {want}', and run this again.",
    )


def set_up(root: Path, needs: Needs = "book") -> Environment:
    """`.venv` with what `needs` asks for, installed only when the stamp says it is not yet."""
    venv = root / ".venv"
    python, stamp = venv / "bin" / "python", venv / STAMP
    want = inputs_hash(root)
    have = stamp.read_text().strip() if stamp.is_file() else ""
    ready = os.access(python, os.X_OK) and os.access(venv / "bin" / "book", os.X_OK)
    if ready and have in {f"{want} test", f"{want} {needs}"}:
        return Environment(root, venv)
    started = time.monotonic()
    if not os.access(python, os.X_OK):
        base = find_python(root)
        version = subprocess.run([base, "--version"], capture_output=True, text=True).stdout
        print(f"book: creating .venv with {version.strip()} (a few seconds)", flush=True)
        call([base, "-m", "venv", venv])
    _pip(python, ["--upgrade", "pip"])
    if needs == "test":
        print(
            "book: installing the book, JAX 0.12.0.1, MkDocs and the test tools (pytest, "
            "Playwright,\n      ruff, mypy, nbclient, ipykernel...) into .venv: about 1.1 GB, "
            "a few minutes"
        )
        sys.stdout.flush()
        _pip(python, [*_EDITABLE, "-e", "hooks", "-e", ".[test]"])
    else:
        print("book: installing the book, JAX 0.12.0.1 and MkDocs with its plugins into .venv:")
        # Measured from a fresh clone on a shared 2-core machine (docs/guide/commands.md).
        print("      about 0.9 GB, a few minutes (the test tools come with ./book test)")
        sys.stdout.flush()
        _pip(python, [*_EDITABLE, "-e", "hooks", "-e", "."])
    stamp.write_text(f"{want} {needs}\n")
    print(f"book: .venv ready in {int(time.monotonic() - started)} s", flush=True)
    return Environment(root, venv)


def prepare(root: Path, needs: Needs = "book") -> Environment:
    """What every command but `setup` starts with: set `.venv` up if the checkout has one."""
    if Environment.of(root).venv is None:
        return Environment(root, None)
    return set_up(root, needs)


def _project(path: Path) -> dict[str, Any]:
    try:
        found: dict[str, Any] = tomllib.loads(path.read_text())["project"]
        found["dependencies"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as error:
        raise Failed(1, f"book: {path} has no [project] dependencies: {error}") from None
    return found


def _key(requirement: str) -> str:
    name = re.match(r"\s*([A-Za-z0-9._-]+)", requirement)
    return re.sub(r"[-_.]+", "-", name[1]).lower() if name else ""  # as PEP 503 compares


def _engine_requirements(root: Path, requirement: str) -> list[str]:
    """The engine's dependencies, with those of the extras the book asks for (`[jax,...]`)."""
    engine = _project(root / "hooks" / "pyproject.toml")
    extras = re.search(r"\[([^\]]*)\]", requirement)
    wanted = [extra.strip() for extra in extras[1].split(",")] if extras else []
    optional = engine.get("optional-dependencies", {})
    return [*engine["dependencies"], *(dep for extra in wanted for dep in optional.get(extra, []))]


def requirements_with(root: Path, version: str) -> list[str]:
    """The book's requirements (pyproject.toml's dependencies, the engine's in place of the
    engine itself) with `jax` and `jaxlib` pinned to `version` instead, each package once:
    one set pip can resolve at once."""
    pinned = {"jax": f"jax=={version}", "jaxlib": f"jaxlib=={version}"}
    out: dict[str, str] = {}
    for requirement in _project(root / "pyproject.toml")["dependencies"]:
        key = _key(requirement)
        expanded = (
            _engine_requirements(root, requirement) if key == "executed-book" else [requirement]
        )
        for each in expanded:
            out.setdefault(_key(each), pinned.get(_key(each), each))
    return list(out.values()) + sorted(v for k, v in pinned.items() if k not in out)


def jax_venv(root: Path, version: str) -> Path:
    """`.cache/jax-VERSION`: the book's own packages with another JAX in place of the pin, as
    a maintainer would try a new release. Kept until pyproject.toml or .python-version changes.
    Returns its folder, relative to `root`.

    One resolve (the requirements with that JAX, then the book itself without its pins), not
    the pin and then the release over it: jaxlib is unpacked once. And no byte-compiling of
    every installed module: Python compiles what a build imports, when it imports it (38 CPU
    seconds to 29 on this book's 2-core machine)."""
    folder = Path(".cache") / f"jax-{version}"
    where, want = root / folder, f"{inputs_hash(root)} jax=={version}"
    stamp = where / STAMP
    made = os.access(where / "bin" / "python", os.X_OK) and stamp.is_file()
    if made and stamp.read_text().strip() == want:
        return folder
    print(
        f"book: creating {folder}: the book's packages with jax=={version} jaxlib=={version} "
        "in place of the pin (under a minute)",
        file=sys.stderr,
        flush=True,
    )
    shutil.rmtree(where, ignore_errors=True)
    call([find_python(root), "-m", "venv", where])
    python = where / "bin" / "python"
    quiet = ("WARNING: Location",)
    if _quiet_pip(python, ["--no-compile", *requirements_with(root, version)], root, quiet):
        raise Failed(1, f"book: pip cannot install jax {version} with the book's packages (above)")
    editable = [arg for project in PROJECTS for arg in ("-e", project)]
    _quiet_pip(python, ["--no-compile", "--no-deps", *_EDITABLE, *editable], root, quiet)
    probe = f"import jax, sys; sys.exit(jax.__version__ != {version!r})"
    if subprocess.run([python, "-c", probe], cwd=root, capture_output=True).returncode:
        raise Failed(1, f"book: {folder} does not have jax {version} (pip's output is above)")
    stamp.write_text(want + "\n")
    return folder


def _pip(python: Path, args: list[str]) -> None:
    """One pip install; what pip says (a hundred lines of warnings about the machine's
    indexes) is shown only when it fails, with its exit code passed on."""
    try:
        done = subprocess.run([python, *_PIP, *args], capture_output=True, text=True, check=False)
    except OSError as error:
        raise Failed(127, f"book: cannot run {python}: {error.strerror}") from None
    if done.returncode:
        sys.stdout.write(done.stdout)
        sys.stderr.write(done.stderr)
        raise Failed(done.returncode, f"book: pip install {' '.join(args)} failed (above)")


def _quiet_pip(python: Path, args: list[str], root: Path, drop: tuple[str, ...]) -> int:
    """pip install, passing on what it says but the lines `drop` names; its exit code."""
    done = subprocess.run(
        [python, *_PIP, *args], cwd=root, capture_output=True, text=True, check=False
    )
    for line in (done.stdout + done.stderr).splitlines():
        if not line.startswith(drop[0]) and not any(word in line for word in drop[1:]):
            print(line, file=sys.stderr)
    return done.returncode
