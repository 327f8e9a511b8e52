"""The one way the stages are started, whoever drives them: the book's executor made from its
context, and, for a driver that judges and renders nothing (`./book jax-changes` under another
JAX), the whole book planned as a build plans it and its pages run one by one.

A build (`engine.Build`, under `mkdocs build`, `mkdocs serve` or `./book update PAGE`) and a
run under another interpreter differ only in the `RunOptions` they hand `executor_for`: the
interpreter, how many pages run at once, the block cache, the read-only watch, the progress.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass

from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import PAGE_FOLDERS, SNIPPET_ROOT, Block, printed_fences
from bookexec._internal.execute.cache import BlockCache
from bookexec._internal.execute.model import PageRun
from bookexec._internal.execute.progress import Progress
from bookexec._internal.execute.runner import Executor, ExecutorOptions
from bookexec._internal.execute.runtime import Runtime
from bookexec._internal.execute.watch import CheckoutWatch
from bookexec._internal.goldens.compare import Snapshot
from bookexec._internal.pipeline.plan import Plan
from bookexec._internal.pipeline.run import Runs


@dataclass(frozen=True)
class RunOptions:
    """What differs between the drivers' runs of the same book."""

    python: str = sys.executable  # the workers' interpreter (another JAX's for jax-changes)
    jobs: int | None = None  # pages at once; None: the settings' (`jobs`), else one per core
    cache: BlockCache | None = None  # the block cache, when the run stores or reads it
    cache_reads: bool = False  # whether it reads it (an update only stores)
    watch: CheckoutWatch | None = None  # the read-only watch of a build that runs its blocks
    progress: Progress | None = None
    nice: int = 0  # the workers' priority below the build's (`execute.handle.Worker`)


def read_only_watch(context: BookContext, kept: Iterable[str] = ()) -> CheckoutWatch | None:
    """The watch that fails a block changing the book (None when nothing runs): the book's
    folders as its configuration names them, its docs_dir, its goldens, the page-folders
    snippets' (each snippet's folder is added once the pages are planned), `kept` (its
    extensions', `Extension.read_only`), and its config file. A build's, and a shard's run's:
    a block that changes the book fails in either."""
    settings = context.settings
    if not settings.execute:
        return None
    folders = [settings.docs, context.relative(context.golden_dir)]
    if settings.snippets == PAGE_FOLDERS:
        folders.append(SNIPPET_ROOT)
    folders += kept
    return CheckoutWatch(context.root, folders, [context.relative(context.config_file)])


def executor_for(context: BookContext, runtime: Runtime, options: RunOptions) -> Executor:
    """The book's executor: its workers under the context's limits, hash seed and environment."""
    settings = context.settings
    workers = ExecutorOptions(
        environ=settings.environ,
        jobs=options.jobs or settings.jobs or None,
        cache=options.cache,
        cache_reads=options.cache_reads,
        progress=options.progress,
        watch=options.watch,
        limits=settings.limits,
        seed=settings.hash_seed,
        settings_key=settings.key(),
        python=options.python,
        printed=functools.partial(
            printed_fences, root=context.root, auto=settings.auto, reading=settings.reading()
        ),
        nice=options.nice,
    )
    return Executor(context.root, workers, runtime)


@dataclass(frozen=True)
class PageDone:
    """One page's run, as `run_pages` yields it, with what the executor said meanwhile."""

    page: str
    blocks: list[Block]
    run: PageRun
    notes: list[object]  # the executor's notes during its run (`execute.model.Note`)


def plan_book(context: BookContext) -> Plan:
    """Every page of the book scanned as a build scans it (a bad fence, or a session named on
    two pages, fails before any block runs). Notebooks are not pages here: no extension runs."""
    plan = Plan(reading=context.settings.reading())
    plan.scan(context.pages(), context.root, context.settings.auto)
    return plan


def run_pages(
    context: BookContext,
    runtime: Runtime,
    options: RunOptions,
    only: Collection[str] = (),
    say: Callable[[str], object] = print,
    under: str = "",
) -> Iterator[PageDone]:
    """Plan the whole book, then run its pages (`only`'s, docs-relative, when given) one at a
    time in the plan's order, through the run stage, each in a session of its own; yield each
    page's run. Nothing is judged or rendered. `say` hears what the executor says before the
    first page (a worker of the last run it found killed) and each page as it starts, with
    `under` after it (" under JAX 0.11.2")."""
    plan = plan_book(context)
    executor = executor_for(context, runtime, options)
    # Every block runs (nothing shows a golden), so no golden is read: the snapshot is lazy.
    goldens = Snapshot.read(context.golden_dir, ())
    runs = Runs(executor, goldens, execute=True, docs=context.settings.docs)
    try:
        for message in executor.killed:
            say(message)
        for page, blocks in plan.pages.items():
            if not blocks or (only and page not in only):
                continue
            say(f"{page}: {len(blocks)} blocks{under}")
            runs.start({page: blocks})
            ran = runs.wait(page)
            notes: list[object] = list(executor.notes)
            executor.notes.clear()
            yield PageDone(page, blocks, ran, notes)
    finally:
        executor.close()
