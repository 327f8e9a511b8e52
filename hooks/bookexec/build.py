"""The state of one MkDocs build: plan pages, hand outputs to markdown-exec, judge goldens."""

from __future__ import annotations

import logging
import os
import time
from concurrent.futures import CancelledError
from pathlib import Path

from bookexec.book import audit, jax_changes
from bookexec.discover.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.execute import background, cache
from bookexec.execute.eta import RunTimes
from bookexec.execute.progress import Progress, outside_mkdocs, summary
from bookexec.execute.runner import Executor, PageRun
from bookexec.execute.runtime import Runtime
from bookexec.goldens import measured, review
from bookexec.goldens.compare import Comparison, compare
from bookexec.goldens.measured import Claim, Fact
from bookexec.goldens.normalize import machine_path_rules, normalize
from bookexec.goldens.report import Failure, Report
from bookexec.goldens.store import (
    Provenance,
    existing_goldens,
    golden_path,
    mode_from_env,
    read_golden,
    read_versions,
)
from bookexec.goldens.store import parse as parse_golden
from bookexec.render import figures, prose

log = logging.getLogger("mkdocs.plugins.bookexec")


def serve_log() -> logging.Logger:
    """Drift and failures under `mkdocs serve`, outside what a strict config (the book's own)
    counts, so they never abort the server."""
    return outside_mkdocs("bookexec.serve", "%(levelname)-7s -  %(message)s")


_command = "build"  # set by on_startup; survives the config reloads of `mkdocs serve`
_current: Build | None = None


def set_command(command: str) -> None:
    global _command
    _command = command


def start(root: Path, runtime: Runtime) -> Build:
    global _current
    if _current is not None:
        _current.stop()
    _current = Build(root, serving=_command == "serve", runtime=runtime)
    return _current


def stop_current() -> None:
    if _current is not None:
        _current.stop()


def current() -> Build:
    if _current is None:
        raise BookError("an executed block was rendered outside a book build (hooks not loaded?)")
    return _current


