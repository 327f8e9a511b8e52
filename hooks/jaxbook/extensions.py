"""This book's features, each an `Extension` the engine calls at fixed points of a build.

`book_extensions` lists them, for the plugin's `extensions` option; the engine knows none
of them by name.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from bookexec._internal.discover.blocks import Block
from bookexec._internal.discover.memo import ScanMemo
from bookexec._internal.errors import BookError
from bookexec._internal.extension import BuildView, Extension
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.goldens.store import Provenance, golden_path, parse, read_versions
from bookexec._internal.logs import LogFilter
from bookexec._internal.render import prose
from jaxbook import (
    audit,
    backends,
    census,
    jax_changes,
    labcache,
    labs,
    labstyle,
    notebooks,
    provenance,
    search_rank,
)


def _triple(versions: Mapping[str, str]) -> tuple[str, str, str]:
    return versions["jax"], versions["jaxlib"], versions["python"]


class ProvenanceNote(Extension):
    """The note closing each page with executed blocks: how its outputs were made."""

    def __init__(self) -> None:
        self.date = ""  # one date for every page of a build

    def start(self, build: BuildView, config: MkDocsConfig) -> None:
        """Fix this build's date."""
        self.date = provenance.build_date(build.context.settings.environ)

    def made(
        self, build: BuildView, src: str
    ) -> tuple[Provenance, bool, list[provenance.Setup]] | None:
        """How this page's outputs were made, whether they are the goldens' (nothing ran), and
        what its blocks ran with; None for a page with no executed blocks."""
        blocks = build.plans.get(src)
        if not blocks:
            return None
        if not build.execute or build.pending(src):
            recorded = provenance.from_goldens(build.context.golden_dir, blocks)
            return (recorded, True, []) if recorded else None
        try:
            _, run = build.results(src)
        except BookError:  # a cancelled page: the failure is reported at its block
            return None
        if run is None or run.failure:
            return None
        made = Provenance.of(build.versions, run.backend, run.devices)
        return made, False, provenance.setups_of(run)

    def page_markdown(
        self, build: BuildView, page: Page, markdown: str, config: MkDocsConfig, files: Files
    ) -> str:
        """Append the note."""
        src = page.file.src_uri
        made = self.made(build, src)
        if made is None:
            return markdown
        said, recorded, setups = made
        return markdown + provenance.note(said, recorded, self.date, setups)


