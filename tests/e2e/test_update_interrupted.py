"""The update mode killed halfway: each golden is the old text or the new, and a rerun finishes.

A fixture site with many blocks has its goldens written once ("v1"); then every snippet changes
("v2") and an update build is killed with SIGKILL at several moments: while the pages still
run (once a block in the middle has started), after the first golden was rewritten (the kill
lands in the second one's write), and two thirds of the way (between two goldens).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from measure import leftovers, measured_build

from conftest import MKDOCS, scaled

pytestmark = pytest.mark.build

PAGES = 3
BLOCKS = 60  # per page: the goldens are written one by one, each synced (milliseconds each),
# so that a kill lands between two of them. Their size does not lengthen that window
# (the sync does), so each golden is two lines: a long output only costs CPU to render.
LINES = 2
# The block a kill "while the pages run" waits for: in the middle of the run.
MIDDLE = (PAGES // 2, BLOCKS // 2)
STARTED = "BOOK_SNIPPET_STARTED"


def write_book(site, version: str) -> None:
    for p in range(PAGES):
        fences = [
            f'```python exec="on" id="b{b:02d}"\n--8<-- "snippets/p{p}/b{b:02d}.py"\n```\n'
            for b in range(BLOCKS)
        ]
        site.page(f"p{p}.md", f"# Page {p}\n\n" + "\n".join(fences))
        for b in range(BLOCKS):
            code = f"for i in range({LINES}):\n    print('{version} page {p} block {b}', i)\n"
            if (p, b) == MIDDLE:  # says it started, when asked to (prints nothing more)
                code = (
                    f"import os, pathlib\nif os.environ.get({STARTED!r}):\n"
                    f"    pathlib.Path(os.environ[{STARTED!r}]).touch()\n{code}"
                )
            site.snippet(f"p{p}/b{b:02d}.py", code)


def golden_texts(site) -> dict[str, bytes]:
    base = site.root / "tests" / "golden"
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*.txt"))}


def mtimes(paths: list[Path]) -> list[int]:
    return [mtime(p) for p in paths]


def mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return -1  # a golden gone counts as changed: the test then says which went missing


def count_changed(before: list[int], paths: list[Path]) -> int:
    return sum(a != b for a, b in zip(before, mtimes(paths), strict=True))


def moment_reached(paths: list[Path], rewritten: int, started: Path | None) -> Callable[[], bool]:
    """Has the update reached its kill: `started` touched, or else `rewritten` goldens changed?"""
    if started is not None:
        return started.exists
    before = mtimes(paths)
    folders = sorted({p.parent for p in paths})
    folders_before = mtimes(folders)
    writing = False

    def reached() -> bool:
        nonlocal writing
        # A golden's write first makes its temporary file, which changes its folder's time:
        # until then the three folders are watched, not the 180 goldens (CPU, polled so often).
        writing = writing or mtimes(folders) != folders_before
        return writing and count_changed(before, paths) >= rewritten

    return reached


def update_killed_after(site, rewritten: int = 0, started: Path | None = None) -> int:
    """Start an update build; SIGKILL it once `rewritten` goldens have changed (or, with
    `started`, once the middle block has touched that file). Returns how many goldens had
    changed when it died."""
    paths = sorted((site.root / "tests" / "golden").rglob("*.txt"))
    before = mtimes(paths)
    reached = moment_reached(paths, rewritten, started)
    env = {**os.environ, "GOLDEN": "update", "NO_MKDOCS_2_WARNING": "1", "BOOK_JOBS": "1"}
    if started is not None:
        env[STARTED] = str(started)
    proc = subprocess.Popen(
        [str(MKDOCS), "build", "--strict"],
        cwd=site.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    start = time.monotonic()
    try:
        while proc.poll() is None and time.monotonic() - start < scaled(600) and not reached():
            time.sleep(0.0005)
        assert proc.poll() is None, "the update finished before it could be killed"
        assert reached(), "the update never reached the moment of its kill"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        # The build's page workers, if any are still running (they are in its session).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    return count_changed(before, paths)


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """The goldens of v1 and of v2, each written by a complete update."""
    from conftest import new_site

    site = new_site(tmp_path_factory.mktemp("interrupted") / "book")
    write_book(site, "v2")
    assert site.build("update", BOOK_JOBS="1").returncode == 0
    new = golden_texts(site)
    write_book(site, "v1")
    assert site.build("update", BOOK_JOBS="1").returncode == 0
    old = golden_texts(site)
    assert len(old) == PAGES * BLOCKS and all(old[name] != new[name] for name in old)
    return site, old, new


def restore(site, texts: dict[str, bytes]) -> None:
    base = site.root / "tests" / "golden"
    for name, data in texts.items():
        (base / name).write_bytes(data)
    for name in leftovers(base):
        (base / name).unlink()


@pytest.mark.parametrize(
    ("moment", "rewritten"),
    [
        ("while the pages run", 0),
        ("after the first golden", 1),
        ("two thirds of the way", 2 * PAGES * BLOCKS // 3),
    ],
)
def test_killed_update_leaves_old_or_new_goldens_and_a_rerun_finishes(
    versions, moment, rewritten, tmp_path
):
    site, old, new = versions
    restore(site, old)
    write_book(site, "v2")

    started = None if rewritten else tmp_path / "started"
    changed = update_killed_after(site, rewritten, started)

    now = golden_texts(site)
    assert sorted(now) == sorted(old), "a golden went missing"
    mixed = [name for name, data in now.items() if data not in (old[name], new[name])]
    assert mixed == [], f"half-written goldens: {mixed[:5]}"
    rewritten_now = sum(now[name] == new[name] for name in now)
    if rewritten:
        assert rewritten <= rewritten_now < len(now), "the kill should land mid-update"
    else:
        assert rewritten_now == 0
    temporary = leftovers(site.root / "tests" / "golden")
    print(
        f"\nkilled {moment}: {rewritten_now} of {len(now)} goldens new ({changed} touched), "
        f"{len(temporary)} temporary files left beside them"
    )

    rerun = measured_build(site.root, "update", BOOK_JOBS="1")
    assert rerun.returncode == 0, rerun.output
    if temporary:
        assert "left by an interrupted update" in rerun.output
    assert golden_texts(site) == new
    assert leftovers(site.root / "tests" / "golden") == []
    assert measured_build(site.root, "check", BOOK_JOBS="1").returncode == 0


def test_rerun_removes_what_a_killed_write_left(versions):
    """A kill between a temporary file's creation and its rename leaves it beside the golden."""
    site, _, new = versions
    restore(site, new)
    write_book(site, "v2")
    stray = site.root / "tests" / "golden" / "p0" / ".b00.txt.k1ll3d.tmp"
    stray.write_bytes(new["p0/b00.txt"][:100])  # half of a golden, as a killed write leaves it
    rerun = measured_build(site.root, "update", BOOK_JOBS="1")
    assert rerun.returncode == 0, rerun.output
    assert "removed tests/golden/p0/.b00.txt.k1ll3d.tmp, left by an interrupted update" in (
        rerun.output
    )
    assert not stray.exists()
    assert golden_texts(site) == new


