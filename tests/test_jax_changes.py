"""The generated page of what changed between two JAX releases, and its check in the build."""

from __future__ import annotations

import re
import shutil

import pytest

from bookexec.jax_changes import OTHER, PAGE, RECORDS, page_problem, render_page, write_page
from conftest import REPO

RECORD = REPO / RECORDS / OTHER
GOLDEN = REPO / "tests" / "golden"
# Real outputs of both versions: a new scan parameter, changed counts, a failure, no change.
PICKED = [
    "control-flow/scan-jaxpr.txt",
    "primitives/census-count.txt",
    "primitives/census-by-module.txt",
    "tracers/scalar-jaxpr.txt",
]


@pytest.fixture
def small_book(tmp_path):
    """A few goldens and their JAX 0.10.2 records, copied from the book: no second install."""
    for name in PICKED:
        for base, folder in ((GOLDEN, "tests/golden"), (RECORD, f"{RECORDS}/{OTHER}")):
            target = tmp_path / folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(base / name, target)
    (tmp_path / "mkdocs.yml").write_text(
        "nav:\n  - Tracers: tracers.md\n  - Control flow: control-flow.md\n"
        '  - "Census": primitives.md\n'
    )
    return tmp_path


def section(page: str, block_id: str) -> str:
    start = page.index(f"### `{block_id}`")
    end = page.find("\n### ", start + 1)
    return page[start : end if end > 0 else len(page)]


def test_the_comparison_classes_each_changed_block(small_book):
    page = render_page(small_book)
    assert page.startswith(f"# What changed from JAX {OTHER} to 0.12.0.1\n")
    rows = re.findall(r"^\| \[(.+?)\]\((\S+)\) \|(.*)\|$", page, re.M)
    cells = {title: [int(n) for n in rest.split("|")] for title, _, rest in rows}
    # blocks, same, cosmetic, structural, text, failed
    assert cells == {
        "Tracers": [1, 1, 0, 0, 0, 0],
        "Control flow": [1, 0, 0, 1, 0, 0],
        "Census": [2, 0, 0, 0, 1, 1],
    }
    scan = section(page, "scan-jaxpr")
    assert scan.startswith("### `scan-jaxpr`: structural")
    assert "- scan gained parameters ft_in, ft_out" in scan
    assert "^^^" in scan and "```diff" in scan
    assert "scalar-jaxpr" not in page.split("\n## ", 1)[1]  # the same under both: not listed


def test_changed_counts_are_side_by_side(small_book):
    census = section(render_page(small_book), "census-count")
    assert census.startswith("### `census-count`: text")
    assert f"| value | JAX {OTHER} | JAX 0.12.0.1 |" in census
    old = re.search(r"^total = (\d+)$", (RECORD / "primitives/census-count.txt").read_text(), re.M)
    new = re.search(r"^total = (\d+)$", (GOLDEN / "primitives/census-count.txt").read_text(), re.M)
    assert old[1] != new[1]
    assert f"| `total` | {old[1]} | {new[1]} |" in census


def test_a_block_that_fails_under_the_other_version_is_listed_with_its_error(small_book):
    failed = section(render_page(small_book), "census-by-module")
    assert failed.startswith("### `census-by-module`: fails")
    record = (RECORD / "primitives/census-by-module.txt").read_text()
    error = record.split("\n---\n", 1)[1].strip().splitlines()[-1]
    assert error in failed


def test_a_block_without_a_record_is_listed_not_dropped(small_book):
    (small_book / RECORDS / OTHER / "tracers/scalar-jaxpr.txt").unlink()
    page = render_page(small_book)
    assert "### `scalar-jaxpr`: not run" in page
    assert "run ./book jax-changes" in section(page, "scalar-jaxpr")


def test_the_page_must_match_its_inputs(small_book):
    (small_book / "docs").mkdir()
    assert write_page(small_book) is True
    assert page_problem(small_book) is None
    assert write_page(small_book) is False
    golden = small_book / "tests/golden/tracers/scalar-jaxpr.txt"
    golden.write_text(golden.read_text().replace("tanh", "sinh"))
    assert "does not match the goldens" in page_problem(small_book)


def test_the_committed_page_matches_the_committed_record_and_goldens():
    assert page_problem(REPO) is None
    page = (REPO / PAGE).read_text()
    goldens = len(list(GOLDEN.glob("*/*.txt")))  # the chapters' goldens; labs are one level deeper
    rows = re.findall(r"^\| \[.+?\]\(\S+\) \| (\d+) \|", page, re.M)
    assert sum(map(int, rows)) == goldens  # every block is counted


@pytest.mark.build
def test_the_strict_build_fails_on_a_stale_page_and_update_rewrites_it(site):
    site.page(
        "drift.md",
        '# Drift\n\n```python exec="on" id="wave"\n--8<-- "snippets/drift/wave.py"\n```\n',
    )
    site.snippet("drift/wave.py", "import jax\nprint(jax.make_jaxpr(lambda x: x * 2.0)(1.0))\n")
    assert site.build("update").returncode == 0
    record = site.root / RECORDS / OTHER / "drift" / "wave.txt"
    record.parent.mkdir(parents=True)
    shutil.copy(site.golden("drift.md", "wave"), record)
    assert write_page(site.root)
    assert site.build().returncode == 0

    page = site.root / PAGE
    page.write_text(page.read_text() + "edited by hand\n")
    stale = site.build()
    assert stale.returncode != 0
    assert "docs/jax-changes.md does not match the goldens" in stale.output
    assert "./book jax-changes --page-only" in stale.output

    assert site.build("update").returncode == 0
    assert "edited by hand" not in page.read_text()
    assert site.build().returncode == 0
