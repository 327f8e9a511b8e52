"""The engine: one `Build` per MkDocs build, made and driven by an `Engine` the plugin owns.

The `Engine` lives as long as the plugin (`bookexec._internal.plugin`), for the whole `mkdocs
serve`; each `on_config`, the first build's and every rebuild's, makes a new `Build`, with the
settings read for it (`bookexec._internal.settings`), and stops the last one. A `Build` wires the
stages of `bookexec._internal.pipeline` (plan, run, judge, render, finish), and hands each block's
output to the engine's fence by (page, block id). What is this book's own (audit, census,
labs, notebooks...) reaches a build through `Extension` objects (`bookexec._internal.extension`),
each handed the `Build` as a `BuildView`, so the engine never imports `jaxbook`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import logging
import posixpath
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from markupsafe import Markup
from mkdocs.structure.files import File

from bookexec._internal import privacy
from bookexec._internal.context import BookContext, from_config
from bookexec._internal.discover.blocks import Block, printed_name
from bookexec._internal.discover.options import MARKDOWN_EXEC
from bookexec._internal.errors import BookError
from bookexec._internal.execute import cache
from bookexec._internal.execute.eta import RunTimes
from bookexec._internal.execute.model import PageRun
from bookexec._internal.execute.progress import Progress, outside_mkdocs
from bookexec._internal.execute.runner import Executor
from bookexec._internal.execute.runtime import Runtime
from bookexec._internal.execute.watch import CheckoutWatch
from bookexec._internal.extension import Extension as Extension  # re-exported: its home in 0.1.0a1
from bookexec._internal.files import exclusive, killed_holder, not_of_the_book
from bookexec._internal.goldens import actions, measured, review
from bookexec._internal.goldens.compare import Snapshot
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.goldens.report import Failure, Report
from bookexec._internal.goldens.store import Provenance, golden_path, read_versions, update_command
from bookexec._internal.logs import guard_ci_log
from bookexec._internal.pipeline import records
from bookexec._internal.pipeline.drive import RunOptions, executor_for, read_only_watch
from bookexec._internal.pipeline.finish import Finish, Stages
from bookexec._internal.pipeline.judge import Judge, Verdict
from bookexec._internal.pipeline.plan import Plan
from bookexec._internal.pipeline.render import RenderStage
from bookexec._internal.pipeline.run import PageExecutor, Runs
from bookexec._internal.pipeline.terms import Terms, add_assets
from bookexec._internal.render import leftovers, prose, stepper_html
from bookexec._internal.render.fence import anchor_blocks, format_python
from bookexec._internal.render.mdexec import format_markdown_exec
from bookexec._internal.serve import dirty, rebuild
from bookexec._internal.serve.session import ServeSession
from bookexec._internal.serve.state import ServeState
from bookexec.guard import engine_formatter, register

log = logging.getLogger("mkdocs.plugins.bookexec")


class Engine:
    """Made once by the plugin; owns the current Build and the serve process's executor."""

    def __init__(self, runtime: Runtime, extensions: Iterable[Extension] = ()) -> None:
        self.runtime = runtime
        self.extensions = list(extensions)
        self.command = "build"
        self.dirty = False
        self.build: Build | None = None
        self.serve: ServeSession | None = None  # under `mkdocs serve` alone

    def current(self) -> Build:
        """The build under way; an error outside one (a formatter called without the plugin)."""
        if self.build is None:
            raise BookError("an executed block was rendered outside a book build (no plugin?)")
        return self.build

    def on_startup(self, command: str, dirty: bool, live_reload: bool = True) -> None:
        """`build` or `serve` (with live reload or not): kept across the config reloads of
        `mkdocs serve`."""
        self.command = command
        self.dirty = dirty
        if command == "build":
            # The process ends with the build: what MkDocs, its plugins and the engine have
            # imported lives as long, so the collector need not walk it again at every
            # collection (about 30-50 ms of CPU of a small book's build). Not under serve,
            # whose rebuilds' garbage must stay collectable.
            gc.freeze()
        if command == "serve" and self.serve is None:
            self.serve = ServeSession(dirty, live_reload)
        elif command == "serve" and self.serve is not None:
            self.serve.restart(dirty, live_reload)

    def on_config(
        self, config: Any, context: BookContext | None = None, warnings: list[str] | None = None
    ) -> Any:
        """A new Build for this build or rebuild, from the book's context (made by the plugin;
        the settings' defaults when none is given); the engine's fences reach it. `warnings`:
        under serve, where the plugin puts a strict build's warnings."""
        self.stop()
        register(config, self.formatter())  # superfences' custom fences, in this config
        if context is None:
            context = from_config(config, {}, {}, serving=self.command == "serve")
        settings, serving = context.settings, context.serving
        progress = progress_for(context)
        # Issue 25: the book is read-only to its blocks; not under serve, where its author
        # edits it while blocks run.
        watch = self.read_only_watch(context) if not serving else None
        executor, behind = self._executor(context, progress, watch)
        state = None
        if self.serve is not None:
            state = self.serve.state(context, config, warnings)
            state = dataclasses.replace(state, background=behind)
        try:
            build = Build(
                context,
                self.runtime,
                self.extensions,
                executor=executor,
                progress=progress,
                watch=watch,
                served=state,
            )
        except BaseException:
            # A build refused as it starts (a second update at once) ends the workers it
            # launched ahead itself: no build is there for `on_build_error` to stop.
            if not behind:
                executor.stop()
            raise
        if settings.glossary:
            add_assets(config)
        self.build = build
        for extension in self.extensions:
            extension.start(build, config)
        return config

    def formatter(self) -> Callable[..., Markup]:
        """The superfences format function for executed Python, bound to the current build;
        `options` are what markdown-exec's validator read from the fence."""

        @engine_formatter  # the guard lets only this formatter run blocks
        def format_executed(
            source: str,
            language: str,
            css_class: str,
            options: dict[str, Any],
            md: Any,
            **kwargs: Any,
        ) -> Markup:
            build = self.current()
            # as markdown-exec lays it out, or as the book does
            layout = (
                format_markdown_exec if build.settings.fences == MARKDOWN_EXEC else format_python
            )
            return build.render.formatted(
                options.get("id", ""),
                source,
                lambda: layout(build.render, code=source, md=md, **options),
            )

        return format_executed

    def read_only_watch(self, context: BookContext) -> CheckoutWatch | None:
        """The watch that fails a block changing the book (None when nothing runs): the
        book's folders as its configuration names them, its docs_dir, its goldens, the
        page-folders snippets' (each snippet's folder is added once the pages are scanned) and
        its extensions', and its config file."""
        kept = [folder for ext in self.extensions for folder in ext.read_only()]
        return read_only_watch(context, kept)

    def _executor(
        self, context: BookContext, progress: Progress, watch: CheckoutWatch | None = None
    ) -> tuple[PageExecutor, bool]:
        """The build's executor, and whether it is the serve process's background one;
        `watch`, the read-only watch of a build that runs its blocks (not under serve)."""
        settings, serving = context.settings, context.serving
        execute = settings.execute
        block_cache = None
        if execute and settings.stores_blocks(serving):
            block_cache = cache.BlockCache(context.cache.blocks)
        reads = settings.block_cache(serving)  # an update only stores

        def executor(watch: CheckoutWatch | None, nice: int = 0) -> Executor:
            options = RunOptions(
                cache=block_cache, cache_reads=reads, watch=watch, progress=progress, nice=nice
            )
            return executor_for(context, self.runtime, options)

        if settings.records and execute and not serving:
            # Issue 57: the runs are a sharded run's records; a page none covers runs here.
            folder = context.root / settings.records
            found = records.ShardRecords.read(context, self.runtime, folder)
            log.info(
                f"bookexec: the runs of {len(found.pages)} pages are the records of "
                f"{found.shards} shards in {settings.records}"
            )
            recorded = found.times()
            for key, seconds in recorded.items():  # the next run's shards balance by them
                progress.times.record(key, seconds)
            progress.times.save()
            progress.tally.recorded = len(recorded)
            progress.tally.recorded_cached = found.cached()
            return records.RecordExecutor(found, lambda: executor(watch)), False
        if self.serve is not None:
            behind = self.serve.executor(
                context, progress, block_cache if reads else None, executor
            )
            if behind is not None:
                return behind, True
        made = executor(watch)
        if execute:
            # Without a cache to read, every page runs: its worker's interpreter starts
            # now, while MkDocs reads the book (GOLDEN_ONLY runs one page).
            ahead = 0 if block_cache and reads else 1 if settings.only else made.jobs
            made.warm_up(ahead)
        said = outside_mkdocs("bookexec.journal", "%(levelname)-7s -  %(message)s")
        for message in made.killed:  # said, not failed: this build did nothing wrong
            said.warning(message)
        return made, False

    def on_files(self, files: Any, config: Any) -> Any:
        """Scan every page (the extensions scan their own), then start running them."""
        build = self.current()
        pages, owned = [], {}
        for f in files.documentation_pages():
            if problem := not_of_the_book(Path(config.docs_dir) / f.src_uri, build.root):
                raise BookError(
                    f"{build.settings.docs}/{f.src_uri}: {problem}; the site shows only files "
                    "of the book: put the file itself there. Nothing was read"
                )
            for extension in self.extensions:
                blocks = extension.scan(build, f.src_uri, Path(config.docs_dir) / f.src_uri)
                if blocks is not None:
                    owned[f.src_uri] = blocks
                    break
            else:
                pages.append((f.src_uri, _page_text(f, build.settings.docs)))
        build.plan(pages, owned)
        if build.settings.glossary:
            wanted = build.settings
            build.terms = Terms(
                wanted.glossary,
                wanted.glossary_skip,
                wanted.glossary_ignore,
                files,
                config,
                wanted.docs,
                fill=functools.partial(build.render.fill, wanted.glossary),
            )
        # The trace stepper's style and script, for a book that shows one: a page of it names
        # one, or its extensions may (a markdown-exec book's site gets no file it never uses).
        if self.extensions or any(stepper_html.REFERENCE_ANYWHERE.search(t) for _, t in pages):
            _link_assets(config)
            _add_assets(files, config)
        for extension in self.extensions:
            files = extension.files(build, files, config)
        if self.serve is not None and self.dirty:
            self.serve.choose(build, files, config, dict(pages))
        elif self.dirty:  # `mkdocs build --dirty`: no last build is known here
            dirty.render_all(list(files.documentation_pages()))
        return files

    def on_pre_page(self, page: Any, config: Any, files: Any) -> Any:
        """Hand the page to the extensions before MkDocs reads it (a lab is executed here)."""
        build, src = self.current(), page.file.src_uri
        build.entered.add(src)
        build.urls.add(page.url)
        build.written[page.file.dest_uri] = build.written[page.url] = src
        if src in build.inputs:  # the run states this render uses, read before it begins
            build.used[src] = build.run_states(src)
        for extension in self.extensions:
            extension.pre_page(build, page, config)
        return page

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        """Fill the page's facts, let the extensions add theirs, anchor its executed blocks."""
        build, src = self.current(), page.file.src_uri
        if src in build.owned:
            return markdown
        # Block lines count from the file's top; page.markdown starts after the front matter.
        offset = max(page.file.content_string.count("\n") - markdown.count("\n"), 0)
        if build.terms is not None:  # the lines as written, before anything fills them

            def glossary_failed(message: str) -> None:
                build.judge.fail(src, f"(glossary) {message}", message)

            markdown = build.terms.page_markdown(src, markdown, offset, glossary_failed)
        markdown = build.enter_page(src, markdown, page.meta, offset)
        for extension in self.extensions:
            markdown = extension.page_markdown(build, page, markdown, config, files)
        blocks = build.plans.get(src)
        if blocks and build.settings.fences != MARKDOWN_EXEC:  # markdown-exec's page: as is
            markdown = anchor_blocks(markdown, {block.id for block in blocks})
        return markdown

    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> str:
        """Under serve: one summary at the top of a page with failures or drift."""
        build = self.current()
        for extension in self.extensions:
            extension.rendered(build, page)
        for extension in self.extensions:
            html = extension.content(build, page, html)
        if build.terms is not None and page.file.src_uri not in build.owned:
            html = build.terms.page_content(html, page)
        if self.serve is not None and page.file.src_uri not in build.owned:
            src = page.file.src_uri
            html = self.serve.page_content(build.judge, build.render.launcher, src, html)
        return build.masker.mask_shown(html)  # what the search index takes, too

    def on_post_page(self, output: str, page: Any, config: Any) -> str:
        """Check the page's final HTML: every block once, each output in its own box; under
        serve, offer the page's drift to the browser review."""
        build, src = self.current(), page.file.src_uri
        output = build.check_page(src, build.masker.mask_shown(output))  # its title, nav, toc
        if build.terms is not None:  # after the search index read the page: see pipeline.terms
            output = build.terms.post_page(output, src)
        if self.serve is not None:
            output = self.serve.post_page(build, src, output)
        return output

    def on_post_build(self, config: Any) -> None:
        """Judge the build: every page has rendered."""
        build = self.current()
        for extension in self.extensions:
            extension.post_build(build)
        if self.serve is not None:
            self.serve.post_build(Path(config.site_dir), build.urls)
        build.check_leftovers(Path(config.site_dir), Path(config.docs_dir))
        build.finish()

    def on_env(self, env: Any) -> Any:
        """Under serve: the theme's templates compiled once, not at every rebuild."""
        return self.serve.env(env) if self.serve is not None else env

    def on_build_error(self, error: Exception) -> None:
        """Stop the build's workers; the next build renders every page."""
        if self.serve is not None:
            self.serve.build_failed()
        self.stop()

    def on_serve(self, server: Any, config: Any, builder: Any) -> Any:
        """Every request answered at once from the last finished build; a page whose blocks
        finish in the background reloads live (`serve.session`)."""
        return self.serve.attach(server, config) if self.serve is not None else server

    def on_shutdown(self) -> None:
        """Stop the build and the serve process's background executor."""
        self.stop()
        if self.serve is not None:
            self.serve.shutdown()
            self.serve = None

    def stop(self) -> None:
        """Stop the current build's workers, if a build is under way."""
        if self.build is not None:
            self.build.stop()
            actions.resume(self.build.actions)  # a build that ended before its annotations


