"""The first page of a fresh clone under `./book serve` waits for no work it does not need
(issue 41): a lab whose cells still run behind the first build is shown from nothing yet, not
converted by nbconvert with its recorded outputs only to be converted again when they end."""

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
        assert (
            "labs: 0 rendered from the cache, 0 converted, 1 waiting until their cells have run"
            in first
        ), first

        def live() -> str | None:
            html = get(served.url + "labs/demo/")
            return html if "x is 7" in html and "executed-book-pending" not in html else None

        served.until(live, 180)
        assert "labs: 0 rendered from the cache, 1 converted" in served.log(), served.log()
