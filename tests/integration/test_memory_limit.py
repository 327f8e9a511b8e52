"""Every block is bounded in memory: over its limit it fails, named, and the machine is fine.

Each case allocates far more than its fence's `memory="1G"` allows, in a real worker with
JAX loaded: 5 GiB with numpy, 5 GiB with jax.numpy, and a recursion with no limit. Each must
fail with a message that names the block, the limit and how to raise it; the page's next block
still runs; and the kernel's log shows no OOM kill (where the log is readable).
"""

from __future__ import annotations

import subprocess
import time

import pytest
from test_execution import run_page

from bookexec._internal.errors import BookError
from bookexec._internal.execute.limits import Limits, default_memory
from conftest import scaled

FIVE_GIB_NUMPY = "import numpy as np\n\nbig = np.ones(5 * 2**30 // 8)\nprint(big.nbytes)\n"
FIVE_GIB_JAX = (
    "import jax.numpy as jnp\n\nbig = jnp.ones(5 * 2**30 // 4)\nbig.block_until_ready()\n"
)
RUNAWAY_RECURSION = (
    "import sys\n\nsys.setrecursionlimit(10**9)\n\n\n"
    "def deeper(n):\n    return deeper(n + 1)\n\n\ndeeper(0)\n"
)
AFTER = 'print("the next block ran")\n'


def kernel_log() -> list[str] | None:
    """The kernel's log lines, or None where this user cannot read them."""
    try:
        out = subprocess.run(["dmesg"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.splitlines() if out.returncode == 0 else None


def oom_kills(lines: list[str]) -> list[str]:
    return [ln for ln in lines if "Out of memory: Killed" in ln or "oom-kill:" in ln]


@pytest.mark.parametrize(
    ("code", "line"),
    [(FIVE_GIB_NUMPY, 3), (FIVE_GIB_JAX, 3), (RUNAWAY_RECURSION, 7)],
    ids=["numpy-5GiB", "jax-5GiB", "unbounded-recursion"],
)
def test_a_block_over_its_memory_limit_fails_named_and_the_page_goes_on(tmp_path, code, line):
    before = kernel_log()
    started = time.monotonic()
    page = run_page(tmp_path, code, AFTER, memory="1G")
    took = time.monotonic() - started
    over, after = page.blocks
    assert over.failure is not None
    assert over.failure.startswith(
        f"docs/page.md:1 (block 'b0', snippet snippets/page/block0.py), line {line}: "
    )
    assert "ran out of memory: its memory limit is 1G" in over.failure
    assert 'raise memory="..." on the fence' in over.failure
    assert "BOOK_MEMORY_LIMIT" in over.failure
    assert after.failure is None and after.output == "the next block ran\n"
    assert took < scaled(100), f"the page took {took:.0f} s"
    if before is not None:
        after_log = kernel_log() or []
        assert oom_kills(after_log) == oom_kills(before), "the OOM killer fired"


def test_the_memory_limit_comes_from_the_environment_or_a_default_per_core():
    from bookexec._internal.settings import read

    def limits(environ: dict[str, str]) -> Limits:
        return read({}, environ).limits

    assert limits({"BOOK_MEMORY_LIMIT": "512M"}).memory == 512 * 2**20
    assert limits({"BOOK_MEMORY_LIMIT": "1.5GiB"}).memory == 3 * 2**29
    assert limits({}).memory == default_memory()
    with pytest.raises(
        BookError, match=r"BOOK_MEMORY_LIMIT='lots' is not a size; set it to e\.g\. 8G"
    ):
        limits({"BOOK_MEMORY_LIMIT": "lots"})
    import os

    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    # One worker per core, and a share left for the rest of the machine.
    assert default_memory() * ((os.cpu_count() or 1) + 1) <= max(total, 2**30 * 3)


def test_a_bad_memory_option_is_named_before_anything_runs():
    from bookexec._internal.discover.options import LAB_OPTIONS, check

    assert "memory" in LAB_OPTIONS  # a lab cell's metadata may carry it too

    with pytest.raises(BookError, match=r'docs/p.md:3: option memory="lots" must be a size'):
        check({"memory": "lots"}, "docs/p.md:3")
    check({"memory": "8G"}, "docs/p.md:3")
