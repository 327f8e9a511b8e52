"""The finish stage: a build's end, once every page has rendered, so the report is complete.

It closes the runs, checks that every planned block was rendered, and then, by mode: under
BOOK_EXEC=off the summary alone; under serve the pages still running and the summary; in a
check the report (failures, drift, new and stale goldens, versions) said, annotated under
GitHub Actions, saved for the review when it fails; in the update the goldens written, and the
claims that would make the prose false refused. The book's extensions take part through
`Contributions`; no stage holds the `Build`, which answers for them.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bookexec._internal.context import BookContext
from bookexec._internal.errors import BookError
from bookexec._internal.escapes import terminal
from bookexec._internal.execute.progress import Progress, summary
from bookexec._internal.files import write_atomic
from bookexec._internal.goldens import actions, review
from bookexec._internal.goldens.report import Report
from bookexec._internal.goldens.store import Provenance, golden_path, read_versions
from bookexec._internal.pipeline.judge import Judge
from bookexec._internal.pipeline.plan import Plan
from bookexec._internal.pipeline.render import RenderStage
from bookexec._internal.render import prose
from bookexec._internal.settings import Settings

log = logging.getLogger("mkdocs.plugins.bookexec")  # the engine's log (`bookexec._internal.engine`)


class Contributions(Protocol):
    """What the book's extensions add to a build's end (`extension.Extension`'s methods of the
    same names, each extension in turn)."""

    def problems(self) -> list[str]:
        """Problems found over the whole build, reported with its failures."""
        ...

    def check(self) -> str | None:
        """After a clean check: a problem that must still fail the build, or None."""
        ...

    def after_update(self) -> None:
        """After the update mode wrote the goldens."""
        ...


@dataclass(frozen=True)
class Stages:
    """The stages whose work a build's end reads, and how the build began."""

    plan: Plan
    judge: Judge  # with the runs it judged
    render: RenderStage
    progress: Progress
    started: float  # `time.perf_counter()` as the build began


# A driver's own end of a build, in place of the check's or the update's (under serve:
# `serve.session`); handed the finish stage, whose report it may say and save.
Ending = Callable[["Finish"], None]


