"""Under `mkdocs serve` the first page comes at once from the goldens, marked as recorded and
being checked; the blocks run in the background, and live reload brings their live outputs.
The strict build never shows a recorded output."""

from __future__ import annotations

import os
import re
import subprocess
import time
import urllib.request

import pytest

from conftest import MKDOCS, free_port

pytestmark = [pytest.mark.build, pytest.mark.browser]

PAGE = """\
# Slow

```python exec="on" id="nap"
--8<-- "snippets/slow/nap.py"
```

It printed {{fact:nap.count}} lines.
"""


def nap(seconds: float, text: str) -> str:
    return (
        "import time\n\nfrom bookexec.facts import record\n\n"
        f"time.sleep({seconds})\nprint({text!r})\nrecord('count', 1)\n"
    )


def result(html: str) -> str:
    """What the block's output box shows (its source, above it, holds the snippet's text)."""
    return html.split('<div class="result">', 1)[1].split("</div>", 1)[0]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


@pytest.fixture
def served(site, tmp_path):
    site.page("slow.md", PAGE)
    site.page("index.md", "# Home\n")
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + "watch:\n  - snippets\n")  # as the book's own
    site.snippet("slow/nap.py", nap(0, "recorded output"))
    assert site.build("update").returncode == 0
    site.snippet("slow/nap.py", nap(4, "live output"))  # its output now drifts, after 4 s
    port = free_port()
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
        yield site, f"http://127.0.0.1:{port}/", proc, log_path
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_first_page_is_recorded_then_live_reload_shows_the_live_output(served, browser):
    _, url, proc, log_path = served
    first = get(url + "slow/")
    # Served before the 4-second block could finish: the golden's output, marked as such.
    assert 'class="admonition note bookexec-pending" data-block="nap"' in first
    assert "recorded output" in result(first) and "live output" not in result(first)
    assert "bookexec-drift" not in first
    assert "Recorded output, being checked" in first
    assert re.search(r"It printed\s+1\s+lines", first)  # facts come from the golden meanwhile

    page = browser.new_page()
    try:
        page.goto(url + "slow/")
        # Live reload brings the page back when the block has run: no reload by hand.
        deadline = time.monotonic() + 120
        while page.locator(".bookexec-pending").count():
            assert time.monotonic() < deadline, log_path.read_text()
            page.wait_for_event("load", timeout=120_000)
        assert page.locator(".result", has_text="live output").is_visible()
        drift = page.locator(".bookexec-drift")  # and its drift, as serve always shows it
        assert drift.count() == 1 and "Block 'nap' drifted" in drift.inner_text()
    finally:
        page.close()
    assert proc.poll() is None
    assert "every page shows live outputs" in log_path.read_text()


def test_a_snippet_edit_shows_recorded_at_once_then_live(served):
    site, url, _, log_path = served
    deadline = time.monotonic() + 120
    while "bookexec-pending" in get(url + "slow/"):
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.2)
    site.snippet("slow/nap.py", nap(4, "edited output"))
    seen_pending = False
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, log_path.read_text()
        html = get(url + "slow/")
        if "edited output" in result(html):
            break
        seen_pending |= "bookexec-pending" in html
        time.sleep(0.2)
    assert seen_pending, "the edited page was never shown as recorded and being checked"
    assert "bookexec-pending" not in html


def test_the_strict_build_never_shows_a_recorded_output(site):
    site.page("slow.md", PAGE)
    site.snippet("slow/nap.py", nap(1, "recorded output"))
    assert site.build("update").returncode == 0
    result = site.build(BOOK_CACHE="on")
    assert result.returncode == 0, result.output
    html = (site.root / "site" / "slow" / "index.html").read_text()
    assert "recorded output" in html and "bookexec-pending" not in html


def test_a_prose_edit_runs_nothing_and_the_page_stays_live(served):
    site, url, _, log_path = served
    deadline = time.monotonic() + 120
    while "bookexec-pending" in get(url + "slow/"):
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.2)
    ran = log_path.read_text().count("blocks done, about")
    summaries = log_path.read_text().count("bookexec summary")
    site.page("slow.md", PAGE.replace("# Slow", "# Slow, edited"))
    while log_path.read_text().count("bookexec summary") == summaries:
        assert time.monotonic() < deadline, log_path.read_text()
        time.sleep(0.1)
    html = get(url + "slow/")
    assert "Slow, edited" in html
    assert "bookexec-pending" not in html and "live output" in result(html)
    assert log_path.read_text().count("blocks done, about") == ran  # no block ran again
