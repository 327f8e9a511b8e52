"""The plan stage: every page's executed blocks, scanned before any block runs."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from bookexec._internal.discover.blocks import Block, Reading, ShellFence, scan_page, shell_fences
from bookexec._internal.discover.memo import ScanMemo
from bookexec._internal.errors import BookError
from bookexec._internal.goldens.store import golden_path


class Plan:
    """The blocks of each page, in page order; a page without blocks has an empty list."""

    def __init__(
        self,
        reading: Reading | None = None,
        memo: ScanMemo[tuple[list[Block], list[ShellFence]]] | None = None,
    ) -> None:
        self.pages: dict[str, list[Block]] = {}
        self.owned: set[str] = set()  # pages an extension renders itself (labs)
        self.reading = reading or Reading()  # the book's snippet rule, fences and docs_dir
        # The fences markdown-exec runs itself whose outputs have goldens, by page.
        self.shell: dict[str, list[ShellFence]] = {}
        # Under serve: the last build's scans, reused where nothing they read has changed.
        self.memo = memo

    def scan(
        self,
        pages: list[tuple[str, str]],
        root: Path,
        auto: Iterable[str],
        owned: dict[str, list[Block]] | None = None,
    ) -> None:
        """Scan each (page, markdown); a bad fence fails here, before anything runs. Pages an
        extension renders itself come already scanned, in `owned`."""
        auto = tuple(auto)
        for src, markdown in pages:
            if self.memo is None:
                self.pages[src], self.shell[src] = self._scan(src, markdown, root, auto)
                continue
            key = (markdown, root, auto, self.reading)
            scan = functools.partial(self._scan, src, markdown, root, auto)
            blocks, shell = self.memo.get(src, key, scan)
            self.pages[src], self.shell[src] = list(blocks), list(shell)  # the memo's stay as is
        self.pages.update(owned or {})
        self.owned |= set(owned or {})
        self.check_sessions()

    def _scan(
        self, src: str, markdown: str, root: Path, auto: tuple[str, ...]
    ) -> tuple[list[Block], list[ShellFence]]:
        """One page's blocks and shell fences, read afresh."""
        blocks = scan_page(src, markdown, root, auto, self.reading)
        return blocks, shell_fences(src, markdown, auto, self.reading)

    def check_sessions(self) -> None:
        """markdown-exec's `session` is shared by every page of its process; the engine runs
        each page in a worker of its own, so a session is its page's. A session named on two
        pages would find the first page's globals gone on the second: a BookError naming
        both, before anything runs."""
        first: dict[str, Block] = {}
        for blocks in self.pages.values():
            for block in blocks:
                name = block.namespace
                if not name:
                    continue
                met = first.setdefault(name, block)
                if met.page != block.page:
                    raise BookError(
                        f'{block.where}: option session="{name}" is also used on '
                        f"{met.where}: markdown-exec shares a session across pages, but the "
                        "engine runs each page in a worker of its own, so a session is its "
                        "page's; give the second page's blocks a session name of their own, "
                        "and run there what they need from the first page's"
                    )

    def folders(self, root: Path) -> set[Path]:
        """The folders of the files the blocks include (their snippets), which `mkdocs serve`
        watches: an edited snippet rebuilds its pages."""
        return {
            (root / block.snippet).parent
            for blocks in self.pages.values()
            for block in blocks
            if not block.inline and block.snippet
        }

    def block(self, page: str, block_id: str) -> Block | None:
        """The page's block with this id (ids are unique in a page: the scanner checks)."""
        return next((b for b in self.pages.get(page, []) if b.id == block_id), None)

    def fence_line(self, page: str, block_id: str) -> int | None:
        """The line of the block's fence in its page's source, None for a block not planned."""
        block = self.block(page, block_id)
        return block.line if block else None

    def blocks(self) -> int:
        """How many blocks the book has."""
        return sum(map(len, self.pages.values()))

    def pages_with_blocks(self) -> int:
        """How many pages have at least one block."""
        return sum(1 for blocks in self.pages.values() if blocks)

    def goldens(self, golden_dir: Path) -> set[Path]:
        """The golden every planned block (and shell fence) has, or would have: any other is
        stale."""
        blocks = {golden_path(golden_dir, b.page, b.id) for bs in self.pages.values() for b in bs}
        fences = {golden_path(golden_dir, f.page, f.id) for fs in self.shell.values() for f in fs}
        return blocks | fences

    def names(self, only: str) -> set[str]:
        """The pages `only` (GOLDEN_ONLY) may name, as `select` reads it."""
        name = self._page_name(only.strip().partition("#")[0])
        return {name, f"{name}.md", f"{name}.ipynb"}

    def _page_name(self, text: str) -> str:
        """A page as GOLDEN_ONLY names it, `./` and the book's docs_dir left out."""
        return text.strip().removeprefix("./").removeprefix(f"{self.reading.docs}/")

    def reorder(self, order: list[str]) -> None:
        """The pages in the book's own order (`order`), whichever was scanned first."""
        rank = {src: i for i, src in enumerate(order)}
        self.pages = dict(sorted(self.pages.items(), key=lambda item: rank.get(item[0], 0)))

    def select(self, only: str) -> tuple[str, str | None]:
        """The page, and block id or None, that `only` names (GOLDEN_ONLY, `./book update
        PAGE[#BLOCK]`): the docs_dir (`docs/`) and `.md` may be left out. Anything else is an
        error naming what the book has."""
        text, _, block_id = only.strip().partition("#")
        name = self._page_name(text)
        found = [n for n in (name, f"{name}.md", f"{name}.ipynb") if self.pages.get(n)]
        if not found:
            pages = ", ".join(page for page, blocks in self.pages.items() if blocks) or "none"
            known = [n for n in (name, f"{name}.md", f"{name}.ipynb") if n in self.pages]
            if known:
                raise BookError(
                    f"GOLDEN_ONLY: {self.reading.docs}/{known[0]} has no block; the pages with "
                    f"blocks: {pages}"
                )
            raise BookError(
                f"GOLDEN_ONLY: the book has no page {name or '(none named)'}; its pages with "
                f"blocks: {pages}"
            )
        page = found[0]
        if not block_id:
            return page, None
        if self.block(page, block_id.strip()) is None:
            ids = ", ".join(block.id for block in self.pages[page])
            docs = self.reading.docs
            raise BookError(
                f"GOLDEN_ONLY: {docs}/{page} has no block {block_id}; its blocks: {ids}"
            )
        return page, block_id.strip()
