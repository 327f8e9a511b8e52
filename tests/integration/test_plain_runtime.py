"""The engine runs a book without JAX: tests/sites/plain, built with the plain Python runtime.

Its blocks use only the standard library and NumPy. Its goldens are written by the update mode
in a copy, checked, and drift is found and classed as plain text, all through the same engine
as the JAX book; and its workers never import JAX.
"""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import REPO, Site

pytestmark = [pytest.mark.build, pytest.mark.engine]

FIXTURE = REPO / "tests" / "sites" / "plain"


def test_a_book_without_jax_builds_checks_updates_and_drifts_as_text(tmp_path):
    root = tmp_path / "plain"
    shutil.copytree(FIXTURE, root)
    build = Site(root).build
    golden = root / "tests" / "golden"

    update = build("update")
    assert update.returncode == 0, update.output
    assert "golden update: 4 blocks checked, 4 written (4 new)" in update.output
    versions = (golden / "VERSIONS").read_text()
    assert not re.search(r"^jax", versions, re.MULTILINE), versions
    assert re.search(r"^python: \d+\.\d+$", versions, re.MULTILINE), versions

    check = build("check")
    assert check.returncode == 0, check.output
    assert "golden check: 4 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in check.output
    # the workers never imported JAX: the block says so, on the page and in its golden
    assert (golden / "index" / "no-jax.txt").read_text().endswith("---\njax imported: False\n")
    assert "jax imported: False" in (root / "site" / "index.html").read_text()
    assert "the answer is 42" in (golden / "session" / "use.txt").read_text()

    snippet = root / "snippets" / "index" / "mean.py"
    snippet.write_text(snippet.read_text().replace('"numpy mean:"', '"NumPy mean:"'))
    drifted = build("check")
    assert drifted.returncode != 0, drifted.output
    assert "DRIFTED (text): page docs/index.md, block 'mean'" in drifted.output
    assert "golden check: 4 blocks checked, 0 failed, 1 drifted, 0 new, 0 stale" in (drifted.output)
    assert re.search(r"drift by class: 0 structural .*, 1 text .*, 0 cosmetic", drifted.output)

    rewritten = build("update")
    assert rewritten.returncode == 0, rewritten.output
    assert "rewrote tests/golden/index/mean.txt" in rewritten.output
    assert "NumPy mean: 5.5" in (golden / "index" / "mean.txt").read_text()
    assert build("check").returncode == 0
