"""The markdown-exec formatter for executed Python: markdown-exec renders, the book runs.

It is registered in markdown-exec's public `formatters` dict, and hands `base_format` a `run`
that returns the block's output from the page's worker instead of running it in-process.
"""

from __future__ import annotations

import html
from typing import Any

from markdown_exec import ExecutionError, base_format
from markupsafe import Markup

from bookexec import build, measured
from bookexec.golden import Comparison

# Fence options the book reads; markdown-exec would otherwise copy them onto the output fence.
BOOK_OPTIONS = ("raises", "timeout", "limit", "band", "fresh")
DEFAULT_SOURCE = "block"
DEFAULT_RESULT = "text"


def result_language(output: str) -> str:
    """Outputs that print a jaxpr get the jaxpr lexer; anything else is plain text."""
    return "jaxpr" if "{ lambda " in output else DEFAULT_RESULT


def format_python(**options: Any) -> Markup:
    extra = dict(options.pop("extra", {}))
    for name in BOOK_OPTIONS:
        extra.pop(name, None)
    current = build.current()
    try:
        block, output, comparison = current.output_for(options.get("id", ""), options["code"])
    except build.BlockError as error:
        output, comparison = None, None
        failure = str(error)
    else:
        # The reader sees which file the code comes from: the same file the tests use.
        extra.setdefault("title", block.snippet)

    def run(code: str, **_: Any) -> str:
        if output is None:
            raise ExecutionError(f"```text\n{failure}\n```")
        return output

    # A block that printed nothing shows its source alone, not an empty output box.
    options["source"] = options.get("source") or (DEFAULT_SOURCE if output else "above")
    if not options.get("result"):
        options["result"] = result_language(output) if output else ""
    rendered = base_format(language="python", run=run, extra=extra, **options)
    rendered = Markup(measured.unmark(rendered))  # timings and ratios, marked as such
    if current.serving and comparison is not None and comparison.status != "ok":
        rendered += Markup(drift_warning(comparison, current.root))  # its parts are escaped
    if output is not None and (block.page, block.id) in current.pending_blocks:
        rendered += Markup(pending_note(block.id))
    return rendered


def pending_note(block_id: str) -> str:
    """Under `mkdocs serve`, while the block runs in the background (`bookexec.background`)."""
    return (
        f'<div class="admonition note bookexec-pending" data-block="{html.escape(block_id)}">'
        '<p class="admonition-title">Recorded output, being checked</p>'
        "<p>This is the output the golden recorded. The block is running now; the page "
        "reloads with its live output, or its drift, when it is done.</p></div>"
    )


def drift_warning(comparison: Comparison, root) -> str:
    """An admonition at the block, for `mkdocs serve`: the server keeps running."""
    if comparison.status == "new":
        title = f"No golden yet for block '{comparison.block_id}'"
        body = "Run <code>GOLDEN=update mkdocs build</code> to write it."
    else:
        title = f"Block '{comparison.block_id}' drifted from its golden"
        reasons = "".join(f"<li>{html.escape(reason)}</li>" for reason in comparison.notes())
        body = f"<ul>{reasons}</ul>" if reasons else ""
        drift = comparison.drift()
        if drift and drift.diff:  # the aligned equation diff of a structural jaxpr drift
            body += f"<pre><code>{html.escape(drift.diff)}</code></pre>"
        body += f"<pre><code>{html.escape(comparison.diff(root))}</code></pre>"
    return (
        f'<div class="admonition warning bookexec-drift" data-block="{comparison.block_id}">'
        f'<p class="admonition-title">{html.escape(title)}</p>{body}</div>'
    )
