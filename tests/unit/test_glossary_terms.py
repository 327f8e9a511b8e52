"""Hover definitions (issue 40): the glossary's entries and anchors, and which words of a page's
HTML are marked as the first use of a term (`bookexec._internal.render.glossary`)."""

from __future__ import annotations

import re

import pytest

from bookexec._internal.errors import BookError
from bookexec._internal.render import glossary
from conftest import REPO

pytestmark = pytest.mark.engine

GLOSSARY = """\
# Glossary

**Tracer**
:   A stand-in for a value while a function is traced. See
    [the tracer](tracers.md#block-tracer-kinds).

**Leaked tracer**
:   A tracer that outlived its trace.

**Abstract value** (*aval*)
:   What JAX knows about a value: dtype and shape. See [the aval](tracers.md#block-aval).

**Key** <!-- forms: keys -->
:   A PRNG key.

**Bind**
:   Applying a primitive to operands.

**Export** <!-- forms: exported programs -->
:   A function traced and lowered, kept to run elsewhere.

**Interpreter, jaxpr**
:   A function that walks a jaxpr.

**JVP** (Jacobian-vector product)
:   Forward mode.

**Tracer, `jit`**
:   The tracer of `jit`.

**Leaf**
:   A value at the bottom of a pytree.
"""


def matcher() -> glossary.Matcher:
    return glossary.Matcher(glossary.parse(GLOSSARY))


def marked(html: str) -> tuple[str, list[str]]:
    return glossary.mark(html, matcher(), "../glossary/")


def terms_in(html: str) -> list[str]:
    """The words marked, in order."""
    return re.findall(r'<a class="executed-book-term"[^>]*>([^<]*)</a>', marked(html)[0])


def test_every_entry_of_the_real_glossary_has_a_unique_anchor_and_a_taught_link():
    entries = glossary.parse((REPO / "docs" / "glossary.md").read_text())
    terms = re.findall(r"^\*\*(.+?)\*\*", (REPO / "docs" / "glossary.md").read_text(), re.M)
    assert [entry.term for entry in entries] == terms
    assert len({entry.slug for entry in entries}) == len(entries)
    by_slug = {entry.slug: entry for entry in entries}
    assert "aval" in by_slug["abstract-value"].names
    assert by_slug["interpreter-jaxpr"].names == ("jaxpr interpreter", "jaxpr interpreters")
    assert by_slug["tracer-jit"].names == ()  # code is never matched; a link marks it
    assert by_slug["jaxpr"].taught is not None
    assert all(entry.definition and "See [" not in entry.term for entry in entries)


def test_slugs_drop_markup_and_join_words_with_dashes():
    assert glossary.slug("Tracer, `jit`") == "tracer-jit"
    assert glossary.slug("Hessian-vector product") == "hessian-vector-product"
    assert glossary.slug("JVP") == "jvp"


def test_two_terms_with_one_anchor_are_an_error_naming_both_lines():
    text = "**Jaxpr**\n:   one\n\n**jaxpr**\n:   two\n"
    with pytest.raises(BookError, match=r"docs/glossary.md:4: .*'#jaxpr'.* line 1"):
        glossary.parse(text)


def test_only_the_first_use_of_each_term_is_marked():
    assert terms_in("<p>A tracer is a tracer; tracers abound.</p>") == ["tracer"]


def test_case_and_declared_forms_match_but_not_inside_a_word():
    assert terms_in("<p>Keys differ.</p>") == ["Keys"]
    assert terms_in("<p>A keyword, a monkey, re-key and keyed.</p>") == []
    # "leaves" is as often the verb: a form no entry declares is left to an author's link.
    assert terms_in("<p>It leaves a leaf.</p>") == ["leaf"]
    assert terms_in("<p>abstract\nvalues</p>") == []  # no plural the entry did not declare
    assert terms_in("<p>abstract\nvalue</p>") == ["abstract\nvalue"]


def test_a_word_in_another_sense_gets_no_card():
    """Issue 52: the linker inflected a term, so a verb or another noun of the same stem got
    the term's card. Only the term, its aliases and the forms its entry declares mark it."""
    html = "<p>In Python <code>&amp;</code> binds tighter than <code>==</code>.</p>"
    assert terms_in(html) == []
    assert terms_in("<p>A module exports names; a tracer binds.</p>") == ["tracer"]
    html = "<p>Two exported programs of one function, and a bind.</p>"
    assert terms_in(html) == ["exported programs", "bind"]
    entries = {entry.slug: entry for entry in glossary.parse(GLOSSARY)}
    assert entries["export"].names == ("Export", "exported programs")
    assert entries["bind"].names == ("Bind",)


def test_the_forms_comment_never_reaches_the_glossary_page():
    page = glossary.anchored(GLOSSARY, glossary.parse(GLOSSARY))
    assert "forms:" not in page and "<!--" not in page
    assert '<a id="key" class="executed-book-glossary-anchor"></a>**Key**\n' in page


def test_capitals_past_the_first_letter_make_a_name_case_sensitive():
    assert terms_in("<p>jvp is a word; JVP is the term.</p>") == ["JVP"]
    assert terms_in("<p>A jacobian-vector product.</p>") == ["jacobian-vector product"]


def test_aliases_and_inverted_terms_mark_their_entry_and_the_longest_name_wins():
    html, anchors = marked("<p>A leaked tracer, an aval, a jaxpr interpreter, a tracer.</p>")
    assert re.findall(r'data-term="([^"]+)"', html) == [
        "leaked-tracer",
        "abstract-value",
        "interpreter-jaxpr",
        "tracer",
    ]
    assert anchors == sorted(["leaked-tracer", "abstract-value", "interpreter-jaxpr", "tracer"])