class Finish:
    """One build's end: what the other stages found, judged whole, said and written once."""

    def __init__(
        self,
        context: BookContext,
        stages: Stages,
        contributions: Contributions,
        *,
        annotations: actions.Actions | None = None,
        ending: Ending | None = None,
    ) -> None:
        """`ending`: the driver's end of the build instead of a check's or an update's (under
        serve, where nothing fails the server); `annotations`: under GitHub Actions."""
        self.plan = stages.plan
        self.runs = stages.judge.runs
        self.judge = stages.judge
        self.render = stages.render
        self.settings = context.settings
        self.contributions = contributions
        self.root = context.root
        self.ending = ending
        self.progress = stages.progress
        self.versions = stages.render.versions
        # the versions the goldens were written under
        self.recorded = read_versions(context.golden_dir)
        self.started = stages.started
        # Under GitHub Actions the check also annotates each block's fence and writes the job
        # summary (`goldens.actions`); None elsewhere.
        self.annotations = annotations
        self.golden_dir = context.golden_dir
        self.paths = context.cache
        self.finished = False  # `run` began: a build stopped after it keeps its report

    def running(self) -> Provenance:
        """This build's versions, and the backend its pages ran on."""
        return Provenance.of(self.versions, backend=self.runs.backends(self.plan.pages))

    def problems(self) -> list[str]:
        """What the extensions find wrong over the whole build (the book's prose audit)."""
        return self.contributions.problems()

    def report(
        self, running: Provenance | None = None, problems: list[str] | None = None
    ) -> Report:
        """One report for the whole build: failures, drift, new and stale goldens, versions
        (`running`: this build's, by default once every page's run has ended; `problems`: the
        extensions', when already asked)."""
        # A fence a block printed has a golden too: the plan only learns of it as it runs.
        printed = {
            golden_path(self.golden_dir, page, block) for page, block in self.judge.judgements
        }
        planned = self.plan.goldens(self.golden_dir) | printed
        if self.runs.only is None:
            stale = sorted(self.runs.goldens.paths() - planned)
        else:  # GOLDEN_ONLY: a page's own stale goldens, no others
            page, block_ids = self.runs.only
            folder = golden_path(self.golden_dir, page, "-").parent
            mine = self.runs.goldens.paths(folder) if block_ids is None else set()
            stale = sorted(path for path in mine - planned if path.parent == folder)
        notes = self.runs.executor.notes
        running = running or self.running()
        problems = self.problems() if problems is None else problems
        return self.judge.report(stale, notes, problems, self.recorded, running)

    def end(self, pages: set[str] | None = None) -> None:
        """Judge the whole build at its end: every page has run, so the report is complete.
        `pages`: those whose blocks must all have rendered (None: every page)."""
        try:
            self._run(pages)
        finally:
            self.finished = True

    def _run(self, pages: set[str] | None) -> None:
        self.runs.executor.close()
        self.check_all_rendered(pages)
        if not self.settings.execute:
            self._without_execution()
            return
        if self.ending is not None:
            self.ending(self)
            return
        report = self.report()
        review.clear(self.root)  # whatever a snippet left there: this build's report replaces it
        # What `./book stress` reads after each build, whether it passed or not: every claim's
        # values, so it can say by how much each held under each load.
        claims = json.dumps(report.claim_values(), indent=1)
        write_atomic(self.paths.claims, claims + "\n", inside=self.root)
        if self.settings.mode == "update":
            self._update(report)
        else:
            self._check(report)

    def _without_execution(self) -> None:
        """BOOK_EXEC=off: the summary, and what the render found."""
        log.info(self.summary_line(shown=self.plan.blocks()))
        # Nothing ran, but what the render found (a fact no golden fills) still fails it.
        failures = sorted(self.judge.failures.values(), key=lambda f: (f.page, f.block_id))
        for failure in failures:
            log.error(failure.line())
        if failures:
            raise BookError(f"bookexec: {len(failures)} failed with execution off")

    def _check(self, report: Report) -> None:
        """A check: the report said (annotated under GitHub Actions), saved when it fails."""
        for line in report.timing_notes():  # said, never judged: not an error, even here
            log.info(f"bookexec: {line}")
        actions.publish(report, self.annotations, self.plan.fence_line)
        if report.failed:
            for line in report.check_lines():
                log.error(line)
            saved = review.save(report)  # `./book review` works from it: nothing runs twice
            log.error(f"bookexec: {review_hint(self.settings, saved.relative_to(self.root))}")
            log.info(self.summary_line())
            raise BookError(report.summary())
        note = report.version_note()
        if note:
            log.info(f"bookexec: {note}; GOLDEN=update records the new versions")
        log.info(f"bookexec: {report.summary()}")
        stale = self.contributions.check()  # e.g. a generated page must match its goldens
        if stale:
            raise BookError(stale)
        log.info(self.summary_line())

    def _update(self, report: Report) -> None:
        """Write what can be written; refuse, and list, what would make the prose false."""
        for change in report.apply_update():
            log.info(f"bookexec: {change}")
        for line in report.timing_notes(kept_only=True):  # not rewritten for a moved time
            log.info(f"bookexec: {line}")
        refused = report.refused()
        problems = [failure.line() for failure in report.failures] + report.refused_writes
        for c in refused:
            docs = self.settings.docs
            guarded = prose.sentences_using(self.root / docs, c.page, c.block_id, docs)
            lines = [f"REFUSED: {docs}/{c.page}#{c.block_id} (golden not written):"]
            lines += [f"  claim does not hold: {b}" for b in c.broken]
            lines += [f"  it guards {where}: {sentence}" for where, sentence in guarded]
            problems.append("\n".join(lines))
        self.contributions.after_update()
        for problem in problems:
            log.error(terminal(problem))  # a refused claim quotes what a block printed
        log.info(f"bookexec: {report.update_summary()}")
        log.info(self.summary_line())
        if problems:
            raise BookError(
                f"{report.update_summary()}: fix the failures and the prose the refused claims "
                "guard, then run the update again"
            )

    def check_all_rendered(self, pages: set[str] | None = None) -> None:
        """A block the scanner found but markdown-exec never laid out would go unchecked;
        only `pages` are checked, when given (a dirty build renders some)."""
        missed = self.render.missed(pages)
        if not missed:
            return
        message = (
            "executed blocks that no page rendered, so nothing checked them (is the fence "
            "indented, or inside an element Markdown does not parse?):\n  " + "\n  ".join(missed)
        )
        if self.ending is not None:  # the driver's end says it: nothing fails under serve
            self.judge.say(logging.ERROR, f"bookexec: {message}")
            return
        raise BookError(message)

    def summary_line(self, shown: int = 0, running: int = 0) -> str:
        """The closing `bookexec summary:` line (`running`: blocks still running behind it)."""
        statuses = self.judge.statuses()
        return summary(
            self.progress.tally,
            drifted=statuses.count("drifted"),
            new=statuses.count("new"),
            seconds=time.perf_counter() - self.started,
            shown=shown,
            failed=len(self.judge.failures) + len(self.runs.executor.notes),
            running=running,
        )


def review_hint(settings: Settings, report: Path) -> str:
    """How the author reviews a failed check: the launcher's review command where the book has
    one, else the commands MkDocs (or ProperDocs) itself has."""
    if settings.launcher:
        return f"to review each block: {settings.launcher} review ({report})"
    return (
        f"to accept the new outputs: GOLDEN=update {settings.builder} build --strict (or one "
        f"page's: GOLDEN_ONLY=PAGE), or accept each in the browser under {settings.builder} serve"
    )
