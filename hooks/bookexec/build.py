"""The state of one MkDocs build: plan pages, hand outputs to markdown-exec, judge goldens."""

from __future__ import annotations

import logging
import os
import sys
import time
from concurrent.futures import CancelledError
from importlib.metadata import version
from pathlib import Path

from bookexec import background, cache, jax_changes, measured, prose, review
from bookexec.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.eta import RunTimes
from bookexec.golden import (
    Comparison,
    Provenance,
    Report,
    compare,
    existing_goldens,
    golden_path,
    mode_from_env,
    read_golden,
)
from bookexec.golden import parse as parse_golden
from bookexec.measured import Claim, Fact
from bookexec.normalize import machine_path_rules, normalize
from bookexec.progress import Progress, summary
from bookexec.runner import Executor, PageRun

log = logging.getLogger("mkdocs.plugins.bookexec")

_command = "build"  # set by on_startup; survives the config reloads of `mkdocs serve`
_current: Build | None = None


class BlockError(Exception):
    """A block that failed while serving: shown at the block, the server keeps going."""


def set_command(command: str) -> None:
    global _command
    _command = command


def start(root: Path) -> Build:
    global _current
    if _current is not None:
        _current.stop()
    _current = Build(root, serving=_command == "serve")
    return _current


def stop_current() -> None:
    if _current is not None:
        _current.stop()


def current() -> Build:
    if _current is None:
        raise BookError("an executed block was rendered outside a book build (hooks not loaded?)")
    return _current