class Build:
    """One build: its stages (`bookexec._internal.pipeline`) wired together, what the extensions
    read, and their part in its end (`pipeline.finish.Contributions`)."""

    def __init__(
        self,
        context: BookContext,
        runtime: Runtime,
        extensions: Iterable[Extension] = (),
        *,
        executor: PageExecutor,
        progress: Progress | None = None,
        watch: CheckoutWatch | None = None,
        served: ServeState | None = None,
    ) -> None:
        """`context`: the book, opened (`bookexec._internal.context`); `watch`: the read-only watch
        of a build that runs its blocks; `served`: under `mkdocs serve`, what the serve process
        hands this build (`serve.state.ServeState`)."""
        self.context = context
        self.root = root = context.root
        self.watch = watch  # the read-only watch, which the snippets' folders join (`plan`)
        self.serving = serving = context.serving
        self.settings = context.settings
        self.extensions = list(extensions)
        self.paths = context.cache
        self.mode = self.settings.mode
        # BOOK_EXEC=off shows each block's recorded golden instead of running it: for quick
        # prose edits and for measuring what execution costs. It checks nothing.
        self.execute = self.settings.execute
        # Under GitHub Actions the check also annotates each block's fence and writes the job
        # summary (`goldens.actions`); None elsewhere.
        self.actions = actions.from_environ(self.settings.environ)
        if self.actions is not None:  # no line of the log can command GitHub's runner
            guard_ci_log()
            actions.pause(self.actions)  # until the annotations (`Finish`), nor any other
        # The build's secrets, masked in everything a page shows: sources and includes too.
        self.masker = privacy.Masker.from_environ(self.settings.environ)
        self.golden_dir = context.golden_dir
        state = served or ServeState()
        # Set here alone, but by `finish_unrendered` (`./book update PAGE`), which renders no
        # page.
        self.only_entered = state.only_entered
        self.files_at_start = state.files_at_start
        self.config_text = state.config_text
        # Under serve, a snippet's text is read again only once it changed (`discover.memo`).
        self.read_text = state.texts.text if state.texts is not None else rebuild.read_or_none
        # Under serve: the warnings a strict build fails on, shown, not counted (the plugin's).
        self.warnings = state.warnings
        # Filled as MkDocs enters the pages: the pages entered, their URLs, and under `mkdocs
        # serve --dirty` the run states each render used and the pages whose runs each quotes.
        self.entered: set[str] = set()
        self.urls: set[str] = set()  # the URLs of the pages entered
        # Each page entered, by the file MkDocs writes it to and by its URL: the page that
        # wrote a file of the site, for the check of what the build wrote (`leftovers`).
        self.written: dict[str, str] = {}
        self.used: dict[str, tuple[str, dict[str, str]]] = {}
        self.quoting: dict[str, list[str]] = {}
        # Set once, at `on_files` (MkDocs' files, which the constructor cannot have): the
        # glossary, by `Engine.on_files` when the book has one; under `mkdocs serve --dirty`,
        # each page's title and inputs, by `Engine._choose`. None and empty until then.
        self.terms: Terms | None = None
        self.titles: dict[str, str] = {}
        self.inputs: dict[str, rebuild.Inputs] = {}
        # Two updates at once would remove each other's temporary files: the second refuses.
        self._lock = contextlib.ExitStack()
        if self.mode != "update" and (killed := killed_holder(self.paths.update_lock)):
            # Said, not failed: the goldens as they are get judged as always (issue 38).
            outside_mkdocs("bookexec.journal", "%(levelname)-7s -  %(message)s").warning(
                f"bookexec: the last update of the goldens ({killed}) was killed before it "
                "ended: some goldens may hold the old text and some the new; run "
                f"{update_command(self.settings.launcher or self.settings.builder)} "
                "(GOLDEN=update) again to finish it"
            )
        if self.execute and self.mode == "update":
            self._lock.enter_context(exclusive(self.paths.update_lock, "GOLDEN=update"))
        # Issue 24: the goldens as they are before any block runs; every verdict uses these.
        # GOLDEN_ONLY judges and writes its page's alone: the book's others wait until asked.
        within = None
        if self.execute and self.settings.only:
            pages = Plan(self.settings.reading()).names(self.settings.only)
            within = tuple(sorted({golden_path(self.golden_dir, p, "-").parent for p in pages}))
        goldens = Snapshot.read(self.golden_dir, within, state.golden_reads)
        if self.execute and not serving:
            review.clear(root)  # a review report always belongs to the last build that ran
        self.started = time.perf_counter()
        self.progress = progress or progress_for(context)
        self.versions: dict[str, str] = dict(runtime.versions())
        self.recorded = read_versions(self.golden_dir)
        self.planned = Plan(self.settings.reading(), state.scans)
        self.runs = Runs(executor, goldens, self.execute, state.background, self.settings.docs)
        # What differs under serve reaches the stages as values: what they find is said at
        # once, the page shows its problems, and the serve ends the build.
        say = served.say_now if served is not None else None
        self.judge = Judge(context, self.runs, runtime, say_now=say)
        self.render = RenderStage(
            context,
            self.planned,
            self.judge,
            runtime,
            self._other_release,
            shows_problems=served is not None,
            review=state.browser_review,
        )
        stages = Stages(self.planned, self.judge, self.render, self.progress, self.started)
        self.finishing = Finish(
            context,
            stages,
            _Contributions(self),
            annotations=self.actions,
            ending=served.ending if served is not None else None,
        )

    # -- what the extensions (through `extension.BuildView`) and the plugin read ---------------

    def watched(self) -> list[Path]:
        """The folders `mkdocs serve` watches for this book beyond MkDocs' own: the goldens'
        and those of the files its blocks include, where they exist."""
        folders = {self.golden_dir, *self.planned.folders(self.root)}
        return sorted(folder for folder in folders if folder.is_dir())

    @property
    def plans(self) -> dict[str, list[Block]]:
        """Each page's blocks (`Plan.pages`)."""
        return self.planned.pages

    @property
    def owned(self) -> set[str]:
        """The pages an extension renders itself (labs)."""
        return self.planned.owned

    @property
    def offsets(self) -> dict[str, int]:
        """Page -> lines of front matter before its markdown."""
        return self.render.offsets

    @property
    def sources(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Page -> its markdown (lines as in the file) and front matter."""
        return self.render.sources

    @property
    def failures(self) -> dict[tuple[str, str], Failure]:
        """(page, block id or a problem's key) -> failure, so far."""
        return self.judge.failures

    @property
    def pending_blocks(self) -> set[tuple[str, str]]:
        """Blocks shown from their goldens while they run (under serve)."""
        return self.judge.pending_blocks

    @property
    def only_page(self) -> str | None:
        """The one page that runs under GOLDEN_ONLY, else None."""
        return None if self.runs.only is None else self.runs.only[0]

    def pending(self, page: str) -> bool:
        """Under serve: the page's blocks still run, so it shows its goldens."""
        return self.runs.pending(page)

    def results(self, page: str) -> tuple[list[tuple[Block, str, list[Fact]]], PageRun | None]:
        """Each block of a page with what it printed and recorded, and the page's run.

        Under BOOK_EXEC=off the outputs are the goldens' and the run is None.
        """
        return self.runs.results(page, self.plans.get(page, []))

    def judged(self, page: str, block: Block) -> Verdict:
        """A block's verdict (`Judge.judged`)."""
        return self.judge.judged(page, block)

    def mask_shown(self, text: str) -> str:
        """`text` with the build's secrets masked, as everything a page shows is."""
        return self.masker.mask_shown(text)

    def say(self, message: str) -> None:
        """A line in the build's log."""
        log.info(message)

    def _other_release(self, page: str, block_id: str, release: str) -> dict[str, Fact] | None:
        for extension in self.extensions:
            found = extension.facts(self, page, block_id, release)
            if found is not None:
                return found
        return None

    # -- the stages, as the Engine drives them ------------------------------------------------

    def plan(
        self, pages: list[tuple[str, str]], owned: dict[str, list[Block]] | None = None
    ) -> None:
        """Scan every page first, so a bad fence fails before anything runs; then start them.

        Pages an extension renders itself (labs) come already scanned, in `owned`; their
        blocks run like a page's. With GOLDEN_ONLY the page it names is scanned and started
        first, and the others are scanned while it runs: a bad fence anywhere still fails the
        update before anything is judged or written, and one page's update does not wait for
        the book's scan.
        """
        later: list[tuple[str, str]] = []
        order = [src for src, _ in pages] + list(owned or {})  # the book's, for the report
        if self.execute and self.settings.only:
            named = self.planned.names(self.settings.only)
            if any(src in named for src, _ in pages) or set(owned or {}) & named:
                later = [(src, text) for src, text in pages if src not in named]
                pages = [(src, text) for src, text in pages if src in named]
        self.planned.scan(pages, self.root, self.settings.auto, owned)
        if later and not self.planned.blocks():  # the named page has none: the error lists all
            self.planned.scan(later, self.root, self.settings.auto)
            self.planned.reorder(order)
            later = []
        if not self.execute:
            log.info("bookexec: execute is off: pages show recorded goldens; nothing runs")
            return
        if self.watch is not None:  # before any block runs: a snippet is the book's too
            self.watch.add(self.planned.folders(self.root))
        self._start()
        if later:
            self.planned.scan(later, self.root, self.settings.auto)
            self.planned.reorder(order)

    def _start(self) -> None:
        """Say what runs, and start it."""
        executor = self.runs.executor
        total, pages_with_blocks = self.planned.blocks(), self.planned.pages_with_blocks()
        if self.settings.only:
            total = self._select(self.settings.only)
            pages_with_blocks = 1
        using = "the block cache" if executor.cache else "no cache"
        only = f", GOLDEN_ONLY={self.settings.only}" if self.settings.only else ""
        log.info(
            f"bookexec: {_count(total, 'block')} on {_count(pages_with_blocks, 'page')}, "
            f"{executor.jobs} pages at a time, {using} (GOLDEN={self.mode}{only})"
        )
        plans = self.plans
        if self.runs.only is not None:  # the progress counts what runs
            page = self.runs.only[0]
            plans = {page: plans[page][:total]}
        self.progress.expect(pages_with_blocks, total, plans, executor.jobs)
        self.runs.start(self.plans)

    def _select(self, only: str) -> int:
        """GOLDEN_ONLY: run one page, or one block and the blocks before it (its session
        needs them); judge, and so write, only what it names. Returns how many blocks run."""
        page, block_id = self.planned.select(only)
        running = Provenance.of(self.versions, backend="")
        if self.recorded is not None and self.recorded.versions != running.versions:
            raise BookError(
                f"GOLDEN_ONLY: the goldens were written under {self.recorded.describe()}, this "
                f"build runs {running.describe()}: updating part of them would mix the two; "
                "update the whole book"
            )
        blocks = self.plans[page]
        self.runs.only = (page, None if block_id is None else {block_id})
        if block_id is None:
            return len(blocks)
        return 1 + next(i for i, block in enumerate(blocks) if block.id == block_id)

    def enter_page(
        self, src: str, markdown: str, meta: dict[str, Any] | None = None, offset: int = 0
    ) -> str:
        """Start rendering a page: put recorded values into its prose."""
        return self.render.enter_page(src, markdown, meta, offset)

    def check_page(self, page: str, output: str) -> str:
        """The page's final HTML, checked (`RenderStage.check_page`)."""
        return self.render.check_page(page, output)

    def page_inputs(self, page: str, text: str, path: Path, reads: set[str]) -> rebuild.Inputs:
        """What the page reads (`rebuild.page_inputs`): `reads`, the pages whose runs an
        extension shows on it."""
        blocks = self.plans.get(page, [])
        wrote = rebuild.included(text) + [block.snippet for block in blocks]
        if self.settings.glossary and page != self.settings.glossary:  # its terms' cards
            source = rebuild.relative(path, self.root)
            wrote.append(source[: len(source) - len(page)] + self.settings.glossary)
        snippets = {name: self.read_text(self.root / name) for name in sorted(set(wrote))}
        goldens = {}
        for block in blocks:  # as this build judges them: read as it began
            golden = golden_path(self.golden_dir, page, block.id)
            goldens[golden.relative_to(self.root).as_posix()] = repr(
                self.runs.goldens.golden(golden)
            )
        quoted = {target for target, _ in prose.quoted_blocks(text, page)} | reads
        self.quoting[page] = sorted(quoted - {page})
        run, states = self.run_states(page)
        return rebuild.page_inputs(
            page,
            text,
            [(b.id, b.snippet, b.code, b.options) for b in blocks],
            snippets,
            goldens,
            states,
            run,
            rebuild.relative(path, self.root),
        )

    def run_states(self, page: str) -> tuple[str, dict[str, str]]:
        """The state of the page's own run, and of each run whose values it quotes."""
        plans, quoted = self.plans, {}
        for target in self.quoting.get(page, []):
            # A table over the book shows each page's title too.
            state = self.runs.state(target, plans.get(target, []))
            quoted[target] = f"{state} {self.titles.get(target, '')}"
        return self.runs.state(page, plans.get(page, [])), quoted

    # -- finishing: `pipeline.finish.Finish` ------------------------------------------------

    def running(self) -> Provenance:
        """This build's versions, and the backend its pages ran on."""
        return self.finishing.running()

    def problems(self) -> list[str]:
        """What the extensions find wrong over the whole build (the book's prose audit)."""
        return self.finishing.problems()

    def report(self) -> Report:
        """One report for the whole build: failures, drift, new and stale goldens, versions."""
        return self.finishing.report()

    def finish(self) -> None:
        """Judge the whole build at its end: every page has run, so the report is complete."""
        try:
            self.finishing.end(self._rendered())
        finally:
            self._lock.close()

    def finish_unrendered(self) -> None:
        """GOLDEN_ONLY's end when no page was rendered (`./book update PAGE`,
        `jaxbook.cli.partial`): judge the blocks it ran, then finish as a build's end does,
        checking no page for blocks never laid out."""
        if self.runs.only is None:  # BOOK_EXEC=off: nothing runs, nothing to write
            raise BookError("GOLDEN_ONLY: execution is off (BOOK_EXEC=off); nothing to update")
        page = self.runs.only[0]
        for block in self.plans[page]:
            if self.runs.chosen(page, block):
                self.judged(page, block)
        for run in self.runs.wait(page).blocks:  # the fences its blocks printed, which ran too
            if printed_name(run.block.id)[1]:
                self.judged(page, run.block)
        self.only_entered = True
        self.finish()

    def check_leftovers(self, site_dir: Path, docs_dir: Path) -> None:
        """What the build wrote, read back: any of the engine's markup left in a page, a card,
        a notebook or the search index fails it, named by the page and line that wrote it
        (`render.leftovers`)."""
        files = {}
        for path in sorted(site_dir.rglob("*")):
            if path.suffix in leftovers.SCANNED and path.is_file() and not path.is_symlink():
                files[path.relative_to(site_dir).as_posix()] = path.read_text(
                    encoding="utf-8", errors="replace"
                )
        found = leftovers.scan(files, self._page_of)
        if not found:
            return
        sources = {}
        for page in sorted(self.entered | set(self.plans)):
            text = rebuild.read_or_none(docs_dir / page)
            if text is not None:
                sources[page] = text + self._printed(page)
        glossary, docs = self.settings.glossary, self.settings.docs
        for page, text, message in leftovers.problems(found, sources, glossary, docs):
            self.judge.fail(page, f"(unrendered) {text}", message)

    def _printed(self, page: str) -> str:
        """What the page's blocks printed, each as a fenced block: an output is shown exactly as
        printed, so markup in it is the block's own text, not the engine's leftover."""
        if page not in self.plans:
            return ""
        # A measured value's mark is the engine's (the page shows its digits alone); a golden's
        # bare placeholder is the engine's to fill, never shown.
        outputs = [
            measured.PRINTED.sub(lambda m: m[2] or "", output)
            for _, output, _ in self.results(page)[0]
        ]
        longest = max((len(run) for out in outputs for run in re.findall("`+", out)), default=0)
        fence = "`" * max(3, longest + 1)
        return "".join(f"\n{fence}\n{output}\n{fence}\n" for output in outputs)

    def _page_of(self, path: str, location: str | None) -> str | None:
        """The page a file of the site (or a search entry's location in it) came from: its
        own, or one whose page lies in the same folder, by name (a chapter's notebook)."""
        if location is not None:
            return self.written.get(location) or self.written.get(location.rstrip("/") + "/")
        if path in self.written:
            return self.written[path]
        folder, stem = posixpath.dirname(path), posixpath.splitext(posixpath.basename(path))[0]
        beside = [
            page
            for dest, page in self.written.items()
            if dest.endswith(".html") and posixpath.dirname(dest) == folder
        ]
        named = [page for page in beside if posixpath.splitext(posixpath.basename(page))[0] == stem]
        chosen = named or (beside if len(beside) == 1 else [])
        return chosen[0] if chosen else None

    def check_all_rendered(self) -> None:
        """A block the scanner found but markdown-exec never laid out would go unchecked."""
        self.finishing.check_all_rendered(self._rendered())

    def _rendered(self) -> set[str] | None:
        """The pages whose blocks must all have rendered: with `only_entered`, those entered;
        else None, every page."""
        return self.entered if self.only_entered else None

    def summary_line(self, shown: int = 0, running: int = 0) -> str:
        """The closing `bookexec summary:` line (`running`: blocks still running behind it)."""
        return self.finishing.summary_line(shown, running)

    def stop(self) -> None:
        """Stop this build's workers; a build stopped before its end leaves no report."""
        self.runs.executor.stop()
        if self.execute and not self.serving and not self.finishing.finished:
            review.clear(self.root)
        self._lock.close()


class _Contributions:
    """The extensions' part in a build's end (`pipeline.finish.Contributions`): each
    extension in turn, handed the build."""

    def __init__(self, build: Build) -> None:
        self.build = build

    def problems(self) -> list[str]:
        build = self.build
        return [problem for ext in build.extensions for problem in ext.problems(build)]

    def check(self) -> str | None:
        for extension in self.build.extensions:
            stale = extension.check(self.build)
            if stale:
                return stale
        return None

    def after_update(self) -> None:
        for extension in self.build.extensions:
            extension.after_update(self.build)


def progress_for(context: BookContext) -> Progress:
    """A build's progress lines; each block's last run time estimates the time left."""
    settings = context.settings
    times = RunTimes(context.cache.run_times if settings.execute else None)
    return Progress(log.info, slow=settings.slow, times=times, docs=settings.docs)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _page_text(file: Any, docs: str) -> str:
    """A page's Markdown, as MkDocs reads it; a page that is not UTF-8 is named, with its line
    (under `docs`, the book's docs_dir as messages name it)."""
    try:
        text: str = file.content_string
        return text
    except UnicodeDecodeError:
        # The error's offset counts from the reader's chunk: find it in the whole file.
        data = Path(file.abs_src_path).read_bytes()
        try:
            data.decode("utf-8")  # a BOM is valid UTF-8: offsets stay the file's
            raise
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise BookError(
                f"{docs}/{file.src_uri}:{line}: the page is not valid UTF-8 (byte {error.start}, "
                f"{data[error.start : error.start + 1]!r}); save it as UTF-8"
            ) from None


def _link_assets(config: Any) -> None:
    """Every page links the engine's own script and style (the trace stepper's), so a book
    that shows a stepper needs no line of its own in mkdocs.yml for them; added once,
    whatever the rebuilds."""
    for name in stepper_html.ASSETS:
        uri = f"{stepper_html.ASSET_DIR}/{name}"
        listed = config.extra_css if name.endswith(".css") else config.extra_javascript
        if uri not in [str(item) for item in listed]:
            listed.append(uri)


def _add_assets(files: Any, config: Any) -> None:
    """The engine's assets as files of the site, written from the package (no network)."""
    for name in stepper_html.ASSETS:
        uri = f"{stepper_html.ASSET_DIR}/{name}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, content=stepper_html.asset(name)))
