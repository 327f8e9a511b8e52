"""A served page is never stale: each kind of input it is made from changes it.

One `mkdocs serve` (live reload, block cache, background runs) of a two-page site; the
`uses` page shows its own block and a fact recorded by the `source` page. Each case changes one
input and waits for the served `uses` page to show the change: its markdown, its snippet, its
golden (through the update mode, as `./book update` or `./book review` would write it), the
fact it quotes from the other page, and the nav.
"""

from __future__ import annotations

import time
import urllib.request

import pytest

from conftest import REPO, serving

pytestmark = pytest.mark.build

USES = """\
# Uses

Intro {marker}.

```python exec="on" id="own"
--8<-- "snippets/uses/own.py"
```

The other page counted {{{{fact:source.md#counted.n}}}} items.
"""

SOURCE = """\
# Source

```python exec="on" id="counted"
--8<-- "snippets/source/counted.py"
```
"""


def counted(n: int) -> str:
    return f"from bookexec.facts import record\n\nprint('items:', record('n', {n}))\n"


def book_watch() -> str:
    """The `watch:` section of the book's mkdocs.yml, as it is written there."""
    text = (REPO / "mkdocs.yml").read_text()
    section = text.split("\nwatch:\n", 1)[1]
    items = []
    for line in section.splitlines():
        if not line.startswith("  - "):
            break
        items.append(line)
    return "watch:\n" + "\n".join(items) + "\n"


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def result(html: str) -> str:
    return html.split('<div class="result">', 1)[1].split("</div>", 1)[0]


def wait_until(served, check) -> str:
    """The served page, once it passes `check` and no block on it is still being checked."""

    def shown() -> str | None:
        html = get(served.url + "uses/")
        return html if check(html) and "bookexec-pending" not in html else None

    return served.until(shown, 180)


def test_each_input_of_a_served_page_changes_it(site, tmp_path):
    site.page("uses.md", USES.format(marker="one"))
    site.page("source.md", SOURCE)
    site.snippet("uses/own.py", "print('own output v1')\n")
    site.snippet("source/counted.py", counted(3))
    (site.root / "tests" / "golden").mkdir(parents=True)
    config = site.root / "mkdocs.yml"
    config.write_text(
        config.read_text()
        + "nav:\n  - Uses page: uses.md\n  - Source: source.md\n"
        + book_watch()  # what the book's own mkdocs.yml watches
    )
    assert site.build("update").returncode == 0

    with serving(site.root, tmp_path / "serve.log", BOOK_CACHE=None) as served:
        html = wait_until(served, lambda h: "own output v1" in result(h))
        assert "counted 3 items" in html and "bookexec-drift" not in html
        time.sleep(1.0)  # let the watcher settle

        # 1. its markdown
        site.page("uses.md", USES.format(marker="two"))
        wait_until(served, lambda h: "Intro two." in h)

        # 2. its snippet: the live output, and its drift from the golden
        site.snippet("uses/own.py", "print('own output v2')\n")
        html = wait_until(served, lambda h: "own output v2" in result(h))
        assert 'bookexec-drift" data-block="own"' in html

        # 3. its golden, rewritten by the update mode while the server runs: no drift now
        assert site.build("update").returncode == 0
        wait_until(served, lambda h: "bookexec-drift" not in h)

        # 4. a fact it quotes from another page
        site.snippet("source/counted.py", counted(5))
        wait_until(served, lambda h: "counted 5 items" in h)

        # 5. the nav
        config.write_text(config.read_text().replace("Uses page", "Renamed page"))
        wait_until(served, lambda h: "Renamed page" in h)
