"""The pool: pages in parallel, one fresh worker each, a failure never stopping the others.

A page's blocks share one session (one `__main__`), and nothing else: every page starts in a
new process, so its outputs never depend on which pages ran before it. A block that runs past
its time limit is killed from outside, which works even inside a long XLA compile. The worker
itself is `handle.Worker`; what a block's result means is `outcome.judge`.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path

from bookexec._internal import privacy
from bookexec._internal.discover.blocks import Block, printed_block, printed_name
from bookexec._internal.errors import BookError
from bookexec._internal.execute.cache import (
    BlockCache,
    InstalledCode,
    block_keys,
    cache_entry,
    environment_key,
    from_cache_entry,
)
from bookexec._internal.execute.handle import Worker, WorkerFailed, worker_env
from bookexec._internal.execute.journal import Journal, killed_builds
from bookexec._internal.execute.limits import Limits, block_memory, is_fresh
from bookexec._internal.execute.model import NO_BACKEND, BlockRun, Note, PageRun
from bookexec._internal.execute.outcome import judge, masked
from bookexec._internal.execute.progress import Progress
from bookexec._internal.execute.protocol import BlockResult, Finished
from bookexec._internal.execute.runtime import PythonRuntime, Runtime
from bookexec._internal.execute.watch import CheckoutWatch, Run
from bookexec._internal.files import CachePaths

# The executed fences in what a block printed, as blocks read in its page (none: no fence
# runs as its output is rendered).
Printed = Callable[[Block, str], list[Block]]

# The pool's own names, and those `bookexec.book` still imports from here (until it moves).
__all__ = ["Executor", "ExecutorOptions", "waited"]

_STARTING = object()  # a spare worker being started (`Executor.keep_spare`)


@dataclass
class _Session:
    """One page's run under way: its worker, the workers' last words, what failed first."""

    page: str
    worker: Worker | None = None
    lasts: list[Finished] = field(default_factory=list)
    no_start: str = ""  # why the page's worker could not start; then no block tries again
    first_failed: str | None = None


def _last_session_miss(blocks: list[Block], hits: list[BlockRun | None]) -> int:
    """The last block that must run in the page's session; the cached blocks before it are
    replayed for the state they leave. -1: none."""
    misses = [
        i for i, (b, hit) in enumerate(zip(blocks, hits, strict=True)) if not (hit or is_fresh(b))
    ]
    return misses[-1] if misses else -1


def _runs(block: Block, hit: BlockRun | None, i: int, last_session_miss: int) -> bool:
    """Whether the page's `i`th block runs: the cache does not hold it, or it is replayed for
    the session a later block needs."""
    return not hit or (not is_fresh(block) and i < last_session_miss)


def waited(run: Future[PageRun]) -> PageRun:
    """A page's run, waited for in short slices. The kernel may hand a signal sent to the
    process (Ctrl+C, SIGTERM) to any of its threads; Python then only notes it, and a main
    thread blocked in one long wait would not raise it until the page ended."""
    while True:
        try:
            return run.result(timeout=0.25)
        except FutureTimeout:  # not the builtin TimeoutError on Python 3.10: a class of its own
            if run.done():  # the run itself raised it
                raise


@dataclass(frozen=True)
class _Step:
    """One block as its page's run reaches it: the cache's run of it (None: a miss), and
    whether it runs in the page's session (a later block needs what it leaves there)."""

    block: Block
    hit: BlockRun | None
    needs_session: bool


@dataclass(frozen=True)
class ExecutorOptions:
    """How an executor runs a book's workers. `pipeline.drive.executor_for` makes it from the
    book's settings and a driver's `RunOptions` (which lives above this layer)."""

    environ: Mapping[str, str]  # the build's environment (`bookexec._internal.settings`)
    jobs: int | None = None  # pages at once; None: one per core
    cache: BlockCache | None = None  # the author's block cache, if the run uses one
    cache_reads: bool = True  # False when the cache only stores (the update mode)
    progress: Progress | None = None
    watch: CheckoutWatch | None = None  # the read-only watch (none under serve)
    limits: Limits | None = None  # the blocks' limits; None: the defaults
    seed: str = "0"  # the workers' hash seed
    settings_key: str = ""  # the settings that can change an output (the cache key's)
    python: str = sys.executable  # the workers' interpreter (another JAX's for jax-changes)
    # The executed fences in what a block printed (`discover.blocks.printed_fences`).
    printed: Printed | None = None
    nice: int = 0  # how much lower than this process's the workers' priority is (serve)


