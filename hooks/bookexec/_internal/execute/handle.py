"""The worker handle: one child process running `bookexec._internal.execute.worker`, reached over a
private pipe, started bounded, each block sent under its limits, killed with everything it
started.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import resource
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

from bookexec._internal import privacy
from bookexec._internal.discover import hidden
from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute import protocol, reaper
from bookexec._internal.execute.lifeline import Lifeline
from bookexec._internal.execute.limits import (
    KILL_GRACE,
    OUT_OF_MEMORY,
    Limits,
    block_memory,
    block_timeout,
    memory_fix,
    timeout_fix,
)
from bookexec._internal.execute.protocol import BlockResult, Finished
from bookexec._internal.execute.runtime import Runtime

# A TypeVar, not `def f[M]`: the engine runs on Python 3.10 (PEP 695 is 3.12's).
Received = TypeVar("Received")

_STARTUP_TIMEOUT = 120.0
WORKER_MARK = "BOOKEXEC_WORKER"


def lower_priority(pid: int, nice: int) -> None:
    """Give the process `nice` steps less priority than this one (at most the lowest); said in
    the log, not failed, when the system refuses: it then only runs as fast as before."""
    try:
        lowest = min(os.getpriority(os.PRIO_PROCESS, 0) + nice, 19)
        os.setpriority(os.PRIO_PROCESS, pid, lowest)
    except OSError as error:
        logging.getLogger("mkdocs.plugins.bookexec").warning(
            f"bookexec: cannot lower the priority of worker {pid} ({error})"
        )


class Worker:
    """A child Python process running `bookexec._internal.execute.worker`, reached over a private
    pipe."""

    def __init__(
        self,
        root: Path,
        log_dir: str,
        runtime: Runtime,
        fresh: bool = False,
        limits: Limits | None = None,
        python: str = sys.executable,
        memory: int | None = None,
        *,
        env: Mapping[str, str],
        preload: tuple[str, ...] | None = None,
        begin: bool = True,
        nice: int = 0,
    ) -> None:
        """`nice`: how much less of the processor the worker gets than this process when both
        want it (`os.nice`); 0, the same."""
        self.root = root
        self.limits = limits or Limits()
        # The most any block of the page may hold; each block's own limit is set as it starts.
        self.memory = memory or self.limits.memory
        # Every process the worker starts inherits this mark
        # (bookexec._internal.execute.reaper.marked).
        self.mark = f"{os.getpid()}-{id(self)}-{time.monotonic_ns()}"
        parent, child = socket.socketpair()
        self.conn = protocol.Channel(parent.detach())
        self._kill_lock = threading.Lock()
        self.stack_file = os.path.join(log_dir, f"stack-{id(self)}.txt")
        self.log_file = os.path.join(log_dir, f"worker-{id(self)}.log")
        # Issue 18: the worker is killed once this process is gone
        # (bookexec._internal.execute.lifeline).
        self.lifeline = Lifeline()
        with open(self.log_file, "wb") as log:
            self.proc = subprocess.Popen(
                [
                    # The worker bounds itself before anything else: its watcher, memory
                    # limit and subreaper (bookexec._internal.execute.launch).
                    python,
                    "-m",
                    "bookexec._internal.execute.worker",
                    str(self.memory),
                    str(self.lifeline.child_fd),
                    str(child.fileno()),
                ],
                pass_fds=[child.fileno(), self.lifeline.child_fd],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=root,
                env={**env, WORKER_MARK: self.mark},
            )
        child.close()
        if nice:
            lower_priority(self.proc.pid, nice)
        self.lifeline.handed_over()
        if begin:
            self.begin(runtime, fresh, preload)

    def begin(
        self, runtime: Runtime, fresh: bool = False, preload: tuple[str, ...] | None = None
    ) -> None:
        """Send the worker its start message: until then it has only started its interpreter
        (a warm worker, `Executor.warm_up`), and is as fresh as a new one."""
        start = protocol.Start(
            stack_file=self.stack_file,
            # A fresh block sees no imports; None: all the runtime's (a spare, for any page).
            preload=[] if fresh else list(runtime.preload if preload is None else preload),
            probe=runtime.worker_probe(),
            flush=runtime.flush,
            hidden_notes=list(runtime.hidden_notes),
        )
        self._send(start, "starting the worker")

    def ready(self) -> None:
        """Wait until the worker has preloaded; WorkerFailed if it cannot start."""
        self._receive(protocol.Ready, _STARTUP_TIMEOUT, "starting the worker")

    def run(self, block: Block) -> BlockResult:
        """Run one block in this worker's session."""
        timeout = block_timeout(block, self.limits)
        limit = int(block.options.get("limit", self.limits.output))
        self._limit_memory(block_memory(block, self.limits))
        # Numbered as the reader's copy only where hidden lines would move a line.
        numbered = block.numbering != tuple(range(1, len(block.numbering) + 1))
        lines, shown = (list(block.numbering), block.shown) if numbered else (None, None)
        message = protocol.RunBlock(
            *(block.code, block.snippet, limit, lines, shown, block.namespace),
            workdir=block.options.get("workdir", ""),
            width=int(block.options.get("width") or 0),
        )
        self._send(message, "sending a block")
        return self._receive(BlockResult, timeout + KILL_GRACE, "running the block", block=block)

    def _limit_memory(self, size: int) -> None:
        """This block's own limit, under the page's (the worker cannot raise it itself)."""
        limits = (min(size, self.memory), self.memory)
        # Not if it is gone (its failure says so), or on a system without prlimit.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            resource.prlimit(self.proc.pid, resource.RLIMIT_DATA, limits)

    def finish(self) -> Finished:
        """The worker's last word: the backend and devices its runtime's probe saw."""
        self._send(protocol.EndPage(), "closing the worker")
        return self._receive(Finished, 30.0, "closing the worker")

    def _send(self, message: protocol.Message, doing: str) -> None:
        try:
            protocol.send(self.conn, message)
        except (OSError, ValueError):  # another thread's stop() killed it and closed the pipe
            raise WorkerFailed(f"worker was stopped while {doing}") from None

    def _receive(
        self, kind: type[Received], timeout: float, doing: str, block: Block | None = None
    ) -> Received:
        try:
            if self._wait_for_message(timeout):
                message = protocol.receive(self.conn)
                if not isinstance(message, kind):
                    raise protocol.ProtocolError(f"expected {kind.__name__}, got {message!r}")
                return message
        except (EOFError, OSError):
            self.proc.wait(timeout=5)
            self._kill_orphans()
            tail = self._log_tail()
            fix = (
                "; the snippet must not end its own process (os._exit, os.kill, a crash in "
                "native code): raise an exception instead"
                if block is not None
                else ""
            )
            if block is not None and any(sign in tail for sign in OUT_OF_MEMORY):
                fix = f"; it ran out of memory: {memory_fix(block, self.limits)}"
            raise WorkerFailed(
                f"worker died while {doing} (exit code {self.proc.returncode}){fix}" + tail
            ) from None
        if block is not None:
            self._dump_stacks()
        self.kill()
        if block is None:
            raise WorkerFailed(f"timed out after {timeout:g} s while {doing}")
        raise WorkerFailed(
            f"timed out after {timeout - KILL_GRACE:g} s while {doing}{self._stuck_line(block)}; "
            + timeout_fix(self.limits)
        )

    def _wait_for_message(self, timeout: float) -> bool:
        """True once a message waits; EOFError once the worker is gone, even if a process it
        forked still holds its end of the pipe (which would hide the end until that process
        exits); False after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            if _readable(self.conn, min(0.25, max(deadline - time.monotonic(), 0))):
                return True
            if self.proc.poll() is not None:
                if _readable(self.conn, 0):  # its last word, sent before it went
                    return True
                raise EOFError
            if time.monotonic() >= deadline:
                return False

    def _kill_orphans(self) -> None:
        """Kill what a dead worker left behind: re-parented out of its tree, each still
        carries the worker's mark."""
        for _ in range(3):  # a process forking as its parent is killed shows up next round
            found = reaper.marked(WORKER_MARK, self.mark)
            if not found:
                return
            for pid in found:
                reaper.kill_tree(pid)

    def _dump_stacks(self) -> None:
        """Ask the worker for its threads' stacks (`protocol.STACK_SIGNAL`), and wait a little
        for the dump: it says which snippet line was running."""
        with contextlib.suppress(OSError):
            os.kill(self.proc.pid, protocol.STACK_SIGNAL)
            deadline = time.monotonic() + 2.0
            size = -1
            while time.monotonic() < deadline:
                time.sleep(0.05)
                now = os.path.getsize(self.stack_file)
                if now and now == size:  # written, and no longer growing
                    return
                size = now

    def _stuck_line(self, block: Block | None) -> str:
        if block is None or not os.path.exists(self.stack_file):
            return ""
        with open(self.stack_file) as stacks:
            dump = stacks.read()
        # faulthandler prints each thread's frames innermost first, threads apart by headers.
        for thread in re.split(r"\n(?=\S)", dump):
            frames = [ln.strip() for ln in thread.splitlines() if ln.strip().startswith("File ")]
            ours = [ln for ln in frames if ln.startswith(f'File "{block.snippet}", line ')]
            if not ours:
                continue
            line = ours[0].split(", line ")[1].split()[0]
            if line.isdigit():  # as the block ran it: the file's line, where the author edits
                line = str(hidden.file_line(block.code, int(line), block.where))
            inner = f" (inside {frames[0].rsplit(' in ', 1)[-1]})" if frames[0] != ours[0] else ""
            return f"; it was running {block.snippet} line {line}{inner}"
        return ""

    def _log_tail(self) -> str:
        try:
            with open(self.log_file, "rb") as log:
                # Only the end: a snippet may have flooded the real file descriptors.
                log.seek(max(0, os.fstat(log.fileno()).st_size - 2000))
                tail = log.read().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return f"\nworker log:\n{tail}" if tail.strip() else ""

    def alive(self) -> bool:
        """False once the worker died, was killed or timed out: its session is gone."""
        return self.proc.poll() is None and not self.conn.closed

    def kill(self) -> None:
        """End the worker now and close its pipe; safe to call twice, from any thread."""
        # A failing page's stop() and each page's own cleanup may kill a worker at once; two
        # closes of one pipe race on its file descriptor, so only the first one closes.
        with self._kill_lock:
            if self.proc.poll() is None:
                # The whole tree, stopped first: what the snippet started goes with it.
                reaper.kill_tree(self.proc.pid)
                self.proc.wait()
            self._kill_orphans()
            if not self.conn.closed:
                self.conn.close()
            self.lifeline.cut()


def _readable(channel: protocol.Channel, timeout: float) -> bool:
    """Whether a frame, or the end of the pipe, waits on the channel within `timeout` s;
    OSError once the channel is closed (another thread's `kill`)."""
    if channel.closed:
        raise OSError("the worker's channel is closed")
    poller = select.poll()
    poller.register(channel.fileno(), select.POLLIN)
    return bool(poller.poll(timeout * 1000))


class WorkerFailed(Exception):
    """The worker died, timed out, could not start, or was stopped."""


def worker_env(environ: Mapping[str, str], seed: str, config_dir: Path) -> dict[str, str]:
    """A worker's environment: what a snippet may see of the build's (`privacy`), the path to
    this package, the hash seed, and the folder of mkdocs.yml."""
    env = privacy.worker_environment(environ)
    # markdown-exec's plugin sets it for the code it runs (a block opens files relative to
    # it); a book switched to the engine by one line runs the same code.
    env["MKDOCS_CONFIG_DIR"] = str(config_dir)
    # The worker imports bookexec by path whether or not the project is installed.
    package_parent = str(Path(__file__).resolve().parents[3])  # hooks/, above bookexec/
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    env["PYTHONHASHSEED"] = seed
    return env
