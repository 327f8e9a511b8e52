"""Where a page stands in the reader's search (jaxbook.search_rank)."""

from __future__ import annotations

from jaxbook.search_rank import search_meta


def test_labs_and_the_pages_about_the_book_rank_below_the_chapters():
    assert search_meta("tracers.md", {}) is None  # a chapter: Material's default boost
    assert search_meta("labs/tracers.ipynb", {})["boost"] < 1
    assert search_meta("primitives.md", {})["boost"] < 1
    assert search_meta("guide/index.md", {}) == {"exclude": True}


def test_a_pages_own_front_matter_wins():
    assert search_meta("labs/tracers.ipynb", {"search": {"boost": 3}}) is None
