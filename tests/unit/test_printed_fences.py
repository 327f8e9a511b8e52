"""The executed fences a block prints (`discover.blocks.printed_fences`), which markdown-exec runs
as it renders the block's output: found where markdown-exec would run them, named after the
written block that printed them, and a bad one named by that block."""

from __future__ import annotations

from pathlib import Path

import pytest

from bookexec._internal.discover.blocks import (
    ANYWHERE,
    Reading,
    printed_block,
    printed_fences,
    printed_name,
    scan_page,
)
from bookexec._internal.discover.options import ENGINE, MARKDOWN_EXEC
from bookexec._internal.errors import BookError

READING = Reading(snippets=ANYWHERE, fences=MARKDOWN_EXEC)
# What the gallery's file tree prints: a fence indented in a list item, in a named session.
OUTPUT = """\
```tree
src/ # (1)!
```

1. \\n

    ```python exec="1" session="tree"
    listing("./src")
    ```
"""

# The engine's own suite, on every Python it supports (./book test-engine).
pytestmark = pytest.mark.engine


def _printer(info: str = "", reading: Reading = READING) -> tuple:
    page = f'# P\n\n```python exec="on"{info}\nprint("x")\n```\n'
    (block,) = scan_page("p.md", page, Path("/book"), (), reading)
    return block, reading


def test_a_fence_in_printed_markdown_is_found_with_its_session():
    printer, reading = _printer()
    (fence,) = printed_fences(printer, OUTPUT, Path("/book"), (), reading)
    assert fence.code.strip() == 'listing("./src")'
    assert fence.namespace == "tree"
    child = printed_block(printer, 3, fence)
    assert (child.id, child.line, child.namespace) == ("block-1.printed-3", 3, "tree")
    assert child.where == "docs/p.md:3 (block 'block-1', the fence it printed #3)"
    assert printed_name(child.id) == ("block-1", "the fence it printed #3")
    assert printed_name("block-1") == ("block-1", "")


@pytest.mark.parametrize(
    ("info", "reading"),
    [
        (' result="text"', READING),  # a code block: markdown-exec runs nothing in it
        (' html="1"', READING),  # HTML as it is: never converted
        ("", Reading(snippets=ANYWHERE, fences=ENGINE)),  # the engine's layout: text only
    ],
)
def test_nothing_runs_where_markdown_exec_does_not_convert_the_output(info, reading):
    printer, reading = _printer(info, reading)
    assert printed_fences(printer, OUTPUT, Path("/book"), (), reading) == []


def test_a_bad_printed_fence_is_named_by_the_block_that_printed_it():
    printer, reading = _printer()
    bad = '```python exec="on"\n--8<-- "missing.py"\n```\n'  # includes no file of the book
    with pytest.raises(BookError, match=r"^docs/p\.md:3 \(block 'block-1', inline code\): a fence"):
        printed_fences(printer, bad, Path("/book"), (), reading)
