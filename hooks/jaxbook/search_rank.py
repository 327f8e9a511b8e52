"""Where a page stands in the reader's search.

A term a chapter teaches must find the chapter first: a lab, the appendix and the pages about
the book repeat the chapters' words (a lab's task quotes its chapter), so they rank lower. The
guide is written for the book's authors and stays out of the reader's index, which every page
downloads. A page's own front matter (`search:`, Material's) wins over these rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatch
from typing import Any

# (pattern of a page's source path, its `search` meta): the first that matches applies.
RULES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("guide/*", {"exclude": True}),
    ("labs/*", {"boost": 0.1}),
    ("primitives.md", {"boost": 0.5}),
    ("how-it-stays-true.md", {"boost": 0.5}),
    ("jax-changes.md", {"boost": 0.5}),
)


def search_meta(src: str, meta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The `search` meta for the page at `src` (docs-relative), or None to leave it as is."""
    if "search" in meta:
        return None
    return next((dict(rule) for pattern, rule in RULES if fnmatch(src, pattern)), None)