@pytest.mark.parametrize(
    "html",
    [
        "<p><code>tracer</code></p>",
        "<h2>The tracer</h2>",
        '<p><a href="other/">a tracer</a></p>',
        '<p class="admonition-title">Tracer</p>',
        '<span class="filename">tracer</span>',
        "<pre><code>tracer = 1</code></pre>",
        '<div class="executed-book-drift"><p>tracer</p></div>',
        "<p>a <span data-no-term>tracer</span> here</p>",
        '<p>a <img alt="tracer"> img</p>',
    ],
)
def test_code_headings_links_titles_and_opted_out_text_are_never_marked(html):
    assert terms_in(html) == []


def test_text_after_a_skipped_element_is_prose_again():
    assert terms_in("<p><code>tracer</code> then a tracer</p>") == ["tracer"]
    assert terms_in("<h2>Tracer</h2><p>A tracer.</p>") == ["tracer"]


def test_an_authors_link_marks_its_term_there_and_no_earlier_use_is_marked():
    html, anchors = marked(
        '<p>A tracer first.</p><p>Then <a href="../glossary/#tracer">the stand-in</a>.</p>'
    )
    assert anchors == ["tracer"]
    assert "A tracer first" in html
    assert re.search(
        r'<a href="../glossary/#tracer" class="executed-book-term" data-term="tracer" '
        r'aria-describedby="executed-book-card-tracer">the stand-in</a>'
        r"<!--executed-book-card:tracer-->",
        html,
    )


def test_an_authors_link_keeps_its_classes():
    html, _ = marked('<p><a class="x" href="../glossary/#tracer">it</a></p>')
    assert 'class="x executed-book-term"' in html


def test_a_glossary_link_to_an_anchor_no_entry_has_names_page_and_line():
    page = (
        "# A chapter\n\nA [tracer](glossary.md#tracer).\n\n```python\n[x](glossary.md#nope)\n"
        "```\n\nSee `[y](glossary.md#nope2)` and [the key](glossary.md#kye).\n"
    )
    links = glossary.glossary_links(page, "chapter.md", "glossary.md", offset=3)
    assert [(link.line, link.anchor) for link in links] == [(6, "tracer"), (12, "kye")]
    entries = glossary.parse(GLOSSARY)
    assert glossary.missing_anchors(links, entries, "chapter.md") == [
        "docs/chapter.md:12: a link to the glossary's '#kye', which no entry has (an entry's "
        "anchor is its term as a slug, e.g. '#abstract-value')"
    ]


def test_a_link_from_a_subfolder_resolves_to_the_glossary():
    links = glossary.glossary_links("[t](../glossary.md#tracer)", "guide/x.md", "glossary.md")
    assert [link.anchor for link in links] == ["tracer"]


def test_the_glossary_gets_an_anchor_on_each_term_line():
    entries = glossary.parse(GLOSSARY)
    anchored = glossary.anchored(GLOSSARY, entries)
    assert '<a id="tracer" class="executed-book-glossary-anchor"></a>**Tracer**' in anchored
    assert anchored.count("executed-book-glossary-anchor") == len(entries)
    # An index of the terms above the first, each linked to its entry, in the glossary's order.
    index = anchored[: anchored.index('<a id="')]
    assert index.count("](#") == len(entries)
    assert all(f"[{e.term}](#{e.slug})" in index for e in entries)


def test_a_card_holds_the_definition_and_links_to_where_the_term_is_taught():
    entries = {entry.slug: entry for entry in glossary.parse(GLOSSARY)}
    pages = {"tracers.md": ("../tracers/", "Tracers and the jaxpr")}
    card = glossary.card(entries["tracer"], "glossary.md", pages.get, "../glossary/")
    assert 'role="tooltip" hidden' in card and 'id="executed-book-card-tracer"' in card
    assert "A stand-in for a value while a function is traced." in card
    assert (
        '<a class="executed-book-card-taught" href="../tracers/#block-tracer-kinds">'
        "taught in Tracers and the jaxpr &rarr;</a>"
    ) in card
    untaught = glossary.card(entries["key"], "glossary.md", pages.get, "../glossary/")
    assert 'href="../glossary/#key">taught in the glossary' in untaught


def test_cards_replace_their_placeholders():
    html, anchors = marked("<p>A tracer.</p>")
    final = glossary.with_cards(html, {"tracer": "<span>CARD</span>"})
    assert final.endswith("</a><span>CARD</span>.</p>") and anchors == ["tracer"]


def test_relative_urls_between_pages():
    assert glossary.relative_url("glossary/", "tracers/") == "../glossary/"
    assert glossary.relative_url("glossary/", "") == "glossary/"
    assert glossary.relative_url("glossary/", "guide/chapters/") == "../../glossary/"
    assert glossary.relative_url("glossary.html", "tracers.html") == "glossary.html"


def test_phrases_the_book_ignores_are_never_marked_but_longer_names_and_links_still_are():
    ignoring = glossary.Matcher(glossary.parse(GLOSSARY), ignore=("key", "side effect"))
    html, anchors = glossary.mark(
        "<p>A cache key, side effects, a typed key.</p>"
        '<p><a href="../glossary/#key">the key</a></p>',
        ignoring,
        "../glossary/",
    )
    assert anchors == ["key"]  # the author's link alone
    html, anchors = glossary.mark("<p>A cache key, side effects.</p>", ignoring, "../glossary/")
    assert (html, anchors) == ("<p>A cache key, side effects.</p>", [])
