"""Hover definitions through the real strict build of a fixture book (issue 40): the glossary's
anchors, each page's first use of a term marked with its card, and a link to an anchor the
glossary does not have failing the build, naming page and line."""

from __future__ import annotations

import json
import re

import pytest

from conftest import PLUGIN

pytestmark = pytest.mark.build

GLOSSARY = """\
# Glossary

**Tracer**
:   A stand-in for a value while a function is traced. See
    [the first tracer](chapter.md#a-tracer).

**Jaxpr**
:   The traced program: one equation per primitive.
"""

CHAPTER = """\
# A chapter

## A tracer

A tracer is what a jitted function sees; a tracer again. `jaxpr` in code.

The program it records is [the traced program](glossary.md#jaxpr).
"""


def glossary_book(site, chapter: str = CHAPTER) -> None:
    config = (site.root / "mkdocs.yml").read_text()
    config = config.replace(PLUGIN, PLUGIN + "      glossary:\n        page: glossary.md\n")
    config = config.replace("plugins:\n", "plugins:\n  - search\n", 1)
    nav = "nav:\n  - chapter.md\n  - unmarked.md\n  - glossary.md\n"
    (site.root / "mkdocs.yml").write_text(config + nav)
    site.page("glossary.md", GLOSSARY)
    site.page("chapter.md", chapter)
    site.page("unmarked.md", "---\nglossary: false\n---\n\n# Unmarked\n\nA tracer.\n")


def test_a_chapter_marks_its_first_use_of_each_term_with_the_glossary_s_definition(site):
    glossary_book(site)
    built = site.build()
    assert built.returncode == 0, built.output
    chapter = (site.root / "site" / "chapter" / "index.html").read_text()
    terms = re.findall(r'<a [^>]*class="executed-book-term"[^>]*>([^<]*)</a>', chapter)
    assert terms == ["tracer", "the traced program"]  # the first use only, code left alone
    assert 'href="../glossary/#tracer"' in chapter
    card = re.search(
        r'<span class="executed-book-card" id="executed-book-card-tracer".*?</a>'
        r"</span>",
        chapter,
        re.S,
    )
    assert card, chapter
    assert "A stand-in for a value while a function is traced." in card[0]
    assert 'href="./#a-tracer">taught in A chapter &rarr;</a>' in card[0]
    glossary = (site.root / "site" / "glossary" / "index.html").read_text()
    assert '<a id="tracer" class="executed-book-glossary-anchor"></a>' in glossary
    assert "executed-book-term" not in glossary  # the glossary marks nothing of its own
    unmarked = (site.root / "site" / "unmarked" / "index.html").read_text()
    assert "A tracer." in unmarked and "executed-book-term" not in unmarked  # its front matter
    for asset in ("glossary.css", "glossary.js"):
        assert (site.root / "site" / "assets" / "executed-book" / asset).is_file()
        assert f"assets/executed-book/{asset}" in chapter
    # The cards are not in the search index: a definition is found on its glossary entry only.
    index = json.loads((site.root / "site" / "search" / "search_index.json").read_text())
    holding = {doc["location"] for doc in index["docs"] if "A stand-in" in doc["text"]}
    assert holding and all(location.startswith("glossary/") for location in holding)


def test_a_glossary_link_to_a_missing_anchor_fails_the_strict_build_naming_page_and_line(site):
    glossary_book(site, CHAPTER + "\nAnd [a term it lacks](glossary.md#tracer-leak).\n")
    built = site.build()
    assert built.returncode != 0, built.output
    assert "docs/chapter.md:9: a link to the glossary's '#tracer-leak', which no entry has" in (
        built.output
    )
    assert "Traceback" not in built.output


def test_a_glossary_option_naming_no_page_stops_the_build(site):
    glossary_book(site)
    (site.root / "docs" / "glossary.md").unlink()
    built = site.build()
    assert built.returncode != 0
    assert "option 'glossary': glossary.md is no page of the book" in built.output
    assert "Traceback" not in built.output


def test_an_edited_glossary_entry_changes_the_card_on_every_page_that_marks_it(site):
    glossary_book(site)
    site.page("second.md", "# Second\n\nAnother tracer.\n")
    assert site.build().returncode == 0
    site.page("glossary.md", GLOSSARY.replace("A stand-in for a value", "A placeholder value"))
    built = site.build()
    assert built.returncode == 0, built.output
    for page in ("chapter", "second"):
        shown = (site.root / "site" / page / "index.html").read_text()
        assert "A placeholder value while a function is traced." in shown, page
        assert "A stand-in for a value" not in shown, page