class Build:
    def __init__(self, root: Path, serving: bool) -> None:
        self.root = root
        self.serving = serving
        self.mode = mode_from_env()
        # BOOK_EXEC=off shows each block's recorded golden instead of running it: for quick
        # prose edits and for measuring what execution costs. It checks nothing.
        self.execute = os.environ.get("BOOK_EXEC", "on") != "off"
        self.golden_dir = root / "tests" / "golden"
        if self.execute and not serving:
            review.clear(root)  # a review report always belongs to the last build that ran
        self.rules = machine_path_rules(root)
        self.started = time.perf_counter()
        block_cache = None
        if self.execute and cache.enabled(serving, self.mode):
            block_cache = cache.BlockCache(root / ".cache" / "bookexec" / "blocks")
        # Issue 18: block lines estimate the time left from each block's last run time.
        times = RunTimes(root / ".cache" / "bookexec" / "run-times.json" if self.execute else None)
        self.progress = Progress(log.info, times=times)
        if background.enabled(serving, self.execute, block_cache):
            # Issue 18: serve pages at once from goldens; blocks run in the background.
            self.executor = background.executor_for(root, block_cache, self.progress)
        else:
            self.executor = Executor(
                root, fail_fast=not serving, cache=block_cache, progress=self.progress
            )
        self.pending_blocks: set[tuple[str, str]] = set()  # shown recorded, being checked
        self.plans: dict[str, list[Block]] = {}
        self.comparisons: dict[tuple[str, str], Comparison] = {}
        self.rendered: set[tuple[str, str]] = set()
        self.page: str | None = None
        self.position = 0
        py = sys.version_info
        self.versions = (version("jax"), version("jaxlib"), f"{py.major}.{py.minor}")

    # -- planning -----------------------------------------------------------------------------

    def plan(
        self, pages: list[tuple[str, str]], labs: dict[str, list[Block]] | None = None
    ) -> None:
        """Scan every page first, so a bad fence fails before anything runs; then start them.

        Labs come already scanned (`labs.scan_lab`); their code cells run like a page's blocks.
        """
        for src, markdown in pages:
            self.plans[src] = scan_page(src, markdown, self.root)
        self.plans.update(labs or {})
        if not self.execute:
            log.info("bookexec: BOOK_EXEC=off: pages show recorded goldens; nothing runs")
            return
        total = sum(map(len, self.plans.values()))
        pages_with_blocks = sum(1 for b in self.plans.values() if b)
        using = "the block cache" if self.executor.cache else "no cache"
        log.info(
            f"bookexec: {total} blocks on {pages_with_blocks} pages, "
            f"{self.executor.jobs} pages at a time, {using} (GOLDEN={self.mode})"
        )
        self.progress.expect(pages_with_blocks, total, self.plans, self.executor.jobs)
        for src, blocks in self.plans.items():
            self.executor.submit(src, blocks)

    def enter_page(self, src: str, markdown: str) -> str:
        """Start rendering a page: put recorded values into its prose."""
        self.raise_if_failed()
        self.page, self.position = src, 0
        try:
            return prose.render(markdown, src, self._facts_of)
        except BookError as error:
            if not self.serving:
                raise
            log.error(str(error))
            return markdown

    def _facts_of(self, page: str, block_id: str) -> dict[str, Fact] | None:
        plan = self.plans.get(page, [])
        index = next((b.index for b in plan if b.id == block_id), None)
        if index is None:
            return None
        if not self.execute or self.pending(page):
            _, facts, _ = recorded(self.golden_dir, plan[index])
            return {fact.name: fact for fact in facts}
        page_run = self._wait(page)
        if index >= len(page_run.blocks) or page_run.blocks[index].failure:
            self.raise_if_failed()
            raise BookError(f"{plan[index].where}: its values are missing (the block failed)")
        return {fact.name: fact for fact in page_run.blocks[index].facts}

    def raise_if_failed(self) -> None:
        if not self.serving and self.executor.first_failure:
            raise BookError(self.executor.first_failure)

    # -- rendering ----------------------------------------------------------------------------

    def output_for(self, block_id: str, code: str) -> tuple[Block, str, Comparison | None]:
        """The normalised output markdown-exec shows for the next block of the current page."""
        page = self.page or "?"
        plan = self.plans.get(page, [])
        index, self.position = self.position, self.position + 1
        if index >= len(plan) or plan[index].id != block_id:
            raise BookError(
                f"docs/{page}: markdown-exec rendered block '{block_id or '?'}' that the scanner "
                f'did not find; write executed fences as ```python exec="on" id="..."'
            )
        block = plan[index]
        if code.strip("\n") != block.code.strip("\n"):
            raise BookError(f"{block.where}: the snippet changed while the book was building")
        return (block, *self.judged(page, block))

    def judged(self, page: str, block: Block) -> tuple[str, Comparison | None]:
        """A block's output as the reader sees it, and its comparison with its golden."""
        self.rendered.add((page, block.id))
        if not self.execute or self.pending(page):
            if self.execute:
                self.pending_blocks.add((page, block.id))
            output, facts, _ = recorded(self.golden_dir, block)
            return shown(output, facts, "(recorded)"), None
        page_run = self._wait(page)
        index = block.index
        run = page_run.blocks[index] if index < len(page_run.blocks) else None
        if run is None or run.failure:
            message = run.failure if run else f"{block.where}: not run (an earlier block failed)"
            if not self.serving:
                raise BookError(message)
            log.error(message)
            raise BlockError(message)
        body = normalize(run.output, self.rules)
        jax, jaxlib, python = self.versions
        prov = Provenance(jax=jax, jaxlib=jaxlib, python=python, backend=page_run.backend)
        comparison = compare(
            self.golden_dir, page, block.id, block.snippet, body, prov, run.facts, run.claims
        )
        self.comparisons[(page, block.id)] = comparison
        if self.serving and comparison.status != "ok":
            log.warning(_serve_message(comparison, self.root))
        return shown(body, run.facts, page_run.backend), comparison

    def results(self, page: str) -> tuple[list[tuple[Block, str, list[Fact]]], PageRun | None]:
        """Each block of a page with what it printed and recorded, and the page's run.

        Under BOOK_EXEC=off the outputs are the goldens' and the run is None.
        """
        plan = self.plans.get(page, [])
        if not plan:
            return [], None
        if not self.execute or self.pending(page):
            return [(block, *recorded(self.golden_dir, block)[:2]) for block in plan], None
        page_run = self._wait(page)
        # A page that failed ran fewer blocks than it has; those it ran are still counted.
        runs = zip(plan, page_run.blocks, strict=False)
        return [(block, run.output, run.facts) for block, run in runs], page_run

    def pending(self, page: str) -> bool:
        """Under serve (`bookexec.background`): the page's blocks still run, so it shows its
        goldens, marked as recorded and being checked."""
        ready = getattr(self.executor, "ready", None)
        return ready is not None and not ready(page)

    def _wait(self, page: str) -> PageRun:
        try:
            return self.executor.page(page)
        except CancelledError:
            self.raise_if_failed()
            raise BookError(f"docs/{page}: execution was cancelled") from None

    # -- finishing ----------------------------------------------------------------------------

    def finish(self) -> None:
        self.executor.close()
        self.raise_if_failed()
        self.check_all_rendered()
        if not self.execute:
            shown = sum(map(len, self.plans.values()))
            log.info(self.summary_line(shown=shown))
            return
        if self.serving:
            waiting = getattr(self.executor, "pending", list)()
            if waiting:
                log.info(f"bookexec: {len(waiting)} pages show recorded outputs while they run")
            elif getattr(self.executor, "ready", None):
                log.info("bookexec: every page shows live outputs")
            log.info(self.summary_line())
            return
        rendered = list(self.comparisons.values())
        stale = sorted(existing_goldens(self.golden_dir) - {c.path for c in rendered})
        report = Report(self.root, self.golden_dir, rendered, stale)
        if self.mode == "update":
            for change in report.apply_update():
                log.info(f"bookexec: {change}")
            log.info(f"bookexec: {report.update_summary()}")
            if jax_changes.page_problem(self.root) and jax_changes.write_page(self.root):
                log.info(f"bookexec: rewrote {jax_changes.PAGE} from the new goldens")
            log.info(self.summary_line())
            return
        if report.failed:
            for line in report.check_lines():
                log.error(line)
            saved = review.save(report)  # `./book review` works from it: nothing runs twice
            log.error(
                f"bookexec: to review each block: ./book review ({saved.relative_to(self.root)})"
            )
            log.info(self.summary_line())
            raise BookError(report.summary())
        log.info(f"bookexec: {report.summary()}")
        problem = jax_changes.page_problem(self.root)  # a generated page must match its goldens
        if problem:
            raise BookError(problem)
        log.info(self.summary_line())

    def check_all_rendered(self) -> None:
        """A block the scanner found but markdown-exec never rendered would go unchecked."""
        missed = [
            block.where
            for blocks in self.plans.values()
            for block in blocks
            if (block.page, block.id) not in self.rendered
        ]
        if not missed:
            return
        message = (
            "executed blocks that no page rendered, so nothing checked them (is the fence "
            "indented, or inside an element Markdown does not parse?):\n  " + "\n  ".join(missed)
        )
        if self.serving:
            log.error(f"bookexec: {message}")
            return
        raise BookError(message)

    def summary_line(self, shown: int = 0) -> str:
        statuses = [c.status for c in self.comparisons.values()]
        return summary(
            self.progress.tally,
            drifted=statuses.count("drifted"),
            new=statuses.count("new"),
            seconds=time.perf_counter() - self.started,
            shown=shown,
        )

    def stop(self) -> None:
        self.executor.stop()


