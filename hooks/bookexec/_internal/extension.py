"""The seam through which a book adds its own features: `Extension`, and `BuildView`, what one
may read of a build.

An extension never holds the engine's `Build` (its stages, its executor, its mutable state):
each of its hooks is handed a `BuildView`, the members this book's extensions read and nothing
more, each read-only (a `Mapping`, a `Sequence`, a frozen dataclass). MkDocs' objects come with
MkDocs' public types. `bookexec._internal.engine.Build` answers the view; mypy holds it to it where
the engine hands a build to a hook.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

    from bookexec._internal.context import BookContext
    from bookexec._internal.discover.blocks import Block
    from bookexec._internal.execute.model import PageRun
    from bookexec._internal.files import CachePaths
    from bookexec._internal.goldens.measured import Fact
    from bookexec._internal.pipeline.judge import Verdict


class BuildView(Protocol):
    """What an extension reads of the build under way; nothing of it changes the build."""

    @property
    def context(self) -> BookContext:
        """The book, opened as the build began (`bookexec._internal.context`): its root, settings
        and the paths they name, with MkDocs' configuration (frozen)."""
        ...

    @property
    def paths(self) -> CachePaths:
        """The build's paths under `.cache/bookexec/`."""
        ...

    @property
    def mode(self) -> str:
        """`check` or `update` (GOLDEN)."""
        ...

    @property
    def execute(self) -> bool:
        """False under BOOK_EXEC=off: nothing runs, each block shows its golden."""
        ...

    @property
    def only_page(self) -> str | None:
        """The one page that runs under GOLDEN_ONLY, else None."""
        ...

    @property
    def versions(self) -> Mapping[str, str]:
        """The runtime's versions, name -> version (`Runtime.versions`)."""
        ...

    @property
    def plans(self) -> Mapping[str, Sequence[Block]]:
        """Each page's blocks, in the book's order."""
        ...

    @property
    def sources(self) -> Mapping[str, tuple[str, Mapping[str, Any]]]:
        """Each page entered so far -> its markdown (lines as in the file) and front matter."""
        ...

    @property
    def offsets(self) -> Mapping[str, int]:
        """Page -> lines of front matter before its markdown."""
        ...

    @property
    def pending_blocks(self) -> Set[tuple[str, str]]:
        """(page, block id) of the blocks shown from their goldens while they run (serve)."""
        ...

    def pending(self, page: str, /) -> bool:
        """Under serve: the page's blocks still run, so it shows its goldens."""
        ...

    def results(
        self, page: str, /
    ) -> tuple[Sequence[tuple[Block, str, Sequence[Fact]]], PageRun | None]:
        """Each block of a page with what it printed and recorded, and the page's run (None
        under BOOK_EXEC=off, where the outputs are the goldens'); waits for the page's run."""
        ...

    def judged(self, page: str, block: Block, /) -> Verdict:
        """A block's verdict: its output as shown, its comparison, or why it has none."""
        ...

    def mask_shown(self, text: str, /) -> str:
        """`text` with the build's secrets masked, as everything a page shows is."""
        ...

    def say(self, message: str, /) -> None:
        """A line in the build's log."""
        ...


class Extension:
    """A book's own feature: the engine calls each method at a fixed point of a build, handing
    it a `BuildView`; all are optional.

    An extension object lives as long as the Engine; what it keeps for one build it keys on,
    or resets in, `start`. It fails a build by raising `BookError`.
    """

    def start(self, build: BuildView, config: MkDocsConfig) -> None:
        """A new build began (`on_config`, each rebuild's too): nothing is scanned yet."""

    def read_only(self) -> tuple[str, ...]:
        """Folders of the book this extension keeps (its records), relative to the book's root
        (mkdocs.yml's): its blocks may change none of their files, like the docs_dir's and the
        goldens' (`execute.watch`). Asked as a build that runs blocks begins, before `start`
        (not under serve, where the author edits the book while blocks run)."""
        return ()

    def scan(self, build: BuildView, src: str, path: Path) -> list[Block] | None:
        """At `on_files`, for each page before any is planned: the blocks of a page this
        extension renders itself (a lab), or None: not its page. The first extension to claim
        a page owns it; the engine's fence never renders an owned page."""
        return None

    def files(self, build: BuildView, files: Files, config: MkDocsConfig) -> Files:
        """At `on_files`, once every page is planned (and its blocks started): MkDocs' files;
        return them, with any the extension adds."""
        return files

    def pre_page(self, build: BuildView, page: Page, config: MkDocsConfig) -> None:
        """Before MkDocs reads a page (`on_pre_page`), owned pages included: the one point
        where an owned page's source can still be replaced."""

    def page_markdown(
        self, build: BuildView, page: Page, markdown: str, config: MkDocsConfig, files: Files
    ) -> str:
        """A chapter's markdown after its facts are filled in (`on_page_markdown`; never an
        owned page's); return it, changed or not. Extensions apply in their listed order."""
        return markdown

    def rendered(self, build: BuildView, page: Page) -> None:
        """MkDocs has rendered the page, owned pages included (`on_page_content`): what another
        plugin's render changed on it can be put back here."""

    def content(self, build: BuildView, page: Page, html: str) -> str:
        """The page's rendered HTML (`on_page_content`, after `rendered`; owned pages
        included), before the search index reads it; return it, changed or not."""
        return html

    def facts(
        self, build: BuildView, page: str, block_id: str, release: str
    ) -> dict[str, Fact] | None:
        """A block's facts as another release recorded them (`{{fact:...@release}}` in a
        page's prose), or None: the next extension is asked."""
        return None

    def reads(self, build: BuildView, page: str, markdown: str) -> set[str]:
        """Under `mkdocs serve --dirty`, at `on_files`: other pages whose runs this extension
        shows on `page` (a table over the book); the page is rendered again when one of their
        runs changes."""
        return set()

    def problems(self, build: BuildView) -> list[str]:
        """At the build's end, every page rendered, when blocks ran (not under BOOK_EXEC=off):
        problems found over the whole build, reported with its failures (under serve, said as
        warnings)."""
        return []

    def check(self, build: BuildView) -> str | None:
        """At the end of a check (GOLDEN=check) that found nothing wrong: a problem that must
        still fail the build, or None. Not asked in an update, which `after_update` repairs."""
        return None

    def after_update(self, build: BuildView) -> None:
        """At the end of an update (GOLDEN=update), once the goldens are written: before its
        failures are said."""

    def post_build(self, build: BuildView) -> None:
        """The build's pages are all written (`on_post_build`), before the build is judged."""
