"""Every process a block started ends with its block, its page or its build.

A worker is made a *child subreaper* (Linux `PR_SET_CHILD_SUBREAPER`) as it starts
(`bookexec._internal.execute.launch`), so a process a snippet detaches (a double fork, a new
session, a daemon) is re-parented to the worker instead of to init, and stays in the worker's tree.
The tree is read from `/proc`: each process's parent is the fourth field of `/proc/<pid>/stat`.

To kill a tree, every process of it is first stopped (SIGSTOP), so none can fork while it is
read, and then killed (SIGKILL). The worker calls `kill_descendants` after each block and before
it leaves; the build calls `kill_tree` on a worker it gives up on (timeout, stop, page end).

This module is imported by the worker, so it uses only `os` and `time`, which every Python has
loaded already: a snippet counting the modules an import adds must not notice it.
"""

from __future__ import annotations

import time

# os's functions as they were when the worker started: a block may replace `os.getpid` or
# `os.kill` with a mock, and a reaper aimed by a mocked pid would kill another process's tree.
from os import P_ALL, WEXITED, WNOHANG, WNOWAIT, getpid, kill, listdir, waitid, waitpid

# Numbers, not `signal.SIGKILL`: importing `signal` here would change what a snippet's imports
# add to `sys.modules`. These are Linux's, the only system with /proc and subreapers.
SIGKILL = 9
SIGSTOP = 19
_ROUNDS = 50  # a fork bomb stopped within this many passes; each pass stops every process seen
_WALL = 0x40000000  # Linux's __WALL: children of every kind, those cloned without SIGCHLD too


def parents() -> dict[int, int]:
    """Every process's parent, read from /proc now (empty where there is no /proc)."""
    found: dict[int, int] = {}
    try:
        names = listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # it ended while we looked
        found[int(name)] = int(fields[1])
    return found


def descendants(pid: int, table: dict[int, int] | None = None) -> list[int]:
    """The processes below pid (children, their children...), sorted."""
    table = parents() if table is None else table
    below: dict[int, list[int]] = {}
    for child, parent in table.items():
        below.setdefault(parent, []).append(child)
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in below.get(todo.pop(), []):
            if child not in found:
                found.append(child)
                todo.append(child)
    return sorted(found)


def _signal(pids: list[int], number: int) -> None:
    for pid in pids:
        try:
            kill(pid, number)
        except OSError:  # gone already, or not ours
            continue


def kill_tree(
    pid: int, include_self: bool = True, spare: frozenset[int] = frozenset()
) -> list[int]:
    """Stop, then kill, pid's whole tree (pid too unless include_self is False) but `spare`;
    the pids killed. A process that forks while this runs is caught: its parent was stopped
    first. A caller inside the tree spares itself: stopped, it would never send the kill."""
    if include_self:
        _signal([pid], SIGSTOP)
    seen: list[int] = []
    for _ in range(_ROUNDS):
        new = [p for p in descendants(pid) if p not in seen and p not in spare]
        if not new:
            break
        _signal(new, SIGSTOP)
        seen += new
    _signal(seen, SIGKILL)
    if include_self:
        _signal([pid], SIGKILL)
    return seen


def marked(name: str, value: str) -> list[int]:
    """The processes whose environment holds name=value: a worker's mark, which everything it
    starts inherits, even a process re-parented out of its tree when the worker died."""
    wanted = f"{name}={value}".encode()
    found = []
    for pid in parents():
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if wanted in environ.read().split(b"\0"):
                    found.append(pid)
        except OSError:
            continue
    return sorted(found)


def reap() -> None:
    """Collect every exited child of this process (a subreaper inherits the orphans)."""
    while True:
        try:
            pid, _ = waitpid(-1, WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def has_children() -> bool:
    """Whether this process has a child, running or ended and not yet collected, of any of
    its threads: one system call, where reading the tree is one file per process of the
    machine. A subreaper with no child has no process below it at all (an orphan of its
    tree comes back to it as its child). True where the system cannot say."""
    try:
        # WNOWAIT: nothing is collected, only asked.
        waitid(P_ALL, 0, WEXITED | WNOHANG | WNOWAIT | _WALL)
    except ChildProcessError:
        return False
    except OSError:
        return True
    return True


def kill_descendants(seconds: float = 1.0) -> None:
    """In the worker: kill every process below it and collect them, within about `seconds`.
    Nothing to do, and no look at the tree, when it has no child (most blocks)."""
    if not has_children():
        return
    me = getpid()
    deadline = time.monotonic() + seconds
    while True:
        killed = kill_tree(me, include_self=False)
        reap()
        if not killed or time.monotonic() > deadline:
            return
        time.sleep(0.005)  # the killed have to die before they can be reaped
