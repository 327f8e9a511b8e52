"""Becomes the worker, bounded and watched: its watcher forked off, a memory limit and a
subreaper, then `exec` of the worker.

Run as ``python -m bookexec.execute.launch BYTES LIFELINE-FD -- WORKER-ARGV...``. Both settings
survive `execve`, and this process's imports (`ctypes`, `resource`) do not: the worker a
snippet sees has loaded nothing more than before.

- The memory limit is RLIMIT_DATA: the kernel refuses a private writable mapping past it, so a
  block over it gets a `MemoryError` (or an allocator's error) in its own process instead of
  growing until the machine's OOM killer ends something else. Not RLIMIT_AS: XLA reserves large
  address ranges it never touches, and would fail to start under it.
- The watcher (`bookexec.execute.lifeline`) holds the lifeline's end, so that no thread of the
  engine runs in the worker, and kills the worker's tree when the build is gone.
- The subreaper (`PR_SET_CHILD_SUBREAPER`) keeps every process the snippet detaches in the
  worker's tree, where `bookexec.execute.reaper` finds and kills it.
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys

from bookexec.execute.lifeline import keep_watch

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants; False where the system cannot."""
    try:
        # The interpreter's own symbols include libc's: no library search (which may run
        # `ldconfig`).
        libc = ctypes.CDLL(None, use_errno=True)
        done: int = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # ctypes: an int by default
        return done == 0
    except (OSError, AttributeError):
        return False


def limit_memory(limit: int) -> None:
    """At most `limit` bytes of data (heap and private mappings) for this process and its
    children; 0 leaves the limit as it is."""
    if limit <= 0:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    # The hard limit too, so that the snippet cannot raise its own.
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def main(argv: list[str]) -> None:
    """Fork the watcher, set the limit and the subreaper, then become the command after
    `--`."""
    limit, lifeline, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: python -m bookexec.execute.launch BYTES FD -- COMMAND...")
    keep_watch(int(lifeline))  # before the subreaper: the watcher must not stay in its tree
    limit_memory(int(limit))
    become_subreaper()
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
