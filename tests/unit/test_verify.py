"""The page check's parse of a page's HTML: a page with no box mark is not parsed at all, and
a mark in any case still opens a box."""

from __future__ import annotations

import pytest

from bookexec._internal.render.layout import OUTPUT_ATTR, SOURCE_ATTR
from bookexec._internal.render.verify import boxes_of, problems

pytestmark = pytest.mark.engine


def test_a_page_without_any_box_mark_has_no_box():
    page = "<html><body><div class='result'><pre><code>42</code></pre></div></body></html>"
    assert boxes_of(page) == []


def test_a_mark_in_upper_case_still_opens_a_box():
    """HTML attribute names are case-insensitive: a block printing raw HTML with the mark in
    capitals must not slip past the quick look for marks."""
    page = f'<div {SOURCE_ATTR.upper()}="b1"><pre><code>x = 1</code></pre></div>'
    [box] = boxes_of(page)
    assert (box.block_id, box.kind, "".join(box.text)) == ("b1", "source", "x = 1")


def test_a_box_no_block_planned_is_a_problem():
    page = f'<div {OUTPUT_ATTR}="forged"><pre><code>out</code></pre></div>'
    [(block_id, message)] = problems("page.md", page, [])
    assert block_id == "forged" and "which its scan did not plan" in message
