"""The run stage: the executor behind `PageExecutor`, and what a page shows when it has no run.

Two executors implement the protocol: `bookexec._internal.execute.runner.Executor` (a build's own
workers) and `bookexec._internal.serve.background.ServeExecutor` (the serve process's background
runs, whose pages show their goldens until their runs end). Under BOOK_EXEC=off, and while a page is
pending, a block's output and facts are its golden's, as the build began.
"""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import CancelledError
from typing import Protocol

from bookexec._internal.discover.blocks import Block
from bookexec._internal.errors import BookError
from bookexec._internal.execute.cache import BlockCache
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.goldens import images
from bookexec._internal.goldens.compare import Snapshot
from bookexec._internal.goldens.measured import Claim, Fact
from bookexec._internal.goldens.store import golden_path, parse

PENDING = "pending"  # a run state: the page showed its goldens while its blocks ran


def digest(*parts: object) -> str:
    """A short, stable fingerprint of JSON-able parts."""
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


class PageExecutor(Protocol):
    """What a build asks of an executor: run pages, hand back their runs, stop."""

    cache: BlockCache | None  # the block cache it reads and fills, if any
    jobs: int  # pages at a time
    notes: list[Note]  # trouble outside any block (a worker's last word), reported as failures

    def submit(self, page: str, blocks: list[Block]) -> object:
        """Start running the page's blocks, in order, in one session."""
        ...

    def ready(self, page: str) -> bool:
        """False while the page's run is under way and the page shows its goldens instead."""
        ...

    def pending(self) -> list[str]:
        """The pages whose runs are still under way."""
        ...

    def page(self, page: str) -> PageRun:
        """The page's run, waited for."""
        ...

    def close(self) -> None:
        """The build is over: every page has been asked for."""
        ...

    def stop(self) -> None:
        """Stop the build's runs."""
        ...


# What a block with no golden shows while it runs under serve (a new block of a draft, say).
NO_GOLDEN_RUNNING = "(no golden yet: this block is running; its output shows when it ends)\n"


def recorded(
    goldens: Snapshot, block: Block, running: bool = False
) -> tuple[str, list[Fact], list[Claim]]:
    """A block's output and facts as its golden recorded them when the build began; for a block
    with no golden, why it shows none (`running`: it runs behind the page, under serve)."""
    path = golden_path(goldens.golden_dir, block.page, block.id)
    text, _ = goldens.golden(path)
    if text is None:
        if running:
            return NO_GOLDEN_RUNNING, [], []
        return "(execution is off and this block has no golden yet)\n", [], []
    golden = parse(text)
    return images.restore(golden.output, path.parent), golden.facts, golden.claims


def run_of(page_run: PageRun, block: Block) -> BlockRun | None:
    """The block's run in its page's run, by id; None if the page stopped before it."""
    return next((run for run in page_run.blocks if run.block.id == block.id), None)


