"""Nothing unrendered leaves the build (issue 53, point 1), through the real strict build of a
fixture book: a glossary card quoting a value, a value in inline code, and markup the engine
cannot fill, each looked for in the pages, the cards, the chapter's notebook and the search
index, which the build reads back (`bookexec._internal.render.leftovers`)."""

from __future__ import annotations

import json
import re

import pytest

from conftest import PLUGIN

pytestmark = pytest.mark.build

CHAPTER = """\
# Counting

## How many

```python exec="on" id="count"
--8<-- "snippets/counting/count.py"
```

Only {{fact:count.n}} of them: a tracer each. On the `{{fact:count.backend}}` backend.
The syntax itself: `\\{{fact:count.n}}`, and in prose \\{{fact:count.n}} too.

```md
{{fact:shown.in_a_fence}}
```
"""

COUNT = """\
from bookexec.facts import record

record("n", 4)
record("backend", "cpu")
print("counted")
"""

GLOSSARY = """\
# Glossary

**Tracer**
:   A stand-in for a value; only {{fact:counting.md#count.n}} of them here. See
    [how many](counting.md#how-many).
"""


def leftover_book(site) -> None:
    config = (site.root / "mkdocs.yml").read_text()
    config = config.replace(PLUGIN, PLUGIN + "      glossary:\n        page: glossary.md\n")
    config = config.replace("plugins:\n", "plugins:\n  - search\n", 1)
    nav = "nav:\n  - counting.md\n  - other.md\n  - glossary.md\n"
    (site.root / "mkdocs.yml").write_text(config + nav)
    site.page("glossary.md", GLOSSARY)
    site.page("counting.md", CHAPTER)
    site.page("other.md", "# Other\n\nA tracer, elsewhere.\n")
    site.snippet("counting/count.py", COUNT)
    written = site.build("update")
    assert written.returncode == 0, written.output


@pytest.fixture
def book(prebuilt, tmp_path):
    return prebuilt(leftover_book, tmp_path)


def test_cards_inline_code_notebook_and_search_index_show_values_not_markup(book):
    built = book.build("check")
    assert built.returncode == 0, built.output
    site = book.root / "site"
    for page in ("counting", "other"):
        shown = (site / page / "index.html").read_text()
        card = re.search(r"<span class=\"executed-book-card\".*?&rarr;</a></span>", shown, re.S)
        assert card, page
        assert "only 4 of them here" in card[0], card[0]
    counting = (site / "counting" / "index.html").read_text()
    assert "On the <code>cpu</code> backend." in counting
    assert "The syntax itself: <code>{{fact:count.n}}</code>, and in prose {{fact:count.n}}" in (
        counting
    )
    notebook = (site / "counting" / "counting.ipynb").read_text()
    assert "On the <code>cpu</code> backend." in "".join(
        "".join(cell["source"]) for cell in json.loads(notebook)["cells"]
    )
    index = (site / "search" / "search_index.json").read_text()
    assert "{{fact:count.backend}}" not in index


def test_markup_the_engine_cannot_fill_fails_the_build_naming_page_and_line(book):
    page = book.root / "docs" / "other.md"
    page.write_text(page.read_text() + "\nA reference {{fact: count.n}} with a space.\n")
    built = book.build("check")
    assert built.returncode != 0, built.output
    assert (
        "docs/other.md:5: '{{fact: count.n}}' reaches the reader unrendered, in the built "
        "site's other/index.html, search/search_index.json"
    ) in built.output, built.output
    assert "Traceback" not in built.output
