"""A timing-heavy chapter holds against its real goldens with every core busy twice over.

The small version of `./book stress` (issue 24): the retracing chapter's executed blocks (its
own snippets, options and goldens: twenty cold compiles timed against one, a figure of run
times, claims between them) are built cold in check mode while busy loops oversubscribe the
CPUs. Times then come out several times slower than the goldens recorded; the check must still
say 0 failed and 0 drifted, since only comparisons made inside the run (claims) and counts
judge.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bookexec.cli.stress import BUSY
from bookexec.discover.blocks import scan_page
from conftest import REPO, new_site

pytestmark = pytest.mark.build

CHAPTER = "retracing"
LOOPS_PER_CORE = 2


def chapter_site(root):
    """The chapter's fences in order, with its snippets and its goldens as the book has them."""
    site = new_site(root)
    page = f"{CHAPTER}.md"
    blocks = scan_page(page, (REPO / "docs" / page).read_text(), REPO)
    parts = [f"# {CHAPTER}\n"]
    for block in blocks:
        options = " ".join(f'{k}="{v}"' for k, v in block.options.items())
        parts.append(f'```python {options}\n--8<-- "{block.snippet}"\n```\n')
    site.page(page, "\n".join(parts))
    shutil.copytree(REPO / "snippets" / CHAPTER, root / "snippets" / CHAPTER)
    golden = REPO / "tests" / "golden"
    shutil.copytree(golden / CHAPTER, root / "tests" / "golden" / CHAPTER)
    shutil.copy(golden / "VERSIONS", root / "tests" / "golden" / "VERSIONS")
    return site, len(blocks)


def test_a_timing_heavy_chapter_passes_with_two_busy_loops_per_core(tmp_path):
    site, count = chapter_site(tmp_path / "book")
    loops = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(LOOPS_PER_CORE * (os.cpu_count() or 1))
    ]
    try:
        result = site.build(BOOK_CACHE="off", timeout=900)
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()
    assert result.returncode == 0, result.output
    assert f"golden check: {count} blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in (
        result.output
    )
    print("\n" + "\n".join(line for line in result.output.splitlines() if "NOTE (timing)" in line))


# `./book stress` itself, with a stand-in mkdocs (as in tests/integration/test_book_script.py):
# it must run each build with the cache off while the busy loops run, say each run's summary, give a
# verdict, and leave no busy loop behind, whether the builds pass or fail.
STAND_IN_MKDOCS = """#!/bin/sh
echo "cache=$BOOK_CACHE args=$*" >> "{log}"
# A loop just forked still shows its parent's command line until it execs: wait for them all.
for _ in $(seq 100); do
  seen=$(ps -o args= --ppid "$PPID" | grep -c book-stress-busy-loop)
  [ "$seen" -ge "$BOOK_STRESS_LOOPS" ] && break
  sleep 0.1
done
ps -o pid=,args= --ppid "$PPID" >> "{pids}"
{wait}echo "INFO    -  bookexec: golden check: 3 blocks checked, 0 failed, {drifted} drifted, 0 new"
echo "INFO    -  bookexec summary: 3 blocks executed, 0 from cache, {drifted} drifted; 1.0 s"
exit {code}
"""


def stress_checkout(tmp_path, drifted: int, wait: str = "") -> tuple[Path, Path, Path]:
    root = tmp_path / "checkout"
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in ("book", "pyproject.toml", ".python-version"):
        shutil.copy2(REPO / name, root / name)
    log, pids = tmp_path / "calls.log", tmp_path / "pids.txt"
    tools = {
        "python": "#!/bin/sh\nexit 0\n",
        # The real command line, this checkout's, run by this test's interpreter in the copy.
        "book": f'#!/bin/sh\nexec "{sys.executable}" -m bookexec.cli "$@"\n',
        "mkdocs": STAND_IN_MKDOCS.format(
            log=log, pids=pids, drifted=drifted, code=int(drifted > 0), wait=wait
        ),
    }
    for tool, text in tools.items():
        (bin_dir / tool).write_text(text)
        (bin_dir / tool).chmod(0o755)
    return root, log, pids


def run_stress(root: Path, *args: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "BOOK_STRESS_LOOPS": "3"}
    return subprocess.run(
        ["bash", str(root / "book"), "stress", *args],
        cwd=root,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def ours(pid: int) -> bool:
    """The process is alive and is one of the command's busy loops (named by their `$0`)."""
    try:
        return BUSY in Path(f"/proc/{pid}/cmdline").read_bytes().decode()
    except OSError:
        return False


@pytest.mark.parametrize("drifted", [0, 1])
def test_book_stress_runs_cold_builds_under_busy_loops_and_always_stops_them(tmp_path, drifted):
    root, log, pids = stress_checkout(tmp_path, drifted)
    try:
        result = run_stress(root, "2")
    finally:  # should the command leave a busy loop behind, the test does not
        left = kill_left(pids)
    assert not left, "busy loops were left running"
    assert log.read_text().splitlines() == ["cache=off args=build --strict"] * 2
    busy = [line for line in pids.read_text().splitlines() if BUSY in line]
    assert len(busy) == 2 * 3  # three busy loops beside each run
    out = result.stdout + result.stderr
    assert "book: stress: 2 cold strict builds with 3 busy loops on" in out
    assert out.count(f"golden check: 3 blocks checked, 0 failed, {drifted} drifted") == 2
    assert out.count("bookexec summary: 3 blocks executed") == 2
    if drifted:
        assert result.returncode == 1 and "2 of 2 runs FAILED under 3 busy loops" in out
    else:
        assert result.returncode == 0 and "2 of 2 runs passed (0 failed, 0 drifted)" in out


def kill_left(pids: Path) -> list[int]:
    """The busy loops still alive, killed."""
    left = [
        int(line.split()[0]) for line in pids.read_text().splitlines() if ours(int(line.split()[0]))
    ]
    for pid in left:
        os.kill(pid, 9)
    return left


def test_book_stress_stopped_by_sigterm_stops_its_busy_loops(tmp_path):
    root, _, pids = stress_checkout(tmp_path, 0, wait="exec sleep 30\n")
    environ = {**os.environ, "BOOK_STRESS_LOOPS": "3"}
    proc = subprocess.Popen(
        ["bash", str(root / "book"), "stress", "1"],
        cwd=root,
        env=environ,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while not (pids.exists() and BUSY in pids.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert pids.exists(), "the build never started"
        proc.terminate()  # the launcher execs `book`: this is the command itself
        code = proc.wait(timeout=30)
    finally:
        proc.kill()
        left = kill_left(pids)
    assert code == 130
    assert not left, "busy loops were left running"


def test_book_stress_refuses_a_bad_count(tmp_path):
    root, log, _ = stress_checkout(tmp_path, 0)
    result = run_stress(root, "many")
    assert result.returncode == 2 and "stress takes a number of runs" in result.stderr
    assert not log.exists()
