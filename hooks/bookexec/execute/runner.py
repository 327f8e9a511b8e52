"""The parent side of execution: one fresh worker per page, pages in parallel, hard time limits.

A page's blocks share one session (one `__main__`), and nothing else: every page starts in a
new process, so its outputs never depend on which pages ran before it. A block that runs past
its time limit is killed from outside, which works even inside a long XLA compile.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing import Pipe
from pathlib import Path
from typing import Any

from bookexec import privacy
from bookexec.discover import hidden
from bookexec.discover.blocks import Block
from bookexec.discover.options import (
    MAX_LIMIT,
    MAX_MEMORY,
    MAX_TIMEOUT,
    memory_words,
    parse_bool,
    parse_memory,
    parse_number,
)
from bookexec.errors import BookError
from bookexec.execute import protocol, reaper
from bookexec.execute.cache import BlockCache, block_keys, environment_key
from bookexec.execute.journal import Journal, killed_builds
from bookexec.execute.lifeline import Lifeline
from bookexec.execute.progress import Progress
from bookexec.execute.protocol import BlockResult, BlockStatus, Finished
from bookexec.execute.runtime import PythonRuntime, Runtime
from bookexec.execute.watch import CheckoutWatch, Run
from bookexec.files import CachePaths
from bookexec.goldens import measured
from bookexec.goldens.measured import Claim, Fact

_STARTUP_TIMEOUT = 120.0
WORKER_MARK = "BOOKEXEC_WORKER"
_STARTING = object()  # a spare worker being started (`Executor.keep_spare`)


def default_memory() -> int:
    """A worker's memory limit unless told otherwise: the machine's memory shared by one worker
    per core and one share more for everything else (7.75 GiB on 2 cores and 24 GiB), so the
    workers together can never make the machine unusable."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 8 * 2**30
    share = total // ((os.cpu_count() or 1) + 1)
    return max(2**30, share - share % 2**28)  # a round size: in quarters of a GiB


@dataclass(frozen=True)
class Limits:
    """The defaults of the `timeout`, `limit` and `memory` fence options, read when a build
    starts."""

    timeout: float = 120.0  # seconds before a block is killed
    output: int = 200000  # characters a block may print
    memory: int = field(default_factory=default_memory)  # bytes of data a worker may hold

    @classmethod
    def from_env(cls, environ: Mapping[str, str], base: Limits | None = None) -> Limits:
        """`base` (the defaults unless given) with BOOK_BLOCK_TIMEOUT, BOOK_OUTPUT_LIMIT and
        BOOK_MEMORY_LIMIT over it; a BookError naming a bad value."""
        base = base or cls()
        return cls(
            timeout=_number(
                environ, "BOOK_BLOCK_TIMEOUT", float, base.timeout, "seconds", MAX_TIMEOUT
            ),
            output=_number(environ, "BOOK_OUTPUT_LIMIT", int, base.output, "characters", MAX_LIMIT),
            memory=_memory_from_env(environ, base.memory),
        )


def _memory_from_env(environ: Mapping[str, str], default: int) -> int:
    text = environ.get("BOOK_MEMORY_LIMIT", "").strip()
    if not text:
        return default
    size = parse_memory(text)
    if size is None or size > MAX_MEMORY:
        raise BookError(
            f"BOOK_MEMORY_LIMIT={text!r} is not a size; set it to e.g. 8G or 512M (at most "
            f"{memory_words(MAX_MEMORY)}), "
            f"or unset it (default {memory_words(default)})"
        )
    return size


def block_memory(block: Block, limits: Limits) -> int:
    """The bytes this block's worker may hold: its fence's `memory`, or the build's default."""
    text = block.options.get("memory")
    size = parse_memory(text) if text else None
    return size or limits.memory


def _memory_fix(block: Block, limits: Limits) -> str:
    return (
        f"its memory limit is {memory_words(block_memory(block, limits))}: use less, or raise "
        f'memory="..." on the fence (default {memory_words(limits.memory)}: the plugin\'s '
        "limits: memory, or BOOK_MEMORY_LIMIT)"
    )


