"""The reaper's quick look: a worker with no child skips reading the machine's process table."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.engine

# Run in a fresh interpreter: the test process may hold children of other tests.
PROBE = """
import os, subprocess, threading, time
from bookexec._internal.execute import reaper

said = [reaper.has_children()]
child = subprocess.Popen(["sleep", "30"])
said.append(reaper.has_children())
child.kill()
time.sleep(0.2)
said.append(reaper.has_children())  # ended, not collected: still a child
child.wait()
said.append(reaper.has_children())
started = []
thread = threading.Thread(target=lambda: started.append(subprocess.Popen(["sleep", "30"])))
thread.start()
thread.join()
said.append(reaper.has_children())  # another thread's child
started[0].kill()
started[0].wait()
reaper.kill_descendants()  # nothing below: returns at once
said.append(reaper.has_children())
print(said)
"""


def test_has_children_sees_every_child_until_it_is_collected():
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO / "hooks",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "[False, True, True, False, True, False]"
