"""The engine runs a book without JAX: tests/sites/plain, built with the plain Python runtime.

Its blocks use only the standard library and NumPy. Its goldens are written by the update mode
in a copy, checked, and drift is found and classed as plain text, all through the same engine
as the JAX book; and its workers never import JAX.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import MKDOCS, REPO

pytestmark = pytest.mark.build

FIXTURE = REPO / "tests" / "sites" / "plain"


def build(root: Path, mode: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GOLDEN": mode, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )


def test_a_book_without_jax_builds_checks_updates_and_drifts_as_text(tmp_path):
    root = tmp_path / "plain"
    shutil.copytree(FIXTURE, root)
    golden = root / "tests" / "golden"

    update = build(root, "update")
    assert update.returncode == 0, update.stdout
    assert "golden update: 4 blocks checked, 4 written (4 new)" in update.stdout
    versions = (golden / "VERSIONS").read_text()
    assert not re.search(r"^jax", versions, re.MULTILINE), versions
    assert re.search(r"^python: \d+\.\d+$", versions, re.MULTILINE), versions

    check = build(root, "check")
    assert check.returncode == 0, check.stdout
    assert "golden check: 4 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in check.stdout
    # the workers never imported JAX: the block says so, on the page and in its golden
    assert (golden / "index" / "no-jax.txt").read_text().endswith("---\njax imported: False\n")
    assert "jax imported: False" in (root / "site" / "index.html").read_text()
    assert "the answer is 42" in (golden / "session" / "use.txt").read_text()

    snippet = root / "snippets" / "index" / "mean.py"
    snippet.write_text(snippet.read_text().replace('"numpy mean:"', '"NumPy mean:"'))
    drifted = build(root, "check")
    assert drifted.returncode != 0, drifted.stdout
    assert "DRIFTED (text): page docs/index.md, block 'mean'" in drifted.stdout
    assert "golden check: 4 blocks checked, 0 failed, 1 drifted, 0 new, 0 stale" in (drifted.stdout)
    assert re.search(r"drift by class: 0 structural .*, 1 text .*, 0 cosmetic", drifted.stdout)

    rewritten = build(root, "update")
    assert rewritten.returncode == 0, rewritten.stdout
    assert "rewrote tests/golden/index/mean.txt" in rewritten.stdout
    assert "NumPy mean: 5.5" in (golden / "index" / "mean.txt").read_text()
    assert build(root, "check").returncode == 0
