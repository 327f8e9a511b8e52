"""A served page is never stale: each kind of input it is made from changes it.

One `mkdocs serve` (live reload, block cache, background runs) of a two-page site; the
`uses` page shows its own block and a fact recorded by the `source` page. Each case changes one
input and waits for the served `uses` page to show the change: its markdown, its snippet, its
golden (through the update mode, as `./book update` or `./book review` would write it), the
fact it quotes from the other page, and the nav.
"""

from __future__ import annotations

import os
import subprocess
import time
import urllib.request

import pytest

from conftest import MKDOCS, REPO, free_port

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


def wait_until(url: str, check, log_path, proc, timeout: float = 180) -> str:
    """The served page, once it passes `check` and no block on it is still being checked."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, log_path.read_text()
        html = get(url)
        if check(html) and "bookexec-pending" not in html:
            return html
        assert time.monotonic() < deadline, log_path.read_text()[-4000:]
        time.sleep(0.2)


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

    port = free_port()
    url = f"http://127.0.0.1:{port}/uses/"
    log_path = tmp_path / "serve.log"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check"}
    env.pop("BOOK_CACHE", None)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(MKDOCS), "serve", "-a", f"127.0.0.1:{port}"],
            cwd=site.root,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while "Serving on" not in log_path.read_text():
            assert proc.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.1)
        html = wait_until(url, lambda h: "own output v1" in result(h), log_path, proc)
        assert "counted 3 items" in html and "bookexec-drift" not in html
        time.sleep(1.0)  # let the watcher settle

        # 1. its markdown
        site.page("uses.md", USES.format(marker="two"))
        wait_until(url, lambda h: "Intro two." in h, log_path, proc)

        # 2. its snippet: the live output, and its drift from the golden
        site.snippet("uses/own.py", "print('own output v2')\n")
        html = wait_until(url, lambda h: "own output v2" in result(h), log_path, proc)
        assert 'bookexec-drift" data-block="own"' in html

        # 3. its golden, rewritten by the update mode while the server runs: no drift now
        assert site.build("update").returncode == 0
        wait_until(url, lambda h: "bookexec-drift" not in h, log_path, proc)

        # 4. a fact it quotes from another page
        site.snippet("source/counted.py", counted(5))
        wait_until(url, lambda h: "counted 5 items" in h, log_path, proc)

        # 5. the nav
        config.write_text(config.read_text().replace("Uses page", "Renamed page"))
        wait_until(url, lambda h: "Renamed page" in h, log_path, proc)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