class Labs(Extension):
    """Lab notebooks: their code cells run as blocks; each chapter links to its lab."""

    def __init__(self, notes: ProvenanceNote, renders: LabRenders) -> None:
        self.notes = notes
        self.renders = renders
        self.pages: set[str] = set()
        self.titles: dict[str, str] = {}  # each lab's title in the nav, where it gives one
        self.sheets: list[str] = []  # the inline stylesheets taken out of the lab pages
        self.used: set[str] = set()  # the classes the lab pages name
        self.site_dir = Path()
        # Under serve: each lab's scan, reused while its notebook and the kit are unchanged.
        self.scans: ScanMemo[list[Block]] = ScanMemo()

    def start(self, build: BuildView, config: MkDocsConfig) -> None:
        """Forget the last build's labs."""
        self.pages = set()
        self.titles = {}
        self.sheets, self.used = [], set()
        self.site_dir = Path(config.site_dir)

    def scan(self, build: BuildView, src: str, path: Path) -> list[Block] | None:
        """A lab's code cells, as blocks; None for a page that is not a lab."""
        if not labs.is_lab(src):
            return None
        self.pages.add(src)
        if not build.context.serving:  # a build of its own reads every lab afresh
            return labs.scan_lab(src, path)
        return list(self.scans.get(src, path, lambda: labs.scan_lab(src, path)))

    def pre_page(self, build: BuildView, page: Page, config: MkDocsConfig) -> None:
        """Write the lab's executed copy, which mkdocs-jupyter then renders."""
        src = page.file.src_uri
        if not labs.is_lab(src):
            return
        if page.title:  # the nav's, before mkdocs-jupyter puts the notebook's heading there
            self.titles[src] = page.title
        made = self.notes.made(build, src)
        note = ""
        if made:
            said, recorded, setups = made
            note = provenance.note_html(said, recorded, self.notes.date, setups)
        source = Path(config.docs_dir) / src
        # The reader's notebook, shipped next to the page, which links to it under its title.
        site_path = notebooks.site_path(Path(config.site_dir), page.file.dest_uri, src)
        in_site = site_path.relative_to(Path(config.site_dir)).as_posix()
        colab = labs.colab_url(config.repo_url, config.remote_branch, in_site)
        jax, jaxlib, _ = _triple(build.versions)
        blocks = build.plans.get(src, [])
        nb = labs.reader_notebook(labs.read(source, src), blocks, jax, jaxlib, colab)
        notebooks.write(site_path, nb, build.mask_shown)
        download = labs.download_link(src, colab)
        copy = labs.render(build, src, source, build.paths.labs, note, download)
        page.file.abs_src_path = str(copy)
        if build.context.serving and build.pending(src):  # converted when its run ends, not twice
            self.renders.cache.defer(copy)

    def rendered(self, build: BuildView, page: Page) -> None:
        """A lab the nav gives a title keeps it, as a Markdown page does. mkdocs-jupyter puts
        the notebook's first heading in its place as it renders, and under `mkdocs serve
        --dirty` a page not rendered again keeps the nav's: the nav named one lab two ways."""
        title = self.titles.get(page.file.src_uri)
        if title:
            page.title = title

    def content(self, build: BuildView, page: Page, html: str) -> str:
        """A lab's inline stylesheets out of the page, a link to the shared one in."""
        if not labs.is_lab(page.file.src_uri):
            return html
        content, sheets = labstyle.take_styles(html)
        self.sheets.extend(sheets)
        self.used |= labstyle.classes(content)
        href = get_relative_url(labstyle.SITE_PATH, page.url)
        return f'<link rel="stylesheet" href="{href}">' + content

    def post_build(self, build: BuildView) -> None:
        """Write the labs' shared stylesheet (a build that rendered no lab keeps the last)."""
        if self.sheets:
            path = self.site_dir / labstyle.SITE_PATH
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(labstyle.shared_sheet(self.sheets, self.used))

    def page_markdown(
        self, build: BuildView, page: Page, markdown: str, config: MkDocsConfig, files: Files
    ) -> str:
        """End the chapter's task with a link to its lab."""
        return labs.add_lab_link(markdown, page.file.src_uri, self.pages)


class Search(Extension):
    """Each page's place in the reader's search (`jaxbook.search_rank`)."""

    def rendered(self, build: BuildView, page: Page) -> None:
        """Set the page's `search` meta before Material's search indexes it (on_page_context);
        a lab's meta is the notebook's, so it is set here rather than in the Markdown."""
        meta = search_rank.search_meta(page.file.src_uri, page.meta)
        if meta is not None:
            page.meta["search"] = meta


class Census(Extension):
    """The census table, filled in where a page asks for it."""

    def page_markdown(
        self, build: BuildView, page: Page, markdown: str, config: MkDocsConfig, files: Files
    ) -> str:
        """Replace the census marker with the table, from this build's results."""
        docs = Path(config.docs_dir)

        def rows() -> list[census.Row]:
            order = census.nav_order(config.nav, build.plans)
            titles = dict(census.nav_pages(config.nav))
            return census.rows(order, docs, lambda p: build.results(p)[0], titles)

        return census.fill(markdown, page.file.src_uri, rows)

    def reads(self, build: BuildView, page: str, markdown: str) -> set[str]:
        """A page with the census shows every page's run."""
        return (
            {p for p, blocks in build.plans.items() if blocks}
            if census.MARKER in markdown
            else set()
        )


