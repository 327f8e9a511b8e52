"""The workers' hash seed comes from `BOOK_HASH_SEED`, and a build under another seed names a
block whose output depends on it (issue 24).

The goldens are written by the update under the workers' default hash seed (0), and CI's
strict build checks the book under the same seed against them. The whole book under another
seed is judged by the suite's one cold build of it (`built_book`): it runs every chapter block
and lab cold under `BOOK_HASH_SEED=2718281828`, and every block must equal its golden, so the
suite pays for one cold run of the book where two would say the same. Each page runs in a
fresh worker process of its own, so the order pages are run in changes only which pages run
side by side, never what state a block starts from.

This catches order that depends on the seed (a set of strings, a dict built from one). Order
that depends on the machine (gc.get_objects(), os.listdir) may come out the same twice here,
so the snippets also sort or break ties explicitly; docs/guide/testing.md ("Determinism and
load") lists how.
"""

from __future__ import annotations

import pytest

from bookexec._internal.errors import BookError
from bookexec._internal.execute.limits import hash_seed
from conftest import OTHER_SEED

pytestmark = pytest.mark.build


SET_ORDER = """\
words = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
print(list(words))  # the order of a set of strings comes from the hash seed
"""


def test_a_build_under_another_seed_names_the_block_that_prints_a_set_of_strings(site, monkeypatch):
    """What the mutation build's seed can catch, through the same path: the strict build with
    `BOOK_HASH_SEED` set. The goldens are written as the book's are, by an update build under
    the default seed; the same build under that seed stays green."""
    site.snippet("order/words.py", SET_ORDER)
    site.snippet("order/sorted_words.py", SET_ORDER.replace("list(words)", "sorted(words)"))
    site.page(
        "order.md",
        '# Order\n\n```python exec="on" id="set-order"\n--8<-- "snippets/order/words.py"\n```\n\n'
        '```python exec="on" id="sorted"\n--8<-- "snippets/order/sorted_words.py"\n```\n',
    )
    for name in ("BOOK_HASH_SEED", "PYTHONHASHSEED", "BOOK_CACHE"):
        monkeypatch.delenv(name, raising=False)
    written = site.build("update")
    assert written.returncode == 0, written.output
    same = site.build(BOOK_CACHE="off")
    assert same.returncode == 0, same.output
    other = site.build(BOOK_CACHE="off", BOOK_HASH_SEED=OTHER_SEED)
    assert other.returncode != 0, other.output
    assert "golden check: 2 blocks checked, 0 failed, 1 drifted" in other.output
    assert "DRIFTED (text): page docs/order.md, block 'set-order'" in other.output
    assert "'sorted'" not in other.output.partition("DRIFTED")[2]


def test_the_workers_hash_seed_comes_from_book_hash_seed_and_a_bad_one_is_named():
    assert hash_seed({}) == "0"
    assert hash_seed({"PYTHONHASHSEED": "7"}) == "7"
    assert hash_seed({"BOOK_HASH_SEED": OTHER_SEED, "PYTHONHASHSEED": "7"}) == OTHER_SEED
    with pytest.raises(BookError, match=r"BOOK_HASH_SEED='seven' is not a hash seed"):
        hash_seed({"BOOK_HASH_SEED": "seven"})
