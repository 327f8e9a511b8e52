"""Stopping is clean: when the build or the server is killed, its workers leave at once, and
nothing a block started outlives its block, its page or its build.

The MkDocs cases start a real `mkdocs build` or `mkdocs serve` on a page whose block starts
detached processes and sleeps for a minute, kill the MkDocs process while the block runs, and
check that within two seconds no worker of it and none of the block's processes is still alive
(a zombie waiting for its new parent to reap it counts as gone). The others run a page in a real
worker whose block starts the same processes and then ends, times out, or ends its worker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_execution import run_page

from bookexec._internal.execute.runtime import PythonRuntime
from conftest import MKDOCS, REPO, scaled, wait_for

pytestmark = pytest.mark.build

# Starts a process of each kind that escapes a process group or its parent: a new session, a
# double fork (its middle process exits at once, so the last is an orphan), and a forked
# multiprocessing worker; writes their pids to the mark file.
SPAWN = """\
import multiprocessing
import os
import pathlib
import subprocess
import sys
import time

pids = []
session = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                           start_new_session=True)
pids.append(session.pid)
read, write = os.pipe()
if os.fork() == 0:
    if os.fork() == 0:
        os.setsid()
        os.write(write, str(os.getpid()).encode())
        time.sleep(60)
        os._exit(0)
    os._exit(0)
pids.append(int(os.read(read, 32)))
forked = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
forked.start()
pids.append(forked.pid)
pathlib.Path(os.environ["BOOK_SNIPPET_MARK"]).write_text(" ".join(map(str, pids)))
"""
LONG_BLOCK = SPAWN + 'time.sleep(60)\nprint("done")\n'


def children(pid: int) -> list[int]:
    """Processes whose parent is pid and which run the book's worker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"bookexec._internal.execute.worker" in cmdline:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def spawned(mark: Path) -> list[int]:
    """The pids the block wrote to its mark file."""
    return [int(pid) for pid in mark.read_text().split()]


def all_gone(pids: list[int], what: str) -> None:
    """Every pid is gone within two seconds (checked as soon as they are, failed at the bound)."""
    try:
        wait_for(
            lambda: not any(alive(pid) for pid in pids),
            2.0,
            lambda: f"{[p for p in pids if alive(p)]} outlived {what} by 2 s",
            every=0.05,
        )
    finally:
        for pid in pids:  # only what this test's block started, if the check failed
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def to_another_thread(pid: int, sig: int) -> None:
    """Send `sig` to a thread of `pid` other than its main one, as the kernel may deliver a
    signal sent to the process (tgkill(2); x86_64 and aarch64 syscall numbers)."""
    import ctypes
    import platform

    number = {"x86_64": 234, "aarch64": 131}.get(platform.machine())
    if number is None:
        pytest.skip(f"no tgkill number known for {platform.machine()}")
    threads = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid)
    assert threads, "mkdocs runs no thread besides its main one"
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(number, pid, threads[0], sig) == 0, os.strerror(ctypes.get_errno())


@pytest.mark.parametrize(
    ("command", "sig", "target"),
    [
        ("build", signal.SIGTERM, "process"),
        ("build", signal.SIGINT, "process"),
        ("serve", signal.SIGTERM, "process"),
        ("build", signal.SIGKILL, "process"),
        # The kernel may hand a process's signal to any thread that does not block it; once
        # (issue 38, a busy run) it went to one of the engine's, and the main thread, waiting
        # on a page's run, did not see it for the whole block.
        ("build", signal.SIGINT, "thread"),
        ("serve", signal.SIGTERM, "thread"),
    ],
    ids=[
        "build-sigterm",
        "build-sigint",
        "serve-sigterm",
        "build-sigkill",
        "build-sigint-to-a-thread",
        "serve-sigterm-to-a-thread",
    ],
)
def test_no_worker_outlives_a_killed_mkdocs(site, tmp_path, command, sig, target):
    site.page(
        "slow.md", '# Slow\n\n```python exec="on" id="nap"\n--8<-- "snippets/slow/nap.py"\n```\n'
    )
    site.snippet("slow/nap.py", LONG_BLOCK)
    mark = tmp_path / "running"
    argv = [str(MKDOCS), "build", "--strict"] if command == "build" else [str(MKDOCS), "serve"]
    if command == "serve":
        argv += ["--no-livereload", "-a", "127.0.0.1:0"]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "BOOK_SNIPPET_MARK": str(mark)}
    env["PYTHONFAULTHANDLER"] = "1"  # a SIGABRT then writes every thread's stack to the log
    with open(tmp_path / "mkdocs.log", "w") as log:
        proc = subprocess.Popen(argv, cwd=site.root, env=env, stdout=log, stderr=subprocess.STDOUT)
    workers: list[int] = []
    try:

        def started() -> bool:
            assert proc.poll() is None, (tmp_path / "mkdocs.log").read_text()
            return mark.exists()

        wait_for(started, 120, lambda: "the long block never started")
        wait_for(lambda: mark.read_text().strip(), 10, lambda: "the block wrote no pids")
        workers = children(proc.pid)
        assert workers, "no worker process found under mkdocs"
        assert all(alive(pid) for pid in workers)
        started_by_block = spawned(mark)
        assert all(alive(pid) for pid in started_by_block)
        if target == "thread":
            to_another_thread(proc.pid, sig)
        else:
            proc.send_signal(sig)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # where it hangs: every thread's stack, in the log
            proc.send_signal(signal.SIGABRT)
            proc.wait(timeout=30)
            raise AssertionError(
                f"mkdocs {command} did not end within 30 s of {sig.name}; its log:\n"
                + (tmp_path / "mkdocs.log").read_text(errors="replace")[-20000:]
            ) from None
        all_gone(workers + started_by_block, f"mkdocs {command} ({sig.name})")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in workers:  # only the workers this test found, if the check failed
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_nothing_a_block_started_outlives_the_block(tmp_path, monkeypatch):
    """The next block of the page finds every process the first one started gone."""
    mark = tmp_path / "pids"
    check = (
        "import os, pathlib\n"
        f"pids = [int(p) for p in pathlib.Path({str(mark)!r}).read_text().split()]\n"
        "def alive(pid):\n"
        "    try:\n"
        "        return open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[0] != 'Z'\n"
        "    except OSError:\n"
        "        return False\n"
        "print([pid for pid in pids if alive(pid)])\n"
    )
    monkeypatch.setenv("BOOK_SNIPPET_MARK", str(mark))
    first, second = run_page(tmp_path, SPAWN, check, runtime=PythonRuntime()).blocks
    assert first.failure is None and second.failure is None, first.failure or second.failure
    assert second.output == "[]\n"
    all_gone(spawned(mark), "their block")


