"""Under `mkdocs serve`, drift is shown at the block and logged, and the server keeps serving."""

from __future__ import annotations

import re
import time

import pytest

from conftest import new_site, serving

pytestmark = [pytest.mark.build, pytest.mark.browser]

PAGE = """\
# Served

```python exec="on" id="kept"
--8<-- "snippets/served/kept.py"
```

```python exec="on" id="moved"
--8<-- "snippets/served/moved.py"
```
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the module: its tests only read what it serves and logs."""
    tmp_path = tmp_path_factory.mktemp("served")
    site = new_site(tmp_path / "book")
    site.page("served.md", PAGE)
    site.snippet("served/kept.py", "print('unchanged output')\n")
    site.snippet("served/moved.py", "print('first output')\n")
    assert site.build("update").returncode == 0
    site.snippet("served/moved.py", "print('second output')\n")  # the output drifts
    site.page(
        "broken.md",
        '# Broken\n\n```python exec="on" id="oops"\n--8<-- "snippets/broken/oops.py"\n```\n',
    )
    site.snippet("broken/oops.py", "missing_name\n")
    with serving(site.root, tmp_path / "serve.log", "--no-livereload") as served:
        yield served.url, served.proc, served.log_path


def test_drift_is_shown_at_the_block_and_the_server_keeps_running(served, browser):
    url, proc, log_path = served
    page = browser.new_page()
    try:
        page.goto(url + "served/")
        warning = page.locator(".executed-book-drift")
        assert warning.count() == 1
        assert warning.is_visible()
        assert warning.get_attribute("data-block") == "moved"
        text = warning.inner_text()
        assert "Block 'moved' drifted from its golden" in text
        assert "-first output" in text and "+second output" in text
        assert "text: the output changed" in text  # the drift's class, first
        # The drifted block still shows what it printed now, under its source.
        assert page.locator(".result", has_text="second output").is_visible()
    finally:
        page.close()
    assert proc.poll() is None
    log = log_path.read_text()
    assert "docs/served.md#moved drifted from its golden" in log
    assert "golden check" not in log  # serving never runs the build-failing report


def test_a_failing_block_is_shown_at_the_block_and_the_server_keeps_running(served, browser):
    url, proc, log_path = served
    page = browser.new_page()
    try:
        page.goto(url + "broken/")
        body = page.locator("body").inner_text()
        assert "docs/broken.md:3 (block 'oops', snippet snippets/broken/oops.py), line 1" in body
        assert "NameError" in body
    finally:
        page.close()
    assert proc.poll() is None
    assert "block 'oops'" in log_path.read_text()


def summaries(log_path) -> list[str]:
    return re.findall(r"bookexec summary: (.*);", log_path.read_text())


def wait_for_summary(served, count: int) -> str:
    """The count-th summary line the server logged, once it has."""
    return served.until(lambda: summaries(served.log_path)[count - 1 :])[0]


def test_serve_reruns_only_the_blocks_an_edit_touches(site, tmp_path):
    site.page(
        "edited.md",
        '# Edited\n\nSome prose.\n\n```python exec="on" id="one"\n--8<-- "snippets/edited/one.py"\n'
        '```\n\n```python exec="on" id="two"\n--8<-- "snippets/edited/two.py"\n```\n',
    )
    site.page(
        "still.md",
        '# Still\n\n```python exec="on" id="three"\n--8<-- "snippets/still/three.py"\n```\n',
    )
    site.snippet("edited/one.py", "value = 1\nprint('one', value)\n")
    site.snippet("edited/two.py", "print('two', value + 1)\n")
    site.snippet("still/three.py", "print('three')\n")
    assert site.build("update").returncode == 0
    with (site.root / "mkdocs.yml").open("a") as config:
        config.write("watch:\n  - snippets\n")

    # Live reload: edits rebuild. Each build waits for its blocks, so its summary counts them;
    # the background runs of serve (bookexec._internal.serve.background) have their own test,
    # test_serve_background.
    with serving(site.root, tmp_path / "serve.log", BOOK_SERVE_BACKGROUND="off") as served:
        # The update stored what it ran, and the serve's own variables are no part of the
        # cache's key: the first build reads every block from the cache.
        first = wait_for_summary(served, 1)
        assert first.startswith("0 blocks executed, 3 from cache, 0 drifted"), first
        time.sleep(1.5)  # let the watcher settle before the first edit

        site.page(
            "edited.md", (site.root / "docs" / "edited.md").read_text().replace("Some", "More")
        )
        prose = wait_for_summary(served, 2)
        assert prose.startswith("0 blocks executed, 3 from cache, 0 drifted"), prose

        site.snippet("edited/two.py", "print('two', value + 1)  # an edit, same output\n")
        snippet = wait_for_summary(served, 3)
        expected = "1 blocks executed, 2 from cache (1 cached blocks replayed for their session)"
        assert snippet.startswith(expected + ", 0 drifted"), snippet