# -- issue 25: one update at a time, and goldens anyone can read ---------------------------------


def _update(root: Path, **env: str) -> subprocess.Popen:
    environ = {**os.environ, "GOLDEN": "update", "NO_MKDOCS_2_WARNING": "1", **env}
    return subprocess.Popen(
        [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def test_a_second_update_at_once_refuses_with_a_message_and_nothing_is_lost(site, tmp_path):
    started = tmp_path / "started"  # the first update's first block writes it as it runs
    for n in range(4):
        fence = f'```python exec="on" id="b"\n--8<-- "snippets/p{n}/b.py"\n```\n'
        site.page(f"p{n}.md", f"# P{n}\n\n{fence}")
        mark = "import os, pathlib\npathlib.Path(os.environ['BOOK_SNIPPET_STARTED']).touch()\n"
        site.snippet(f"p{n}/b.py", f"{mark}import time\ntime.sleep(2)\nprint('page {n}')\n")
    first = _update(site.root, BOOK_JOBS="1", BOOK_SNIPPET_STARTED=str(started))
    try:
        deadline = time.monotonic() + scaled(120)
        while not started.exists():
            assert first.poll() is None and time.monotonic() < deadline, first.stdout.read()
            time.sleep(0.05)
        second = _update(site.root, BOOK_JOBS="1", BOOK_SNIPPET_STARTED=str(started))
        out, _ = second.communicate(timeout=300)
        assert second.returncode != 0, out
        assert f"process {first.pid} is writing the goldens right now" in out, out
        assert "Traceback" not in out
        assert first.wait(timeout=300) == 0, first.stdout.read()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
    assert sorted(site.goldens()) == [f"p{n}/b.txt" for n in range(4)]
    assert all(f"page {n}" in site.goldens()[f"p{n}/b.txt"] for n in range(4))
    assert leftovers(site.root / "tests" / "golden") == []
    assert site.build(BOOK_SNIPPET_STARTED=str(started)).returncode == 0


def test_goldens_and_versions_are_written_0644_under_the_usual_umask(site):
    site.page("p.md", '# P\n\n```python exec="on" id="b"\n--8<-- "snippets/p/b.py"\n```\n')
    site.snippet("p/b.py", "print('hello')\n")
    old = os.umask(0o022)
    try:
        assert site.build("update").returncode == 0
    finally:
        os.umask(old)
    base = site.root / "tests" / "golden"
    modes = {str(p.relative_to(base)): oct(p.stat().st_mode & 0o777) for p in base.rglob("*")}
    assert modes == {"p": "0o755", "p/b.txt": "0o644", "VERSIONS": "0o644"}


# -- issue 38: a check after a killed update says so ---------------------------------------------

SLOW_WHEN_STARTED = """\
import os
import pathlib
import time

if os.environ.get("BOOK_SNIPPET_STARTED"):
    pathlib.Path(os.environ["BOOK_SNIPPET_STARTED"]).touch()
    time.sleep(60)
print("v2")
"""


def test_a_check_after_a_killed_update_says_the_goldens_may_be_half_updated(site, tmp_path):
    """The update holds its lock from its start to its last golden; killed, it leaves its
    name in the lock file, and the builds after it say so until an update ends."""
    for n in range(2):
        site.page(
            f"p{n}.md", f'# P\n\n```python exec="on" id="b"\n--8<-- "snippets/p{n}/b.py"\n```\n'
        )
        site.snippet(f"p{n}/b.py", "print('v1')\n")
    assert site.build("update").returncode == 0
    for n in range(2):
        site.snippet(f"p{n}/b.py", SLOW_WHEN_STARTED)
    started = tmp_path / "started"
    update = _update(site.root, BOOK_JOBS="1", BOOK_SNIPPET_STARTED=str(started))
    try:
        deadline = time.monotonic() + scaled(120)
        while not started.exists():
            assert update.poll() is None and time.monotonic() < deadline, update.stdout.read()
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(update.pid, signal.SIGKILL)
        update.wait()
    said = f"the last update of the goldens (process {update.pid}) was killed before it ended"
    check = site.build("check")
    assert said in check.output, check.output
    assert "run ./book update (GOLDEN=update) again to finish it" in check.output
    assert "Traceback" not in check.output
    assert site.build("update").returncode == 0
    again = site.build("check")
    assert again.returncode == 0, again.output
    assert said not in again.output
