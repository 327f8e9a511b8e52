"""Every block of every chapter and lab gives the same output under another hash seed and
another page order (issue 24).

The goldens are written by the update under the workers' default hash seed (0) in page order,
and the strict build (`built_book`, CI's `build` job) checks the book under the same seed and
order against them. Here the book's pages run once more, cold (no cache), through the build's
own executor (the same workers, one fresh process per page) and the build's own normalisation,
in reverse page order under another seed, and each block is judged against its golden by the
check's own comparison: what the check compares exactly (the normalised output, the exact
facts, the names and bands of the measured ones) must be identical and every claim must hold.
A block that differs is named with its diff. Both orders and both seeds thus meet the same
golden, without a second run of the whole book here.

This catches order that depends on the seed (a set of strings, a dict built from one). Order
that depends on the machine (gc.get_objects(), os.listdir) may come out the same twice here,
so the snippets also sort or break ties explicitly; docs/guide/testing.md ("Determinism and
load") lists how.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bookexec.book import labs
from bookexec.discover.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.execute.runner import Executor, hash_seed
from bookexec.goldens.compare import compare
from bookexec.goldens.normalize import machine_path_rules, normalize
from bookexec.jax.runtime import JaxRuntime
from conftest import REPO

pytestmark = pytest.mark.build

SEEDS = ("0", "2718281828")  # the goldens' (the workers' default), and the other one


def book_pages(root: Path) -> list[tuple[str, list[Block]]]:
    """Every page with executed blocks, as the build plans them: chapters, then labs."""
    docs = root / "docs"
    pages = [
        (src, scan_page(src, path.read_text(), root))
        for path in sorted(docs.rglob("*.md"))
        if (src := str(path.relative_to(docs)))
    ]
    pages += [
        (src, labs.scan_lab(src, path))
        for path in sorted(docs.rglob("*.ipynb"))
        if labs.is_lab(src := str(path.relative_to(docs)))
    ]
    return [(src, blocks) for src, blocks in pages if blocks]


def against_goldens(
    root: Path, pages: list[tuple[str, list[Block]]], seed: str, monkeypatch
) -> tuple[int, list[str]]:
    """Run the pages in this order under `seed`, cold, and judge each block against its golden
    as the check does: how many blocks ran, and each that failed or differs, named, with a
    short diff."""
    monkeypatch.setenv("BOOK_HASH_SEED", seed)
    monkeypatch.setenv("BOOK_CACHE", "off")  # no cache: every block really runs
    executor = Executor(root, runtime=JaxRuntime(), environ=os.environ, seed=hash_seed(os.environ))
    rules = machine_path_rules(root, os.environ)
    golden_dir = root / "tests" / "golden"
    ran, found = 0, []
    try:
        for page, blocks in pages:
            executor.submit(page, blocks)
        for page, _ in pages:
            for run in executor.page(page).blocks:
                ran += 1
                key = f"{page}#{run.block.id}"
                if run.failure:
                    found.append(f"{key} failed: {run.failure}")
                    continue
                body = normalize(run.output, rules)
                judged = compare(
                    golden_dir, page, run.block.id, run.block.snippet, body, run.facts, run.claims
                )
                if judged.status != "ok":
                    said = [*judged.reasons, *judged.diff(root).splitlines()[:20]]
                    found.append(f"{key} differs from its golden:\n" + "\n".join(said))
    finally:
        executor.close()
    assert not executor.notes, executor.notes
    return ran, found


def test_every_block_and_lab_is_the_same_under_another_seed_and_page_order(monkeypatch):
    """The goldens hold each block's output under seed 0 in page order (the update wrote them
    so, and the strict build checks them so); here the other seed, pages in reverse."""
    pages = book_pages(REPO)
    ran, found = against_goldens(REPO, pages[::-1], SEEDS[1], monkeypatch)
    blocks = sum(len(b) for _, b in pages)
    lab_pages = sum(1 for page, _ in pages if page.endswith(".ipynb"))
    assert lab_pages >= 10 and ran == blocks > 150  # the whole book, labs included
    assert not found, "\n\n".join(found)
    print(f"\n{blocks} blocks on {len(pages)} pages ({lab_pages} labs) as golden under {SEEDS}")


SET_ORDER = """\
words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
print(list(words))  # the order of a set of strings comes from the hash seed
"""


def test_a_block_that_prints_a_set_of_strings_is_named(site, monkeypatch):
    """The check above can fail: a set's order really changes with the workers' seed. The
    goldens are written as the book's are, by an update build under the default seed."""
    site.snippet("order/words.py", SET_ORDER)
    site.snippet("order/sorted_words.py", SET_ORDER.replace("list(words)", "sorted(words)"))
    site.page(
        "order.md",
        '# Order\n\n```python exec="on" id="set-order"\n--8<-- "snippets/order/words.py"\n```\n\n'
        '```python exec="on" id="sorted"\n--8<-- "snippets/order/sorted_words.py"\n```\n',
    )
    monkeypatch.delenv("BOOK_HASH_SEED", raising=False)
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    written = site.build("update")
    assert written.returncode == 0, written.output
    pages = book_pages(site.root)
    assert against_goldens(site.root, pages, SEEDS[0], monkeypatch) == (2, [])
    ran, found = against_goldens(site.root, pages[::-1], SEEDS[1], monkeypatch)
    assert ran == 2 and [f.splitlines()[0] for f in found] == [
        "order.md#set-order differs from its golden:"
    ]
    assert "+['" in found[0] and "-['" in found[0]  # the diff of the two orders


def test_the_workers_hash_seed_comes_from_book_hash_seed_and_a_bad_one_is_named():
    assert hash_seed({}) == "0"
    assert hash_seed({"PYTHONHASHSEED": "7"}) == "7"
    assert hash_seed({"BOOK_HASH_SEED": "2718281828", "PYTHONHASHSEED": "7"}) == "2718281828"
    with pytest.raises(BookError, match=r"BOOK_HASH_SEED='seven' is not a hash seed"):
        hash_seed({"BOOK_HASH_SEED": "seven"})
