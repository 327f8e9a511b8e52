"""Under `mkdocs serve`: the first page at once, blocks run in the background.

`mkdocs serve` listens only after its first build, and a build that waits for every block
made the first page take as long as the whole book's execution. Here, while serving (with
the block cache on), a page whose blocks are not all cached is rendered at once from its
goldens, each block marked as recorded and being checked (`fence.pending_note`), while one
executor, kept for the whole `mkdocs serve` process, runs it. When a page's run ends its
outputs are in the cache (or its failure is kept here), and MkDocs is asked to rebuild: the
browser reloads and shows the live outputs, with drift shown at the block as always.

MkDocs is asked through its public serve API: `on_serve` watches this process's folder under
`.cache/bookexec/serve/` (`server.watch`), and a finished run writes a file there, which
MkDocs' own file watcher sees as a change to rebuild for.

Runs are keyed on the page and its blocks' cache keys, so a rebuild (a prose edit, or the one
asked for here) reuses the run under way instead of starting another, and a snippet edit,
which changes keys, starts a new one. `mkdocs build`, CI and the update mode never come here:
they wait for every block, and never show a recorded output as live.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import TYPE_CHECKING

from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute.cache import BlockCache, block_keys
from bookexec._internal.execute.limits import is_fresh
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.execute.progress import Progress
from bookexec._internal.execute.runner import Executor, waited
from bookexec._internal.files import CachePaths

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

log = logging.getLogger("mkdocs.plugins.bookexec")

STARTUP = 1.0  # seconds a worker takes to start and import JAX, about
# The background's workers run this much below the serve's priority (`os.nice`): a rebuild
# after an edit gets the processor first, and the blocks the rest (issue 55: a prose edit took
# 24 s on the book while two workers ran beside its rebuild on 2 cores, 10 s with 5, 7 s with
# 10, at a load of 16 to 19). 5 is enough for a whole core on a quiet 2-core machine, and
# starves the blocks less than 10 on a busy one.
NICE = 5
WATCH_START = 1.0  # MkDocs starts watching after `on_serve`: a change before then is not seen
POLL = 0.5  # MkDocs' watcher looks for changes this often (LiveReloadServer's polling_interval)
# An ask that no build has followed within ASK_AGAIN seconds is made again, for ASK_FOR seconds
# at most (a build that fails before the engine's part of it would be asked for in a loop):
# MkDocs' watcher takes its first look at the folder when the server starts, some time after
# `on_serve` (seconds on a busy machine), and a file written before that look is no change to it.
ASK_AGAIN, ASK_FOR = 4 * POLL, 120.0
# A page's run held back: (page, its blocks, its future, each block's cached run or None).
_Run = tuple[str, list[Block], Future[PageRun], list[BlockRun | None]]


class RebuildSignal:
    """A folder MkDocs watches once `attach`ed (`server.watch`, its public serve API): a file
    written there asks MkDocs' own watcher for a rebuild. The background runs and the browser
    review each have one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.attached = False

    def attach(self, server: LiveReloadServer) -> None:
        """`on_serve`: from now on `ask` rebuilds."""
        remove_dead_folders(self.folder.parent)
        self.folder.mkdir(parents=True, exist_ok=True)
        server.watch(str(self.folder))
        self.attached = True

    def ask(self, name: str) -> None:
        """Ask for a rebuild (MkDocs' watcher polls every 0.5 s); nothing before `attach`."""
        if not self.attached:
            return
        try:
            (self.folder / name).write_text(f"{time.time_ns()}\n")
        except OSError as error:  # the folder went away: the page reloads at the next edit
            log.warning(f"bookexec: cannot ask for a rebuild ({error})")

    def remove(self) -> None:
        """The serve is over."""
        shutil.rmtree(self.folder, ignore_errors=True)


def remove_dead_folders(serve: Path) -> None:
    """Remove the folders (`PID`, `PID-review`, `PID-site`) of serve processes that are gone:
    one killed with SIGKILL, or crashed, could not remove its own."""
    with contextlib.suppress(OSError):
        for folder in serve.iterdir():
            pid = folder.name.split("-")[0]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: alive
        return True
    return True


def enabled(
    serving: bool, live_reload: bool, execute: bool, cache: BlockCache | None, setting: bool
) -> bool:
    """Only under `mkdocs serve` with live reload (which is how pages come back live), with
    execution and the block cache on, and not turned off (`serve: background: false`, or
    BOOK_SERVE_BACKGROUND=off)."""
    return serving and live_reload and execute and cache is not None and setting


