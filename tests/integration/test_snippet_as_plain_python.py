"""The engine does not change what a snippet does (issue 38, points 4 and 12).

A block runs in a real worker and the same code under a plain `python`; both must print the
same. A fork used to warn `This process (pid=...) is multi-threaded`, with a new pid each run,
because the worker's own threads (the lifeline, faulthandler's timer) ran beside the block.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_execution import run_page

from bookexec._internal.execute import reaper
from bookexec._internal.execute.runtime import PythonRuntime
from conftest import scaled

pytestmark = pytest.mark.build

FORK = """\
import os

pid = os.fork()
if pid == 0:
    os._exit(7)
_, status = os.waitpid(pid, 0)
print("child exited with", os.waitstatus_to_exitcode(status))
"""

# Every thread of the process, the engine's C threads too (the fork warning counts these).
THREADS = """\
import threading

with open("/proc/self/status") as status:
    print([line.split()[1] for line in status if line.startswith("Threads:")])
print(threading.active_count())
"""


def plain_python(tmp_path: Path, code: str) -> str:
    """What `python snippet.py` prints, both streams in one."""
    snippet = tmp_path / "plain.py"
    snippet.write_text(code)
    done = subprocess.run(
        [sys.executable, str(snippet)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=True,
    )
    return done.stdout


# The worker's own module says `from __future__ import annotations`; a block compiled with the
# worker's flags would keep its annotations as strings, as plain Python 3.13 does not.
ANNOTATIONS = """\
def scale(x: float, by: int = 2) -> float:
    return x * by


print(scale.__annotations__)
"""


HIDDEN_ABOVE = "import sys  # hidden\n" + ANNOTATIONS  # compiled through the shown numbering

# What the worker needed to start and to talk to the build is not loaded for the snippet: its
# pipe (multiprocessing's connection, pickle, socket), its limits (ctypes, resource), the
# launch itself. A block counting what an import adds would count them otherwise.
IMPORTS = """\
import sys

started = ["multiprocessing", "pickle", "socket", "select", "ctypes", "_ctypes", "resource"]
started += ["bookexec._internal.execute.launch", "bookexec._internal.execute.lifeline"]
print([name for name in started if name in sys.modules])
"""


@pytest.mark.parametrize(
    "code",
    [FORK, THREADS, ANNOTATIONS, HIDDEN_ABOVE, IMPORTS],
    ids=["fork", "threads", "annotations", "annotations-hidden-above", "imports"],
)
def test_a_block_prints_what_plain_python_prints_run_after_run(tmp_path, code):
    plain = plain_python(tmp_path, code)
    for _ in range(2):  # the warning named a new pid each run: a golden could never match
        (run,) = run_page(tmp_path, code, runtime=PythonRuntime()).blocks
        assert run.failure is None
        assert run.output == plain
    assert "multi-threaded" not in plain


def test_a_block_that_mocks_getpid_does_not_end_its_worker(tmp_path):
    """The worker told a fork from its parent by `os.getpid()`, which the block replaced: it
    left in silence, as a forked child would."""
    mock = "import os\n\nos.getpid = lambda: 12345\nprint('mocked')\n"
    notes: list = []
    page = run_page(tmp_path, mock, "print('still here')\n", runtime=PythonRuntime(), notes=notes)
    assert [(run.failure, run.output) for run in page.blocks] == [
        (None, "mocked\n"),
        (None, "still here\n"),
    ]
    assert notes == []


def test_a_mocked_getpid_does_not_aim_the_reaper_at_another_process(tmp_path):
    """After each block the worker kills what lies below it, found from its pid: a pid from the
    block's mock would aim it at another process's children."""
    bystander = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys; subprocess.run(['sleep', '60'])"]
    )
    try:
        deadline = time.monotonic() + scaled(10)
        while not reaper.descendants(bystander.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        (child,) = reaper.descendants(bystander.pid)
        mock = f"import os\n\nos.getpid = lambda: {bystander.pid}\n"
        (run,) = run_page(tmp_path, mock, runtime=PythonRuntime()).blocks
        assert run.failure is None
        assert reaper.descendants(bystander.pid) == [child]
    finally:
        reaper.kill_tree(bystander.pid)
        bystander.wait()


def test_a_book_whose_block_forks_builds_green_twice_and_its_golden_is_plain_python_s(
    site, tmp_path
):
    """The whole path, under the book's own runtime (JAX preloaded): the update writes the
    golden, and two checks after it pass."""
    site.page(
        "fork.md", '# Fork\n\n```python exec="on" id="fork"\n--8<-- "snippets/fork/f.py"\n```\n'
    )
    site.snippet("fork/f.py", FORK)
    assert site.build("update").returncode == 0
    golden = site.golden("fork.md", "fork").read_text()
    assert "multi-threaded" not in golden and "pid=" not in golden
    assert golden.endswith(plain_python(tmp_path, FORK))
    for _ in range(2):
        check = site.build("check")
        assert check.returncode == 0, check.output
