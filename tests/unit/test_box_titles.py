"""A code box's title (bookexec._internal.render.fence.box_title): the file a reader would save,
unless the block uses what an earlier block of the page defined; then it says it continues the
page."""

from __future__ import annotations

import pytest

from bookexec._internal.discover.blocks import Block
from bookexec._internal.render.fence import box_title, free_names

pytestmark = pytest.mark.engine


def block(code: str) -> Block:
    return Block(
        page="p.md", index=0, line=1, id="b", snippet="snippets/p/hvp_variants.py", code=code
    )


def test_a_block_that_stands_alone_is_titled_with_its_file():
    code = "import jax\nfrom math import pi as PI\n\ndef f(x, *, n=2):\n    return [y for y in x]\n"
    assert free_names(code) == set()
    assert box_title(block(code + "print(f([PI]), len('a'))\n")) == "hvp_variants.py"


def test_a_block_that_uses_an_earlier_blocks_name_continues_the_page():
    code = "import jax\nprint(jax.hessian(loss)(w), n)\n"
    assert free_names(code) == {"loss", "w", "n"}
    title = box_title(block(code))
    assert title == "hvp variants, continuing the page" and ".py" not in title