class Background:
    """The serve process's one executor, and the runs it has under way or finished."""

    def __init__(self, root: Path, executor: Executor, refresh: float = 2.0, wait: float = 3.0):
        """`executor` has the block cache and no read-only watch (the author edits the book
        while it serves); `refresh`: least seconds between two reloads while pages run;
        `wait`: a build waits for the one run under way this close to its end."""
        self.root = root
        self.executor = executor
        self.refresh = refresh
        self.wait = wait
        self.runs: dict[str, tuple[tuple[str, ...], Future[PageRun]]] = {}
        self.waiting: set[str] = set()  # pages the last build showed from goldens
        self._lock = threading.Lock()
        # Watched by MkDocs once `attach`ed: a file written here asks for a rebuild.
        self.changes = RebuildSignal(CachePaths(root).serve / str(os.getpid()))
        self._attached = False
        self._wanted = False  # a finished run waits for a rebuild
        self._building = False
        self._last_build = 0.0  # seconds the last build took
        self._last_end = 0.0  # when it ended (time.monotonic)
        self._timer: threading.Timer | None = None
        self._deferred: list[_Run] = []  # runs the first build left for after it
        self._builds = 0  # builds so far; only the first defers its runs
        self._stopped = False  # the serve is over: nothing asks for a rebuild
        self.expected_end: dict[str, float] = {}  # page -> when its run should end
        self.asked_early: set[str] = set()  # pages whose coming rebuild was asked before the end

    # -- the server ---------------------------------------------------------------------------

    def attach(self, server: LiveReloadServer) -> None:
        """`on_serve`: MkDocs watches this process's folder; from now on a finished run asks
        for a rebuild by writing there."""
        self.changes.attach(server)
        with self._lock:
            self._attached = True
            finished = any(self.runs[page][1].done() for page in self.waiting if page in self.runs)
        if finished:
            later = threading.Timer(WATCH_START, self._request_rebuild)
            later.daemon = True
            later.start()

    def _finished(self, page: str) -> None:
        with self._lock:
            shown_recorded = page in self.waiting
        if shown_recorded:
            self._request_rebuild()

    def _request_rebuild(self) -> None:
        """Ask MkDocs to rebuild; asks made meanwhile coalesce into one rebuild.

        Never during a build (its end asks again). While other pages still run, the next
        rebuild waits until twice the last build's time has passed since it ended, so that
        rebuilding takes at most a third of the processor while a cold run fills the cache;
        the last page to finish asks at once.
        """
        with self._lock:
            self._wanted = True
            if not self._attached or self._building or self._timer is not None:
                return
            others = any(not future.done() for _, future in self.runs.values())
            at = self._last_end + (max(self.refresh, 2 * self._last_build) if others else 0.0)
            wait = at - time.monotonic()
            if wait > 0:
                self._timer = threading.Timer(wait, self._fire)
                self._timer.daemon = True
                self._timer.start()
                return
        self._fire()

    def _fire(self) -> None:
        with self._lock:
            self._timer = None
            if not self._wanted or self._building or not self._attached:
                return
            self._wanted = False
        self._notify()

    def _ask_early(self, page: str, end: float) -> None:
        """MkDocs sees a change up to POLL seconds late: when this page's run is the only one
        under way, ask for its rebuild `wait` / 2 seconds before it should end. That build waits
        for the run (`ServeExecutor.ready`) and shows it live, or, if it runs late, shows it
        recorded once more and its end asks again."""

        def ask() -> None:
            with self._lock:
                run = self.runs.get(page)
                running = sum(not future.done() for _, future in self.runs.values())
                due = run is not None and not run[1].done() and running == 1
                due = due and page in self.waiting and self._attached and not self._building
                if due:
                    self.asked_early.add(page)
            if due:
                self._notify()

        timer = threading.Timer(max(0.0, end - self.wait / 2 - time.monotonic()), ask)
        timer.daemon = True
        timer.start()

    def _notify(self, until: float | None = None) -> None:
        """A change in the watched folder: MkDocs' watcher rebuilds. Asked again every
        ASK_AGAIN seconds until a build begins: the watcher may not have been looking yet."""
        until = time.monotonic() + ASK_FOR if until is None else until
        with self._lock:
            if self._stopped:
                return
            builds = self._builds
        self.changes.ask("run-ended")

        def again() -> None:
            with self._lock:
                missed = self._builds == builds and not self._stopped
            if missed and time.monotonic() < until:
                self._notify(until)

        timer = threading.Timer(ASK_AGAIN, again)
        timer.daemon = True
        timer.start()

    # -- one build's view ---------------------------------------------------------------------

    def for_build(self, progress: Progress) -> ServeExecutor:
        """This build's view of the background runs; the build begins."""
        self.release(self._last_build, ask=False)  # runs a failed build left unstarted
        progress.carry(self.executor.progress)  # a page the last build left running ends here
        self.executor.installed.forget()  # an installed package may have changed since
        self.executor.progress = progress  # this build's lines and summary count the blocks
        with self._lock:
            self.waiting = set()
            self._building = True
            self._builds += 1
            self._wanted = False  # this build shows whatever has finished by now
        return ServeExecutor(self)

    def submit(self, page: str, blocks: list[Block]) -> Future[PageRun] | None:
        """The page's run: the one under way for the same keys, or a new one. The first
        build's runs start when it has finished (`release`), so that the first page is not
        slowed by workers competing with it for the processor; later builds' (edits) at once."""
        if not blocks:
            return None
        keys = tuple(block_keys(blocks, self.executor.env_key, is_fresh))
        with self._lock:
            known = self.runs.get(page)
        # The same run, unless what its blocks imported changed since (an edited editable
        # install): then it runs again.
        if known is not None and known[0] == keys:
            done = known[1].done() and not known[1].cancelled() and not known[1].exception()
            if not (done and self.executor.changed(known[1].result())):
                return known[1]
        future: Future[PageRun] = Future()
        hits = [self.executor.cached(b, key) for b, key in zip(blocks, keys, strict=True)]
        if all(hits) or self._builds > 1:
            # Nothing to run, or a later build (an edit): start now, beside the rendering.
            self._start(page, blocks, future, hits)
        else:
            with self._lock:
                self._deferred.append((page, blocks, future, hits))
        with self._lock:
            self.runs[page] = (keys, future)
        future.add_done_callback(lambda _: self._finished(page))
        return future

    def _start(
        self, page: str, blocks: list[Block], future: Future[PageRun], hits: list[BlockRun | None]
    ) -> None:
        # When it should end: its blocks' last run times (those the cache does not hold).
        times = self.executor.progress.times
        estimate = sum(
            times.last(f"{b.page}#{b.id}") for b, hit in zip(blocks, hits, strict=True) if not hit
        )
        end = time.monotonic() + estimate + (STARTUP if estimate else 0)
        with self._lock:
            self.expected_end[page] = end
        started = self.executor.submit(page, blocks)
        assert started is not None  # the page has blocks
        if estimate >= 2 * POLL:
            self._ask_early(page, end)

        def hand_over(done: Future[PageRun]) -> None:
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())
            else:
                future.set_result(done.result())

        started.add_done_callback(hand_over)

    def release(self, build_seconds: float, ask: bool = True) -> None:
        """A build ended: start the runs it asked for, and remember how long it took."""
        with self._lock:
            deferred, self._deferred = self._deferred, []
            self._last_build, self._last_end = build_seconds, time.monotonic()
            self._building = False
            wanted = self._wanted
        for page, blocks, future, hits in deferred:
            self._start(page, blocks, future, hits)
        # After the first build, so that the first page is not slowed by it: a worker started
        # ahead, which the run of the next edit takes.
        self.executor.keep_spare()
        if wanted and ask:
            self._request_rebuild()

    def shutdown(self) -> None:
        """Cancel what has not started, stop the workers, wait for them."""
        with self._lock:
            self._stopped = True
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            deferred, self._deferred = self._deferred, []
        for _, _, future, _ in deferred:
            future.cancel()
        self.executor.stop()
        self.executor.close()
        self.changes.remove()

    def expected(self, page: str) -> tuple[float | None, bool]:
        """When the page's run should end (time.monotonic; None: not known), and whether this
        build was asked for before it ended (`_ask_early`), once."""
        with self._lock:
            early = page in self.asked_early
            self.asked_early.discard(page)
            return self.expected_end.get(page), early

    def shown_recorded(self, page: str) -> None:
        """This build shows the page from its goldens: its run's end asks for a rebuild."""
        with self._lock:
            self.waiting.add(page)