def shown(output: str, facts: list[Fact], backend: str) -> str:
    """What the page shows: the output with measured values in place of their placeholders."""
    text = measured.substitute(output, facts, marked=True)
    if any(fact.kind == "timing" for fact in facts):
        text += (
            f"\n[timed in this build on the {backend} backend: fastest of repeated runs,\n"
            " warm-up excluded, each run waited on with block_until_ready]\n"
        )
    return text


def recorded(golden_dir: Path, block: Block) -> tuple[str, list[Fact], list[Claim]]:
    """A block's output and facts as its golden recorded them (BOOK_EXEC=off)."""
    path = golden_path(golden_dir, block.page, block.id)
    if not path.is_file():
        return "(execution is off and this block has no golden yet)\n", [], []
    text, _ = read_golden(path)
    golden = parse_golden(text or "")
    return golden.output, golden.facts, golden.claims


def _serve_message(comparison: Comparison, root: Path) -> str:
    if comparison.status == "new":
        return (
            f"docs/{comparison.page}#{comparison.block_id}: no golden yet; "
            "run GOLDEN=update mkdocs build to write it"
        )
    reasons = "".join(f"  {reason}\n" for reason in comparison.notes())
    return f"docs/{comparison.page}#{comparison.block_id} drifted from its golden:\n" + (
        reasons + comparison.diff(root)
    )
