"""An executed block laid out as markdown-exec lays it out (the plugin's `fences: markdown-exec`).

markdown-exec's own public `base_format` makes the HTML, given a `run` that returns the
engine's output for the block (what its worker printed, or its golden while it runs under
serve) in place of markdown-exec's in-process run. So `html=`, `result=`, `source=`, `tabs=`,
`id=`, `idprefix=` and `updatetoc=` behave exactly as markdown-exec's: what a block prints is
Markdown (or, with `html="1"`, HTML) unless `result=` puts it in a code block. That is
markdown-exec's contract with the book's author, kept as it is: the engine's own layout
(`render.layout`), in which nothing a block prints becomes markup, is `fences: engine`.

The engine adds only its notes under a block (a failure, drift under serve, a golden shown
while the block runs: `fence.block_notes`). The source shown is the block's code without the
engine's hidden lines (`discover.hidden`); markdown-exec then hides its own
(`markdown-exec: hide`).
"""

from __future__ import annotations

from typing import Any

from markdown_exec import base_format
from markupsafe import Markup

from bookexec._internal.discover.options import BOOK
from bookexec._internal.render.fence import BlockSource, block_notes
from bookexec._internal.render.layout import Look
from bookexec._internal.render.verify import UNCHECKED

LANGUAGE = "python"  # markdown-exec formats `py` fences as python too
# The look the page check is told of: it checks no box of this block (`render.verify`).
LOOK = Look(source=UNCHECKED)


def format_markdown_exec(current: BlockSource, **options: Any) -> Markup:
    """Render one executed block of the page `current` (the render stage) is rendering;
    `options` are what markdown-exec's validator read from the fence, and the fence's code."""
    block, output, comparison, failure = current.output_for(options.get("id", ""), options["code"])

    def run(code: str, **ignored: Any) -> str:
        """markdown-exec's `run`: the block already ran in its page's worker."""
        return output

    shown = options.copy()
    for name in ("code", "md", "extra", "language"):
        shown.pop(name, None)
    # The engine's own options (raises, timeout...) are no display option of the source.
    extra = {k: v for k, v in dict(options.get("extra", {})).items() if k not in BOOK}
    with current.printed_by(block):  # markdown-exec renders what it printed: no fence runs
        rendered = base_format(
            language=LANGUAGE,
            run=run,
            code=current.masker.mask(block.shown),
            md=options["md"],
            extra=extra,
            **shown,
        )
    current.laid_out(block, output, LOOK)
    return Markup(str(rendered) + block_notes(current, block, output, comparison, failure))