@pytest.mark.parametrize(
    ("ending", "options"),
    [
        ("time.sleep(60)\n", {"timeout": "10"}),  # time to start them under load
        ("os._exit(3)\n", {}),
        ('raise ValueError("the block failed")\n', {}),
    ],
    ids=["timed-out", "worker-exits", "block-raises"],
)
def test_nothing_a_block_started_outlives_a_block_that_fails(
    tmp_path, monkeypatch, ending, options
):
    mark = tmp_path / "pids"
    monkeypatch.setenv("BOOK_SNIPPET_MARK", str(mark))
    (run,) = run_page(tmp_path, SPAWN + ending, runtime=PythonRuntime(), **options).blocks
    assert run.failure is not None
    all_gone(spawned(mark), f"a block that {ending.strip()}")


def test_a_fork_that_holds_the_pipe_does_not_delay_a_dead_workers_failure(tmp_path):
    """The worker ends itself while a child it forked sleeps holding the worker's end of the
    build's pipe: the failure comes at once, not when the child exits."""
    # The child outlives the bound three times over, however slow the machine.
    held = scaled(30)
    code = (
        f"import os, time\nif os.fork() == 0:\n    time.sleep({held})\n    os._exit(0)\n"
        "os._exit(3)\n"
    )
    started = time.monotonic()
    (run,) = run_page(tmp_path, code, runtime=PythonRuntime()).blocks
    took = time.monotonic() - started
    assert (
        run.failure is not None
        and "worker died while running the block (exit code 3)" in run.failure
    )
    assert took < held / 3, f"the failure came after {took:.0f} s"


# The child waits, so that the parent's result comes first and the child's would answer the
# next block.
FORK_FALLS_THROUGH = """\
import os
import time
import warnings

warnings.simplefilter("ignore", DeprecationWarning)
pid = os.fork()
if pid == 0:
    time.sleep(0.5)
print("parent" if pid else "child")
"""


def test_a_forked_child_that_comes_back_out_of_its_snippet_leaves_quietly(tmp_path):
    """The child must not go on as a second worker (it used to wait on the build's pipe for
    ever, and its result could reach the build)."""
    notes: list = []
    mark = tmp_path / "child"
    check = f"import pathlib\npathlib.Path({str(mark)!r}).write_text(str(pid))\nprint('second')\n"
    page = run_page(tmp_path, FORK_FALLS_THROUGH, check, runtime=PythonRuntime(), notes=notes)
    first, second = page.blocks
    assert notes == []
    assert (first.failure, first.output) == (None, "parent\n")
    assert (second.failure, second.output) == (None, "second\n")
    all_gone(spawned(mark), "the page")


# A worker whose build is gone before its watcher is up: the lifeline's write end is closed
# before `keep_watch` forks the watcher, as when a refused update exits right after it launched
# a warm worker. The watcher must kill the worker's tree and end, never stop itself.
ORPHANED_WORKER = """\
import os, time
from bookexec._internal.execute import lifeline
read, write = os.pipe()
os.close(write)
lifeline.keep_watch(read)
time.sleep(60)
"""


def test_a_watcher_whose_build_is_already_gone_kills_the_worker_and_stops_nothing(tmp_path):
    """Issue 53: an update refused by the update lock left stopped orphans (state T, parent
    1) in 2 of 12 races. The watcher killed the worker's tree while it was still in that tree
    itself (its double fork's middle had not exited), so it stopped itself, and with it the
    worker, before any SIGKILL. Raced here 40 times: no process of any round is left."""
    from bookexec._internal.execute import reaper

    mark = f"BOOK_TEST_ORPHAN_RACE={os.getpid()}-{time.monotonic_ns()}"
    name, value = mark.split("=")
    env = {**os.environ, name: value, "PYTHONPATH": str(REPO / "hooks")}
    left: list[str] = []
    try:
        for _ in range(40):
            worker = subprocess.Popen([sys.executable, "-c", ORPHANED_WORKER], env=env)
            try:
                worker.wait(timeout=30)  # killed by its watcher at once
            except subprocess.TimeoutExpired:
                left.append(f"worker {worker.pid} still alive")
        deadline = time.monotonic() + scaled(10)  # the watchers end once they killed their worker
        while reaper.marked(name, value) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        for pid in reaper.marked(name, value):  # stopped ones too: SIGKILL ends them
            left.append(f"{pid}: {_state(pid)}")
            reaper.kill_tree(pid)
    assert left == [], left


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
