"""A worker dies with the build that started it.

The build holds the write end of a pipe for each worker; the worker holds only the read end, on
a thread that does nothing but read it. Nothing is ever written, so the read returns only when
every write end is closed: the build closed it on purpose, or the build's process is gone
(killed by SIGTERM or SIGKILL, or crashed), since the kernel closes a dead process's files.
Either way the worker kills every process below it (`bookexec.execute.reaper`) and leaves at
once with `os._exit`, even while its main thread is deep in a
snippet or an XLA compile, instead of outliving the build until its page ends.

A pipe, not Linux's parent-death signal (`PR_SET_PDEATHSIG`): that signal fires when the
*thread* that started the child exits, and the build starts workers from pool threads; the pipe
is closed only when the whole process is gone, and works on every POSIX system.
"""

from __future__ import annotations

import os
import threading

from bookexec.execute import reaper

EXIT_CODE = 70  # what a worker whose build is gone exits with


class Lifeline:
    """The build's side: a pipe whose read end is handed to one worker."""

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
        """The worker must go: it sees the end of the pipe and exits."""
        self.handed_over()
        if self._write_fd >= 0:
            os.close(self._write_fd)
            self._write_fd = -1


def watch(fd: int) -> threading.Thread:
    """The worker's side: exit the moment the build's end of the pipe is closed."""

    def wait_for_the_end() -> None:
        try:
            while os.read(fd, 1):
                pass
        except OSError:
            pass
        reaper.kill_descendants()  # what the snippet started goes with the worker
        os._exit(EXIT_CODE)

    thread = threading.Thread(target=wait_for_the_end, name="bookexec-lifeline", daemon=True)
    thread.start()
    return thread