class ServeExecutor:
    """A `PageExecutor` (`bookexec._internal.pipeline.run`) over the serve process's background
    runs."""

    def __init__(self, background: Background) -> None:
        self.background = background
        self.cache = background.executor.cache
        self.jobs = background.executor.jobs
        self.notes: list[Note] = []  # trouble outside any block: reported at each block instead
        self.started = time.perf_counter()
        self.futures: dict[str, Future[PageRun]] = {}  # this build's pages' runs

    def submit(self, page: str, blocks: list[Block]) -> None:
        """Start the page's run, or join the one under way for the same blocks."""
        future = self.background.submit(page, blocks)
        if future is not None:
            self.futures[page] = future

    def ready(self, page: str) -> bool:
        """True when the page's run is over; otherwise it is shown from its goldens.

        When it is the only run under way (an edited snippet, usually) and is expected to end
        within `wait` seconds, it is waited for, a little past its estimate: one build with live
        outputs instead of two."""
        future = self.futures.get(page)
        if future is None or future.done():
            return True
        end, early = self.background.expected(page)
        left = (end - time.monotonic()) if end is not None else None
        alone = sum(not f.done() for f in self.futures.values()) == 1
        wait = self.background.wait
        slack = wait if early else 1.0  # a build asked for early (`_ask_early`) is there to wait
        if alone and left is not None and -slack < left <= wait:
            with contextlib.suppress(FutureTimeout):
                future.result(timeout=max(0.0, left) + slack)
            if future.done():
                return True
        self.background.shown_recorded(page)
        return False

    def page(self, page: str) -> PageRun:
        """The page's run, waited for."""
        return waited(self.futures[page])

    def pending(self) -> list[str]:
        """The pages whose runs are still under way."""
        return sorted(page for page, future in self.futures.items() if not future.done())

    def close(self) -> None:
        # The runs outlive this build (the next one picks them up); they start now.
        """The build is over: deferred runs start now and outlive it."""
        self.background.release(time.perf_counter() - self.started)

    def stop(self) -> None:
        """Nothing: the runs belong to the serve process, not to one build."""
        pass
