"""`mkdocs serve`, in one place: what the serve process keeps across its builds, and what it
adds to each build's events. The engine holds one `ServeSession` under serve and none under
`mkdocs build`; the stages never ask which: what differs reaches them as values.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import Block, ShellFence
from bookexec._internal.discover.memo import ScanMemo, TextMemo
from bookexec._internal.execute.cache import BlockCache
from bookexec._internal.execute.progress import Progress, outside_mkdocs
from bookexec._internal.execute.runner import Executor
from bookexec._internal.files import CachePaths
from bookexec._internal.goldens import review
from bookexec._internal.goldens.compare import GoldenReads
from bookexec._internal.goldens.store import Provenance
from bookexec._internal.pipeline.finish import Finish
from bookexec._internal.pipeline.judge import Judge
from bookexec._internal.pipeline.run import PageExecutor
from bookexec._internal.render.fence import page_summary, strict_warnings
from bookexec._internal.serve import answer, background, dirty, rebuild
from bookexec._internal.serve.browser_review import BrowserReview
from bookexec._internal.serve.search import SearchIndex
from bookexec._internal.serve.state import ServeState
from bookexec._internal.serve.templates import TemplateCache


class ServeSession:
    """One `mkdocs serve` process: its background executor, the browser review, the page graph
    of its dirty rebuilds, the theme's compiled templates and the finished builds' sites."""

    def __init__(self, dirty: bool, live_reload: bool) -> None:
        self.dirty = dirty
        self.live_reload = live_reload
        self.background: background.Background | None = None
        # Under --dirty: what each page's last render read, so that a rebuild renders only the
        # pages an edit touches (`serve.rebuild`), and the last full search index.
        self.graph: rebuild.Graph | None = rebuild.Graph() if dirty else None
        self.search = SearchIndex()
        self.review: BrowserReview | None = None  # accept and keep in the browser
        self.templates = TemplateCache()  # the theme's compiled templates, across rebuilds
        # Each page's scan, reused by the next build where nothing it read has changed.
        self.scans: ScanMemo[tuple[list[Block], list[ShellFence]]] = ScanMemo()
        self.golden_reads: GoldenReads = {}  # each golden's last read, likewise
        self.texts = TextMemo()  # what the page graph reads of the snippets and labs, likewise
        # With live reload: the finished builds' sites, answered from at once.
        self.copies: answer.SiteCopies | None = None
        # Under --dirty: the pages the first build left for the build right after the server
        # starts, and what asks for that build.
        self.deferred: set[str] = set()
        self.rest: background.RebuildSignal | None = None
        self._restore_sigterm = stop_on_sigterm()

    def restart(self, dirty: bool, live_reload: bool) -> None:
        """MkDocs started the serve again (`on_startup`) with this engine kept."""
        self.dirty, self.live_reload = dirty, live_reload
        self._restore_sigterm()
        self._restore_sigterm = stop_on_sigterm()
        if dirty and self.graph is None:
            self.graph = rebuild.Graph()

    # -- as a build starts -------------------------------------------------------------------

    def state(self, context: BookContext, config: Any, warnings: list[str] | None) -> ServeState:
        """What this build is handed of the serve (the background is the executor's say)."""
        files_at_start, config_text = {}, ""
        if self.graph is not None:
            # What the graph reads of the files, read before MkDocs reads them: a file changed
            # during this build then differs at the next one, and renders its pages again.
            watched = [context.docs_dir, context.config_file, *(Path(p) for p in config.watch)]
            files_at_start = rebuild.snapshot(context.root, watched)
            config_text = rebuild.read_or_none(context.config_file) or ""
        review_at = None
        if context.settings.execute:  # one review server for the whole serve
            if self.review is None:
                self.review = BrowserReview(context.root, served_origin(config))
            review_at = (self.review.url, self.review.token)
            self.review.golden_dir = context.golden_dir
            served = f"accepted in the browser under {context.settings.builder} serve"
            self.review.writer = f"{served} (never edit by hand)"
        return ServeState(
            browser_review=review_at,
            only_entered=self.graph is not None,
            files_at_start=files_at_start,
            config_text=config_text,
            warnings=[] if warnings is None else warnings,
            say_now=say_now,
            ending=self.end_build,
            scans=self.scans,
            golden_reads=self.golden_reads,
            texts=self.texts,
        )

    def executor(
        self,
        context: BookContext,
        progress: Progress,
        block_cache: BlockCache | None,
        make: Callable[[None, int], Executor],
    ) -> PageExecutor | None:
        """Issue 18: pages at once from goldens, their blocks run in the background, in one
        executor kept across rebuilds; None when the build runs its own (no live reload, no
        cache to read, execution off, or the `serve: background` option off). `make` makes it
        with no read-only watch and its workers `background.NICE` below the serve."""
        settings = context.settings
        if not background.enabled(
            True, self.live_reload, settings.execute, block_cache, settings.serve.background
        ):
            return None
        if self.background is None or self.background.root != context.root:
            if self.background is not None:
                self.background.shutdown()
            self.background = background.Background(
                context.root,
                make(None, background.NICE),
                settings.serve.refresh,
                settings.serve.wait,
            )
        return self.background.for_build(progress)

    def choose(self, build: Any, files: Any, config: Any, texts: dict[str, str]) -> None:
        """A dirty rebuild: what each page reads, and the pages to render again
        (`serve.dirty`). `build` is the engine's `Build`."""
        docs = Path(config.docs_dir)
        pages = list(files.documentation_pages())
        if self.graph is None:
            dirty.render_all(pages)
            return
        for f in pages:  # a lab's notebook, read as it is
            if f.src_uri not in texts:
                texts[f.src_uri] = self.texts.text(docs / f.src_uri) or ""
        build.titles = {src: rebuild.title_of(text) for src, text in texts.items()}
        inputs = {}
        for src, text in texts.items():
            reads = set().union(*(e.reads(build, src, text) for e in build.extensions))
            inputs[src] = build.page_inputs(src, text, docs / src, reads)
        under_docs = rebuild.relative(docs, build.root) + "/"
        now, nav, text = build.files_at_start, config.nav, build.config_text
        deferred = dirty.choose(
            self.graph, pages, inputs, build.titles, nav, text, now, under_docs, self.live_reload
        )
        if deferred:
            self.deferred = deferred
        build.inputs = inputs

    # -- each page ---------------------------------------------------------------------------

    def page_content(self, judge: Judge, launcher: str, src: str, html: str) -> str:
        """One summary at the top of a page with failures or drift; the details stay at the
        blocks."""
        failures, drifted = judge.page_problems(src)
        return page_summary(failures, drifted, launcher) + html if failures or drifted else html

    def post_page(self, build: Any, src: str, output: str) -> str:
        """The strict build's warnings shown, the page's reads kept for the next rebuild, its
        drift offered to the browser review. `build` is the engine's `Build`."""
        if build.warnings:  # after the page check: the box is no block's
            output = strict_warnings(output, build.warnings)
        if self.graph is not None and src in build.used and not self.deferred:
            self.graph.rendered_page(build.inputs[src].used(*build.used[src]))
        if self.review is not None and build.render.review and src not in build.owned:
            _, drifted = build.judge.page_problems(src)
            self.review.offer(src, [review.entry_of(c, build.root) for c in drifted])
        return output

    # -- the build's end, and the server -------------------------------------------------------

    def end_build(self, finish: Finish) -> None:
        """A serve build's end, in place of a check's: the prose audit as warnings, the pages
        still running, the report `./book review` reads, the summary. Nothing fails it."""
        problems = finish.problems()
        for problem in problems:
            serve_log().warning(f"prose audit: {problem}")
        waiting = finish.runs.executor.pending()
        if waiting:
            log.info(f"bookexec: {len(waiting)} pages show recorded outputs while they run")
        elif finish.runs.background:
            log.info("bookexec: every page shows live outputs")
        pages = finish.plan.pages
        running = sum(len(pages.get(page, [])) for page in waiting)
        # `./book review` walks what the pages show, as after a check build; the backends are
        # those of the runs that ended (waiting for the others would hold the serve).
        ended = {page: blocks for page, blocks in pages.items() if page not in waiting}
        running_now = Provenance.of(finish.versions, backend=finish.runs.backends(ended))
        judged = {page for page, _ in finish.judge.judgements}
        review.save_served(finish.report(running_now, problems), judged)
        log.info(finish.summary_line(running=running))

    def post_build(self, site_dir: Path, urls: Iterable[str]) -> None:
        """The search index whole again after a dirty build; the site kept to answer from."""
        if self.graph is not None:
            self.search.repair(site_dir, set(urls))
        if self.copies is not None:  # before the summary line, which tells that it is done
            self.copies.take(site_dir)

    def env(self, env: Any) -> Any:
        """The theme's templates compiled once, not at every rebuild."""
        return self.templates.attach(env)

    def build_failed(self) -> None:
        """The next build renders every page."""
        if self.graph is not None:
            self.graph.forget()

    def attach(self, server: Any, config: Any) -> Any:
        """Every request answered at once from the last finished build (`serve.answer`); a
        page whose blocks finish in the background reloads live."""
        serve_folder = CachePaths(Path(config.config_file_path).resolve().parent).serve
        if self.copies is None:
            copies = answer.SiteCopies(serve_folder / f"{os.getpid()}-site")
            # The first build's; without a copy MkDocs answers, as it would alone.
            if copies.take(Path(config.site_dir)) and answer.attach(server, copies):
                self.copies = copies
            else:
                copies.remove()
        if self.background is not None:
            self.background.attach(server)
        if self.deferred:  # the pages the first build left: rendered by the next one
            self.rest = background.RebuildSignal(serve_folder / f"{os.getpid()}-rest")
            self.rest.attach(server)
            self.deferred = set()
            later = threading.Timer(background.WATCH_START, self.rest.ask, ["first-build"])
            later.daemon = True
            later.start()
        if self.review is not None:  # an accepted golden rebuilds its page
            self.review.announce()
            self.review.attach(server)
        return server

    def shutdown(self) -> None:
        """Stop the background executor and the review; remove the serve's folders."""
        self._restore_sigterm()
        self._restore_sigterm = lambda: None
        _end(self.background, background.Background.shutdown)
        _end(self.review, BrowserReview.close)
        _end(self.copies, answer.SiteCopies.remove)
        _end(self.rest, background.RebuildSignal.remove)
        self.background = self.review = self.copies = self.rest = None


log = logging.getLogger("mkdocs.plugins.bookexec")  # the engine's log (`bookexec._internal.engine`)


def serve_log() -> logging.Logger:
    """Drift and failures under `mkdocs serve`, outside what a strict config (the book's own)
    counts, so they never abort the server."""
    return outside_mkdocs("bookexec._internal.serve", "%(levelname)-7s -  %(message)s")


def say_now(level: int, text: str) -> None:
    """What the stages find, said as they find it (`pipeline.judge.SayNow`)."""
    serve_log().log(level, text)


Held = TypeVar("Held")


def _end(held: Held | None, end: Callable[[Held], object]) -> None:
    """`end` what is held, if anything is."""
    if held is not None:
        end(held)


def stop_on_sigterm() -> Callable[[], None]:
    """Under `mkdocs serve`, SIGTERM ends it as Ctrl+C does: MkDocs' own shutdown runs
    `on_shutdown`, which stops the workers and removes this process's serve folders (SIGTERM
    used to end the process at once and leave them). Only from the main thread and over the
    default handler; the function returned puts the default back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return lambda: None  # someone else's handler: theirs to keep

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)

    def restore() -> None:
        main = threading.current_thread() is threading.main_thread()
        if main and signal.getsignal(signal.SIGTERM) is interrupt:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    return restore


def unwatched(folders: Iterable[Path], config: Any) -> list[Path]:
    """The folders MkDocs does not watch yet, from its `docs_dir` and `watch`. Its watcher
    polls each folder it is given, in a thread of its own, every half second, and one inside
    another is walked twice: the book's snippet folders under `snippets/` and its goldens (in
    `watch:` too) made 28 pollers where 7 cover the same files; they held the processor and the
    interpreter's lock that a rebuild needs, most of all while blocks ran behind it."""
    roots = [Path(os.path.abspath(config.docs_dir))]
    roots += [Path(os.path.abspath(path)) for path in config.watch]
    kept = []
    for folder in folders:
        path = Path(os.path.abspath(folder))
        if not any(path == root or root in path.parents for root in roots):
            kept.append(folder)
    return kept


def served_origin(config: Any) -> str | None:
    """The served site's address under `mkdocs serve`, which sets `site_url` to it; else the
    dev_addr it listens on."""
    site_url = getattr(config, "site_url", None)
    if site_url:
        return str(site_url)
    address = getattr(config, "dev_addr", None)
    return f"http://{address.host}:{address.port}" if address is not None else None