class Executor:
    """Runs pages in parallel, each in its own fresh worker; a failure never stops the others.

    With a cache, a page's blocks whose keys are cached are not run. If a later block of the
    same session must run, the cached blocks before it are replayed first (their output
    discarded), because the session state they leave behind is not something one can store.
    """

    def __init__(
        self, root: Path, options: ExecutorOptions, runtime: Runtime | None = None
    ) -> None:
        """The book at `root`, its workers run as `options` says, under `runtime` (Python's
        when None)."""
        self.options = options
        self.cache_reads = options.cache_reads
        self.printed = options.printed
        self.nice = options.nice  # the workers' priority below this process's (`handle.Worker`)
        self.root = root
        self.python = options.python
        self.runtime = runtime or PythonRuntime()
        self.limits = options.limits or Limits()
        self.env = worker_env(options.environ, options.seed, root)
        self.masker = privacy.Masker.from_environ(options.environ)  # masked in every run
        # Issue 25: the book is read-only to its blocks (off under serve, where the author
        # edits the book while it runs).
        self.watch = options.watch
        # A build killed by a block is named by the next one (bookexec._internal.execute.journal).
        journals = CachePaths(root).base
        self.killed = killed_builds(journals)  # said by the engine, at the start of the build
        self.journal = Journal(journals)
        self.cache = options.cache
        self.progress = options.progress or Progress(lambda message: None)
        # An output is reused only under the runtime that made it.
        runtime_part = f"{self.runtime.name}:{self.runtime.preload}"
        if options.cache:
            key = environment_key(root, options.environ, options.settings_key)
            self.env_key = key + runtime_part
        else:
            self.env_key = ""
        # The code blocks imported, fingerprinted once a build: an entry whose code changed
        # since it ran is a miss (`cached`).
        self.installed = InstalledCode()
        self.jobs = options.jobs or os.cpu_count() or 1
        self._pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="book-page")
        # Kills the workers pages are done with (`_retire`), behind the pages.
        self._retiring = ThreadPoolExecutor(max_workers=1, thread_name_prefix="book-retire")
        self._runs: dict[str, Future[PageRun]] = {}
        self._workers: set[Worker] = set()
        self._lock = threading.Lock()
        self._log_dir = tempfile.mkdtemp(prefix="executed-book-")
        self.stopped = threading.Event()
        self.notes: list[Note] = []  # trouble outside any block, e.g. a worker's last word
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
        last_session_miss = _last_session_miss(blocks, hits)
        self.progress.running(
            [b for i, b in enumerate(blocks) if _runs(b, hits[i], i, last_session_miss)]
        )
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
        if not self.installed.unchanged(run.installed):
            return None  # what it imported changed since it ran: it runs again
        if not is_fresh(block):  # a `fresh` block's process is its own, not the page's
            self._backends[block.page] = (entry["backend"], entry["devices"])  # checked on load
        run.setup = (entry["backend"], entry["devices"])
        return run

    def changed(self, run: PageRun) -> bool:
        """Whether a block of a page's run imported code that changed since it ran."""
        return not all(self.installed.unchanged(block.installed) for block in run.blocks)

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
        last_session_miss = _last_session_miss(blocks, hits)
        session = _Session(page)
        try:
            for i, block in enumerate(blocks):
                if self.stopped.is_set():
                    break
                hit = hits[i]
                needs_session = _runs(block, hit, i, last_session_miss) and not is_fresh(block)
                run = self._block(session, blocks, _Step(block, hit, needs_session))
                result.blocks.append(run)
                self.progress.block_done(block.where, run.seconds, cached=run.cached, block=block)
                result.blocks += self._printed(session, blocks, block, run, [0])
            self._end(session, result, keys)
        except WorkerFailed as failure:  # the worker's last word, after every block ran
            self._note(page, f"{blocks[0].docs}/{page}: {failure}")
        finally:
            if session.worker:
                self._retire(session.worker)
        ran = sum(1 for run in result.blocks if not run.cached)
        cached = len(result.blocks) - ran
        self.progress.page_done(page, ran, cached, time.perf_counter() - started)
        return result

    def _printed(
        self,
        session: _Session,
        blocks: list[Block],
        printer: Block,
        run: BlockRun,
        count: list[int],
    ) -> list[BlockRun]:
        """The executed fences `run` printed, each run as markdown-exec runs it while it renders
        the output: right after the block that printed it, in the page's worker (in its own
        fresh globals, or the session it names), and what it prints in turn, depth first;
        `count`, how many `printer` (the written block) has had so far."""
        if self.printed is None or run.failure:
            return []
        try:
            found = self.printed(run.block, run.output)
        except BookError as error:
            run.failure = str(error)
            return []
        runs: list[BlockRun] = []
        for fence in found:
            count[0] += 1
            block = printed_block(printer, count[0], fence)
            child = self._block(session, blocks, _Step(block, None, not is_fresh(block)))
            runs += [child, *self._printed(session, blocks, printer, child, count)]
        return runs

    def _block(self, session: _Session, blocks: list[Block], step: _Step) -> BlockRun:
        """One block of the page, journaled and watched while it runs, masked, and tied to the
        page's first failure."""
        block = step.block
        runs = step.needs_session or not step.hit
        watched = self.watch.started(block.where) if self.watch and runs else None
        entry = self.journal.started(block.where) if runs else None
        try:
            run = self._outcome(session, blocks, step)
        except WorkerFailed as failure:
            run = BlockRun(block=block, failure=f"{block.where}: {failure}")
        if entry is not None:
            self.journal.ended(entry)
        if watched is not None:
            self._judge_changes(run, watched)
        run = masked(run, self.masker)
        if run.raw is not None:  # it ran: with which code (for the cache, and serve's reruns)
            run.installed = self.installed.record(run.raw.imported)
        if run.failure and not session.no_start:
            run.after = session.first_failed
        if run.failure:
            session.first_failed = session.first_failed or block.id
        return run

    def _outcome(self, session: _Session, blocks: list[Block], step: _Step) -> BlockRun:
        """The block's run: in the page's session (a cached one replayed, its session state
        is needed later), from the cache, or alone in a new interpreter; WorkerFailed when no
        worker could run it."""
        block, hit = step.block, step.hit
        if step.needs_session:
            worker = self._session_worker(session, blocks)
            if hit:
                replay = judge(block, worker.run(block), self.limits)
                self.progress.replayed()
                return replay if replay.failure else hit
            return judge(block, worker.run(block), self.limits)
        if hit:
            return hit
        raw, last = self._run_fresh(block)  # neither cached nor in the session: `fresh`
        session.lasts.append(last)
        run = judge(block, raw, self.limits)
        run.setup = (last.backend, last.devices)  # its own process: maybe not the page's
        return run

    def _session_worker(self, session: _Session, blocks: list[Block]) -> Worker:
        """The page's worker, started again if a block took the last one with it; a worker
        that cannot start is not tried again for every block."""
        not_run = "not run: the page's worker could not start (its failure says why)"
        if session.no_start:
            raise WorkerFailed(not_run)
        if session.worker is not None and session.worker.alive():
            return session.worker
        if session.worker is not None:
            self._forget(session.worker)
        session.worker = None
        try:
            session.worker = self._start_worker(blocks)
        except WorkerFailed as failure:
            # The page's failure, not this block's: each block it kept from running says so,
            # and the cause is said once.
            session.no_start = f"the page's worker could not start: {failure}"
            self._note(session.page, f"{blocks[0].docs}/{session.page}: {session.no_start}")
            raise WorkerFailed(not_run) from None
        return session.worker

    def _end(self, session: _Session, result: PageRun, keys: list[str]) -> None:
        """The page's last word: the backend and devices its workers saw; its runs cached
        when none failed."""
        if session.worker is not None and session.worker.alive():
            session.lasts.append(session.worker.finish())
            result.backend, result.devices = session.lasts[-1].backend, session.lasts[-1].devices
        elif result.page in self._backends or not session.lasts:  # the session's, cached
            result.backend, result.devices = self._backends.get(result.page, NO_BACKEND)
        else:  # no session ran: a `fresh` block's own, which `BlockRun.setup` says too
            result.backend, result.devices = session.lasts[-1].backend, session.lasts[-1].devices
        if session.first_failed is None:
            self._save(result, keys)

    def _judge_changes(self, run: BlockRun, watched: Run) -> None:
        """A block that changed the checkout fails; a change it cannot have made is the
        build's failure, named with the blocks that may have made it."""
        assert self.watch is not None
        for change in self.watch.ended(watched):
            if run.block.where in change.blocks:
                run.failure = "\n".join(filter(None, [run.failure, change.message()]))
            else:
                self._note("", change.message())  # it names the block or the file

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
            nice=self.nice,
        )
        with self._lock:
            self._workers.add(worker)
        try:
            worker.ready()
        except WorkerFailed:
            self._forget(worker)
            raise
        return worker

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
                        nice=self.nice,
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

    def _retire(self, worker: Worker) -> None:
        """A page is done with its worker (its last block's processes are gone already, the
        worker killed them): the worker is killed behind the page, whose run is handed on at
        once, and its thread free for the next page. `close` waits for it, `stop` kills it."""
        try:
            self._retiring.submit(self._forget, worker)
        except RuntimeError:  # shut down: stopped
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

    def _forget(self, worker: Worker) -> None:
        worker.kill()
        with self._lock:
            self._workers.discard(worker)

    def _note(self, page: str, message: str) -> None:
        with self._lock:
            self.notes.append(Note(page, self.masker.mask(message)))

    def _save(self, result: PageRun, keys: list[str]) -> None:
        if not self.cache:
            return
        # A block that printed executed fences is not kept: they run in its session right after
        # it, which a cached output would skip; nor are they, which are no block of the page.
        names = [printed_name(run.block.id) for run in result.blocks]
        printers = {printer for printer, number in names if number}
        written = [run for run, (_, number) in zip(result.blocks, names, strict=True) if not number]
        for run, key in zip(written, keys, strict=True):
            if not run.cached and run.block.id not in printers:
                setup = run.setup or (result.backend, result.devices)
                self.cache.save(run.block, key, cache_entry(run, *setup))

    def _run_fresh(self, block: Block) -> tuple[BlockResult, Finished]:
        """A block that must not see its page's imports runs alone in a new interpreter."""
        worker = self._start_worker([block], fresh=True)
        try:
            raw = worker.run(block)
            return raw, worker.finish()
        finally:
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
