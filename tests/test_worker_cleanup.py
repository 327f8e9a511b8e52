"""Stopping is clean: when the build or the server is killed, its workers leave at once.

Each case starts a real `mkdocs build` or `mkdocs serve` on a page whose block sleeps for a
minute, kills the MkDocs process while the block runs, and checks that within two seconds no
worker of it is still alive (a zombie waiting for its new parent to reap it counts as gone).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import MKDOCS

pytestmark = pytest.mark.build

LONG_BLOCK = """\
import os
import pathlib
import time

pathlib.Path(os.environ["BOOK_SNIPPET_MARK"]).write_text("running")
time.sleep(60)
print("done")
"""


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
        if ppid == pid and b"bookexec.execute.worker" in cmdline:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize(
    ("command", "sig"),
    [("build", signal.SIGTERM), ("serve", signal.SIGTERM), ("build", signal.SIGKILL)],
    ids=["build-sigterm", "serve-sigterm", "build-sigkill"],
)
def test_no_worker_outlives_a_killed_mkdocs(site, tmp_path, command, sig):
    site.page(
        "slow.md", '# Slow\n\n```python exec="on" id="nap"\n--8<-- "snippets/slow/nap.py"\n```\n'
    )
    site.snippet("slow/nap.py", LONG_BLOCK)
    mark = tmp_path / "running"
    argv = [str(MKDOCS), "build", "--strict"] if command == "build" else [str(MKDOCS), "serve"]
    if command == "serve":
        argv += ["--no-livereload", "-a", "127.0.0.1:0"]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "BOOK_SNIPPET_MARK": str(mark)}
    with open(tmp_path / "mkdocs.log", "w") as log:
        proc = subprocess.Popen(argv, cwd=site.root, env=env, stdout=log, stderr=subprocess.STDOUT)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while not mark.exists():
            assert proc.poll() is None, (tmp_path / "mkdocs.log").read_text()
            assert time.monotonic() < deadline, "the long block never started"
            time.sleep(0.1)
        workers = children(proc.pid)
        assert workers, "no worker process found under mkdocs"
        assert all(alive(pid) for pid in workers)
        proc.send_signal(sig)
        proc.wait(timeout=30)
        # The bound is what this test measures; it ends as soon as the workers are gone.
        gone_by = time.monotonic() + 2.0
        while any(alive(pid) for pid in workers) and time.monotonic() < gone_by:
            time.sleep(0.05)
        survivors = [pid for pid in workers if alive(pid)]
        assert not survivors, f"workers {survivors} outlived mkdocs {command} by 2 s"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in workers:  # only the workers this test found, if the check failed
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