@pytest.mark.timeout(3600)  # waits for the suite's build of the book first
def test_the_books_own_strict_config_serves_under_drift_and_survives_the_fix(built_book, tmp_path):
    """The real mkdocs.yml (strict: true), the real book, one drifted snippet: the server comes
    up, shows the drift at the block and a summary at the page's top, and keeps serving when an
    edit fixes it.

    It serves the copy `built_book` built, whose block cache that build stored: the pages run
    behind the server from the cache, and the drifted page's blocks run again. A server that
    answers while the whole book runs cold behind it: tests/e2e/test_serve_answers.py."""
    import urllib.request

    from conftest import OTHER_SEED, book_source

    book = book_source(built_book)
    assert "strict: true" in (book / "mkdocs.yml").read_text()
    snippet = book / "snippets" / "tracers" / "dense_layer.py"
    original = snippet.read_text()
    snippet.write_text(original + "print('a line the golden does not have')\n")
    # As `./book serve` serves it: a rebuild renders the pages whose run ended, not the whole
    # book (which took minutes on a busy machine, and the next rebuild waits twice as long).
    # It listens after its first build, which scans the whole book and renders the home page.
    try:
        # The seed the suite's build ran under: its cache entries are keyed on it.
        log = tmp_path / "serve.log"
        with serving(book, log, "--dirty", up=900, BOOK_HASH_SEED=OTHER_SEED) as served:

            def page() -> str:
                # Answered at once whatever builds (bookexec._internal.serve.answer): the timeout
                # bounds the server's answer, never a rebuild.
                with urllib.request.urlopen(served.url + "tracers/", timeout=30) as r:
                    return r.read().decode()

            # The first page comes from the goldens at once; the blocks run behind it, and the
            # rebuild after the page's run shows the drift (bookexec._internal.serve.background).
            drifted = "docs/tracers.md#dense-layer drifted from its golden"
            served.until(lambda: drifted in served.log(), 900)
            # The build that logged it rendered the page; the page is served once that build has
            # ended (its summary line), at once.
            served.until(lambda: "bookexec summary:" in served.log().split(drifted, 1)[1], 600)
            html = page()
            assert "executed-book-page-drift" in html
            log = served.log()
            assert "Aborted" not in log and "in strict mode" not in log
            # The other pages came from the cache the suite's build stored, not a second run.
            counts = re.findall(r"bookexec summary: (\d+) blocks executed, (\d+) from cache", log)
            assert sum(int(cached) for _, cached in counts) > 400, counts
            assert 'class="admonition warning executed-book-drift" data-block="dense-layer"' in html
            assert "a line the golden does not have" in html

            time.sleep(1.5)  # let the watcher settle before the edit
            snippet.write_text(original)  # the fix
            served.until(lambda: "executed-book-drift" not in page(), 600)
            assert "executed-book-page-drift" not in page()
            assert "Aborted" not in served.log()
            assert served.proc.poll() is None
    finally:
        snippet.write_text(original)  # the copy is the suite's: leave it as built
