"""A sharded run that reads the block cache (`./book run --shard I/N --block-cache`, issue 57):
a second run of an unchanged book runs no block but the one that measured, its records say
which blocks came from the cache, and the judge's build over them passes and makes the site a
cold run makes. A changed snippet runs that block alone; an entry of another environment is
never used; the same code written again at another time (a fresh runner's install) is still
the same code, and the same-sized edit of it is not. Run as CI runs it: the book's command
line in the book's folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_sharded_run import PAGES, SNIPPETS, book, fixture_book, ok, tree

pytestmark = pytest.mark.build

SHARDS = 3
# A block that measures: its timing is this run's, whatever the cache holds.
MEASURED = {
    "e.md": '# E\n\n```python exec="on" id="timed"\n--8<-- "snippets/e/timed.py"\n```\n',
}
# A block whose code is partly a module of the book's own, outside the standard library.
IMPORTED = {
    "f.md": '# F\n\n```python exec="on" id="shelved"\n--8<-- "snippets/f/shelved.py"\n```\n',
}
CODE = {
    "e/timed.py": "import jax\nimport jax.numpy as jnp\n\n"
    "from bookexec.facts import claim, timing  # hidden\n\n"
    "double = jax.jit(lambda x: x * 2.0)\nx = jnp.arange(3.0)\n"
    'timing("call", lambda: double(x))  # hidden\n'
    'claim("call", ">", 0)  # hidden\n'
    "print(double(x))\n",
    "f/shelved.py": "import shelf\n\nprint(shelf.LABEL)\n",
}
SHELF = 'LABEL = "kept"\n'
# Every block the book has; the one that measured runs in every run.
BLOCKS = {"a.md": 2, "b.md": 1, "c.md": 1, "d.md": 1, "e.md": 1, "f.md": 1}
ALWAYS = {("e.md", "timed")}


def run(root: Path, records: Path, *extra: str, env: dict[str, str] | None = None) -> None:
    for shard in range(1, SHARDS + 1):
        where = ("--records", str(records))
        ok(book(root, "run", "--shard", f"{shard}/{SHARDS}", *where, *extra, env=env))


def ran(records: Path) -> set[tuple[str, str]]:
    """The blocks the shards ran (not taken from the block cache), by page and id; every
    block of the book recorded once."""
    found: dict[tuple[str, str], bool] = {}
    for path in sorted(records.glob(f"shard-*-of-{SHARDS}.json")):
        for page, entry in json.loads(path.read_text())["pages"].items():
            found.update({(page, block["id"]): block["cached"] for block in entry["blocks"]})
    assert sorted(found) == sorted((p, b) for p, b in _ids()), found
    return {block for block, cached in found.items() if not cached}


def _ids() -> list[tuple[str, str]]:
    ids = {"a.md": ["double", "count"], "b.md": ["sine"], "c.md": ["total"], "d.md": ["plain"]}
    ids |= {"e.md": ["timed"], "f.md": ["shelved"]}
    assert {page: len(names) for page, names in ids.items()} == BLOCKS
    return [(page, name) for page, names in ids.items() for name in names]


@pytest.fixture(scope="module")
def cached(tmp_path_factory) -> tuple[Path, dict[str, str], Path, Path]:
    """The book (its goldens written by `book update`, then its caches dropped, as a clone has
    none), the environment every command gets (the book's own module on PYTHONPATH), and two
    runs with --block-cache: the first finds the cache empty, the second finds the first's."""
    base = tmp_path_factory.mktemp("sharded-cache")
    shelf = base / "lib"
    shelf.mkdir()
    (shelf / "shelf.py").write_text(SHELF)
    env = {"PYTHONPATH": str(shelf)}
    site = fixture_book(base / "book", {**PAGES, **MEASURED, **IMPORTED}, {**SNIPPETS, **CODE})
    ok(book(site.root, "update", env=env))
    for ignored in (".cache", "site"):
        shutil.rmtree(site.root / ignored)
    first, second = base / "first", base / "second"
    run(site.root, first, "--block-cache", env=env)
    run(site.root, second, "--block-cache", env=env)
    return site.root, env, first, second


def judged(root: Path, records: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The judge's strict build over these records, goldens in check mode (it must pass)."""
    return ok(book(root, "build", "--records", str(records), env={**env, "GOLDEN": "check"}))


def test_a_second_run_takes_every_block_but_the_measured_one_from_the_block_cache(cached):
    root, env, first, second = cached
    assert ran(first) == set(_ids()), "an empty cache: every block runs"
    assert ran(second) == ALWAYS, "the second run runs only the block that measured"
    cold = judged(root, first, env)
    assert "from the shards' records" in cold.stderr and "block cache" not in cold.stderr
    site = tree(root / "site", (".html", ".ipynb"))
    warm = judged(root, second, env)
    cached_blocks = sum(BLOCKS.values()) - len(ALWAYS)
    summary = f"{sum(BLOCKS.values())} from the shards' records ({cached_blocks} from the block"
    assert summary in warm.stderr, warm.stderr
    assert tree(root / "site", (".html", ".ipynb")) == site


def test_a_changed_snippet_runs_that_block_again_and_no_other(cached, tmp_path):
    root, env, _, _ = cached
    snippet = root / "snippets" / "d" / "plain.py"
    written = snippet.read_text()
    snippet.write_text(written + "# the items, sorted by key\n")  # the same output
    try:
        run(root, tmp_path / "changed", "--block-cache", env=env)
        judged(root, tmp_path / "changed", env)
    finally:
        snippet.write_text(written)
    assert ran(tmp_path / "changed") == ALWAYS | {("d.md", "plain")}


def test_an_entry_of_another_environment_is_never_used(cached, tmp_path):
    root, env, _, _ = cached
    other = {**env, "BOOK_BLOCK_TIMEOUT": "77"}  # a setting in the engine's key
    run(root, tmp_path / "other", "--block-cache", env=other)
    assert ran(tmp_path / "other") == set(_ids())


def test_the_same_code_written_again_is_the_same_and_a_same_sized_edit_is_not(cached, tmp_path):
    """A fresh runner installs the same files at another time: a block that imported them is
    still cached. The same number of bytes, edited, is other code: that block runs again."""
    root, env, _, _ = cached
    module = Path(env["PYTHONPATH"]) / "shelf.py"
    later = module.stat().st_mtime + 3600
    os.utime(module, (later, later))
    run(root, tmp_path / "touched", "--block-cache", env=env)
    assert ran(tmp_path / "touched") == ALWAYS
    module.write_text(SHELF.replace("kept", "kelp"))  # the same size: only the bytes differ
    try:
        run(root, tmp_path / "edited", "--block-cache", env=env)
    finally:
        module.write_text(SHELF)
    assert ran(tmp_path / "edited") == ALWAYS | {("f.md", "shelved")}
