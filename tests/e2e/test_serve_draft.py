"""A draft never stops the server (issue 41): under `mkdocs serve` of a strict book, a page not
yet in the nav is a warning in the log, and the server keeps answering, the draft included;
once the page is added to the nav it is there too. `mkdocs build --strict` still fails on it."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from conftest import serving

pytestmark = pytest.mark.build

STRICT = """\
strict: true
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
nav:
  - index.md
"""
INDEX = """\
# Home

```python exec="on" id="hello"
--8<-- "snippets/index/hello.py"
```
"""
DRAFT = "# Draft\n\nWords an author is still writing.\n"


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read().decode()


def text_of(url: str) -> str:
    """The page, or "" while the server has none (a build has not written it yet)."""
    try:
        return get(url)[1]
    except urllib.error.HTTPError:
        return ""


def strict_book(site):
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + STRICT)
    site.page("index.md", INDEX)
    site.snippet("index/hello.py", 'print("hello")\n')
    written = site.build("update")
    assert written.returncode == 0, written.output


def test_a_page_missing_from_the_nav_never_stops_the_server(prebuilt, tmp_path):
    book = prebuilt(strict_book, tmp_path)
    with serving(book.root, tmp_path / "serve.log", "--dirty") as served:
        assert get(served.url)[0] == 200
        # The build right after the server starts (the pages the first one left) must not be
        # taken for the rebuild an edit asks for: its summary would come first.
        served.settled()
        book.page("draft.md", DRAFT)
        served.until(lambda: 'not included in the "nav"' in served.log(), 120)
        log = served.log()
        assert "draft.md" in log, log[-3000:]
        assert "Aborted with" not in log, log[-3000:]
        # The server answers, at once, the home page and the draft alike.
        assert get(served.url)[0] == 200
        served.until(lambda: "Words an author" in text_of(served.url + "draft/"), 60)
        # The page says what the strict build would stop at.
        shown = get(served.url + "draft/")[1]
        assert "executed-book-strict-warnings" in shown and "draft.md" in shown

        config = book.root / "mkdocs.yml"
        config.write_text(
            config.read_text().replace("  - index.md\n", "  - index.md\n  - draft.md\n")
        )
        # The home page links the draft once the rebuild the edit asked for has ended.
        served.until(lambda: re.search(r'href="[./]*draft/"', get(served.url)[1]), 120)
        status, home = get(served.url)
        assert status == 200, home[-2000:]
        assert "executed-book-strict-warnings" not in home
    # The strict build still fails on the same draft, before it is in the nav.
    config.write_text(config.read_text().replace("  - draft.md\n", ""))
    checked = book.build()
    assert checked.returncode == 1, checked.output
    assert 'not included in the "nav"' in checked.output
