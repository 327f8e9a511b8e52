"""Bad input stops the real build in bounded time, names what is wrong, and writes nothing."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.build


def one_block(site, info: str, code: str, include: str = "snippets/broken/block.py") -> None:
    site.page("broken.md", f'# Broken\n\nText.\n\n```python {info}\n--8<-- "{include}"\n```\n')
    site.snippet("broken/block.py", code)


def test_raising_block_names_page_block_snippet_and_line(site):
    one_block(site, 'exec="on" id="boom"', "x = 1\n\nraise RuntimeError('no')\n")
    result = site.build("update")
    assert result.returncode != 0
    assert (
        "docs/broken.md:5 (block 'boom', snippet snippets/broken/block.py), line 3: "
        "raised builtins.RuntimeError" in result.output
    )
    assert site.goldens() == {}  # an update that fails writes nothing


def test_declared_error_passes_and_its_golden_shows_the_message(site):
    one_block(site, 'exec="on" id="declared" raises="ZeroDivisionError"', "print('a')\n1 / 0\n")
    assert site.build("update").returncode == 0
    golden = site.goldens()["broken/declared.txt"]
    assert golden.endswith("---\na\nZeroDivisionError: division by zero\n")


def test_missing_id_names_page_and_line(site):
    one_block(site, 'exec="on"', "print(1)\n")
    result = site.build()
    assert result.returncode != 0
    assert "docs/broken.md:5: executed block has no id" in result.output


def test_missing_snippet_file_names_page_and_line(site):
    one_block(site, 'exec="on" id="ghost"', "print(1)\n", include="snippets/broken/ghost.py")
    result = site.build()
    assert result.returncode != 0
    assert "docs/broken.md:5: block 'ghost' includes snippets/broken/ghost.py" in result.output


def test_hanging_block_stops_the_build_in_bounded_time(site):
    one_block(
        site, 'exec="on" id="hang" timeout="3"', "import time\nwhile True:\n    time.sleep(1)\n"
    )
    start = time.monotonic()
    result = site.build(timeout=120)
    assert result.returncode != 0
    assert "block 'hang'" in result.output and "timed out after 3 s" in result.output
    assert "snippets/broken/block.py line 3" in result.output
    assert time.monotonic() - start < 60


def test_hang_inside_a_long_compile_is_still_killed(site):
    # An unrolled loop this long keeps XLA compiling far past the block's limit.
    code = """\
import jax
import jax.numpy as jnp

def unrolled(x):
    for i in range(20000):
        x = jnp.sin(x) * 1.0001 + i
    return x

jax.jit(unrolled)(jnp.ones(8)).block_until_ready()
"""
    one_block(site, 'exec="on" id="compile" timeout="4"', code)
    start = time.monotonic()
    result = site.build(timeout=120)
    assert result.returncode != 0
    assert "timed out after 4 s" in result.output
    assert time.monotonic() - start < 60


def test_failure_on_one_page_stops_the_others(site):
    site.page("a.md", '# A\n\n```python exec="on" id="slow"\n--8<-- "snippets/a/slow.py"\n```\n')
    site.snippet("a/slow.py", "import time\ntime.sleep(60)\n")
    one_block(site, 'exec="on" id="boom"', "raise ValueError('first')\n")
    start = time.monotonic()
    result = site.build(timeout=120, BOOK_JOBS="2")
    assert result.returncode != 0
    assert "block 'boom'" in result.output
    assert time.monotonic() - start < 40
