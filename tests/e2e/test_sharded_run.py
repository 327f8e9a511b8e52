"""A book run as 3 shards and judged over their records (issue 57) ends as the same book run on
one machine: the same goldens written on update, the same pages and notebooks, the same verdicts
and drift report; and a judge refuses a missing shard, a duplicate page, a stale record and
records of another environment, naming the pages. Run as CI would run it: the book's command
line in the book's folder (`./book run --shard I/N`, then `./book build|update --records DIR`)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import Site, new_site

pytestmark = pytest.mark.build

SHARDS = 3
PAGES = {
    "a.md": "# A\n\nThe program has {{fact:count.equations}} equations.\n\n"
    '```python exec="on" id="double"\n--8<-- "snippets/a/double.py"\n```\n\n'
    '```python exec="on" id="count"\n--8<-- "snippets/a/count.py"\n```\n',
    "b.md": '# B\n\n```python exec="on" id="sine"\n--8<-- "snippets/b/sine.py"\n```\n',
    "c.md": "# C\n\nPage A's program has {{fact:a.md#count.equations}} equations.\n\n"
    '```python exec="on" id="total"\n--8<-- "snippets/c/total.py"\n```\n',
    "d.md": '# D\n\n```python exec="on" id="plain"\n--8<-- "snippets/d/plain.py"\n```\n',
}
SNIPPETS = {
    "a/double.py": "import jax\n\nprint(jax.make_jaxpr(lambda x: x * 2.0)(1.0))\n",
    "a/count.py": "import jax\n\nfrom bookexec.facts import record  # hidden\n\n"
    "closed = jax.make_jaxpr(lambda x: x * 2.0 + 1.0)(1.0)\n"
    'record("equations", len(closed.jaxpr.eqns))  # hidden\nprint(closed)\n',
    "b/sine.py": "import jax\nimport jax.numpy as jnp\n\nprint(jax.make_jaxpr(jnp.sin)(1.0))\n",
    "c/total.py": "import jax.numpy as jnp\n\nprint(jnp.arange(4.0).sum())\n",
    "d/plain.py": "print(sorted({'b': 2, 'a': 1}.items()))\n",
}
# What differs between two builds of the same book: a date (a sitemap's, a page's build date).
DATE = re.compile(r"\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?)?")


def book(
    root: Path, *args: str, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`./book ARGS` in the book's folder (the book's command line, from this checkout)."""
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    for name in ("GOLDEN", "GOLDEN_ONLY", "BOOK_CACHE", "BOOK_RECORDS"):
        environ.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "jaxbook.cli", *args],
        cwd=root,
        env={**environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def ok(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def fixture_book(
    root: Path, pages: dict[str, str] | None = None, snippets: dict[str, str] | None = None
) -> Site:
    """The fixture book at `root`: its pages and snippets (this file's, unless given)."""
    site = new_site(root)
    for page, text in (PAGES if pages is None else pages).items():
        site.page(page, text)
    for name, code in (SNIPPETS if snippets is None else snippets).items():
        site.snippet(name, code)
    return site


def run_shards(root: Path, records: Path) -> None:
    for shard in range(1, SHARDS + 1):
        ok(book(root, "run", "--shard", f"{shard}/{SHARDS}", "--records", str(records)))


def copy(source: Path, dest: Path) -> Path:
    subprocess.run(["cp", "-a", str(source), str(dest)], check=True)
    return dest


def tree(folder: Path, suffixes: tuple[str, ...]) -> dict[str, str]:
    """Every file under `folder` with these suffixes, by relative path, dates taken out."""
    return {
        path.relative_to(folder).as_posix(): DATE.sub("DATE", path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name.endswith(suffixes)
    }


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> tuple[Path, Path, Path]:
    """The same book updated on one machine (`one`) and as 3 shards plus a judge (`many`,
    whose shards' records are in `records`)."""
    base = tmp_path_factory.mktemp("sharded")
    site = fixture_book(base / "template")
    one, many = copy(site.root, base / "one"), copy(site.root, base / "many")
    ok(book(one, "update"))
    records = base / "records"
    run_shards(many, records)
    ok(book(many, "update", "--records", str(records)))
    return one, many, records


def test_an_update_over_the_shards_writes_the_goldens_one_machine_writes(books):
    one, many, records = books
    shards = [json.loads(p.read_text()) for p in sorted(records.glob("shard-*-of-3.json"))]
    assert all(s["pages"] for s in shards), "every shard runs pages"
    assert sorted(p for s in shards for p in s["pages"]) == sorted(PAGES), "each page once"
    goldens = tree(one / "tests" / "golden", (".txt", "VERSIONS"))
    assert len(goldens) >= len(SNIPPETS)
    assert tree(many / "tests" / "golden", (".txt", "VERSIONS")) == goldens


def test_the_check_over_the_shards_builds_the_pages_one_machine_builds(books):
    # In place: a record holds the environment, the book's path in it.
    one, many, records = books
    ok(book(one, "build"))
    judged = ok(book(many, "build", "--records", str(records)))
    assert f"records of {SHARDS} shards" in judged.stderr, judged.stderr
    assert "0 blocks executed, 0 from cache, 5 from the shards' records" in judged.stderr
    pages = tree(one / "site", (".html", ".ipynb"))
    assert "Page A's program has 2 equations" in pages["c/index.html"], "a fact from a.md"
    notebooks = sorted(p for p in pages if p.endswith(".ipynb"))
    assert notebooks == ["a/a.ipynb", "b/b.ipynb", "c/c.ipynb", "d/d.ipynb"], notebooks
    assert tree(many / "site", (".html", ".ipynb")) == pages


def drift_report(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The check's report: from its first error to its end, each drift with its diff, the
    counts by class and the verdict, without the summary line (what ran here and how long
    differs by design: the judge ran nothing)."""
    lines = done.stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("ERROR"))
    return [line for line in lines[start:] if "bookexec summary:" not in line]


def test_a_drifted_check_over_the_shards_says_what_one_machine_says(books, tmp_path):
    one, many, _ = books
    one, many = copy(one, tmp_path / "one"), copy(many, tmp_path / "many")
    drifted = SNIPPETS["a/double.py"].replace("*", "+")
    for root in (one, many):
        (root / "snippets" / "a" / "double.py").write_text(drifted)
    alone = book(one, "build")
    records = tmp_path / "records"
    run_shards(many, records)
    judged = book(many, "build", "--records", str(records))
    assert alone.returncode != 0 and judged.returncode != 0, alone.stderr + judged.stderr
    report = drift_report(alone)
    assert any("double" in line for line in report), alone.stderr
    assert drift_report(judged) == report
    # The review's report: the same, but for the build's id and when it was written.
    saved = [json.loads((r / ".cache/bookexec/last-report.json").read_text()) for r in (one, many)]
    for report in saved:
        del report["build"], report["written"]
    assert saved[1] == saved[0]


def pages_of(records: Path, shard: int) -> list[str]:
    return sorted(json.loads((records / f"shard-{shard}-of-{SHARDS}.json").read_text())["pages"])


def refused(root: Path, records: Path, env: dict[str, str] | None = None) -> str:
    done = book(root, "build", "--records", str(records), env=env)
    assert done.returncode != 0, done.stdout + done.stderr
    assert "the shards' records are refused" in done.stderr, done.stderr
    return done.stderr


def test_the_judge_refuses_a_missing_a_duplicate_a_damaged_a_foreign_and_a_stale_shard(
    books, tmp_path
):
    _, many, records = books
    second = pages_of(records, 2)
    missing = copy(records, tmp_path / "missing")
    (missing / f"shard-2-of-{SHARDS}.json").unlink()
    said = refused(many, missing)
    assert f"shard 2/{SHARDS} is missing" in said, said
    assert all(f"docs/{page}" in said for page in second), said
    assert "another environment" not in said and "stale" not in said, said

    twice = copy(records, tmp_path / "twice")
    first = json.loads((twice / f"shard-1-of-{SHARDS}.json").read_text())
    other = twice / f"shard-3-of-{SHARDS}.json"
    third = json.loads(other.read_text())
    page = sorted(first["pages"])[0]
    third["pages"][page] = first["pages"][page]
    other.write_text(json.dumps(third))
    said = refused(many, twice)
    assert f"duplicate records: a page recorded by two shards: docs/{page} (shards 1, 3)" in said

    damaged = copy(records, tmp_path / "damaged")
    first_file = damaged / f"shard-1-of-{SHARDS}.json"
    first = json.loads(first_file.read_text())
    del first["pages"][page]["blocks"][0]["output"]
    first_file.write_text(json.dumps(first))
    said = refused(many, damaged)
    assert f"the record of docs/{page} is damaged (KeyError: 'output')" in said, said

    said = refused(many, records, env={"BOOK_BLOCK_TIMEOUT": "77"})
    assert "another environment" in said and "docs/a.md" in said, said

    snippet = many / "snippets" / "b" / "sine.py"
    written = snippet.read_text()
    snippet.write_text(written.replace("sin", "cos"))
    try:
        said = refused(many, records)
    finally:
        snippet.write_text(written)
    stale = said.partition("stale records")[2]
    assert "docs/b.md" in stale and "docs/a.md" not in stale, said

    added, snippet = many / "docs" / "e.md", many / "snippets" / "e" / "plain.py"
    added.write_text(PAGES["d.md"].replace("d/", "e/"))
    snippet.parent.mkdir()
    snippet.write_text(SNIPPETS["d/plain.py"])
    try:
        said = refused(many, records)
    finally:
        added.unlink()
    assert "no shard recorded docs/e.md (a page new since the shards ran)" in said, said


def test_a_block_that_changes_the_book_fails_in_a_shard_as_on_one_machine(site, tmp_path):
    # The book is read-only to its blocks (`execute.watch`): a shard's run watches it too.
    site.page(
        "w.md",
        '# W\n\n```python exec="on" id="writes"\n--8<-- "snippets/w/writes.py"\n```\n\n'
        '```python exec="on" id="plain"\n--8<-- "snippets/w/plain.py"\n```\n',
    )
    site.snippet("w/writes.py", "from pathlib import Path\n\nPath('docs/new.md').write_text('x')\n")
    site.snippet("w/plain.py", "print(1 + 1)\n")
    one, many = copy(site.root, tmp_path / "one"), copy(site.root, tmp_path / "many")
    alone = book(one, "update")
    records = tmp_path / "records"
    ok(book(many, "run", "--shard", "1/1", "--records", str(records)))
    (many / "docs" / "new.md").unlink(missing_ok=True)  # as the update's own run leaves it
    judged = book(many, "update", "--records", str(records))
    assert alone.returncode != 0 and judged.returncode != 0, alone.stderr + judged.stderr
    blamed = (
        "docs/w.md:3 (block 'writes', snippet snippets/w/writes.py): created docs/new.md while "
        "it ran; the book is read-only to its blocks"
    )
    assert blamed in alone.stderr, alone.stderr
    assert blamed in judged.stderr, judged.stderr
