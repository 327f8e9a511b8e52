"""Hover definitions in a build: the glossary page (the plugin's `glossary.page` option) read
once, its entries anchored, every other page's glossary links checked and its terms marked, each
mark given its card (`bookexec._internal.render.glossary`).

The cards go into a page's final HTML, after the search index has read its content, so a
search for a term finds the pages that use it, not every page that shows its definition.
"""

from __future__ import annotations

import dataclasses
import fnmatch
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from bookexec._internal.errors import BookError
from bookexec._internal.render import glossary

ASSET_DIR = Path(glossary.__file__).parent / "assets"


def add_assets(config: Any) -> None:
    """The plugin's own stylesheet and script, on every page (once, whatever the rebuilds)."""
    css, js = glossary.ASSETS
    if css not in config.extra_css:
        config.extra_css.append(css)
    if js not in [str(script) for script in config.extra_javascript]:
        config.extra_javascript.append(js)


class Terms:
    """One build's glossary: made at `on_files`, used by each page as it renders."""

    def __init__(
        self,
        page: str,
        skip: Iterable[str],
        ignore: Iterable[str],
        files: Any,
        config: Any,
        docs: str = "docs",
        fill: Callable[[str, int], str] | None = None,
    ) -> None:
        """`docs`: the book's docs_dir, as messages name it. `fill`: (a definition, the
        number of its first line in the glossary) -> the definition with the values its prose
        quotes in place, as the glossary page itself shows them."""
        self.page = page
        self.fill = fill
        self.skip = tuple(skip)
        self.docs = docs
        found = files.get_file_from_path(page)
        if found is None:
            raise BookError(
                f"executed-book: option 'glossary': {page} is no page of the book "
                f"({docs}/{page}); name the glossary's page under {docs}/, or leave the option "
                "out"
            )
        self.entries = glossary.parse(found.content_string, page, docs)
        self.by_slug = {entry.slug: entry for entry in self.entries}
        self.matcher = glossary.Matcher(self.entries, tuple(ignore))
        self.files = files
        self.cards: dict[str, dict[str, str]] = {}  # page -> anchor -> its card's HTML
        for asset in glossary.ASSETS:  # files of the site, served like the book's own
            files.append(
                type(found).generated(config, asset, abs_src_path=str(ASSET_DIR / Path(asset).name))
            )

    def marks(self, src: str, meta: dict[str, Any] | None = None) -> bool:
        """Whether the page's terms are marked: a Markdown page but the glossary, not skipped by
        the option nor by its front matter (`glossary: false`)."""
        if not src.endswith(".md") or src == self.page:
            return False
        if (meta or {}).get("glossary", True) is False:
            return False
        return not any(fnmatch.fnmatch(src, pattern) for pattern in self.skip)

    def page_markdown(
        self, src: str, markdown: str, offset: int, fail: Callable[[str], None]
    ) -> str:
        """The glossary anchored; any other page's links to a missing anchor failed, one by one."""
        if src == self.page:
            return glossary.anchored(markdown, glossary.parse(markdown, src, self.docs))
        links = glossary.glossary_links(markdown, src, self.page, offset)
        for message in glossary.missing_anchors(links, self.entries, src, self.docs):
            fail(message)
        return markdown

    def page_content(self, html: str, page: Any) -> str:
        """The page's terms marked, and their cards made for `post_page`."""
        src = page.file.src_uri
        if not self.marks(src, page.meta):
            return html
        glossary_url = glossary.relative_url(self._url(self.page), page.file.url)
        marked, anchors = glossary.mark(html, self.matcher, glossary_url)

        def page_of(path: str) -> tuple[str, str] | None:
            found = self.files.get_file_from_path(path)
            if found is None:
                return None
            title = found.page.title if found.page is not None and found.page.title else ""
            return glossary.relative_url(found.url, page.file.url), str(title)

        self.cards[src] = {
            anchor: glossary.card(self._filled(anchor), self.page, page_of, glossary_url)
            for anchor in anchors
        }
        return marked

    def _filled(self, anchor: str) -> glossary.GlossaryEntry:
        """The entry, its definition's facts in place: a card is prose of the glossary's."""
        entry = self.by_slug[anchor]
        if self.fill is None:
            return entry
        return dataclasses.replace(entry, definition=self.fill(entry.definition, entry.line + 1))

    def post_page(self, output: str, src: str) -> str:
        """The page's final HTML with its cards in place."""
        return glossary.with_cards(output, self.cards.pop(src, {}))

    def _url(self, path: str) -> str:
        return str(self.files.get_file_from_path(path).url)