# What running out of memory looks like from Python, numpy and XLA.
_OUT_OF_MEMORY = ("RESOURCE_EXHAUSTED", "Out of memory", "std::bad_alloc", "Cannot allocate memory")


def _out_of_memory(error: protocol.BlockError) -> bool:
    return (
        error.memory
        or error.type in ("MemoryError", "_ArrayMemoryError")
        or any(sign in error.shown for sign in _OUT_OF_MEMORY)
    )


def _number[N: float](
    environ: Mapping[str, str],
    name: str,
    kind: Callable[[str], N],
    default: N,
    unit: str,
    most: int,
) -> N:
    return parse_number(
        environ,
        name,
        kind,
        lambda value: 0 < value <= most,  # the fence options' range (discover.options)
        default,
        f"a positive number of {unit}, at most {most}",
    )


@dataclass
class BlockRun:
    """What one block did, judged against what its fence declared."""

    block: Block
    output: str = ""  # raw text the reader would have seen, before normalisation
    failure: str | None = None  # why the block failed, naming page, block, snippet and line
    seconds: float = 0.0
    facts: list[Fact] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    cached: bool = False  # this output came from the author's cache, not from running
    after: str | None = None  # an earlier block of the page that failed first
    # The worker's own result (masked too), for a caller that records an error as it was
    # raised (`jaxbook.jax_changes`); None when cached or when the worker failed.
    raw: BlockResult | None = field(default=None, compare=False, repr=False)


@dataclass
class PageRun:
    """What one page's blocks did, and the backend and devices they ran on."""

    page: str
    blocks: list[BlockRun] = field(default_factory=list)
    backend: str = "none"
    devices: int = 0  # how many devices the backend had; reported after the last block

    @property
    def failure(self) -> str | None:
        """The page's first failure, or None."""
        return next((run.failure for run in self.blocks if run.failure), None)


def cache_entry(run: BlockRun, backend: str, devices: int) -> dict[str, Any]:
    """A block's run as the block cache stores it."""
    return {
        "output": run.output,
        "seconds": run.seconds,
        "backend": backend,
        "devices": devices,
        "facts": [vars(fact) for fact in run.facts],
        "claims": [vars(claim) for claim in run.claims],
    }


def from_cache_entry(block: Block, entry: dict[str, Any]) -> BlockRun:
    """A block's run from its cache entry."""
    return BlockRun(
        block=block,
        output=entry["output"],
        seconds=float(entry["seconds"]),
        facts=[Fact(**fact) for fact in entry["facts"]],
        claims=[Claim(**claim) for claim in entry["claims"]],
        cached=True,
    )


NO_BACKEND = ("none", 0)  # (backend, devices) of a page with no run to say otherwise


def is_fresh(block: Block) -> bool:
    """The block runs alone in a new interpreter (`fresh` on its fence)."""
    return parse_bool(block.options.get("fresh", "false"), block.where)


def block_timeout(block: Block, limits: Limits) -> float:
    """The seconds this block may run: its fence's `timeout`, or the build's default."""
    return float(block.options.get("timeout", limits.timeout))


