"""`./book` and the `book` command line: what each command installs, what it says, its help,
its usage errors, and the launcher's first run and missing-Python error.

Each case runs the real launcher on a copy of it, with a stand-in `.venv` whose `python`,
`mkdocs`, `ruff`, `mypy` and `chromium` only record how they were called, so nothing is
installed; its `book` is the real command line (`python -m jaxbook.cli`, this checkout's).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import REPO, scaled

RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""
# The real command line, run by this test's interpreter in the copy (its working directory).
BOOK = f"""#!/bin/sh
exec "{sys.executable}" -m jaxbook.cli "$@"
"""
COMMANDS = [  # issue 28's list, and the test helper jax-venv
    "serve",
    "build",
    "update",
    "review",
    "test",
    "test-engine",
    "bench",
    "stress",
    "jax-changes",
    "accelerators",
    "drift-watch",
    "setup",
    "jax-venv",
    "help",
]


# Both distributions in one pip install, each editable as a path (cli.environments).
PIP = (
    "python -m pip install --quiet --disable-pip-version-check "
    "--config-settings editable_mode=compat -e hooks"
)


@pytest.fixture
def checkout(tmp_path):
    root = tmp_path / "checkout"
    root.mkdir()
    for name in ("book", "pyproject.toml", ".python-version"):
        shutil.copy2(REPO / name, root / name)
    # What `./book` runs before .venv has `book`: the command line from the source.
    ignore = shutil.ignore_patterns("__pycache__")
    for package in ("bookexec", "jaxbook"):
        shutil.copytree(REPO / "hooks" / package, root / "hooks" / package, ignore=ignore)
    shutil.copy2(REPO / "hooks" / "pyproject.toml", root / "hooks" / "pyproject.toml")
    return root


def stand_in_venv(root: Path, log: Path) -> None:
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("python", "mkdocs", "ruff", "mypy"):
        path = bin_dir / tool
        path.write_text(RECORDER.format(log=log))
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    (bin_dir / "book").write_text(BOOK)
    (bin_dir / "book").chmod(0o755)


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
    assert installs == [f"{PIP} -e ."]
    # --dirty: a rebuild renders only the pages an edit touches (bookexec._internal.serve.rebuild)
    assert calls[-1] == "python -m jaxbook.cli.serving --dirty -a 127.0.0.1:9"
    # One line says what is being installed and about how long it takes.
    assert "installing the book, JAX 0.12.0.1 and MkDocs" in result.stdout
    assert "about 0.9 GB, a few minutes" in result.stdout  # measured: the README says how
    assert "ready in" in result.stdout

    log.unlink()
    again = run(checkout, "serve")  # set up already: nothing is installed again
    assert again.returncode == 0
    assert log.read_text().splitlines() == ["python -m jaxbook.cli.serving --dirty"]
    log.unlink()
    assert run(checkout, "serve", "--clean").returncode == 0  # the author's choice wins
    assert log.read_text().splitlines() == ["python -m jaxbook.cli.serving --clean"]


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
    assert f"{PIP} -e .[test]" in calls
    assert "test tools (pytest, Playwright" in result.stdout
    # Two processes, a file each; --yes is the script's, not pytest's.
    assert calls[-1] == "python -m pytest -n 5 --dist loadfile -x"
    # Lint, then the type checker over hooks/ (pyproject's [tool.mypy]) and over the engine as
    # Python 3.10 reads it (the oldest it runs on), then the suite.
    assert calls[-5:-1] == [
        "ruff check .",
        "ruff format --check .",
        "mypy ",
        "mypy --python-version 3.10 hooks/bookexec",
    ]
    log.unlink()
    assert run(checkout, "serve").returncode == 0  # the test set includes the serve set
    assert log.read_text().splitlines() == ["python -m jaxbook.cli.serving --dirty"]


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


def test_test_fast_runs_the_layers_below_e2e_and_needs_no_browser(checkout, tmp_path):
    """`./book test --fast`: lint, the type checks, then the unit and integration layers, on a
    machine without chromium and without asking for it."""
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    result = run(checkout, "test", "--fast", "-x", path=tools_path(tmp_path, *BASIC))
    assert result.returncode == 0, result.stderr
    assert "chromium" not in result.stdout + result.stderr
    calls = log.read_text().splitlines()
    assert calls[-5:] == [
        "ruff check .",
        "ruff format --check .",
        "mypy ",
        "mypy --python-version 3.10 hooks/bookexec",
        "python -m pytest -n 5 --dist loadfile tests/unit tests/integration -x",
    ]


def tools_path(tmp_path: Path, *names: str, **links: str) -> str:
    """A PATH of only these tools (and `links`: name -> target), so no other Python is found."""
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    for name in names:
        found = shutil.which(name)
        assert found, name
        (tools / name).symlink_to(found)
    for name, target in links.items():
        (tools / name).symlink_to(target)
    return str(tools)


BASIC = ("bash", "sh", "cat", "tr", "dirname", "basename", "mkdir", "cp")


def test_missing_python_names_the_version_python_version_asks_for(checkout, tmp_path):
    """No Python at all: the launcher says so. A python3 of another version: `book` says so."""
    (checkout / ".python-version").write_text("3.99\n")
    result = run(checkout, "setup", path=tools_path(tmp_path, *BASIC))
    assert result.returncode != 0
    assert "no Python 3.99 found (.python-version asks for it" in result.stderr
    assert "pyenv install 3.99" in result.stderr

    other = run(checkout, "setup", path=tools_path(tmp_path, python3=sys.executable))
    assert other.returncode == 1, other.stderr
    assert "no Python 3.99 found (.python-version asks for it" in other.stderr
    assert "pyenv install 3.99" in other.stderr
    assert not (checkout / ".venv").exists()


# A python3.13 that runs the real interpreter, except that `-m venv DIR` makes a stand-in venv.
FAKE_PYTHON = """#!/bin/sh
if [ "$1" = -m ] && [ "$2" = venv ]; then
  echo "python3.13 -m venv $3" >> "{log}"
  mkdir -p "$3/bin" && cp "{stand_in}"/* "$3/bin/"
  exit 0
fi
exec "{real}" "$@"
"""


def test_the_first_run_makes_the_venv_then_runs_the_command(checkout, tmp_path):
    log = tmp_path / "calls.log"
    stand_in_venv(tmp_path / "stand-in", log)
    fake = tmp_path / "python3.13"
    fake.write_text(
        FAKE_PYTHON.format(log=log, stand_in=tmp_path / "stand-in/.venv/bin", real=sys.executable)
    )
    fake.chmod(0o755)
    result = run(checkout, "serve", "--dirty", path=tools_path(tmp_path, *BASIC, python3=fake))
    assert result.returncode == 0, result.stderr
    assert "book: creating .venv with Python 3.13" in result.stdout
    assert log.read_text().splitlines() == [
        f"python3.13 -m venv {checkout / '.venv'}",
        "python -m pip install --quiet --disable-pip-version-check --upgrade pip",
        f"{PIP} -e .",
        "python -m jaxbook.cli.serving --dirty",  # run by .venv's `book`, once .venv has it
    ]
    assert (checkout / ".venv" / ".book-installed").read_text().endswith(" book\n")


def tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under `root`, with its size and modification time."""
    return {
        str(p.relative_to(root)): (p.lstat().st_size, p.lstat().st_mtime_ns)
        for p in root.rglob("*")
    }


@pytest.mark.parametrize("venv", [True, False], ids=["from-venv", "before-venv"])
def test_help_prints_help_at_once_and_creates_nothing(checkout, tmp_path, venv):
    """`./book --help` and `./book COMMAND --help` set nothing up, install nothing, build
    nothing (`./book jax-changes --help` once made a venv per JAX release first)."""
    log = tmp_path / "calls.log"
    if venv:
        stand_in_venv(checkout, log)
    # Before .venv, the launcher runs `book` from the source with a bare python3.
    bare = tools_path(tmp_path, *BASIC, python3=getattr(sys, "_base_executable", sys.executable))
    before = tree(checkout)
    asks = [["--help"], ["-h"], ["help"], [], ["help", "stress"]]
    asks += [[command, "--help"] for command in COMMANDS]
    for ask in asks:
        started = time.monotonic()
        result = run(checkout, *ask, path=bare)
        took = time.monotonic() - started
        assert result.returncode == 0, (ask, result.stderr)
        assert result.stderr == "", ask
        shown = next((a for a in ask if a in COMMANDS and a != "help"), None)
        if ask == ["help", "stress"]:
            shown = "stress"
        assert result.stdout.startswith(f"usage: ./book {shown or ''}".rstrip()), ask
        assert "exit codes:" in result.stdout and "2    a usage error" in result.stdout, ask
        assert took < scaled(10), f"{ask}: {took:.1f} s"
    assert tree(checkout) == before
    assert not log.exists(), log.read_text()  # no pip, no mkdocs, no pytest
    assert not (checkout / ".cache").exists()


def test_the_top_help_lists_every_command(checkout):
    result = run(checkout, "help")
    assert result.returncode == 0
    for command in COMMANDS:
        assert f"  ./book {command}" in result.stdout, command
    assert "./book setup [--test]" in result.stdout and "./book help" in result.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["frob"], "invalid choice: 'frob'"),
        (["--frob"], "./book: error: unrecognized arguments: --frob"),
        (["review", "--bogus"], "./book review: error: unrecognized arguments: --bogus"),
        (["drift-watch"], "./book drift-watch: error: drift-watch needs --jax X.Y.Z"),
        (["stress", "0"], "stress takes a number of runs (default 3), not '0'"),
        (["jax-venv"], "the following arguments are required: X.Y.Z"),
        (["setup", "--tests"], "unrecognized arguments: --tests"),
        (["test-engine", "3.9"], "test-engine takes Python versions among 3.10, 3.11, 3.12, "),
        (["run", "--shard", "4/3"], "--shard takes I/N with 1 <= I <= N, such as 2/4, not '4/3'"),
        (["run"], "one of the arguments --shard --cache-key is required"),
        (
            ["run", "--shard", "1/2", "--cache-key"],
            "--cache-key: not allowed with argument --shard",
        ),
        (
            ["run", "--cache-key", "--block-cache"],
            "run --block-cache runs a shard: give --shard I/N, not --cache-key",
        ),
    ],
)
def test_a_usage_error_exits_2_names_what_is_wrong_and_runs_nothing(
    checkout, tmp_path, args, message
):
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    result = run(checkout, *args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert result.stderr.startswith("usage: ./book")
    assert not log.exists(), log.read_text()


# What a failing step of a command looks like: a message, never a traceback (issue 38).
FAILING_MKDOCS = """#!/bin/sh
echo "mkdocs $*" >> "{log}"
echo "ERROR   -  docs/first.md, block 'one' (snippets/first/one.py): failed on purpose"
exit 1
"""


def failing_mkdocs(root: Path, log: Path) -> None:
    """The stand-in venv, whose mkdocs fails as a failing build does."""
    stand_in_venv(root, log)
    mkdocs = root / ".venv" / "bin" / "mkdocs"
    mkdocs.write_text(FAILING_MKDOCS.format(log=log))


@pytest.mark.parametrize(
    "args,message",
    [
        (["drift-watch", "--jax", "next"], "--jax takes a JAX release such as 0.11.2"),
        (["jax-venv", "0.11.2; rm"], "jax-venv takes a JAX release such as 0.11.2"),
    ],
)
def test_a_bad_jax_release_is_a_usage_error_before_anything_is_made(
    checkout, tmp_path, args, message
):
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    result = run(checkout, *args)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (checkout / ".cache").exists()


def test_drift_watch_reports_a_failing_build_and_exits_0(checkout, tmp_path):
    """The drift watch reports what the book did; a build that fails is its news, not its end."""
    log = tmp_path / "calls.log"
    failing_mkdocs(checkout, log)
    (checkout / "docs").mkdir()  # the book the watch opens (its goldens: where it diffs)
    (checkout / "mkdocs.yml").write_text("site_name: b\nplugins:\n  - executed-book\n")
    python = checkout / ".venv" / "bin" / "python"
    out = tmp_path / "report"
    result = run(
        checkout, "drift-watch", "--jax", "0.11.2", "--python", str(python), "--out", str(out)
    )
    said = result.stdout + result.stderr
    assert result.returncode == 0, said
    assert "Traceback" not in said
    assert "drift-watch: jax 0.11.2: check exited 1, update exited 1" in result.stdout
    assert "failed on purpose" in (out / "report.txt").read_text()
    assert [line for line in log.read_text().splitlines() if line.startswith("mkdocs")] == [
        f"mkdocs build --strict --site-dir {out / 'book' / 'site'}"
    ] * 2


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["drift-watch", "--jax", "0.11.2", "--python", "/nowhere/bin/python"],
            "book: drift-watch: /nowhere/bin/python: no such interpreter",
        ),
        (["update"], ""),  # mkdocs said why; book adds nothing, and no traceback
    ],
)
def test_a_command_that_cannot_go_on_says_why_without_a_traceback(
    checkout, tmp_path, args, message
):
    log = tmp_path / "calls.log"
    failing_mkdocs(checkout, log)
    result = run(checkout, *args)
    said = result.stdout + result.stderr
    assert result.returncode == 1, said
    assert "Traceback" not in said, said
    assert message in result.stderr


# A stand-in mkdocs that also says which goldens the build was asked to write.
UPDATE_MKDOCS = """#!/bin/sh
echo "mkdocs $* GOLDEN=$GOLDEN" >> "{log}"
"""


def test_update_of_one_page_or_block_runs_it_alone(checkout, tmp_path):
    """`./book update` is the whole book's strict update build; `./book update PAGE[#BLOCK]`
    runs that page or block alone (`jaxbook.cli.partial`, which
    tests/integration/test_update_one.py runs for real)."""
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    (checkout / ".venv" / "bin" / "mkdocs").write_text(UPDATE_MKDOCS.format(log=log))
    expected = {
        (): "mkdocs build --strict -q GOLDEN=update",
        ("tracers.md#shapes",): "python -m jaxbook.cli.partial tracers.md#shapes -q",
    }
    for args, call in expected.items():
        log.unlink(missing_ok=True)
        result = run(checkout, "update", *args, "-q")
        assert result.returncode == 0, result.stderr
        steps = [s for s in log.read_text().splitlines() if " install " not in s]
        assert steps == [call]
    helped = run(checkout, "update", "--help")
    assert "./book update [-h] [PAGE[#BLOCK]]" in helped.stdout
    assert "only that page" in helped.stdout


# A stand-in python whose pip warns as the machine's index does, and fails when told to.
NOISY_PIP = """#!/bin/sh
echo "python $*" >> "{log}"
echo "WARNING: Location 'file:///opt/pypi-more/simple/jax/' is ignored" >&2
if [ -n "$PIP_FAILS" ]; then echo "ERROR: No matching distribution found for jax" >&2; exit 1; fi
"""


def test_set_up_shows_pip_only_when_pip_fails(checkout, tmp_path):
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    python = checkout / ".venv" / "bin" / "python"
    python.write_text(NOISY_PIP.format(log=log))
    quiet = run(checkout, "setup")
    assert quiet.returncode == 0, quiet.stderr
    assert "WARNING: Location" not in quiet.stdout + quiet.stderr
    assert "ready in" in quiet.stdout
    (checkout / ".venv" / ".book-installed").unlink(missing_ok=True)
    failed = run(checkout, "setup", PIP_FAILS="1")
    assert failed.returncode == 1
    said = failed.stdout + failed.stderr
    assert "No matching distribution found for jax" in said and "WARNING: Location" in said
    assert "Traceback" not in said


def test_the_unit_layer_alone_skips_the_browser_and_the_lint(checkout, tmp_path):
    """`./book test tests/unit` runs the unit layer alone: no chromium is looked for and the
    repository-wide ruff and mypy are left to the whole suite (issue 41)."""
    log = tmp_path / "calls.log"
    stand_in_venv(checkout, log)
    (checkout / "tests" / "unit").mkdir(parents=True)  # as a checkout has it
    no_chromium = tools_path(tmp_path, *BASIC)  # no chromium, and no apt-get to install it
    result = run(checkout, "test", "tests/unit", "-q", path=no_chromium)
    assert result.returncode == 0, result.stderr
    calls = [c for c in log.read_text().splitlines() if " install " not in c]
    assert calls == ["python -m pytest -n 5 --dist loadfile tests/unit -q"]
