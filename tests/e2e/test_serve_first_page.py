"""The first page of a fresh clone under `./book serve` waits for no work it does not need
(issue 41): the first build renders the home page alone, and a lab whose cells still run is
shown from nothing yet, not converted by nbconvert with its recorded outputs only to be
converted again when they end."""

from __future__ import annotations

import shutil
import urllib.request

import pytest
from test_labs import lab_written  # noqa: F401  (a fixture)

from conftest import serving

pytestmark = [pytest.mark.build]


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def test_a_lab_still_running_is_converted_once_its_cells_ran_not_before(lab_written, tmp_path):  # noqa: F811
    site = lab_written
    shutil.rmtree(site.root / ".cache")  # a fresh clone: no block cache, no lab render cache
    with serving(site.root, tmp_path / "serve.log", "--dirty", BOOK_CACHE=None) as served:
        first = served.log().split("Serving on", 1)[0]
        # The first build renders the home page alone; the lab comes with the next build.
        assert "rendering the home page first" in first and "1 converted" not in first, first

        def live() -> str | None:
            html = get(served.url + "labs/demo/")
            return html if "x is 7" in html and "executed-book-pending" not in html else None

        served.until(live, 180)
        assert "labs: 0 rendered from the cache, 1 converted" in served.log(), served.log()


PENDING = "executed-book-pending"  # a page shown before it is rendered, or from its goldens


def test_the_first_build_renders_the_home_page_alone_and_the_others_right_after(site, tmp_path):
    """Under `./book serve` (`mkdocs serve --dirty`) the first page answers once it is rendered,
    not once every page is: the first build renders the home page, every other page shows a
    short notice that reloads, and the build right after the server starts renders them."""
    site.page("index.md", "# Home\n\nThe book's first page.\n")
    site.page(
        "chapter.md",
        '# Chapter\n\n```python exec="on" id="b"\n--8<-- "snippets/chapter/b.py"\n```\n',
    )
    site.snippet("chapter/b.py", 'print("chapter block")\n')
    assert site.build("update").returncode == 0
    shutil.rmtree(site.root / ".cache")  # a fresh clone
    with serving(site.root, tmp_path / "serve.log", "--dirty", BOOK_CACHE=None) as served:
        first = served.log().split("Serving on", 1)[0]
        said = "bookexec: rendering the home page first (the first build); 1 other page"
        assert said in first, first
        assert "The book's first page." in get(served.url)

        def live() -> str | None:
            html = get(served.url + "chapter/")
            return html if "chapter block" in html and PENDING not in html else None

        served.until(live, 180)
        said = "rendering 2 of 2 pages again: index.md (new), chapter.md (new)"
        assert said in served.log(), served.log()
