"""What a long build says while it runs: pages and blocks done, slow blocks, one summary line."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bookexec._internal import logs
from bookexec._internal.execute.eta import RunTimes, left

if TYPE_CHECKING:
    from bookexec._internal.discover.blocks import Block

DEFAULT_SLOW = 5.0  # seconds; a build's own comes from its settings (BOOK_SLOW)


def outside_mkdocs(name: str, form: str) -> logging.Logger:
    """A logger that prints like MkDocs' own but outside its `mkdocs` logger, whose warnings
    fail a strict build: for what must never fail one (cache trouble, drift while serving)."""
    logger = logging.getLogger(name)
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter(form))
        if logs.CI_LOG.enabled:  # under GitHub Actions (`logs.guard_ci_log`)
            handler.addFilter(logs.CI_LOG)
        logger.addHandler(handler)
        logger.propagate = False
        logger.setLevel(logging.INFO)
    return logger


@dataclass
class Tally:
    """How many blocks ran, came from the cache, or ran again to rebuild a session."""

    executed: int = 0
    cached: int = 0
    replayed: int = 0  # cached blocks run again only to rebuild their page's session
    recorded: int = 0  # blocks whose runs are a sharded run's records (`pipeline.records`)
    recorded_cached: int = 0  # of those, the blocks a shard took from the block cache


class Progress:
    """Counts finished pages and blocks from the executor's threads, and says so as they end.

    Each block that runs gets a line as it finishes, counting only finished blocks, with its
    page's count and the time left, estimated from the last run time
    (`bookexec._internal.execute.eta`) of each block still to run (`running`: not one the cache
    holds, nor one of a page that does not run in this build) shared among the pages that run at
    once; no estimate when no run time is known.
    """

    def __init__(
        self,
        say: Callable[[str], None],
        slow: float = DEFAULT_SLOW,
        times: RunTimes | None = None,
        docs: str = "docs",
    ) -> None:
        self.say = say
        self.docs = docs  # the book's docs_dir, as a page's line names it
        self.slow = slow
        self.pages = self.blocks = 0
        self.pages_done = self.blocks_done = 0
        self.tally = Tally()
        self._lock = threading.Lock()
        self.times = times or RunTimes(None)
        self.jobs = 1
        self._remaining: dict[str, float] = {}  # block that runs -> its last run time, until done
        self._page_sizes: dict[str, int] = {}
        self._page_done: dict[str, int] = {}  # blocks done of each page still running

    def carry(self, earlier: Progress) -> None:
        """Under serve, take over the pages still running from the `earlier` build's progress:
        they end in this build, whose lines say so, and the blocks they finished before it
        began count here too, so each line adds up (the tally, which the earlier build's
        summary said, is not carried)."""
        with earlier._lock:
            running = dict(earlier._page_done)
            planned = (earlier.pages, earlier.blocks, earlier.jobs)
        with self._lock:
            # Until this build has planned (`expect`), a page that ends counts against the
            # earlier plan, not against none.
            if not (self.pages or self.blocks):
                self.pages, self.blocks, self.jobs = planned
            for page, done in running.items():
                self._page_done[page] = self._page_done.get(page, 0) + done
                self.blocks_done += done
            self._remaining.update(
                (key, seconds)
                for key, seconds in earlier._remaining.items()
                if key.rpartition("#")[0] in running
            )

    def expect(
        self,
        pages: int,
        blocks: int,
        plans: Mapping[str, Sequence[Block]] | None = None,
        jobs: int = 1,
    ) -> None:
        """Learn how many pages and blocks the build will run, and how many pages run at once,
        for the counts and the time left."""
        with self._lock:
            self.pages, self.blocks = pages, blocks
            self.jobs = max(1, jobs)
            for page, page_blocks in (plans or {}).items():
                self._page_sizes[page] = len(page_blocks)

    def running(self, blocks: Sequence[Block]) -> None:
        """These blocks run (the cache does not hold them, or their session needs them run):
        the time left counts each at its last run time until it is done."""
        with self._lock:
            for block in blocks:
                key = f"{block.page}#{block.id}"
                self._remaining[key] = self.times.last(key)

    def _left(self) -> str:
        """`, about 12 s left`, or "" when no block's run time is known."""
        if not self.times.known:
            return ""
        return f", {left(sum(self._remaining.values()) / self.jobs)}"

    def block_done(
        self, where: str, seconds: float, cached: bool, block: Block | None = None
    ) -> None:
        """Count a finished block and say so, with the time left."""
        with self._lock:
            self.blocks_done += 1
            if cached:
                self.tally.cached += 1
            else:
                self.tally.executed += 1
            line = None
            if block is not None:
                key = f"{block.page}#{block.id}"
                self._remaining.pop(key, None)
                self._page_done[block.page] = self._page_done.get(block.page, 0) + 1
                if not cached:
                    self.times.record(key, seconds)
                    page = f"{block.docs}/{block.page}"
                    line = (
                        f"bookexec: [{self.blocks_done}/{self.blocks} blocks done{self._left()}] "
                        f"{page}: "
                        f"{self._page_done[block.page]}/{self._page_sizes.get(block.page, '?')} "
                        f"blocks, '{block.id}' {seconds:.1f} s"
                    )
        if line:
            self.say(line)
        if not cached and seconds >= self.slow:
            self.say(f"bookexec: slow block {where}: {seconds:.1f} s (slow: {self.slow:g})")

    def replayed(self) -> None:
        """Count a cached block run again to rebuild its page's session."""
        with self._lock:
            self.tally.replayed += 1

    def page_done(self, page: str, ran: int, cached: int, seconds: float) -> None:
        """Count a finished page and say so."""
        with self._lock:
            self.pages_done += 1
            self._page_done.pop(page, None)  # ended: not carried into a later build
            done = (
                f"[{self.pages_done}/{self.pages} pages, {self.blocks_done}/{self.blocks} blocks]"
            )
        if ran:
            self.times.save()
        parts = [f"{ran} run"] + ([f"{cached} from cache"] if cached else [])
        self.say(f"bookexec: {done} {self.docs}/{page}: {', '.join(parts)}, {seconds:.1f} s")


def summary(
    tally: Tally,
    drifted: int,
    new: int,
    seconds: float,
    shown: int = 0,
    failed: int = 0,
    running: int = 0,
) -> str:
    """The build's last line: what ran, what came from the cache, what still runs behind the
    pages (under serve; each block's line says it as it ends), what drifted, how long."""
    replayed = f" ({tally.replayed} cached blocks replayed for their session)"
    parts = [
        f"{tally.executed} blocks executed",
        f"{tally.cached} from cache" + (replayed if tally.replayed else ""),
    ]
    if tally.recorded:
        cached = f" ({tally.recorded_cached} from the block cache)" if tally.recorded_cached else ""
        parts.append(f"{tally.recorded} from the shards' records{cached}")
    if shown:
        parts = [f"0 blocks executed, {shown} shown from goldens (execute: false)"]
    if running:
        block = "1 block" if running == 1 else f"{running} blocks"
        parts.append(f"{block} running in the background (shown from goldens until they end)")
    if failed:
        parts.append(f"{failed} failed")
    parts.append(f"{drifted} drifted")
    if new:
        parts.append(f"{new} new")
    return f"bookexec summary: {', '.join(parts)}; {seconds:.1f} s"
