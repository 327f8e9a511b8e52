"""The markdown-exec formatter for executed Python: markdown-exec renders, the book runs.

It is registered in markdown-exec's public `formatters` dict, and hands `base_format` a `run`
that returns the block's output from the page's worker instead of running it in-process.
"""

from __future__ import annotations

import html
import re
from typing import Any

from markdown_exec import base_format
from markupsafe import Markup

from bookexec import build
from bookexec.goldens import measured
from bookexec.goldens.compare import Comparison

# Fence options the book reads; markdown-exec would otherwise copy them onto the output fence.
BOOK_OPTIONS = ("raises", "timeout", "limit", "band", "fresh")
DEFAULT_SOURCE = "block"


def format_python(**options: Any) -> Markup:
    extra = dict(options.pop("extra", {}))
    for name in BOOK_OPTIONS:
        extra.pop(name, None)
    current = build.current()
    block, output, comparison, failure = current.output_for(options.get("id", ""), options["code"])
    # The reader sees which file the code comes from: the same file the tests use.
    extra.setdefault("title", block.snippet)

    def run(code: str, **_: Any) -> str:
        return output

    # A block that printed nothing shows its source alone, not an empty output box.
    options["source"] = options.get("source") or (DEFAULT_SOURCE if output else "above")
    if not options.get("result"):
        options["result"] = current.runtime.result_language(output) if output else ""
    rendered = base_format(language="python", run=run, extra=extra, **options)
    rendered = Markup(measured.unmark(rendered))  # timings and ratios, marked as such
    if failure is not None:  # the report at the end of the build lists it too
        rendered += Markup(failure_box(failure.message))
    elif current.serving and comparison is not None and comparison.status != "ok":
        rendered += Markup(drift_warning(comparison, current.root))  # its parts are escaped
    if output is not None and (block.page, block.id) in current.pending_blocks:
        rendered += Markup(pending_note(block.id))
    return rendered


def failure_box(message: str) -> str:
    """An error admonition at a block that raised, timed out or flooded."""
    return (
        '<div class="admonition failure bookexec-failure">'
        '<p class="admonition-title">This block failed</p>'
        f"<pre><code>{html.escape(message)}</code></pre></div>"
    )


def pending_note(block_id: str) -> str:
    """Under `mkdocs serve`, while the block runs in the background (execute.background)."""
    return (
        f'<div class="admonition note bookexec-pending" data-block="{html.escape(block_id)}">'
        '<p class="admonition-title">Recorded output, being checked</p>'
        "<p>This is the output the golden recorded. The block is running now; the page "
        "reloads with its live output, or its drift, when it is done.</p></div>"
    )


def drift_warning(comparison: Comparison, root) -> str:
    """At the block, for `mkdocs serve`: a warning with the diff, or for cosmetic drift (the
    same program, re-lettered) a one-line note. The server keeps running."""
    kind = comparison.kind
    if kind == "cosmetic":
        why = comparison.drift().headline().removeprefix("cosmetic: ")
        return (
            f'<p class="bookexec-drift-note" data-block="{comparison.block_id}">'
            f"<small>Block '{html.escape(comparison.block_id)}': cosmetic drift from its golden "
            f"({html.escape(why)}); <code>./book review --accept-cosmetic</code> accepts it."
            "</small></p>"
        )
    if comparison.status == "new":
        title = f"No golden yet for block '{comparison.block_id}'"
        body = "Run <code>GOLDEN=update mkdocs build</code> to write it."
    else:
        title = f"Block '{comparison.block_id}' drifted from its golden ({kind})"
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


def page_summary(failures: list, drifted: list[Comparison]) -> str:
    """One note at the top of a served page that has failures or drift."""
    kinds = [c.kind for c in drifted]
    counts = [f"{len(failures)} failed"] if failures else []
    counts += [
        f"{kinds.count(k)} {k}" for k in ("structural", "text", "new", "cosmetic") if k in kinds
    ]
    return (
        '<div class="admonition warning bookexec-page-drift">'
        '<p class="admonition-title">This page differs from its goldens</p>'
        f"<p>{html.escape(', '.join(counts))}: see the notes at the blocks below, or run "
        "<code>./book build</code> for the full report.</p></div>\n"
    )


_FENCE_ID = re.compile(r'^(\s*)(?:`{3,}|~{3,})\s*python\b.*\bid="([^"]+)"')


def anchor_blocks(markdown: str, block_ids: set[str]) -> str:
    """Put an empty element with the id `block-<id>` before each executed fence.

    It is raw HTML in the page's markdown, not in the fence's output, so MkDocs sees the id
    when it validates links: the glossary and the FAQ link to the example itself.
    """
    lines = markdown.splitlines()
    out: list[str] = []
    for line in lines:
        found = _FENCE_ID.match(line)
        if found and found[2] in block_ids:
            indent = found[1]
            out += [f'{indent}<div class="bookexec-anchor" id="block-{found[2]}"></div>', indent]
        out.append(line)
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")
