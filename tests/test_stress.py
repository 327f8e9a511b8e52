"""A timing-heavy chapter holds against its real goldens with every core busy twice over.

The small version of `./book stress` (issue 24): the retracing chapter's executed blocks (its
own snippets, options and goldens: twenty cold compiles timed against one, a figure of run
times, claims between them) are built cold in check mode while busy loops oversubscribe the
CPUs. Times then come out several times slower than the goldens recorded; the check must still
say 0 failed and 0 drifted, since only comparisons made inside the run (claims) and counts
judge.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from bookexec.discover.blocks import scan_page
from conftest import REPO, new_site

pytestmark = pytest.mark.build

CHAPTER = "retracing"
LOOPS_PER_CORE = 2


def chapter_site(root):
    """The chapter's fences in order, with its snippets and its goldens as the book has them."""
    site = new_site(root)
    page = f"{CHAPTER}.md"
    blocks = scan_page(page, (REPO / "docs" / page).read_text(), REPO)
    parts = [f"# {CHAPTER}\n"]
    for block in blocks:
        options = " ".join(f'{k}="{v}"' for k, v in block.options.items())
        parts.append(f'```python {options}\n--8<-- "{block.snippet}"\n```\n')
    site.page(page, "\n".join(parts))
    shutil.copytree(REPO / "snippets" / CHAPTER, root / "snippets" / CHAPTER)
    golden = REPO / "tests" / "golden"
    shutil.copytree(golden / CHAPTER, root / "tests" / "golden" / CHAPTER)
    shutil.copy(golden / "VERSIONS", root / "tests" / "golden" / "VERSIONS")
    return site, len(blocks)


def test_a_timing_heavy_chapter_passes_with_two_busy_loops_per_core(tmp_path):
    site, count = chapter_site(tmp_path / "book")
    loops = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(LOOPS_PER_CORE * (os.cpu_count() or 1))
    ]
    try:
        result = site.build(BOOK_CACHE="off", timeout=900)
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()
    assert result.returncode == 0, result.output
    assert f"golden check: {count} blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in (
        result.output
    )
    print("\n" + "\n".join(line for line in result.output.splitlines() if "NOTE (timing)" in line))
