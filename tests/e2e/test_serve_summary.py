"""Under `mkdocs serve` the log tells the truth about what runs (issue 41): the first build's
summary, written while the blocks still run behind the pages shown from their goldens, counts
them as running in the background, not as nothing."""

from __future__ import annotations

import re

import pytest

from conftest import serving

pytestmark = pytest.mark.build

PAGE = '# Slow\n\n```python exec="on" id="nap"\n--8<-- "snippets/slow/nap.py"\n```\n'


def napping_book(site):
    site.page("slow.md", PAGE)
    site.snippet("slow/nap.py", 'print("awake")\n')
    assert site.build("update").returncode == 0


def test_the_first_summary_counts_the_blocks_running_behind_it(prebuilt, tmp_path):
    site = prebuilt(napping_book, tmp_path)
    # Longer than a build waits for a run near its end (serve: wait), so it runs behind.
    site.snippet("slow/nap.py", 'import time\n\ntime.sleep(8)\nprint("awake")\n')
    with serving(site.root, tmp_path / "serve.log", BOOK_CACHE=None) as served:
        first = re.findall(r"bookexec summary: (.*);", served.log())[0]
        assert first.startswith("0 blocks executed, 0 from cache, 1 block running in the "), first


def test_serving_on_comes_first_and_the_review_address_after_it(prebuilt, tmp_path):
    site = prebuilt(napping_book, tmp_path)
    with serving(site.root, tmp_path / "serve.log") as served:
        log = served.log()
        said = [line for line in log.splitlines() if "http://127.0.0.1" in line]
        assert "Serving on" in said[0], log  # the first address a reader sees is the site's
        assert "review drift in the browser" in said[1], log
        assert log.index("review drift in the browser") > log.index("Serving on")