def judge(block: Block, raw: BlockResult, limits: Limits | None = None) -> BlockRun:
    """Turn a worker's raw result into what the page shows, or a failure that stops the build."""
    limits = limits or Limits()
    run = BlockRun(block=block, output=raw.output, seconds=raw.seconds, raw=raw)
    band = float(block.options.get("band", measured.DEFAULT_BAND))
    run.facts, run.claims = measured.from_worker(raw.facts, raw.claims, band)
    declared = block.options.get("raises")
    error = raw.error
    if raw.status is BlockStatus.FLOODED:
        limit = block.options.get("limit", limits.output)
        at = f", line {raw.flood_line}" if raw.flood_line else ""
        run.failure = (
            f"{block.where}{at}: output flooded past {limit} characters; stopped. "
            f'Print less, or raise limit="..." on the fence if the page should show it all'
        )
        return run
    if error is None:
        if declared:
            run.failure = (
                f'{block.where}: declared raises="{declared}" but nothing was raised; '
                "make the snippet raise it, or remove raises= from the fence"
            )
        return run
    at = f", line {error.line}" if error.line else ""
    if declared and declared in (error.type, error.qualified):
        run.output = run.output + error.shown
        return run
    expected = f' (declared raises="{declared}")' if declared else ""
    fix = (
        f'fix the snippet, or declare raises="{error.type}" on the fence '
        "if the page means to show this error"
    )
    if _out_of_memory(error):
        fix = f"it ran out of memory: {_memory_fix(block, limits)}"
    run.failure = (
        f"{block.where}{at}: raised {error.qualified}{expected}; {fix}\n{error.traceback}".rstrip()
    )
    return run


def masked(run: BlockRun, masker: privacy.Masker) -> BlockRun:
    """The run with every secret of the build replaced by `***` (`privacy.Masker`): its output,
    its failure (error text, traceback, worker log tail) and what it recorded. Done where a
    run is made, before anything compares, caches, stores or shows it."""
    if not masker.secrets:
        return run

    def name(text: str) -> str:
        return masker.mask(text).replace(privacy.MASK, "masked")

    run.output = masker.mask(run.output)
    run.failure = masker.mask(run.failure) if run.failure else run.failure
    run.facts = [replace(f, name=name(f.name), value=masker.value(f.value)) for f in run.facts]
    run.claims = [
        replace(c, left=name(c.left), right=masker.value(c.right), says=masker.mask(c.says))
        for c in run.claims
    ]
    if run.raw is not None:
        run.raw.output = masker.mask(run.raw.output)
        if run.raw.error is not None:
            run.raw.error.shown = masker.mask(run.raw.error.shown)
            run.raw.error.traceback = masker.mask(run.raw.error.traceback)
    return run


