"""A worker dies with the build that started it, and nothing of the engine runs beside a block.

The build holds the write end of a pipe for each worker. Nothing is ever written, so a read of
the other end returns only when every write end is closed: the build closed it on purpose, or
the build's process is gone (killed by SIGTERM or SIGKILL, or crashed), since the kernel closes
a dead process's files. The read end is held by a *watcher*: a process that the worker
forks out of its own tree as it starts (`bookexec._internal.execute.launch`). When
the pipe ends, the watcher stops and kills the worker and every process below it
(`bookexec._internal.execute.reaper`), even while the worker is deep in a snippet or an XLA compile.

A process, not a thread of the worker (issue 38): a thread ran beside every block, so a block
that forked was warned `This process (pid=...) is multi-threaded` with a new pid each run, a
warning plain `python` never prints. Outside the worker's tree, so that a snippet's `os.wait()`
or the reaper after each block never meets it. Not Linux's parent-death signal
(`PR_SET_PDEATHSIG`): that signal fires when the *thread* that started the child exits, and the
build starts workers from pool threads.
"""

from __future__ import annotations

import os

from bookexec._internal.execute import reaper


class Lifeline:
    """The build's side: a pipe whose read end is handed to one worker's watcher."""

    def __init__(self) -> None:
        # os.pipe makes both ends non-inheritable: no other child of the build holds them, so
        # the write end closes with this build, not with the last of its children.
        self.child_fd, self._write_fd = os.pipe()

    def handed_over(self) -> None:
        """Close the build's copy of the child's end once the worker has started."""
        if self.child_fd >= 0:
            os.close(self.child_fd)
            self.child_fd = -1

    def cut(self) -> None:
        """The worker must go: its watcher sees the end of the pipe and kills it."""
        self.handed_over()
        if self._write_fd >= 0:
            os.close(self._write_fd)
            self._write_fd = -1


def started(pid: int) -> str | None:
    """When pid started (field 22 of /proc/<pid>/stat): a pid reused by a new process differs."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[19].decode()
    except (OSError, IndexError):
        return None


def keep_watch(fd: int) -> None:
    """In the worker, as it starts: fork the watcher of pipe `fd` out of this
    process's tree (a double fork: it is nobody's child here), then close this copy of `fd`."""
    worker = os.getpid()
    born = started(worker)
    middle = os.fork()
    if middle == 0:
        try:
            if os.fork() == 0:
                _watch(fd, worker, born)
        finally:
            os._exit(0)
    os.waitpid(middle, 0)
    os.close(fd)


def _watch(fd: int, worker: int, born: str | None) -> None:
    """The watcher: wait for the end of the pipe, then kill the worker's tree if the worker is
    still the process it watched (the build kills and reaps its worker before it cuts)."""
    try:
        os.setsid()  # Ctrl+C in the build's terminal is not for the watcher
        # The build's connection stays the worker's alone (the log, on 1 and 2, is shared).
        os.closerange(3, fd)
        os.closerange(fd + 1, os.sysconf("SC_OPEN_MAX"))
        while os.read(fd, 1):
            pass
    except OSError:
        pass
    finally:
        if born is not None and started(worker) == born:
            # Sparing itself: a build gone before the double fork's middle exited leaves the
            # watcher in the worker's tree, and a watcher that stopped itself would leave the
            # worker stopped for good (issue 53).
            reaper.kill_tree(worker, spare=frozenset({os.getpid()}))
        os._exit(0)
