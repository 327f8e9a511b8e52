"""`./book bench transfer` (benchmarks/bench_transfer.py) on a tiny built site: it counts every
request a page makes in Chromium, with each file's size as served."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.build

PAGE = "# Tiny\n\nA page with no block, in MkDocs' own theme.\n"


def test_the_transfer_benchmark_counts_every_file_a_page_loads_at_its_size(site, tmp_path):
    site.page("index.md", PAGE)
    site.page("other.md", PAGE.replace("Tiny", "Other"))
    built = site.build()
    assert built.returncode == 0, built.output
    out = tmp_path / "sizes.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_transfer.py"),
            "--site",
            str(site.root / "site"),
            "--page",
            "index.html",
            "--page",
            "other/",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = json.loads(out.read_text())
    assert list(results) == ["index.html", "other/"]
    for page, result in results.items():
        on_disk = {}
        for path, size in result["files"]:
            if not path.startswith("/"):  # another host's (MkDocs' theme loads highlight.js)
                continue
            file = site.root / "site" / path.lstrip("/")
            on_disk[path] = (file / "index.html" if file.is_dir() else file).stat().st_size
            assert size == on_disk[path], (
                f"{page}: {path} counted {size} bytes, {on_disk[path]} served"
            )
        html = "/" + page
        assert html in on_disk, f"{page}: the page itself is not among {sorted(on_disk)}"
        # MkDocs' theme: the page, its stylesheets and scripts
        assert any(p.endswith(".css") for p in on_disk) and any(p.endswith(".js") for p in on_disk)
        assert result["requests"] == len(result["files"])
        assert result["bytes"] == sum(size for _, size in result["files"])
        assert result["bytes"] >= sum(on_disk.values())
        assert f"{page} " in proc.stdout and f"{result['bytes']:,}" in proc.stdout