class Notebooks(Extension):
    """Each chapter with code, offered as a notebook beside its page."""

    def page_markdown(
        self, build: BuildView, page: Page, markdown: str, config: MkDocsConfig, files: Files
    ) -> str:
        """Write the chapter's notebook and link to it (front matter `notebook: false`: none)."""
        src = page.file.src_uri
        blocks = build.plans.get(src)
        if not blocks or not page.meta.get("notebook", True):
            return markdown
        padded = "\n" * build.offsets.get(src, 0) + markdown
        if not notebooks.fences_as_planned(padded, blocks):
            # Saved again since this build scanned it: the rebuild the save asked for writes
            # the notebook from the page as it is now.
            build.say(f"bookexec: {src} changed while this build read it; its notebook waits")
            return notebooks.add_link(markdown, src)
        nb = notebooks.chapter_notebook(
            src,
            padded,
            blocks,
            build.context.golden_dir,
            _triple(build.versions),
            build.context.root,
        )
        path = notebooks.site_path(Path(config.site_dir), page.file.dest_uri, src)
        notebooks.write(path, nb, build.mask_shown)
        return notebooks.add_link(markdown, src)


class Audit(Extension):
    """The prose audit over every rendered page and the nav (see `jaxbook.audit`)."""

    def __init__(self) -> None:
        self.nav_titles: list[str] = []

    def files(self, build: BuildView, files: Files, config: MkDocsConfig) -> Files:
        """Note the nav's titles, which the audit reads too."""
        self.nav_titles = audit.nav_titles(config.nav)
        return files

    def problems(self, build: BuildView) -> list[str]:
        """Every audit finding, naming page and line."""
        if not build.sources:  # no page rendered (`./book update PAGE`): its nav alone
            return audit.audit_nav(self.nav_titles)
        outputs: dict[str, list[str]] = {}
        book_numbers: set[str] = set()
        for page in build.plans:
            try:
                results, _ = build.results(page)
            except BookError:
                continue
            outputs[page] = [output for _, output, _ in results]
            numbers, _ = audit.produced([], [f for _, _, facts in results for f in facts])
            book_numbers |= {n for n in numbers if audit._large(n)}
        versions = {build.versions["jax"], build.versions["jaxlib"]}
        records = sorted(
            p for p in (build.context.root / jax_changes.RECORDS).glob("*") if p.is_dir()
        )
        for folder in [build.context.golden_dir, *records]:
            recorded = read_versions(folder)
            if recorded:
                versions |= {recorded.version("jax"), recorded.version("jaxlib")}
        problems = audit.audit_nav(self.nav_titles)
        for page, (markdown, meta) in sorted(build.sources.items()):
            results = build.results(page)[0] if page in outputs else []
            page_numbers, page_names = audit.produced(
                outputs.get(page, []), [f for _, _, facts in results for f in facts]
            )
            allowed, bad = audit.allowances(meta, page)
            only_versions, wrong = audit.versions_only(meta, page)
            problems += bad + wrong
            problems += audit.audit_page(
                page,
                markdown,
                page_numbers,
                book_numbers,
                page_names,
                allowed,
                versions,
                only_versions=only_versions,
                generated=audit.GENERATED_KEY in meta,
            )
        return problems


