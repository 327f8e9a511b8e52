"""The plan stage: every page's executed blocks, scanned before any block runs."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bookexec.discover.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.goldens.store import golden_path


class Plan:
    """The blocks of each page, in page order; a page without blocks has an empty list."""

    def __init__(self) -> None:
        self.pages: dict[str, list[Block]] = {}
        self.owned: set[str] = set()  # pages an extension renders itself (labs)

    def scan(
        self,
        pages: list[tuple[str, str]],
        root: Path,
        auto: Iterable[str],
        owned: dict[str, list[Block]] | None = None,
    ) -> None:
        """Scan each (page, markdown); a bad fence fails here, before anything runs. Pages an
        extension renders itself come already scanned, in `owned`."""
        for src, markdown in pages:
            self.pages[src] = scan_page(src, markdown, root, auto)
        self.pages.update(owned or {})
        self.owned |= set(owned or {})

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
        """The golden every planned block has, or would have: any other is stale."""
        return {golden_path(golden_dir, b.page, b.id) for bs in self.pages.values() for b in bs}

    def names(self, only: str) -> set[str]:
        """The pages `only` (GOLDEN_ONLY) may name, as `select` reads it."""
        name = only.strip().partition("#")[0].strip().removeprefix("./").removeprefix("docs/")
        return {name, f"{name}.md", f"{name}.ipynb"}

    def reorder(self, order: list[str]) -> None:
        """The pages in the book's own order (`order`), whichever was scanned first."""
        rank = {src: i for i, src in enumerate(order)}
        self.pages = dict(sorted(self.pages.items(), key=lambda item: rank.get(item[0], 0)))

    def select(self, only: str) -> tuple[str, str | None]:
        """The page, and block id or None, that `only` names (GOLDEN_ONLY, `./book update
        PAGE[#BLOCK]`): `docs/` and `.md` may be left out. Anything else is an error naming
        what the book has."""
        text, _, block_id = only.strip().partition("#")
        name = text.strip().removeprefix("./").removeprefix("docs/")
        found = [n for n in (name, f"{name}.md", f"{name}.ipynb") if self.pages.get(n)]
        if not found:
            pages = ", ".join(page for page, blocks in self.pages.items() if blocks) or "none"
            known = [n for n in (name, f"{name}.md", f"{name}.ipynb") if n in self.pages]
            if known:
                raise BookError(
                    f"GOLDEN_ONLY: docs/{known[0]} has no block; the pages with blocks: {pages}"
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
            raise BookError(f"GOLDEN_ONLY: docs/{page} has no block {block_id}; its blocks: {ids}")
        return page, block_id.strip()