class Runs:
    """The pages' runs, from `executor`; with `execute` off, nothing runs and every block shows
    its golden (`goldens`, as the build began). `background`: the serve process's executor."""

    def __init__(
        self,
        executor: PageExecutor,
        goldens: Snapshot,
        execute: bool,
        background: bool = False,
        docs: str = "docs",
    ) -> None:
        self.executor = executor
        self.docs = docs  # the book's docs_dir, as messages name it
        self.goldens = goldens
        self.execute = execute
        self.background = background
        # GOLDEN_ONLY: the one page that runs, and the blocks judged on it (None: all of them).
        # Every other block shows its golden, so the update writes nothing else.
        self.only: tuple[str, set[str] | None] | None = None

    def start(self, plan: dict[str, list[Block]]) -> None:
        """Submit every planned page, in order; with `only`, its page alone, up to its last
        judged block (the blocks before it set up the session it runs in)."""
        for src, blocks in plan.items():
            if self.only is None:
                self.executor.submit(src, blocks)
            elif src == self.only[0]:
                judged = self.only[1]
                last = max(
                    (i for i, block in enumerate(blocks) if judged is None or block.id in judged),
                    default=len(blocks) - 1,
                )
                self.executor.submit(src, blocks[: last + 1])

    def chosen(self, page: str, block: Block) -> bool:
        """Whether the block runs and is judged in this build (always, without `only`)."""
        if self.only is None:
            return True
        page_only, judged = self.only
        return page == page_only and (judged is None or block.id in judged)

    def pending(self, page: str) -> bool:
        """The page's blocks still run in the background: it shows its goldens meanwhile."""
        return not self.executor.ready(page)

    def recorded_only(self, page: str) -> bool:
        """The page shows its goldens: nothing runs, its run is under way, or it is not the
        page `only` names."""
        if self.only is not None and page != self.only[0]:
            return True
        return not self.execute or self.pending(page)

    def recorded_block(self, page: str, block: Block) -> bool:
        """The block shows its golden: its page does, or `only` names other blocks."""
        return self.recorded_only(page) or not self.chosen(page, block)

    def wait(self, page: str) -> PageRun:
        """The page's run, waited for; a cancelled one is named."""
        try:
            return self.executor.page(page)
        except CancelledError:
            raise BookError(f"{self.docs}/{page}: execution was cancelled") from None

    def results(
        self, page: str, plan: list[Block]
    ) -> tuple[list[tuple[Block, str, list[Fact]]], PageRun | None]:
        """Each block of a page with what it printed and recorded, and the page's run; the
        goldens' outputs and no run when the page shows them."""
        if not plan:
            return [], None
        if self.recorded_only(page):
            return [(block, *recorded(self.goldens, block)[:2]) for block in plan], None
        page_run = self.wait(page)
        found: list[tuple[Block, str, list[Fact]]] = []
        for block in plan:
            if not self.chosen(page, block):
                found.append((block, *recorded(self.goldens, block)[:2]))
            elif run := run_of(page_run, block):
                # A page that failed ran fewer blocks than it has; those it ran still count.
                found.append((block, run.output, run.facts))
        return found, page_run

    def facts(self, page: str, block: Block) -> dict[str, Fact]:
        """The values the block recorded, by name: this build's, or its golden's."""
        if self.recorded_block(page, block):
            return {fact.name: fact for fact in recorded(self.goldens, block)[1]}
        run = run_of(self.wait(page), block)
        if run is None or run.failure:
            raise BookError(f"{block.where}: its values are missing (the block failed)")
        return {fact.name: fact for fact in run.facts}

    def state(self, page: str, blocks: list[Block]) -> str:
        """What the page's blocks show, as a fingerprint: "" without blocks, PENDING while the
        page shows its goldens as it runs, else a digest of its outputs, facts and failures.
        A page quoting another's values is rendered again when this changes."""
        if not blocks:
            return ""
        if not self.execute:
            return "execute off"
        if self.pending(page):
            return PENDING
        try:
            page_run = self.wait(page)
        except BookError:
            return "cancelled"
        return digest(
            [
                [
                    run.block.id,
                    run.output,
                    run.failure,
                    [[f.name, f.kind, f.value] for f in run.facts],
                ]
                for run in page_run.blocks
            ]
        )

    def page_runs(self, plan: dict[str, list[Block]]) -> list[PageRun]:
        """The runs of every page with blocks; a cancelled page is left out."""
        runs = []
        for page, blocks in plan.items():
            if blocks and not (self.only is not None and page != self.only[0]):
                try:
                    runs.append(self.wait(page))
                except BookError:
                    continue
        return runs

    def backends(self, plan: dict[str, list[Block]]) -> str:
        """The backends the pages ran on, comma-separated; "none" when none is known."""
        names = {run.backend for run in self.page_runs(plan)} - {"none", "unknown"}
        return ",".join(sorted(names)) or "none"