class Worker:
    """A child Python process running `bookexec.execute.worker`, reached over a private pipe."""

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
    ) -> None:
        self.root = root
        self.limits = limits or Limits()
        # The most any block of the page may hold; each block's own limit is set as it starts.
        self.memory = memory or self.limits.memory
        # Every process the worker starts inherits this mark (bookexec.execute.reaper.marked).
        self.mark = f"{os.getpid()}-{id(self)}-{time.monotonic_ns()}"
        parent, child = Pipe()
        self.conn = parent
        self._kill_lock = threading.Lock()
        self.stack_file = os.path.join(log_dir, f"stack-{id(self)}.txt")
        self.log_file = os.path.join(log_dir, f"worker-{id(self)}.log")
        # Issue 18: the worker is killed once this process is gone (bookexec.execute.lifeline).
        self.lifeline = Lifeline()
        with open(self.log_file, "wb") as log:
            self.proc = subprocess.Popen(
                [
                    # The launcher sets the memory limit and the subreaper, then execs the
                    # worker (bookexec.execute.launch).
                    python,
                    "-m",
                    "bookexec.execute.launch",
                    str(self.memory),
                    str(self.lifeline.child_fd),
                    "--",
                    python,
                    "-m",
                    "bookexec.execute.worker",
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
        message = protocol.RunBlock(block.code, block.snippet, timeout, limit, lines, shown)
        self._send(message, "sending a block")
        return self._receive(BlockResult, timeout + 5.0, "running the block", block=block)

    def _limit_memory(self, size: int) -> None:
        """This block's own limit, under the page's (the worker cannot raise it itself)."""
        limits = (min(size, self.memory), self.memory)
        # Not if it is gone (its failure says so), or on a system without prlimit.
        with contextlib.suppress(OSError, ValueError, AttributeError):
            resource.prlimit(self.proc.pid, resource.RLIMIT_DATA, limits)

    def finish(self) -> Finished:
        """The worker's last word: the backend and devices its runtime's probe saw."""
        self._send(protocol.Finish(), "closing the worker")
        return self._receive(Finished, 30.0, "closing the worker")

    def _send(self, message: protocol.Message, doing: str) -> None:
        try:
            protocol.send(self.conn, message)
        except (OSError, ValueError):  # another thread's stop() killed it and closed the pipe
            raise WorkerFailed(f"worker was stopped while {doing}") from None

    def _receive[M](
        self, kind: type[M], timeout: float, doing: str, block: Block | None = None
    ) -> M:
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
            if block is not None and any(sign in tail for sign in _OUT_OF_MEMORY):
                fix = f"; it ran out of memory: {_memory_fix(block, self.limits)}"
            raise WorkerFailed(
                f"worker died while {doing} (exit code {self.proc.returncode}){fix}" + tail
            ) from None
        if block is not None:
            self._dump_stacks()
        self.kill()
        if block is None:
            raise WorkerFailed(f"timed out after {timeout:g} s while {doing}")
        raise WorkerFailed(
            f"timed out after {timeout - 5.0:g} s while {doing}{self._stuck_line(block)}; "
            f'make it faster, or raise timeout="..." on the fence '
            f"(default {self.limits.timeout:g} s: the plugin's limits: timeout, or "
            "BOOK_BLOCK_TIMEOUT)"
        )

    def _wait_for_message(self, timeout: float) -> bool:
        """True once a message waits; EOFError once the worker is gone, even if a process it
        forked still holds its end of the pipe (which would hide the end until that process
        exits); False after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            if self.conn.poll(min(0.25, max(deadline - time.monotonic(), 0))):
                return True
            if self.proc.poll() is not None:
                if self.conn.poll(0):  # its last word, sent before it went
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


class WorkerFailed(Exception):
    """The worker died, timed out, could not start, or was stopped."""


def worker_env(environ: Mapping[str, str], seed: str) -> dict[str, str]:
    """A worker's environment: what a snippet may see of the build's (`privacy`), the path to
    this package, and the hash seed."""
    env = privacy.worker_environment(environ)
    # The worker imports bookexec by path whether or not the project is installed.
    package_parent = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    env["PYTHONHASHSEED"] = seed
    return env


def hash_seed(environ: Mapping[str, str]) -> str:
    """The workers' PYTHONHASHSEED: BOOK_HASH_SEED, else the build's PYTHONHASHSEED, else 0.

    Outputs must not depend on it; the determinism test runs the book under two seeds (with
    BOOK_HASH_SEED) to prove it. A BookError names a value Python would refuse."""
    for name in ("BOOK_HASH_SEED", "PYTHONHASHSEED"):
        text = environ.get(name, "").strip()
        if not text:
            continue
        if text != "random" and not (text.isdigit() and int(text) <= 4294967295):
            raise BookError(
                f"{name}={text!r} is not a hash seed; set it to an integer from 0 to "
                "4294967295, or to random, or unset it (default 0)"
            )
        return text
    return "0"


def waited(run: Future[PageRun]) -> PageRun:
    """A page's run, waited for in short slices. The kernel may hand a signal sent to the
    process (Ctrl+C, SIGTERM) to any of its threads; Python then only notes it, and a main
    thread blocked in one long wait would not raise it until the page ended."""
    while True:
        try:
            return run.result(timeout=0.25)
        except TimeoutError:
            if run.done():  # the run itself raised it
                raise


class Executor:
    """Runs pages in parallel, each in its own fresh worker; a failure never stops the others.

    With a cache, a page's blocks whose keys are cached are not run. If a later block of the
    same session must run, the cached blocks before it are replayed first (their output
    discarded), because the session state they leave behind is not something one can store.
    """

    def __init__(
        self,
        root: Path,
        jobs: int | None = None,
        cache: BlockCache | None = None,
        progress: Progress | None = None,
        runtime: Runtime | None = None,
        watch: bool = True,
        *,
        environ: Mapping[str, str],
        limits: Limits | None = None,
        seed: str = "0",
        settings_key: str = "",
        python: str = sys.executable,
        cache_reads: bool = True,
    ) -> None:
        """`environ` is the build's environment (`bookexec.settings`), `seed` the workers'
        hash seed, `settings_key` the settings that can change an output (the cache key's),
        `python` the workers' interpreter (another JAX's, for `./book jax-changes`), and
        `cache_reads` False when `cache` only stores (the update mode)."""
        self.cache_reads = cache_reads
        self.root = root
        self.python = python
        self.runtime = runtime or PythonRuntime()
        self.limits = limits or Limits()
        self.env = worker_env(environ, seed)
        self.masker = privacy.Masker.from_environ(environ)  # masked in every run
        # Issue 25: the book is read-only to its blocks (off under serve, where the author
        # edits the book while it runs).
        self.watch = CheckoutWatch(root) if watch else None
        # A build killed by a block is named by the next one (bookexec.execute.journal).
        journals = CachePaths(root).base
        self.killed = killed_builds(journals)  # said by the engine, at the start of the build
        self.journal = Journal(journals)
        self.cache = cache
        self.progress = progress or Progress(lambda message: None)
        # An output is reused only under the runtime that made it.
        runtime_part = f"{self.runtime.name}:{self.runtime.preload}"
        key = environment_key(root, environ, settings_key) if cache else ""
        self.env_key = key + runtime_part if cache else ""
        self.jobs = jobs or os.cpu_count() or 1
        self._pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="book-page")
        # Kills the workers pages are done with (`_retire`), behind the pages.
        self._retiring = ThreadPoolExecutor(max_workers=1, thread_name_prefix="book-retire")
        self._runs: dict[str, Future[PageRun]] = {}
        self._workers: set[Worker] = set()
        self._lock = threading.Lock()
        self._log_dir = tempfile.mkdtemp(prefix="executed-book-")
        self.stopped = threading.Event()
        self.notes: list[str] = []  # trouble outside any block, e.g. a worker's last word
        # The backend and devices a cache entry names, by page.
        self._backends: dict[str, tuple[str, int]] = {}
        # Under serve (`keep_spare`): one worker started and preloaded ahead, so that the run
        # an edit asks for does not wait for a process to start and import its runtime. It is
        # as fresh as any: it has run nothing.
        self._keeps_spare = False
        self._spare: Worker | object | None = None
        # A build's warm workers (`warm_up`): launched ahead, their start message not yet sent,
        # so that a page takes one whose interpreter has started while the page waited.
        self._warm: list[Worker] = []
        self._warms = False
        self._waiting = 0  # pages submitted to the pool that have not started yet
        self._launching = 0  # warm workers being launched
        self._launched = threading.Condition(self._lock)

    def submit(self, page: str, blocks: list[Block]) -> Future[PageRun] | None:
        """Start a page's blocks (or take them from the cache); `page` waits for them. The
        page's run, to wait for or watch (None: the page has no blocks)."""
        if not blocks:
            return None
        keys = block_keys(blocks, self.env_key, is_fresh) if self.cache else [""] * len(blocks)
        hits = [self.cached(block, key) for block, key in zip(blocks, keys, strict=True)]
        if all(hits):
            done: Future[PageRun] = Future()
            runs = [hit for hit in hits if hit]
            done.set_result(self._page_from_cache(page, runs))
            for run in runs:
                self.progress.block_done(run.block.where, run.seconds, cached=True, block=run.block)
            self.progress.page_done(page, 0, len(runs), 0.0)
            self._runs[page] = done
            return done
        with self._lock:
            self._waiting += 1
        self._runs[page] = self._pool.submit(self._run_page, page, blocks, keys, hits)
        self._top_up()
        return self._runs[page]

    def cached(self, block: Block, key: str) -> BlockRun | None:
        """The block's run from the cache under `key`, or None: not cached, or unreadable."""
        entry = self.cache.load(block, key) if self.cache and self.cache_reads else None
        if self.cache is None or entry is None:
            return None
        try:
            run = from_cache_entry(block, entry)
        except (TypeError, ValueError, KeyError) as error:
            self.cache._warn(f"the entry of {block.where} is unreadable ({error}); running again")
            return None
        self._backends[block.page] = (entry["backend"], entry["devices"])  # checked on load
        return run

    def _page_from_cache(self, page: str, runs: list[BlockRun]) -> PageRun:
        backend, devices = self._backends.get(page, NO_BACKEND)
        return PageRun(page=page, blocks=runs, backend=backend, devices=devices)

    def ready(self, page: str) -> bool:
        """Always: a build's own runs are waited for (only the serve background's are not)."""
        return True

    def pending(self) -> list[str]:
        """None: no page shows its goldens while it runs."""
        return []

    def page(self, page: str) -> PageRun:
        """The page's run, waited for."""
        return waited(self._runs[page])

    def _run_page(
        self, page: str, blocks: list[Block], keys: list[str], hits: list[BlockRun | None]
    ) -> PageRun:
        """Run a page to its end. A failing block is recorded and the next ones still run, in
        the same session; if the failure took the worker with it, in a new one."""
        started = time.perf_counter()
        result = PageRun(page=page)
        with self._lock:
            self._waiting -= 1
        if self.stopped.is_set():
            return result
        session_misses = [
            i
            for i, (b, hit) in enumerate(zip(blocks, hits, strict=True))
            if not (hit or is_fresh(b))
        ]
        last_session_miss = session_misses[-1] if session_misses else -1
        worker: Worker | None = None
        lasts: list[protocol.Finished] = []
        first_failed: str | None = None
        no_start = ""  # a worker that cannot start is not tried again for every block
        not_run = "not run: the page's worker could not start (its failure says why)"
        try:
            for i, block in enumerate(blocks):
                if self.stopped.is_set():
                    break
                hit = hits[i]
                needs_session = not is_fresh(block) and (not hit or i < last_session_miss)
                runs = needs_session or not hit
                watched = self.watch.started(block.where) if self.watch and runs else None
                entry = self.journal.started(block.where) if runs else None
                try:
                    if needs_session and no_start:
                        raise WorkerFailed(not_run)
                    if needs_session and (worker is None or not worker.alive()):
                        if worker is not None:
                            self._forget(worker)
                        worker = None
                        try:
                            worker = self._start_worker(blocks)
                        except WorkerFailed as failure:
                            # The page's failure, not this block's: each block it kept
                            # from running says so, and the cause is said once.
                            no_start = f"the page's worker could not start: {failure}"
                            self._note(f"docs/{page}: {no_start}")
                            raise WorkerFailed(not_run) from None
                    if hit and needs_session:
                        assert worker is not None  # started just above, or raised
                        replay = judge(block, worker.run(block), self.limits)
                        run = replay if replay.failure else hit
                        self.progress.replayed()
                    elif hit:
                        run = hit
                    elif is_fresh(block):
                        raw, last = self._run_fresh(block)
                        lasts.append(last)
                        run = judge(block, raw, self.limits)
                    else:
                        assert worker is not None  # a block run in the session needs_session
                        run = judge(block, worker.run(block), self.limits)
                except WorkerFailed as failure:
                    run = BlockRun(block=block, failure=f"{block.where}: {failure}")
                if entry is not None:
                    self.journal.ended(entry)
                if watched is not None:
                    self._judge_changes(run, watched)
                run = masked(run, self.masker)
                if run.failure and not no_start:
                    run.after = first_failed
                if run.failure:
                    first_failed = first_failed or block.id
                result.blocks.append(run)
                self.progress.block_done(block.where, run.seconds, cached=run.cached, block=block)
            if worker is not None and worker.alive():
                lasts.append(worker.finish())
            if lasts:
                result.backend, result.devices = lasts[-1].backend, lasts[-1].devices
            else:
                result.backend, result.devices = self._backends.get(page, NO_BACKEND)
            if first_failed is None:
                self._save(result, keys)
        except WorkerFailed as failure:  # the worker's last word, after every block ran
            self._note(f"docs/{page}: {failure}")
        finally:
            if worker:
                self._retire(worker)
        ran = sum(1 for run in result.blocks if not run.cached)
        cached = len(result.blocks) - ran
        self.progress.page_done(page, ran, cached, time.perf_counter() - started)
        return result

    def _judge_changes(self, run: BlockRun, watched: Run) -> None:
        """A block that changed the checkout fails; a change it cannot have made is the
        build's failure, named with the blocks that may have made it."""
        assert self.watch is not None
        for change in self.watch.ended(watched):
            if run.block.where in change.blocks:
                run.failure = "\n".join(filter(None, [run.failure, change.message()]))
            else:
                self._note(change.message())

    def keep_spare(self) -> None:
        """From now on keep one worker started ahead (the serve process's executor)."""
        self._keeps_spare = True
        self._refill()

    def spare_pid(self) -> int | None:
        """The process id of the spare worker, once it is ready; None before."""
        with self._lock:
            spare = self._spare
        return spare.proc.pid if isinstance(spare, Worker) else None

    def _refill(self) -> None:
        """Start the next spare worker, in the background, unless one is there or starting."""
        with self._lock:
            if not self._keeps_spare or self._spare is not None or self.stopped.is_set():
                return
            self._spare = _STARTING

        def start() -> None:
            try:
                worker = self._spawn(self.limits.memory)
            except WorkerFailed:  # a page that needs one says why when it starts its own
                with self._lock:
                    self._spare = None
                return
            with self._lock:
                kept = not self.stopped.is_set()
                self._spare = worker if kept else None
            if not kept:
                self._forget(worker)

        threading.Thread(target=start, name="book-spare-worker", daemon=True).start()

    def _take_spare(self, memory: int) -> Worker | None:
        """The spare worker, if one is ready with this memory limit and still alive."""
        with self._lock:
            spare = self._spare
            if not isinstance(spare, Worker):
                return None
            self._spare = None
        if spare.memory == memory and spare.alive():
            return spare
        self._forget(spare)
        return None

    def warm_up(self, count: int) -> None:
        """From now on keep a worker launched ahead for each page waiting to start (at most
        one a job), and launch `count` now (a build whose pages all run: their interpreters
        start while MkDocs reads the book). A warm worker is as fresh as any: it has not even
        been told its page."""
        with self._lock:
            self._warms = True
        self._top_up(count)

    def _top_up(self, count: int = 0) -> None:
        """Launch, in the background, the warm workers the waiting pages lack (or `count`)."""
        with self._lock:
            if not self._warms or self.stopped.is_set():
                return
            ahead = max(count, min(self._waiting, self.jobs))
            wanted = ahead - len(self._warm) - self._launching
            if wanted <= 0:
                return
            self._launching += wanted
        threading.Thread(
            target=self._launch_warm, args=(wanted,), name="book-warm-workers", daemon=True
        ).start()

    def _launch_warm(self, count: int) -> None:
        for _ in range(count):
            worker, kept = None, False
            try:
                if not self.stopped.is_set():
                    worker = Worker(
                        self.root,
                        self._log_dir,
                        self.runtime,
                        limits=self.limits,
                        python=self.python,
                        memory=self.limits.memory,
                        env=self.env,
                        begin=False,
                    )
            except OSError:  # the page that needs it starts its own, and says why it cannot
                pass
            finally:
                with self._lock:
                    kept = self._warms and not self.stopped.is_set()
                    if worker is not None and kept:
                        self._workers.add(worker)
                        self._warm.append(worker)
                if worker is not None and not kept:  # the build closed or stopped meanwhile
                    self._forget(worker)
                with self._lock:  # only now: `_forget_warm` waits for every launch to end
                    self._launching -= 1
                    self._launched.notify_all()

    def _take_warm(self, memory: int) -> Worker | None:
        """A warm worker with this memory limit, still alive (one being launched is waited
        for); then the next ones are launched."""
        with self._lock:
            while True:
                found = next((w for w in self._warm if w.memory == memory), None)
                if found is not None or not self._launching or memory != self.limits.memory:
                    break
                self._launched.wait(timeout=5.0)
            if found is not None:
                self._warm.remove(found)
        if found is not None and not found.alive():
            self._forget(found)
            found = None
        self._top_up()
        return found

    def _start_worker(self, blocks: list[Block], fresh: bool = False) -> Worker:
        memory = max(block_memory(block, self.limits) for block in blocks)
        worker = None if fresh else self._take_spare(memory)
        if not fresh:
            self._refill()  # for the next run
        if worker:
            return worker
        preload = self.runtime.preload_for(b.code for b in blocks)
        warm = self._take_warm(memory)
        if warm is None:
            return self._spawn(memory, fresh, preload)
        try:
            warm.begin(self.runtime, fresh, preload)
            warm.ready()
        except WorkerFailed:
            self._forget(warm)
            raise
        return warm

    def _spawn(
        self, memory: int, fresh: bool = False, preload: tuple[str, ...] | None = None
    ) -> Worker:
        worker = Worker(
            self.root,
            self._log_dir,
            self.runtime,
            fresh=fresh,
            limits=self.limits,
            python=self.python,
            memory=memory,
            env=self.env,
            preload=preload,
        )
        with self._lock:
            self._workers.add(worker)
        try:
            worker.ready()
        except WorkerFailed:
            self._forget(worker)
            raise
        return worker

    def _retire(self, worker: Worker) -> None:
        """A page is done with its worker (its last block's processes are gone already, the
        worker killed them): the worker is killed behind the page, whose run is handed on at
        once, and its thread free for the next page. `close` waits for it, `stop` kills it."""
        try:
            self._retiring.submit(self._forget, worker)
        except RuntimeError:  # shut down: stopped
            self._forget(worker)

    def _forget(self, worker: Worker) -> None:
        worker.kill()
        with self._lock:
            self._workers.discard(worker)

    def _note(self, message: str) -> None:
        with self._lock:
            self.notes.append(self.masker.mask(message))

    def _save(self, result: PageRun, keys: list[str]) -> None:
        if not self.cache:
            return
        for run, key in zip(result.blocks, keys, strict=True):
            if not run.cached:
                self.cache.save(run.block, key, cache_entry(run, result.backend, result.devices))

    def _run_fresh(self, block: Block) -> tuple[BlockResult, Finished]:
        """A block that must not see its page's imports runs alone in a new interpreter."""
        worker = self._start_worker([block], fresh=True)
        try:
            raw = worker.run(block)
            return raw, worker.finish()
        finally:
            self._forget(worker)

    def _forget_warm(self) -> None:
        """No page takes them any more: the warm workers left over are killed."""
        with self._lock:
            self._warms = False
            while self._launching:  # a launch under way ends, its worker killed, first
                self._launched.wait(timeout=5.0)
            left, self._warm = self._warm, []
        for worker in left:
            self._forget(worker)

    def stop(self) -> None:
        """Stop every page now: kill the workers and drop what has not started."""
        self.stopped.set()
        with self._lock:
            workers = list(self._workers)
        for worker in workers:
            worker.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._retiring.shutdown(wait=False)
        self._forget_warm()
        self.journal.close()  # stopped on purpose: no block is to blame

    def close(self) -> None:
        """Wait for every page, then remove the workers' logs."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._retiring.shutdown(wait=True)
        self._forget_warm()
        shutil.rmtree(self._log_dir, ignore_errors=True)  # every page is done with its log
        self.journal.close()
