"""Fact references in prose: replaced outside code, escaped, and refused when unknown."""

from __future__ import annotations

import pytest

from bookexec._internal.errors import BookError
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.render.prose import parse_reference, render

pytestmark = pytest.mark.engine

FACTS = {
    ("ch.md", "census"): {
        "total": Fact("total", "exact", 312),
        "dtype": Fact("dtype", "exact", "key<fry>"),
        "compile": Fact("compile", "timing", 0.0123, 5.0),
    },
}


RECORDED = {("ch.md", "census", "0.11.2"): {"total": Fact("total", "exact", 285)}}


def lookup(page, block_id, release=None):
    if release:
        return RECORDED.get((page, block_id, release))
    return FACTS.get((page, block_id))


def test_values_replace_references_and_are_escaped():
    text = "There are {{fact:census.total}} of them; keys are {{fact:census.dtype}}.\n"
    assert render(text, "ch.md", lookup) == "There are 312 of them; keys are key&lt;fry&gt;.\n"


def test_code_style_and_timings():
    text = "{{fact:census.dtype|code}} took {{ fact:census.compile }}\n"
    assert render(text, "ch.md", lookup) == (
        '<code>key&lt;fry&gt;</code> took <span class="executed-book-measured">12.3 ms</span>\n'
    )


def test_cross_page_reference():
    assert render("{{fact:ch.md#census.total}}\n", "other.md", lookup) == "312\n"
    assert parse_reference("a/b.md#blk.name", "x.md") == ("a/b.md", "blk", "name", None)


def test_a_value_from_an_older_release_comes_from_its_record():
    text = "{{fact:census.total}} now, {{fact:ch.md#census.total@0.11.2}} under 0.11.2\n"
    assert render(text, "ch.md", lookup) == "312 now, 285 under 0.11.2\n"
    assert parse_reference("blk.name@0.10.2", "x.md") == ("x.md", "blk", "name", "0.10.2")
    with pytest.raises(BookError, match=r"in the record of JAX 0\.10\.2"):
        render("{{fact:census.total@0.10.2}}\n", "ch.md", lookup)


def test_with_on_error_a_bad_reference_is_reported_and_the_page_goes_on():
    said = []
    text = "{{fact:gone.total}} and {{fact:census.total}}\n"
    out = render(text, "ch.md", lookup, on_error=lambda page, message: said.append(message))
    assert out == "[missing fact: gone.total] and 312\n"
    assert said and "docs/ch.md:1: fact 'gone.total' names block 'gone'" in said[0]


def test_fenced_code_and_escaped_references_are_left_as_syntax():
    fence = "```md\n{{fact:census.total}}\n```\n"
    text = "Write `\\{{fact:census.total}}` or \\{{fact:census.total}}:\n\n" + fence
    shown = "Write `{{fact:census.total}}` or {{fact:census.total}}:\n\n" + fence
    assert render(text, "ch.md", lookup) == shown


def test_a_reference_in_inline_code_shows_its_value_as_code():
    """Issue 53: `{{fact:...}}` in backticks was left as it was, and readers read the markup."""
    text = "On the `{{fact:census.total}}` backend, `x < {{fact:census.total|code}}`.\n"
    assert (
        render(text, "ch.md", lookup)
        == "On the <code>312</code> backend, <code>x &lt; 312</code>.\n"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a\n{{fact:census.none}}\n", "docs/ch.md:2: fact 'census.none': block 'census' recorded"),
        ("{{fact:gone.total}}\n", "docs/ch.md:1: fact 'gone.total' names block 'gone'"),
        ("{{fact:census}}\n", "docs/ch.md:1: fact reference 'census' must look like"),
    ],
)
def test_unknown_references_name_page_and_line(text, message):
    with pytest.raises(BookError) as error:
        render(text, "ch.md", lookup)
    assert message in str(error.value)


def test_a_figure_line_becomes_the_figure_and_code_is_left_alone():
    calls = []

    def figure(ref, where):
        calls.append((ref, where))
        return "<figure>drawn</figure>"

    text = "Before\n{{figure:census.plot}}\n\n```md\n{{figure:census.plot}}\n```\n"
    out = render(text, "ch.md", lookup, figure)
    assert out == "Before\n<figure>drawn</figure>\n\n```md\n{{figure:census.plot}}\n```\n"
    assert calls == [("census.plot", "docs/ch.md:2")]