class Build:
    def __init__(self, root: Path, serving: bool, runtime: Runtime) -> None:
        self.root = root
        self.runtime = runtime
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
            self.executor = background.executor_for(root, block_cache, self.progress, runtime)
        else:
            self.executor = Executor(
                root, cache=block_cache, progress=self.progress, runtime=runtime
            )
        self.pending_blocks: set[tuple[str, str]] = set()  # shown recorded, being checked
        self.plans: dict[str, list[Block]] = {}
        self.comparisons: dict[tuple[str, str], Comparison] = {}
        self.failures: dict[tuple[str, str], Failure] = {}  # (page, block id or "") -> failure
        self.sources: dict[str, tuple[str, dict]] = {}  # page -> its markdown and front matter
        self.nav_titles: list[str] = []
        self.rendered: set[tuple[str, str]] = set()
        self.page: str | None = None
        self.position = 0
        self.runtime_versions = runtime.versions()
        # The book's pages name jax and jaxlib; a runtime without them leaves them empty.
        self.versions = tuple(self.runtime_versions.get(k, "") for k in ("jax", "jaxlib", "python"))
        self.recorded = read_versions(self.golden_dir)

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

    def enter_page(self, src: str, markdown: str, meta: dict | None = None, offset: int = 0) -> str:
        """Start rendering a page: put recorded values into its prose.

        A reference that cannot be filled is a failure of the page, reported with the rest at
        the end of the build; the page goes on rendering."""
        self.page, self.position = src, 0
        self.sources[src] = ("\n" * offset + markdown, meta or {})  # lines as in the file
        return prose.render(
            markdown, src, self._facts_of, self._figure, on_error=self._prose_failed
        )

    def _prose_failed(self, page: str, message: str) -> None:
        key = (page, f"(prose) {message}")
        self.failures[key] = Failure(page, "", "", message)
        if self.serving:
            serve_log().error(message)

    def _facts_of(
        self, page: str, block_id: str, release: str | None = None
    ) -> dict[str, Fact] | None:
        if block_id == prose.VERSIONS_BLOCK:
            return self._versions_facts(release)
        plan = self.plans.get(page, [])
        index = next((b.index for b in plan if b.id == block_id), None)
        if index is None:
            return None
        if release is not None:  # the value as an older JAX printed it, from its record
            record = golden_path(self.root / jax_changes.RECORDS / release, page, block_id)
            if not record.is_file():
                return None
            return {fact.name: fact for fact in parse_golden(record.read_text()).facts}
        if not self.execute or self.pending(page):
            _, facts, _ = recorded(self.golden_dir, plan[index])
            return {fact.name: fact for fact in facts}
        page_run = self._wait(page)
        if index >= len(page_run.blocks) or page_run.blocks[index].failure:
            raise BookError(f"{plan[index].where}: its values are missing (the block failed)")
        return {fact.name: fact for fact in page_run.blocks[index].facts}

    def _versions_facts(self, release: str | None) -> dict[str, Fact] | None:
        if release is None:
            names = dict(self.runtime_versions)
        else:
            prov = read_versions(self.root / jax_changes.RECORDS / release)
            if prov is None:
                return None
            names = {"jax": prov.jax, "jaxlib": prov.jaxlib, "python": prov.python}
        return {name: Fact(name, "exact", value) for name, value in names.items()}

    def _figure(self, ref: str, where: str) -> str:
        """The HTML of the figure `ref` names, drawn from the values it plots."""
        page = where.removeprefix("docs/").rpartition(":")[0]
        try:
            target, block_id, name, _ = prose.parse_reference(ref, page)
        except ValueError:
            raise BookError(f"{where}: figure '{ref}' must look like block-id.name") from None
        facts = self._facts_of(target, block_id)
        if facts is None:
            raise BookError(
                f"{where}: figure '{ref}' names block '{block_id}', "
                f"which docs/{target} does not have"
            )
        spec = figures.parse_spec(facts[name]) if name in facts else None
        if spec is None:
            raise BookError(
                f"{where}: block '{block_id}' recorded no figure '{name}' (bookexec.facts.figure)"
            )
        plotted = [n for names in spec["series"].values() for n in names]
        values, source = facts, "this build's measurement"
        if not self.execute:
            source = "the values its golden records"
        else:
            # The golden keeps its values while a build measures within their bands (the
            # update mode too rewrites only what left them), so drawing those values gives the
            # same SVG from build to build; a value out of its band is drawn as measured.
            block = next(b for b in self.plans[target] if b.id == block_id)
            golden = {f.name: f for f in recorded(self.golden_dir, block)[1]}
            if all(n in golden and golden[n].kind == facts[n].kind for n in plotted) and not (
                measured.band_failures([golden[n] for n in plotted], [facts[n] for n in plotted])
            ):
                values = golden
                source = (
                    "the values its golden records, which this build measured again "
                    "within their bands"
                )
        caption = f"Drawn at build time by block '{block_id}' from {source}."
        return figures.figure_html(
            name, spec, {n: float(values[n].value) for n in plotted}, caption
        )

    # -- rendering ----------------------------------------------------------------------------

    def output_for(
        self, block_id: str, code: str
    ) -> tuple[Block, str, Comparison | None, Failure | None]:
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

    def judged(self, page: str, block: Block) -> tuple[str, Comparison | None, Failure | None]:
        """A block's output as the reader sees it, its comparison with its golden, or why it
        has no output. A failure never stops the build here: the report at the end lists it."""
        self.rendered.add((page, block.id))
        if not self.execute or self.pending(page):
            if self.execute:
                self.pending_blocks.add((page, block.id))
            output, facts, _ = recorded(self.golden_dir, block)
            return shown(output, facts, "(recorded)"), None, None
        page_run = self._wait(page)
        index = block.index
        run = page_run.blocks[index] if index < len(page_run.blocks) else None
        if run is None or run.failure:
            message = run.failure if run else f"{block.where}: not run (the build was stopped)"
            failure = Failure(page, block.id, block.snippet, message, run.after if run else None)
            self.failures[(page, block.id)] = failure
            if self.serving:
                serve_log().error(message)
            return "", None, failure
        body = normalize(run.output, self.rules)
        comparison = compare(
            self.golden_dir,
            page,
            block.id,
            block.snippet,
            body,
            run.facts,
            run.claims,
            classifier=self.runtime.classify,
        )
        self.comparisons[(page, block.id)] = comparison
        if self.serving and comparison.status != "ok":
            serve_log().warning(_serve_message(comparison, self.root))
        return shown(body, run.facts, page_run.backend), comparison, None

    def page_problems(self, page: str) -> tuple[list[Failure], list[Comparison]]:
        """What this build found wrong on one page: its failures, and its blocks that differ."""
        failures = [f for (p, _), f in self.failures.items() if p == page]
        drifted = [c for (p, _), c in self.comparisons.items() if p == page and c.status != "ok"]
        return failures, drifted

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
        """Under serve (`bookexec.execute.background`): the page's blocks still run, so it shows its
        goldens, marked as recorded and being checked."""
        ready = getattr(self.executor, "ready", None)
        return ready is not None and not ready(page)

    def _wait(self, page: str) -> PageRun:
        try:
            return self.executor.page(page)
        except CancelledError:
            raise BookError(f"docs/{page}: execution was cancelled") from None

    # -- finishing ----------------------------------------------------------------------------

    def running(self) -> Provenance:
        """This build's versions, and the backend its pages ran on."""
        backends = sorted(
            {run.backend for run in self._page_runs() if run.backend not in ("none", "unknown")}
        )
        return Provenance.of(self.runtime_versions, backend=",".join(backends) or "none")

    def _page_runs(self) -> list[PageRun]:
        runs = []
        for page, blocks in self.plans.items():
            if blocks:
                try:
                    runs.append(self._wait(page))
                except BookError:
                    continue
        return runs

    def audit(self) -> list[str]:
        """The prose audit over every rendered page and the nav (see `bookexec.book.audit`)."""
        outputs: dict[str, list[str]] = {}
        book_numbers: set[str] = set()
        for page in self.plans:
            try:
                results, _ = self.results(page)
            except BookError:
                continue
            outputs[page] = [output for _, output, _ in results]
            numbers, _ = audit.produced([], [f for _, _, facts in results for f in facts])
            book_numbers |= {n for n in numbers if audit._large(n)}
        versions = {v for k, v in self.runtime_versions.items() if k != "python"}
        for folder in [self.golden_dir, *sorted((self.root / jax_changes.RECORDS).glob("*"))]:
            recorded = read_versions(folder)
            if recorded:
                versions |= {recorded.jax, recorded.jaxlib}
        problems = audit.audit_nav(self.nav_titles)
        for page, (markdown, meta) in sorted(self.sources.items()):
            results = self.results(page)[0] if page in outputs else []
            page_numbers, page_names = audit.produced(
                outputs.get(page, []), [f for _, _, facts in results for f in facts]
            )
            allowed, bad = audit.allowances(meta, page)
            problems += bad + audit.audit_page(
                page, markdown, page_numbers, book_numbers, page_names, allowed, versions
            )
        return problems

    def report(self) -> Report:
        """One report for the whole build: failures, drift, new and stale goldens, versions."""
        rendered = list(self.comparisons.values())
        planned = {
            golden_path(self.golden_dir, b.page, b.id) for bs in self.plans.values() for b in bs
        }
        stale = sorted(existing_goldens(self.golden_dir) - planned)
        notes = [
            Failure(note.split(":", 1)[0].removeprefix("docs/"), "", "", note)
            for note in self.executor.notes
        ]
        audited = [Failure("", "", "", problem) for problem in self.audit()]
        failures = [*self.failures.values(), *notes, *audited]
        return Report(
            self.root, self.golden_dir, rendered, stale, failures, self.recorded, self.running()
        )

    def finish(self) -> None:
        """Judge the whole build at its end: every page has run, so the report is complete."""
        self.executor.close()
        self.check_all_rendered()
        if not self.execute:
            shown = sum(map(len, self.plans.values()))
            log.info(self.summary_line(shown=shown))
            return
        if self.serving:
            for problem in self.audit():
                serve_log().warning(f"prose audit: {problem}")
            waiting = getattr(self.executor, "pending", list)()
            if waiting:
                log.info(f"bookexec: {len(waiting)} pages show recorded outputs while they run")
            elif getattr(self.executor, "ready", None):
                log.info("bookexec: every page shows live outputs")
            log.info(self.summary_line())
            return
        report = self.report()
        if self.mode == "update":
            self._update(report)
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
        note = report.version_note()
        if note:
            log.info(f"bookexec: {note}; GOLDEN=update records the new versions")
        log.info(f"bookexec: {report.summary()}")
        problem = jax_changes.page_problem(self.root)  # a generated page must match its goldens
        if problem:
            raise BookError(problem)
        log.info(self.summary_line())

    def _update(self, report: Report) -> None:
        """Write what can be written; refuse, and list, what would make the prose false."""
        for change in report.apply_update():
            log.info(f"bookexec: {change}")
        refused = report.refused()
        problems = [failure.line() for failure in report.failures]
        for c in refused:
            guarded = prose.sentences_using(self.root / "docs", c.page, c.block_id)
            lines = [f"REFUSED: docs/{c.page}#{c.block_id} (golden not written):"]
            lines += [f"  claim does not hold: {b}" for b in c.broken]
            lines += [f"  it guards {where}: {sentence}" for where, sentence in guarded]
            problems.append("\n".join(lines))
        if jax_changes.page_problem(self.root) and jax_changes.write_page(self.root):
            log.info(f"bookexec: rewrote {jax_changes.PAGE} from the new goldens")
        for problem in problems:
            log.error(problem)
        log.info(f"bookexec: {report.update_summary()}")
        log.info(self.summary_line())
        if problems:
            raise BookError(
                f"{report.update_summary()}: fix the failures and the prose the refused claims "
                "guard, then run the update again"
            )

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
            serve_log().error(f"bookexec: {message}")
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
            failed=len(self.failures) + len(self.executor.notes),
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
