"""The engine's markup looked for in what a build wrote (`bookexec._internal.render.leftovers`,
issue 53): every kind of it found, in pages, notebooks and the search index, and named by the page
and line that wrote it; what a page shows on purpose (escaped, or as code) is not."""

from __future__ import annotations

import json

import pytest

from bookexec._internal.render import leftovers

pytestmark = pytest.mark.engine

PAGE = """\
# Page

Only {{fact:other.md#count.n}} of them.
Shown as syntax: `\\{{fact:count.n}}` and `⟦t_jit⟧`, escaped in prose \\{{figure:a.b}}.

```md
{{stepper:fenced.steps}}
```
"""


def test_every_kind_of_markup_is_found_and_what_a_page_shows_on_purpose_is_not():
    text = (
        "a {{fact:x.y}} b {{ figure: z.w }} c {{stepper:s.t}} d ⟦speedup⟧ e bookexecvalue3a4bx "
        "f <!-- bookexec:census --> g <!--executed-book-card:tracer--> h {{fact:unclosed\n"
    )
    assert list(leftovers.found_in(text)) == [
        "{{fact:x.y}}",
        "{{ figure: z.w }}",
        "{{stepper:s.t}}",
        "{{fact:unclosed",
        "⟦speedup⟧",
        "bookexecvalue3a4bx",
        "bookexec:census",
        "executed-book-card:tracer",
    ]
    assert list(leftovers.found_in("jax {0,4} ${{ secrets }} bookexec: summary")) == []
    assert leftovers.shown(PAGE) == {
        "{{fact:count.n}}",
        "⟦t_jit⟧",
        "{{figure:a.b}}",
        "{{stepper:fenced.steps}}",
    }


def test_a_leftover_is_named_by_the_page_and_line_that_wrote_it_over_every_file_it_is_in():
    glossary = "# Glossary\n\n**Tracer**\n:   only {{fact:other.md#count.n}} here.\n"
    sources = {"page.md": PAGE, "glossary.md": glossary, "other.md": "# Other\n"}
    card = '<span class="executed-book-card">only {{fact:other.md#count.n}} here.</span>'
    files = {
        "page/index.html": "<p>Shown as syntax: <code>{{fact:count.n}}</code></p>" + card,
        "other/index.html": "<p>Other</p>" + card,
        "page/page.ipynb": json.dumps(
            {"cells": [{"cell_type": "markdown", "source": ["Only {{fact:other.md#count.n}}"]}]}
        ),
        "search/search_index.json": json.dumps(
            {"docs": [{"location": "other/#x", "text": "<p>An ⟦oops⟧</p>"}]}
        ),
    }
    pages = {"page/index.html": "page.md", "other/index.html": "other.md"}

    def page_of(path: str, location: str | None) -> str | None:
        if location is not None:
            return {"other/": "other.md"}.get(location)
        return pages.get(path, "page.md" if path.startswith("page/") else None)

    found = leftovers.scan(files, page_of)
    said = leftovers.problems(found, sources, "glossary.md")
    hint = (
        "; the engine fills its own markup, or a page shows it escaped (\\{{fact:...}}) or as code"
    )
    # A card on a page that does not write it: the glossary's line; the page's own, first.
    assert [message for _, _, message in said] == [
        "docs/glossary.md:4: '{{fact:other.md#count.n}}' reaches the reader unrendered, in the "
        "built site's other/index.html" + hint,
        "docs/other.md: '⟦oops⟧' reaches the reader unrendered, in the built site's "
        "search/search_index.json" + hint,
        "docs/page.md:3: '{{fact:other.md#count.n}}' reaches the reader unrendered, in the built "
        "site's page/index.html, page/page.ipynb" + hint,
    ]
