"""The engine: one `Build` per MkDocs build, made and driven by an `Engine` the plugin owns.

The `Engine` lives as long as the plugin (`bookexec.plugin`), for the whole `mkdocs serve`;
each `on_config`, the first build's and every rebuild's, makes a new `Build`, with the
settings read for it (`bookexec.settings`), and stops the last one. A
`Build` plans pages, hands each block's output to markdown-exec by (page, block id), and
judges the goldens at the end. What is this book's own (audit, census, labs, notebooks...)
reaches a build through `Extension` objects, so the engine never imports `bookexec.book`.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import time
from collections.abc import Iterable
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

from markupsafe import Markup

from bookexec.discover.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.execute import background, cache
from bookexec.execute.eta import RunTimes
from bookexec.execute.progress import Progress, outside_mkdocs, summary
from bookexec.execute.runner import Executor, PageRun
from bookexec.execute.runtime import Runtime
from bookexec.files import CachePaths, exclusive
from bookexec.goldens import actions, measured, review
from bookexec.goldens.compare import Comparison, Snapshot, compare
from bookexec.goldens.measured import Claim, Fact
from bookexec.goldens.normalize import machine_path_rules, normalize
from bookexec.goldens.report import Failure, Report
from bookexec.goldens.store import Provenance, golden_path, read_versions
from bookexec.goldens.store import parse as parse_golden
from bookexec.guard import engine_formatter, register
from bookexec.render import figures, prose, verify
from bookexec.render.fence import anchor_blocks, format_python, page_summary, verify_box
from bookexec.render.layout import Look, shown_text
from bookexec.settings import Settings

log = logging.getLogger("mkdocs.plugins.bookexec")


def serve_log() -> logging.Logger:
    """Drift and failures under `mkdocs serve`, outside what a strict config (the book's own)
    counts, so they never abort the server."""
    return outside_mkdocs("bookexec.serve", "%(levelname)-7s -  %(message)s")


class Extension:
    """A book's own feature: the Build calls each method at a fixed point; all are optional.

    An extension object lives as long as the Engine; what it keeps for one build it keys on,
    or resets in, `start`.
    """

    def start(self, build: Build, config: Any) -> None:
        """A new build began (`on_config`)."""

    def scan(self, build: Build, src: str, path: Path) -> list[Block] | None:
        """The blocks of a page this extension renders itself (a lab), or None: not its page."""
        return None

    def files(self, build: Build, files: Any, config: Any) -> Any:
        """MkDocs' files, planned; return them, with any the extension adds."""
        return files

    def pre_page(self, build: Build, page: Any, config: Any) -> None:
        """Before MkDocs reads a page (`on_pre_page`)."""

    def page_markdown(self, build: Build, page: Any, markdown: str, config: Any, files: Any) -> str:
        """A chapter's markdown after its facts are filled in; return it, changed or not."""
        return markdown

    def facts(self, build: Build, page: str, block_id: str, release: str) -> dict[str, Fact] | None:
        """A block's facts as another release recorded them (`{{fact:...@release}}`)."""
        return None

    def problems(self, build: Build) -> list[str]:
        """Problems found over the whole build, reported with its failures."""
        return []

    def check(self, build: Build) -> str | None:
        """After a clean check: a problem that must still fail the build, or None."""
        return None

    def after_update(self, build: Build) -> None:
        """After the update mode wrote the goldens."""

    def post_build(self, build: Build) -> None:
        """The build's pages are all written (`on_post_build`)."""


class Engine:
    """Made once by the plugin; owns the current Build and the serve process's executor."""

    def __init__(self, runtime: Runtime, extensions: Iterable[Extension] = ()) -> None:
        self.runtime = runtime
        self.extensions = list(extensions)
        self.command = "build"
        self.live_reload = True
        self.build: Build | None = None
        self.background: background.Background | None = None

    def current(self) -> Build:
        """The build under way; an error outside one (a formatter called without the plugin)."""
        if self.build is None:
            raise BookError("an executed block was rendered outside a book build (no plugin?)")
        return self.build

    def on_startup(self, command: str, dirty: bool, live_reload: bool = True) -> None:
        """`build` or `serve` (with live reload or not): kept across the config reloads of
        `mkdocs serve`."""
        self.command = command
        self.live_reload = live_reload

    def on_config(self, config: Any, settings: Settings | None = None) -> Any:
        """A new Build for this build or rebuild, with its settings; the engine's fences
        reach it."""
        self.stop()
        register(config, self.formatter())  # superfences' custom fences, in this config
        root = Path(config.config_file_path).resolve().parent
        serving = self.command == "serve"
        build = Build(
            root, serving, self.runtime, self.extensions, executor=None, settings=settings
        )
        build.executor = self._executor(build)
        build.nav_places = prose.nav_places(config.nav)
        self.build = build
        for extension in self.extensions:
            extension.start(build, config)
        return config

    def formatter(self):
        """The superfences format function for executed Python, bound to the current build;
        `options` are what markdown-exec's validator read from the fence."""

        @engine_formatter  # the guard lets only this formatter run blocks
        def format_executed(
            source: str, language: str, css_class: str, options: dict, md: Any, **kwargs: Any
        ) -> Markup:
            return format_python(self.current(), code=source, md=md, **options)

        return format_executed

    def _executor(self, build: Build):
        settings = build.settings
        block_cache = None
        if build.execute and settings.block_cache(build.serving):
            block_cache = cache.BlockCache(build.paths.blocks)
        behind = background.enabled(
            build.serving, self.live_reload, build.execute, block_cache, settings.serve.background
        )

        def executor(watch: bool) -> Executor:
            return Executor(
                build.root,
                jobs=settings.jobs or None,
                cache=block_cache,
                progress=build.progress,
                runtime=self.runtime,
                watch=watch,
                environ=settings.environ,
                limits=settings.limits,
                seed=settings.hash_seed,
                settings_key=settings.key(),
            )

        if not behind:
            # The author edits the book while serving: no read-only watch then.
            made = executor(watch=build.execute and not build.serving)
            said = outside_mkdocs("bookexec.journal", "%(levelname)-7s -  %(message)s")
            for message in made.killed:  # said, not failed: this build did nothing wrong
                said.warning(message)
            return made
        # Issue 18: serve pages at once from goldens; blocks run in the background, in one
        # executor kept across rebuilds.
        assert block_cache is not None
        if self.background is None or self.background.root != build.root:
            if self.background is not None:
                self.background.shutdown()
            self.background = background.Background(
                build.root, executor(watch=False), settings.serve.refresh, settings.serve.wait
            )
        return self.background.for_build(build.progress)

    def on_files(self, files: Any, config: Any) -> Any:
        """Scan every page (the extensions scan their own), then start running them."""
        build = self.current()
        pages, owned = [], {}
        for f in files.documentation_pages():
            for extension in self.extensions:
                blocks = extension.scan(build, f.src_uri, Path(config.docs_dir) / f.src_uri)
                if blocks is not None:
                    owned[f.src_uri] = blocks
                    break
            else:
                pages.append((f.src_uri, _page_text(f)))
        build.plan(pages, owned)
        for extension in self.extensions:
            files = extension.files(build, files, config)
        return files

    def on_pre_page(self, page: Any, config: Any, files: Any) -> Any:
        """Hand the page to the extensions before MkDocs reads it (a lab is executed here)."""
        for extension in self.extensions:
            extension.pre_page(self.current(), page, config)
        return page

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        """Fill the page's facts, let the extensions add theirs, anchor its executed blocks."""
        build, src = self.current(), page.file.src_uri
        if src in build.owned:
            return markdown
        # Block lines count from the file's top; page.markdown starts after the front matter.
        offset = max(page.file.content_string.count("\n") - markdown.count("\n"), 0)
        markdown = build.enter_page(src, markdown, page.meta, offset)
        for extension in self.extensions:
            markdown = extension.page_markdown(build, page, markdown, config, files)
        blocks = build.plans.get(src)
        if blocks:
            markdown = anchor_blocks(markdown, {block.id for block in blocks})
        return markdown

    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> str:
        """Under serve: one summary at the top of a page with failures or drift."""
        build = self.current()
        if build.serving and page.file.src_uri not in build.owned:
            failures, drifted = build.page_problems(page.file.src_uri)
            if failures or drifted:  # the details stay at the blocks
                html = page_summary(failures, drifted) + html
        return html

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        """Check the page's final HTML: every block once, each output in its own box."""
        return self.current().check_page(page.file.src_uri, output)

    def on_post_build(self, config: Any) -> None:
        """Judge the build: every page has rendered."""
        build = self.current()
        for extension in self.extensions:
            extension.post_build(build)
        build.finish()

    def on_build_error(self, error: Exception) -> None:
        """Stop the build's workers."""
        self.stop()

    def on_serve(self, server: Any, config: Any, builder: Any) -> Any:
        """A page whose blocks finish in the background reloads live."""
        if self.background is not None:
            self.background.attach(server)
        return server

    def on_shutdown(self) -> None:
        """Stop the build and the serve process's background executor."""
        self.stop()
        if self.background is not None:
            self.background.shutdown()
            self.background = None

    def stop(self) -> None:
        """Stop the current build's workers, if a build is under way."""
        if self.build is not None:
            self.build.stop()


class Build:
    """The state of one build: its plan, each block's judged output, failures and drift."""

    def __init__(
        self,
        root: Path,
        serving: bool,
        runtime: Runtime,
        extensions: Iterable[Extension] = (),
        executor: Any = None,
        settings: Settings | None = None,
    ) -> None:
        self.root = root
        self.runtime = runtime
        self.serving = serving
        self.settings = settings or Settings()
        self.extensions = list(extensions)
        self.paths = CachePaths(root)
        self.mode = self.settings.mode
        # BOOK_EXEC=off shows each block's recorded golden instead of running it: for quick
        # prose edits and for measuring what execution costs. It checks nothing.
        self.execute = self.settings.execute
        # Under GitHub Actions the check also annotates each block's fence and writes the job
        # summary (`goldens.actions`); None elsewhere.
        self.actions = actions.from_environ(self.settings.environ)
        self.golden_dir = root / "tests" / "golden"
        # Two updates at once would remove each other's temporary files: the second refuses.
        self._lock = contextlib.ExitStack()
        self.finished = False
        if self.execute and self.mode == "update":
            self._lock.enter_context(exclusive(self.paths.update_lock, "GOLDEN=update"))
        # Issue 24: the goldens as they are before any block runs; every verdict uses these.
        self.goldens = Snapshot.read(self.golden_dir)
        if self.execute and not serving:
            review.clear(root)  # a review report always belongs to the last build that ran
        self.rules = machine_path_rules(root, self.settings.environ)
        self.started = time.perf_counter()
        # Issue 18: block lines estimate the time left from each block's last run time.
        times = RunTimes(self.paths.run_times if self.execute else None)
        self.progress = Progress(log.info, slow=self.settings.slow, times=times)
        self.executor = executor  # the Engine gives the real one; tests a fake
        self.pending_blocks: set[tuple[str, str]] = set()  # shown recorded, being checked
        self.plans: dict[str, list[Block]] = {}
        self.owned: set[str] = set()  # pages an extension renders itself (labs)
        self.nav_places: dict[str, Fact] = {}  # the reserved block `nav` (on_config sets it)
        self.judgements: dict[tuple[str, str], tuple[str, Comparison | None, Failure | None]] = {}
        self.comparisons: dict[tuple[str, str], Comparison] = {}
        self.failures: dict[tuple[str, str], Failure] = {}  # (page, block id or "") -> failure
        self.sources: dict[str, tuple[str, dict]] = {}  # page -> its markdown and front matter
        self.offsets: dict[str, int] = {}  # page -> lines of front matter before its markdown
        # Blocks found on their page's final HTML as planned (labs: judged), and what each
        # page must show, from the formatter (see `check_page`).
        self.rendered: set[tuple[str, str]] = set()
        self.expected: dict[str, dict[str, verify.Expected]] = {}
        self.checked: set[str] = set()  # pages whose final HTML was checked
        self.page: str | None = None
        self.versions: dict[str, str] = dict(runtime.versions())
        self.recorded = read_versions(self.golden_dir)

    # -- planning -----------------------------------------------------------------------------

    def plan(
        self, pages: list[tuple[str, str]], owned: dict[str, list[Block]] | None = None
    ) -> None:
        """Scan every page first, so a bad fence fails before anything runs; then start them.

        Pages an extension renders itself (labs) come already scanned, in `owned`; their
        blocks run like a page's.
        """
        for src, markdown in pages:
            self.plans[src] = scan_page(src, markdown, self.root, self.settings.auto)
        self.plans.update(owned or {})
        self.owned |= set(owned or {})
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
        self.page = src
        self.offsets[src] = offset
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
        if block_id == prose.NAV_BLOCK and release is None:  # reserved: places in the nav
            return self.nav_places
        versions = block_id == prose.VERSIONS_BLOCK  # the reserved block: the versions
        block = None if versions else self.block(page, block_id)
        if block is None and not versions:
            return None
        if release is not None:  # the value as another release printed it: an extension's
            for extension in self.extensions:
                found = extension.facts(self, page, block_id, release)
                if found is not None:
                    return found
            return None
        if block is None:  # the versions this build runs
            return {name: Fact(name, "exact", value) for name, value in self.versions.items()}
        if not self.execute or self.pending(page):
            _, facts, _ = recorded(self.goldens, block)
            return {fact.name: fact for fact in facts}
        run = self.run_of(self._wait(page), block)
        if run is None or run.failure:
            raise BookError(f"{block.where}: its values are missing (the block failed)")
        return {fact.name: fact for fact in run.facts}

    def block(self, page: str, block_id: str) -> Block | None:
        """The page's block with this id (ids are unique in a page: the scanner checks)."""
        return next((b for b in self.plans.get(page, []) if b.id == block_id), None)

    def fence_line(self, page: str, block_id: str) -> int | None:
        """The line of the block's fence in its page's source, None for a block not planned."""
        block = self.block(page, block_id)
        return block.line if block else None

    @staticmethod
    def run_of(page_run: PageRun, block: Block) -> Any:
        """The block's run in its page's run, by id; None if the page stopped before it."""
        return next((run for run in page_run.blocks if run.block.id == block.id), None)

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
            # The golden keeps its values (the update mode never rewrites a golden for a
            # moved time), so drawing them while this build measures within their bands gives
            # the same SVG from build to build; a value out of its band is drawn as measured.
            block = next(b for b in self.plans[target] if b.id == block_id)
            golden = {f.name: f for f in recorded(self.goldens, block)[1]}
            if all(n in golden and golden[n].kind == facts[n].kind for n in plotted) and not (
                measured.band_notes([golden[n] for n in plotted], [facts[n] for n in plotted])
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
        self, block_id: str, code: str, page: str | None = None
    ) -> tuple[Block, str, Comparison | None, Failure | None]:
        """The normalised output markdown-exec shows for block `block_id` of the page being
        rendered (or of `page`): looked up by (page, id), so a block rendered twice, or out
        of order, still gets its own."""
        page = page or self.page or "?"
        block = self.block(page, block_id) if block_id else None
        if block is None:
            raise BookError(
                f"docs/{page}: markdown-exec rendered block '{block_id or '?'}' that the scanner "
                f'did not find; write executed fences as ```python exec="on" id="..."'
            )
        if code.strip("\n") != block.code.strip("\n"):
            raise BookError(f"{block.where}: the snippet changed while the book was building")
        return (block, *self.judged(page, block))

    def laid_out(self, block: Block, output: str, look: Look) -> None:
        """The formatter made the block's boxes: `check_page` expects them on the page."""
        expected = verify.Expected(block.id, block.where, block.code, output, look)
        self.expected.setdefault(block.page, {})[block.id] = expected

    def check_page(self, page: str, output: str) -> str:
        """The page as MkDocs wrote it: every planned block exactly once, each box holding
        exactly what its block holds and printed. A problem fails the check at the end of the
        build like any failure; under serve it is shown at the top of the page."""
        blocks = self.plans.get(page, [])
        if not blocks:
            return output
        self.checked.add(page)
        if page in self.owned:  # a lab: mkdocs-jupyter rendered the cells the build judged
            cells = []
            for b in blocks:  # what labs.render wrote into the executed copy
                if (page, b.id) in self.judgements:
                    text, _, failure = self.judgements[(page, b.id)]
                    cells.append((b.id, b.where, f"{failure.message}\n" if failure else text))
            found = verify.lab_problems(page, output, cells)
            shown: set[str] = {block_id for block_id, _, _ in cells}
        else:
            planned = self.expected.get(page, {})
            expected = [planned[b.id] for b in blocks if b.id in planned]
            found = verify.problems(page, output, expected)  # never laid out: check_all_rendered
            shown = set(planned)
        wrong = {block_id for block_id, _ in found}
        self.rendered |= {(page, b.id) for b in blocks if b.id in shown and b.id not in wrong}
        messages = [message for _, message in found]
        for message in messages:
            self.failures[(page, f"(page) {message}")] = Failure(page, "", "", message)
            if self.serving:
                serve_log().error(message)
        if messages and self.serving:
            return verify_box(output, messages)
        return output

    def judged(self, page: str, block: Block) -> tuple[str, Comparison | None, Failure | None]:
        """A block's output as the reader sees it, its comparison with its golden, or why it
        has no output. A failure never stops the build here: the report at the end lists it.
        A block is judged once per build; rendering it again shows the same."""
        key = (page, block.id)
        if key not in self.judgements:
            self.judgements[key] = self._judge(page, block)
        return self.judgements[key]

    def _judge(self, page: str, block: Block) -> tuple[str, Comparison | None, Failure | None]:
        if not self.execute or self.pending(page):
            if self.execute:
                self.pending_blocks.add((page, block.id))
            output, facts, _ = recorded(self.goldens, block)
            return shown(output, facts, "(recorded)"), None, None
        page_run = self._wait(page)
        run = self.run_of(page_run, block)
        page_failures = [r.failure for r in page_run.blocks if not r.block.id and r.failure]
        for message in page_failures:  # the page's worker, not one block: the page's failure
            self._page_failed(page, message)
        if run is None and page_failures:  # shown at the block, counted once, as the page's
            message = f"{block.where}: not run; the page failed: {page_failures[0]}"
            return "", None, Failure(page, block.id, block.snippet, message)
        if run is None:
            failure = Failure(
                page, block.id, block.snippet, f"{block.where}: not run (the build was stopped)"
            )
        elif run.failure:
            failure = Failure(page, block.id, block.snippet, run.failure, run.after)
        else:
            body = normalize(run.output, self.rules)
            comparison = compare(
                self.golden_dir,
                page,
                block.id,
                block.snippet,
                body,
                run.facts,
                run.claims,
                self.runtime.classify,
                self.goldens,
            )
            self.comparisons[(page, block.id)] = comparison
            if self.serving and comparison.status != "ok":
                serve_log().warning(_serve_message(comparison, self.root))
            return shown(body, run.facts, page_run.backend), comparison, None
        self.failures[(page, block.id)] = failure
        if self.serving:
            serve_log().error(failure.message)
        return "", None, failure

    def say(self, message: str) -> None:
        """A line in the build's log."""
        log.info(message)

    def _page_failed(self, page: str, message: str) -> None:
        """A failure of the whole page (its worker, not one block): reported once, as the
        page's, with no block named."""
        if (page, "") not in self.failures:
            self.failures[(page, "")] = Failure(page, "", "", message)
            if self.serving:
                serve_log().error(message)

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
            return [(block, *recorded(self.goldens, block)[:2]) for block in plan], None
        page_run = self._wait(page)
        # A page that failed ran fewer blocks than it has; those it ran are still counted.
        runs = ((block, self.run_of(page_run, block)) for block in plan)
        return [(block, run.output, run.facts) for block, run in runs if run], page_run

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
        return Provenance.of(self.versions, backend=",".join(backends) or "none")

    def _page_runs(self) -> list[PageRun]:
        runs = []
        for page, blocks in self.plans.items():
            if blocks:
                try:
                    runs.append(self._wait(page))
                except BookError:
                    continue
        return runs

    def problems(self) -> list[str]:
        """What the extensions find wrong over the whole build (the book's prose audit)."""
        return [problem for ext in self.extensions for problem in ext.problems(self)]

    def report(self) -> Report:
        """One report for the whole build: failures, drift, new and stale goldens, versions."""
        rendered = list(self.comparisons.values())
        planned = {
            golden_path(self.golden_dir, b.page, b.id) for bs in self.plans.values() for b in bs
        }
        stale = sorted(self.goldens.paths() - planned)
        notes = [
            Failure(note.split(":", 1)[0].removeprefix("docs/"), "", "", note)
            for note in self.executor.notes
        ]
        audited = [Failure("", "", "", problem) for problem in self.problems()]
        failures = [*self.failures.values(), *notes, *audited]
        return Report(
            self.root, self.golden_dir, rendered, stale, failures, self.recorded, self.running()
        )

    def finish(self) -> None:
        """Judge the whole build at its end: every page has run, so the report is complete."""
        try:
            self._finish()
        finally:
            self.finished = True
            self._lock.close()

    def _finish(self) -> None:
        self.executor.close()
        self.check_all_rendered()
        if not self.execute:
            shown = sum(map(len, self.plans.values()))
            log.info(self.summary_line(shown=shown))
            return
        if self.serving:
            for problem in self.problems():
                serve_log().warning(f"prose audit: {problem}")
            waiting: list[str] = getattr(self.executor, "pending", list)()
            if waiting:
                log.info(f"bookexec: {len(waiting)} pages show recorded outputs while they run")
            elif getattr(self.executor, "ready", None):
                log.info("bookexec: every page shows live outputs")
            log.info(self.summary_line())
            return
        report = self.report()
        review.clear(self.root)  # whatever a snippet left there: this build's report replaces it
        if self.mode == "update":
            self._update(report)
            return
        for line in report.timing_notes():  # said, never judged: not an error, even here
            log.info(f"bookexec: {line}")
        actions.publish(report, self.actions, self.fence_line, _stdout)
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
        for extension in self.extensions:  # e.g. a generated page must match its goldens
            stale = extension.check(self)
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
            guarded = prose.sentences_using(self.root / "docs", c.page, c.block_id)
            lines = [f"REFUSED: docs/{c.page}#{c.block_id} (golden not written):"]
            lines += [f"  claim does not hold: {b}" for b in c.broken]
            lines += [f"  it guards {where}: {sentence}" for where, sentence in guarded]
            problems.append("\n".join(lines))
        for extension in self.extensions:
            extension.after_update(self)
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
        """A block the scanner found but markdown-exec never laid out would go unchecked. One
        laid out but not shown as it should be is its page's failure (`check_page`)."""
        missed = [
            block.where
            for page, blocks in self.plans.items()
            for block in blocks
            if (block.page, block.id) not in self.rendered and not self._reported(page, block)
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

    def _reported(self, page: str, block: Block) -> bool:
        """The page check named this block's problem: it was laid out (a lab's cell: judged)."""
        if page not in self.checked:
            return False
        if page in self.owned:
            return (page, block.id) in self.judgements
        return block.id in self.expected.get(page, {})

    def summary_line(self, shown: int = 0) -> str:
        """The closing `bookexec summary:` line."""
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
        """Stop this build's workers; a build stopped before its end leaves no report."""
        self.executor.stop()
        if self.execute and not self.serving and not self.finished:
            review.clear(self.root)
        self._lock.close()


def _stdout(line: str) -> None:
    """A workflow command for GitHub's runner: a line of its own on stdout, never a log record
    (MkDocs' log prefixes its level, and the runner reads only lines that begin with `::`)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _page_text(file: Any) -> str:
    """A page's Markdown, as MkDocs reads it; a page that is not UTF-8 is named, with its line."""
    try:
        return file.content_string
    except UnicodeDecodeError:
        # The error's offset counts from the reader's chunk: find it in the whole file.
        data = Path(file.abs_src_path).read_bytes()
        try:
            data.decode("utf-8")  # a BOM is valid UTF-8: offsets stay the file's
            raise
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise BookError(
                f"docs/{file.src_uri}:{line}: the page is not valid UTF-8 (byte {error.start}, "
                f"{data[error.start : error.start + 1]!r}); save it as UTF-8"
            ) from None


def shown(output: str, facts: list[Fact], backend: str) -> str:
    """What the page shows: the output with measured values in place of their placeholders
    (a `Shown`, which knows where they are, so the page marks them)."""
    if any(fact.kind == "timing" for fact in facts):
        output += (
            f"\n[timed in this build on the {backend} backend: fastest of repeated runs,\n"
            " warm-up excluded, each run waited on with block_until_ready]\n"
        )
    return shown_text(output, facts)


def recorded(goldens: Snapshot, block: Block) -> tuple[str, list[Fact], list[Claim]]:
    """A block's output and facts as its golden recorded them when the build began
    (BOOK_EXEC=off)."""
    text, _ = goldens.golden(golden_path(goldens.golden_dir, block.page, block.id))
    if text is None:
        return "(execution is off and this block has no golden yet)\n", [], []
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
