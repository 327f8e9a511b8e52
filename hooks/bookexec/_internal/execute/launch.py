"""How a worker starts, bounded and watched: its watcher forked off, a memory limit and a
subreaper, all set in the worker's own process before its first block.

The worker's main (``python -m bookexec._internal.execute.worker BYTES LIFELINE-FD CHANNEL-FD``)
calls `bound` first. What this module imports (`ctypes`, `resource`) is then taken out of
`sys.modules` again (`forget_imports`): the worker a snippet sees has loaded nothing more than
a plain interpreter that ran the worker's own imports. One interpreter per worker, where a
launcher that `exec`s the worker would start two.

- The memory limit is RLIMIT_DATA: the kernel refuses a private writable mapping past it, so a
  block over it gets a `MemoryError` (or an allocator's error) in its own process instead of
  growing until the machine's OOM killer ends something else. Not RLIMIT_AS: XLA reserves large
  address ranges it never touches, and would fail to start under it.
- The watcher (`bookexec._internal.execute.lifeline`) holds the lifeline's end, so that no thread of
  the engine runs in the worker, and kills the worker's tree when the build is gone.
- The subreaper (`PR_SET_CHILD_SUBREAPER`) keeps every process the snippet detaches in the
  worker's tree, where `bookexec._internal.execute.reaper` finds and kills it.
"""

from __future__ import annotations

import sys

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants; False where the system cannot."""
    import ctypes

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
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    # The hard limit too, so that the snippet cannot raise its own.
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def bound(limit: int, lifeline: int) -> None:
    """Fork the watcher of pipe `lifeline`, set the memory limit and the subreaper; then
    forget every module this needed."""
    loaded = set(sys.modules)
    from bookexec._internal.execute.lifeline import keep_watch

    keep_watch(lifeline)  # before the subreaper: the watcher must not stay in its tree
    limit_memory(limit)
    become_subreaper()
    forget_imports(loaded)


def forget_imports(loaded: set[str]) -> None:
    """Take every module imported since `loaded` out of `sys.modules`: a snippet that
    imports one gets it afresh, and one that counts modules counts only its own."""
    for name in set(sys.modules) - loaded:
        del sys.modules[name]
