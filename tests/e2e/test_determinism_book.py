"""Every block of every chapter and lab gives the same output under another hash seed and
another page order (issue 24).

The book's pages run twice, cold (no cache), through the build's own executor (the same
workers, one fresh process per page) and the build's own normalisation: once in page order
under BOOK_HASH_SEED=0, once in reverse order under another seed. What the check would
compare exactly (the normalised output, the exact facts, the names and bands of the measured
ones, and whether each claim holds) must be byte-identical; a block that differs is named.

This catches order that depends on the seed (a set of strings, a dict built from one). Order
that depends on the machine (gc.get_objects(), os.listdir) may come out the same twice here,
so the snippets also sort or break ties explicitly; docs/guide/testing.md ("Determinism and
load") lists how.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from bookexec.book import labs
from bookexec.discover.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.execute.runner import Executor, hash_seed
from bookexec.goldens import measured
from bookexec.goldens.normalize import machine_path_rules, normalize
from bookexec.jax.runtime import JaxRuntime
from conftest import REPO

pytestmark = pytest.mark.build

SEEDS = ("0", "2718281828")


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


def judged_text(run, rules) -> str:
    """What the check compares exactly for one block, as the build normalises it."""
    if run.failure:
        return f"FAILED: {run.failure}\n"
    broken = measured.broken_claims(run.facts, run.claims)
    return (
        normalize(run.output, rules)
        + measured.masked(run.facts, run.claims)
        + "".join(f"\nbroken: {line}" for line in broken)
    )


def run_book(
    root: Path, pages: list[tuple[str, list[Block]]], seed: str, monkeypatch
) -> dict[str, str]:
    """Each block's judged text, keyed `page#block`, with the pages submitted in this order."""
    monkeypatch.setenv("BOOK_HASH_SEED", seed)
    monkeypatch.setenv("BOOK_CACHE", "off")
    # no cache: every block really runs
    executor = Executor(root, runtime=JaxRuntime(), environ=os.environ, seed=hash_seed(os.environ))
    rules = machine_path_rules(root, os.environ)
    outputs: dict[str, str] = {}
    try:
        for page, blocks in pages:
            executor.submit(page, blocks)
        for page, _ in pages:
            for run in executor.page(page).blocks:
                outputs[f"{page}#{run.block.id}"] = judged_text(run, rules)
    finally:
        executor.close()
    assert not executor.notes, executor.notes
    return outputs


def differences(first: dict[str, str], second: dict[str, str]) -> list[str]:
    """Each block whose judged text differs, named, with a short diff."""
    found = []
    for key in sorted(first.keys() | second.keys()):
        a, b = first.get(key, "(missing)\n"), second.get(key, "(missing)\n")
        if a != b:
            diff = difflib.unified_diff(a.splitlines(), b.splitlines(), SEEDS[0], SEEDS[1], n=1)
            found.append(f"{key} differs:\n" + "\n".join(list(diff)[:20]))
    return found


def test_every_block_and_lab_is_the_same_under_another_seed_and_page_order(monkeypatch):
    pages = book_pages(REPO)
    first = run_book(REPO, pages, SEEDS[0], monkeypatch)
    second = run_book(REPO, pages[::-1], SEEDS[1], monkeypatch)
    blocks = sum(len(b) for _, b in pages)
    lab_pages = sum(1 for page, _ in pages if page.endswith(".ipynb"))
    assert lab_pages >= 10 and len(first) == blocks > 150  # the whole book, labs included
    failed = [key for key, text in first.items() if text.startswith("FAILED")]
    assert not failed, failed
    found = differences(first, second)
    assert not found, "\n\n".join(found)
    print(f"\n{blocks} blocks on {len(pages)} pages ({lab_pages} labs), same under {SEEDS}")


SET_ORDER = """\
words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
print(list(words))  # the order of a set of strings comes from the hash seed
"""


def test_a_block_that_prints_a_set_of_strings_is_named(tmp_path, monkeypatch):
    """The check above can fail: a set's order really changes with the workers' seed."""
    root = tmp_path / "book"
    (root / "snippets" / "order").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "snippets" / "order" / "words.py").write_text(SET_ORDER)
    (root / "snippets" / "order" / "sorted_words.py").write_text(
        SET_ORDER.replace("list(words)", "sorted(words)")
    )
    (root / "docs" / "order.md").write_text(
        '# Order\n\n```python exec="on" id="set-order"\n--8<-- "snippets/order/words.py"\n```\n\n'
        '```python exec="on" id="sorted"\n--8<-- "snippets/order/sorted_words.py"\n```\n'
    )
    pages = book_pages(root)
    first = run_book(root, pages, SEEDS[0], monkeypatch)
    second = run_book(root, pages, SEEDS[1], monkeypatch)
    found = differences(first, second)
    assert [f.splitlines()[0] for f in found] == ["order.md#set-order differs:"]


def test_the_workers_hash_seed_comes_from_book_hash_seed_and_a_bad_one_is_named():
    assert hash_seed({}) == "0"
    assert hash_seed({"PYTHONHASHSEED": "7"}) == "7"
    assert hash_seed({"BOOK_HASH_SEED": "2718281828", "PYTHONHASHSEED": "7"}) == "2718281828"
    with pytest.raises(BookError, match=r"BOOK_HASH_SEED='seven' is not a hash seed"):
        hash_seed({"BOOK_HASH_SEED": "seven"})