class OtherJax(Extension):
    """The book as older JAX releases ran it: their values in prose, and the generated page."""

    def __init__(self) -> None:
        # A one-page update: the other chapters' shares of the generated page, made while
        # its page runs (their goldens do not change), so that only its own waits for the run.
        self.made: dict[str, jax_changes.Chapter] = {}

    def start(self, build: BuildView, config: MkDocsConfig) -> None:
        """Forget the last build's shares."""
        self.made = {}

    def read_only(self) -> tuple[str, ...]:
        """The older releases' records are the book's: no block may change them."""
        return (jax_changes.RECORDS.as_posix(),)

    def files(self, build: BuildView, files: Files, config: MkDocsConfig) -> Files:
        """Every page is scanned and the named page runs: make the other chapters' shares."""
        if build.mode == "update" and build.only_page and jax_changes.generated(build.context):
            self.made = jax_changes.chapters(build.context, _scanned(build), {build.only_page})
        return files

    def facts(
        self, build: BuildView, page: str, block_id: str, release: str
    ) -> dict[str, Fact] | None:
        """A value as an older JAX printed it, from that release's record."""
        folder = build.context.root / jax_changes.RECORDS / release
        if block_id == prose.VERSIONS_BLOCK:
            prov = read_versions(folder)
            if prov is None:
                return None
            return {name: Fact(name, "exact", value) for name, value in prov.versions}
        record = golden_path(folder, page, block_id)
        if not record.is_file():
            return None
        return {fact.name: fact for fact in parse(record.read_text()).facts}

    def check(self, build: BuildView) -> str | None:
        """The generated page must match the goldens it is made from."""
        return jax_changes.page_problem(build.context)

    def after_update(self, build: BuildView) -> None:
        """Rewrite the generated page from the new goldens when it no longer matches."""
        # Written only when its text changed: one render, not a check and then a write.
        scanned = _scanned(build)
        if jax_changes.generated(build.context) and jax_changes.write_page(
            build.context, scanned, self.made
        ):
            docs = build.context.settings.docs
            build.say(f"bookexec: rewrote {docs}/{jax_changes.PAGE} from the new goldens")


class Accelerators(Extension):
    """The book on an accelerator: the generated page and the chapters' notes must match the
    committed records (`jaxbook.backends`)."""

    def read_only(self) -> tuple[str, ...]:
        """The records are the accelerator's: no block may change them."""
        return (backends.RECORDS.as_posix(),)

    def check(self, build: BuildView) -> str | None:
        return backends.problems(build.context)


def _scanned(build: BuildView) -> Mapping[str, Sequence[Block]] | None:
    """The build's scan, which is the page's own unless markdown-exec runs fences without
    `exec` (then the generated page scans them itself)."""
    return None if build.context.settings.auto else build.plans


class ConvertingNotice(LogFilter):
    """Drops mkdocs-jupyter's "Converting notebook (execute=False)" line, one a lab: its cells
    ran in the book's workers, and the lab count at the build's end says what was converted."""

    LOGGERS = ("mkdocs.mkdocs-jupyter",)

    def filter(self, record: logging.LogRecord) -> bool:
        """False for the notice; every other record passes."""
        return not record.getMessage().startswith("Converting notebook (execute=False)")


_RENDERER = "mkdocs-jupyter"  # the plugin that converts a lab to its page


class LabRenders(Extension):
    """Labs are converted again only when their executed copy, template or renderer changed."""

    def __init__(self) -> None:
        self.cache = labcache.LabRenderCache(None)
        self.notice = ConvertingNotice()

    def start(self, build: BuildView, config: MkDocsConfig) -> None:
        """A fresh cache for this build (with the cache off: nothing stored)."""
        on = build.context.settings.lab_cache()
        self.cache = labcache.LabRenderCache(build.paths.lab_html if on else None)
        # Without mkdocs-jupyter (`./book update PAGE#BLOCK` renders no page) nothing converts
        # a lab: importing its converter would cost the update a second or more for nothing.
        if _RENDERER in getattr(config, "plugins", {}):
            self.cache.install()
        self.notice.install()

    def post_build(self, build: BuildView) -> None:
        """Say how many labs came from the cache."""
        hits, misses = self.cache.counts()
        waiting = self.cache.waiting
        if waiting:
            build.say(
                f"bookexec: labs: {hits} rendered from the cache, {misses} converted, "
                f"{waiting} waiting until their cells have run (converted then)"
            )
        elif hits or misses:
            build.say(
                f"bookexec: labs: {hits} rendered from the cache, {misses} converted "
                "(their cells ran in the book's workers)"
            )


def book_extensions() -> list[Extension]:
    """This book's extensions, in the order their page markdown is applied."""
    notes, renders = ProvenanceNote(), LabRenders()
    return [
        *(
            Census(),
            Notebooks(),
            Labs(notes, renders),
            notes,
            Audit(),
            OtherJax(),
            Accelerators(),
            renders,
        ),
        Search(),
    ]
