"""The judge stage: each block's output against its golden, once per build, and the report.

A verdict is one of: the output as the reader sees it with its `Comparison`, or a `Failure`
(the block raised, timed out, or its page's worker died). The goldens are the `Snapshot` taken
as the build began, so a block that writes one cannot change the verdict on itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import Block, printed_name
from bookexec._internal.escapes import terminal
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.execute.runtime import Runtime
from bookexec._internal.goldens.compare import Classifier, Comparison, compare
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.goldens.normalize import (
    for_page,
    machine_path_rules,
    normalize,
    snippet_names,
)
from bookexec._internal.goldens.report import Failure, Report
from bookexec._internal.goldens.store import Provenance, update_command
from bookexec._internal.pipeline.run import NO_GOLDEN_RUNNING, Runs, recorded, run_of
from bookexec._internal.render.layout import UNMEASURED, shown_text

Verdict = tuple[str, Comparison | None, Failure | None]  # shown output, comparison, failure


# How a stage says what it finds at once (a log level, the line), where the driver wants it
# said as found: under serve, where no build's end fails on it.
SayNow = Callable[[int, str], None]


def shown(output: str, facts: list[Fact], backend: str) -> str:
    """What the page shows: the output with each measured value as the code printed it
    (a `Shown`, which knows where they are, so the page marks them). Where the output holds
    one, its `note` labels them as the book's measurement, under the output box and not in
    it: nothing the reader runs prints it (issue 53)."""
    text = shown_text(output, facts)
    if not text.measured:
        return text
    values = tuple(dict.fromkeys(text[start:end] for start, end in text.measured))
    if values == (UNMEASURED,):  # a recorded output: its digits are not kept (`measured.mask`)
        text.note = ("The measured values, {}, are filled in when the code runs again.", values)
        return text
    if backend == "(recorded)":
        where = " when these outputs were recorded"
    elif backend != "none":
        where = f" on the {backend.upper() if len(backend) == 3 else backend} backend"
    else:
        where = ""
    # Said to the reader, in the reader's words: the timings in the box are one run's (the
    # box marks them), and theirs will differ; the box already shows the values, with units.
    text.note = (
        f"These numbers were measured{where}; your run prints its own, which vary from "
        "machine to machine.",
        values,
    )
    return text


class Judge:
    """Every verdict of one build, and its failures; each also said at once where the driver
    asks (`say_now`: under serve, where no build's end fails on them)."""

    def __init__(
        self,
        context: BookContext,
        runs: Runs,
        runtime: Runtime,
        *,
        say_now: SayNow | None = None,
    ) -> None:
        settings = context.settings
        self.runs = runs
        self.golden_dir = context.golden_dir
        self.rules = machine_path_rules(context.root, settings.environ)
        self.classify: Classifier = runtime.classify
        self.root = context.root
        self.say_now = say_now
        self.judgements: dict[tuple[str, str], Verdict] = {}
        self.comparisons: dict[tuple[str, str], Comparison] = {}
        self.failures: dict[tuple[str, str], Failure] = {}  # (page, block id or "") -> failure
        self.pending_blocks: set[tuple[str, str]] = set()  # shown recorded, being checked
        self.pending_new: set[tuple[str, str]] = set()  # of those, the ones with no golden
        self.launcher = context.launcher  # whose commands its messages name
        self.words = runtime.drift_words  # drift classes in the runtime's words
        self.docs = settings.docs  # the book's docs_dir as messages name it
        self.masks = settings.masks  # the author's rules: for the goldens, never the page

    def judged(self, page: str, block: Block) -> Verdict:
        """A block's output as the reader sees it, its comparison with its golden, or why it
        has no output. A failure never stops the build here: the report at the end lists it.
        A block is judged once per build; rendering it again shows the same."""
        key = (page, block.id)
        if key not in self.judgements:
            self.judgements[key] = self._judge(page, block)
        return self.judgements[key]

    def ran(self, page: str, block: Block) -> Block | None:
        """The block the page's run ran under `block`'s id (a fence a block printed: the one
        the run read); None when it shows its golden or did not run."""
        if self.runs.recorded_block(page, block):
            return None
        run = run_of(self.runs.wait(page), block)
        return run.block if run else None

    def _judge(self, page: str, block: Block) -> Verdict:
        if self.runs.recorded_block(page, block):
            return self._recorded(page, block)
        page_run = self.runs.wait(page)
        run = run_of(page_run, block)
        page_failures = [r.failure for r in page_run.blocks if not r.block.id and r.failure]
        for message in page_failures:  # the page's worker, not one block: the page's failure
            self.page_failed(page, message)
        if run is None and page_failures:  # shown at the block, counted once, as the page's
            message = f"{block.where}: not run; the page failed: {page_failures[0]}"
            return "", None, Failure(page, block.id, block.snippet, message, docs=block.docs)
        if run is not None and not run.failure:
            return self._compared(page, block, page_run, run)
        failure = _failure_of(page, block, run)
        self.failures[(page, block.id)] = failure
        self.say(logging.ERROR, failure.message)
        return "", None, failure

    def _recorded(self, page: str, block: Block) -> Verdict:
        """A block shown from its golden while it runs (or with execution off)."""
        running = self.runs.execute and self.runs.only is None
        if running:
            self.pending_blocks.add((page, block.id))
        output, facts, _ = recorded(self.runs.goldens, block, running)
        if output == NO_GOLDEN_RUNNING:
            self.pending_new.add((page, block.id))
        return shown(output, facts, "(recorded)"), None, None

    def _compared(self, page: str, block: Block, page_run: PageRun, run: BlockRun) -> Verdict:
        """A block that ran: its output compared with its golden."""
        snippets = [r.block.snippet for r in page_run.blocks]
        body = snippet_names(normalize(run.output, self.rules), snippets)
        page_body = snippet_names(for_page(run.output, self.rules), snippets)
        comparison = compare(
            self.golden_dir,
            page,
            block.id,
            block.snippet,
            body,
            run.facts,
            run.claims,
            self.classify,
            self.runs.goldens,
            self.launcher,
            block.docs,
            self.masks,
        )
        self.comparisons[(page, block.id)] = comparison
        if self.say_now is not None and comparison.status != "ok":
            self.say(logging.WARNING, serve_message(comparison, self.root, self.launcher))
        return shown(page_body, run.facts, page_run.backend), comparison, None

    def judge_shown(self, page: str, fence_id: str, snippet: str, output: str, docs: str) -> None:
        """A fence markdown-exec ran itself (`discover.blocks.ShellFence`): what it showed,
        compared with its golden like a block's output, once per build."""
        if (page, fence_id) in self.comparisons:
            return
        comparison = compare(
            self.golden_dir,
            page,
            fence_id,
            snippet,
            normalize(output, self.rules),
            classify=self.classify,
            snapshot=self.runs.goldens,
            launcher=self.launcher,
            docs=docs,
            rules=self.masks,
        )
        self.comparisons[(page, fence_id)] = comparison
        if self.say_now is not None and comparison.status != "ok":
            self.say(logging.WARNING, serve_message(comparison, self.root, self.launcher))

    def page_failed(self, page: str, message: str) -> None:
        """A failure of the whole page (its worker, not one block): reported once, as the
        page's, with no block named."""
        if (page, "") not in self.failures:
            self.failures[(page, "")] = Failure(page, "", "", message, docs=self.docs)
            self.say(logging.ERROR, message)

    def fail(self, page: str, key: str, message: str) -> None:
        """A failure of the page's prose or of its final HTML, under its own `key`."""
        self.failures[(page, key)] = Failure(page, "", "", message, docs=self.docs)
        self.say(logging.ERROR, message)

    def say(self, level: int, message: str) -> None:
        """Said at once where the driver asks for it (`say_now`); else kept for the end."""
        if self.say_now is not None:
            self.say_now(level, terminal(message))

    def page_problems(self, page: str) -> tuple[list[Failure], list[Comparison]]:
        """What this build found wrong on one page: its failures, and its blocks that differ."""
        failures = [f for (p, _), f in self.failures.items() if p == page]
        drifted = [c for (p, _), c in self.comparisons.items() if p == page and c.status != "ok"]
        return failures, drifted

    def report(
        self,
        stale: list[Path],
        notes: list[Note],
        problems: list[str],
        recorded: Provenance | None,
        running: Provenance,
    ) -> Report:
        """One report for the whole build: failures (the executor's `notes` and the book's
        `problems` among them), drift, new and `stale` goldens, versions."""
        noted = [Failure(note.page, "", "", note.message, docs=self.docs) for note in notes]
        audited = [Failure("", "", "", problem, docs=self.docs) for problem in problems]
        failures = [*self.failures.values(), *noted, *audited]
        comparisons = list(self.comparisons.values())
        return Report(
            self.root,
            self.golden_dir,
            comparisons,
            stale,
            failures,
            recorded,
            running,
            launcher=self.launcher,
            words=self.words,
        )

    def statuses(self) -> list[str]:
        """Each comparison's status: ok, drifted or new."""
        return [c.status for c in self.comparisons.values()]


def serve_message(comparison: Comparison, root: Path, launcher: str = "") -> str:
    """The serve log's line for a block that drifted, or has no golden yet (with the book's
    update command: `launcher`, its command line, or none)."""
    where, docs = f"{comparison.page}#{comparison.block_id}", comparison.docs
    if comparison.status == "new":
        return f"{docs}/{where}: no golden yet; run {update_command(launcher, where)} to write it"
    reasons = "".join(f"  {reason}\n" for reason in comparison.notes())
    return f"{docs}/{where} drifted from its golden:\n" + (reasons + comparison.diff(root))


def _failure_of(page: str, block: Block, run: BlockRun | None) -> Failure:
    """Why a block shows no output: its run's failure, or why it never ran."""
    if run is not None and run.failure:
        return Failure(page, block.id, block.snippet, run.failure, run.after, docs=block.docs)
    if printed_name(block.id)[1]:
        message = f"{block.where}: not run: the block printed no such fence when it ran"
    else:
        message = f"{block.where}: not run (the build was stopped)"
    return Failure(page, block.id, block.snippet, message, docs=block.docs)
