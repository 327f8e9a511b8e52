"""A book whose `goldens:` is not tests/golden: every command finds its goldens where mkdocs.yml
puts them, because each opens the book through one context (`bookexec._internal.context`). Run as an
author runs them: the book's command line in the book's folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from conftest import PLUGIN, new_site

pytestmark = pytest.mark.build

GOLDENS = "checks/expected"
PAGE = '# P\n\n```python exec="on" id="double"\n--8<-- "snippets/p/double.py"\n```\n'
CODE = "import jax\nprint(jax.make_jaxpr(lambda x: x {op} 2.0)(1.0))\n"


def book(root: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`./book ARGS` in the book's folder (the book's command line, from this checkout)."""
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    for name in ("GOLDEN", "GOLDEN_ONLY", "BOOK_CACHE"):
        environ.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "jaxbook.cli", *args],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Path:
    """A one-block book whose goldens are under checks/expected, updated once by `./book update`."""
    site = new_site(tmp_path_factory.mktemp("elsewhere") / "book")
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text().replace(PLUGIN, PLUGIN.replace("tests/golden", GOLDENS)))
    site.page("p.md", PAGE)
    site.snippet("p/double.py", CODE.format(op="*"))
    done = book(site.root, "update")
    assert done.returncode == 0, done.stdout + done.stderr
    return site.root


def test_update_and_the_one_page_update_write_under_the_configured_folder(elsewhere):
    golden = elsewhere / GOLDENS / "p" / "double.txt"
    assert "mul" in golden.read_text()
    assert not (elsewhere / "tests" / "golden").exists()
    golden.unlink()
    done = book(elsewhere, "update", "docs/p.md")
    assert done.returncode == 0, done.stdout + done.stderr
    assert golden.is_file() and not (elsewhere / "tests" / "golden").exists()


def test_review_reads_the_report_of_goldens_elsewhere(elsewhere, tmp_path):
    drifted = tmp_path / "book"
    subprocess.run(["cp", "-a", str(elsewhere), str(drifted)], check=True)
    (drifted / "snippets" / "p" / "double.py").write_text(CODE.format(op="+"))
    check = book(drifted, "build")
    assert check.returncode != 0, check.stdout
    listed = book(drifted, "review", "--list")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert "docs/p.md" in listed.stdout and "double" in listed.stdout, listed.stdout


def test_jax_changes_compares_the_records_with_goldens_elsewhere(elsewhere, tmp_path):
    copy = tmp_path / "book"
    subprocess.run(["cp", "-a", str(elsewhere), str(copy)], check=True)
    done = book(copy, "jax-changes", "--python", sys.executable)
    assert done.returncode == 0, done.stdout + done.stderr
    page = (copy / "docs" / "jax-changes.md").read_text()
    assert f"and {GOLDENS}/; do not edit" in page
    assert "tests/golden" not in page
    # The chapter's row: its golden, read from checks/expected, is the newest column.
    assert "| [p](p.md) | 1 |" in page, page


def test_the_drift_watch_diffs_goldens_elsewhere(elsewhere, tmp_path):
    copy = tmp_path / "book"
    subprocess.run(["cp", "-a", str(elsewhere), str(copy)], check=True)
    (copy / "snippets" / "p" / "double.py").write_text(CODE.format(op="+"))
    out = tmp_path / "watch"
    jax = version("jax")  # with --python, --jax only names the run
    done = book(copy, "drift-watch", "--jax", jax, "--python", sys.executable, "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["check_exit"] != 0 and summary["update_exit"] == 0, summary
    assert f"{GOLDENS}/p/double.txt" in summary["changed_files"], summary
    assert f"{GOLDENS}/p/double.txt" in (out / "golden.diff").read_text()
