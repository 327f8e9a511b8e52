"""Under `mkdocs serve --dirty`: the search index as a full build would write it.

Material's search plugin merges a dirty build's index as if it rendered one page; `SearchIndex`
keeps the last full index for the whole serve and puts back what that merge drops.
"""

from __future__ import annotations

import json
from pathlib import Path

from bookexec._internal.files import write_atomic


class SearchIndex:
    """The last full search index of a serve, and its repair after each dirty build."""

    def __init__(self) -> None:
        self.docs: list[dict[str, object]] | None = None  # the last full search index

    def repair(self, site_dir: Path, rendered: set[str]) -> None:
        """A dirty build: the search index as a full build would write it (Material's search
        merges as if one page was rendered; see `merged_index`)."""
        path = site_dir / "search" / "search_index.json"
        if not path.is_file():
            return
        data = json.loads(path.read_text(encoding="utf-8"))
        written = data.get("docs", [])
        docs = merged_index(self.docs, written, rendered)
        self.docs = docs
        if docs != written:
            data["docs"] = docs
            write_atomic(path, json.dumps(data, separators=(",", ":"), default=str))


def merged_index(
    previous: list[dict[str, object]] | None,
    written: list[dict[str, object]],
    rendered: set[str],
) -> list[dict[str, object]]:
    """The search index's entries after a dirty build, from the last full index (`previous`)
    and what Material's search plugin wrote (`written`), given the URLs of the pages this build
    rendered.

    Material merges as if a dirty build rendered one page: it drops the previous entries of the
    first page it indexed and appends the new ones. With more than one page, the others' old
    entries stay beside their new ones; with the home page (URL ""), which every location
    starts with, every other page is dropped. The new entries are what it appended, so each
    rendered page's last run of entries; every other page keeps its entries from `previous`.
    """
    if previous is None:
        return written

    def page(entry: dict[str, object]) -> str:
        return str(entry.get("location", "")).partition("#")[0]

    runs: dict[str, list[dict[str, object]]] = {}
    last = None
    for entry in written:
        url = page(entry)
        if url in rendered:
            if url != last:
                runs[url] = []  # a later run of this page's entries replaces an earlier one
            runs[url].append(entry)
        last = url
    kept = [entry for entry in previous if page(entry) not in rendered]
    return kept + [entry for url in runs for entry in runs[url]]
