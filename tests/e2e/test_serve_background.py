"""Under `mkdocs serve` the first page comes at once from the goldens, marked as recorded and
being checked; the blocks run in the background, and live reload brings their live outputs.
The strict build never shows a recorded output."""

from __future__ import annotations

import re
import time
import urllib.request

import pytest

from conftest import scaled, serving

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


def recorded_book(site):
    site.page("slow.md", PAGE)
    site.page("index.md", "# Home\n")
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + "watch:\n  - snippets\n")  # as the book's own
    site.snippet("slow/nap.py", nap(0, "recorded output"))
    assert site.build("update").returncode == 0


@pytest.fixture
def served(prebuilt, tmp_path):
    site = prebuilt(recorded_book, tmp_path)
    site.snippet("slow/nap.py", nap(4, "live output"))  # its output now drifts, after 4 s
    with serving(site.root, tmp_path / "serve.log", BOOK_CACHE=None) as served:
        yield site, served


def test_first_page_is_recorded_then_live_reload_shows_the_live_output(served, browser):
    _, served = served
    first = get(served.url + "slow/")
    # Served before the 4-second block could finish: the golden's output, marked as such.
    assert 'class="executed-book-pending" data-block="nap"' in first
    assert "recorded output" in result(first) and "live output" not in result(first)
    assert "executed-book-drift" not in first
    assert "recorded output, being checked" in first  # one small line, not a box
    assert re.search(r"It printed\s+1\s+lines", first)  # facts come from the golden meanwhile

    page = browser.new_page()
    try:
        page.goto(served.url + "slow/")
        # Live reload brings the page back when the block has run: no reload by hand.
        deadline = time.monotonic() + scaled(120)
        while page.locator(".executed-book-pending").count():
            assert time.monotonic() < deadline, served.log()
            page.wait_for_event("load", timeout=120_000)
        # A reload can still be on its way when the pending page is gone: wait for the page it
        # brings (never longer than the deadline above allows).
        page.locator(".result", has_text="live output").wait_for(state="visible", timeout=60_000)
        drift = page.locator(".executed-book-drift")  # and its drift, as serve always shows it
        assert drift.count() == 1 and "Block 'nap' drifted" in drift.inner_text()
    finally:
        page.close()
    assert served.proc.poll() is None
    assert "every page shows live outputs" in served.log()


def live_page(served) -> str:
    """The served page once no block on it is still being checked."""

    def live() -> str | None:
        html = get(served.url + "slow/")
        return None if "executed-book-pending" in html else html

    return served.until(live)


def test_a_snippet_edit_shows_recorded_at_once_then_live(served):
    site, served = served
    live_page(served)
    site.snippet("slow/nap.py", nap(4, "edited output"))
    pages: list[str] = []

    def edited() -> bool:
        pages.append(get(served.url + "slow/"))
        return "edited output" in result(pages[-1])

    served.until(edited)
    seen_pending = any("executed-book-pending" in html for html in pages[:-1])
    assert seen_pending, "the edited page was never shown as recorded and being checked"
    assert "executed-book-pending" not in pages[-1]


def test_the_strict_build_never_shows_a_recorded_output(site):
    site.page("slow.md", PAGE)
    site.snippet("slow/nap.py", nap(1, "recorded output"))
    assert site.build("update").returncode == 0
    result = site.build(BOOK_CACHE="on")
    assert result.returncode == 0, result.output
    html = (site.root / "site" / "slow" / "index.html").read_text()
    assert "recorded output" in html and "executed-book-pending" not in html


def test_a_prose_edit_runs_nothing_and_the_page_stays_live(served):
    site, served = served
    live_page(served)
    ran = served.log().count("blocks done, about")
    summaries = served.log().count("bookexec summary")
    site.page("slow.md", PAGE.replace("# Slow", "# Slow, edited"))
    served.until(lambda: served.log().count("bookexec summary") > summaries)
    # A summary already on its way when the page was edited is not the edit's: wait for the
    # rebuild that carries it (on a busy machine the first may be the earlier one).
    served.until(lambda: "Slow, edited" in get(served.url + "slow/"))
    html = get(served.url + "slow/")
    assert "executed-book-pending" not in html and "live output" in result(html)
    assert served.log().count("blocks done, about") == ran  # no block ran again
