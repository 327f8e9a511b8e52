"""The real book: a strict build with no drift, and what a reader sees in a real browser."""

from __future__ import annotations

import os
import re

import pytest

from conftest import REPO

pytestmark = pytest.mark.build


def test_every_snippet_file_is_shown_by_some_page():
    shown = set()
    for page in (REPO / "docs").rglob("*.md"):
        shown |= set(re.findall(r'--8<-- "(snippets/[^"]+)"', page.read_text()))
    files = {str(p.relative_to(REPO)) for p in (REPO / "snippets").rglob("*.py")}
    assert files - shown == set(), "snippet files no page includes"


def test_home_page_maps_every_page():
    home = (REPO / "docs" / "index.md").read_text()
    pages = {p.name for p in (REPO / "docs").glob("*.md")} - {"index.md"}
    assert {page for page in pages if f"]({page})" not in home} == set()


def test_every_chapter_ends_with_a_task():
    for page in (REPO / "docs").glob("*.md"):
        if page.name in (
            "index.md",
            "faq.md",
            "glossary.md",
            "how-it-stays-true.md",
            "jax-changes.md",
            "accelerators.md",
        ):
            continue
        headings = re.findall(r"^## (.+)$", page.read_text(), re.M)
        assert headings and headings[-1] == "Try it yourself", page.name


def test_strict_build_has_no_drift(built_book):
    assert (built_book / "tracers" / "index.html").is_file()


@pytest.mark.browser
def test_reader_sees_source_and_output_of_each_block(built_book, browser_page):
    page = browser_page(built_book, "tracers/")
    results = page.locator(".result")
    assert results.count() == len(re.findall(r'exec="on"', (REPO / "docs/tracers.md").read_text()))
    dense = page.locator(".result", has_text="dot_general").first
    assert dense.is_visible()
    text = dense.inner_text()
    assert "dimension_numbers=(([1], [0]), ([], []))" in text
    assert "broadcast_in_dim" in text
    title = page.locator(".highlight .filename", has_text=re.compile(r"^dense_layer\.py$"))
    assert title.is_visible()
    # The jaxpr lexer marks the primitive, so the theme colours it as a function name.
    assert dense.locator(".nf", has_text="dot_general").count() == 1


def test_no_machine_paths_reach_the_site(built_book):
    home = os.path.expanduser("~")
    for html in built_book.rglob("*.html"):
        text = html.read_text()
        assert str(REPO) not in text, html
        assert "/site-packages" not in text, html  # a path; the guide names <site-packages>
        assert home + "/" not in text, html


def test_site_has_no_duplicate_html_ids(built_book):
    for html in built_book.rglob("*.html"):
        ids = re.findall(r'\sid="([^"]+)"', html.read_text())
        dupes = {i for i in ids if ids.count(i) > 1}
        assert not dupes, (html, sorted(dupes)[:5])
