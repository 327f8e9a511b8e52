"""The executed book: run every snippet in a page's own worker, diff each output with its golden.

Modules, each with one concern:

- `blocks`: find the executed fences of a page and check their ids and includes.
- `worker`: the child process that holds one page's session and captures what a reader sees.
- `runner`: the parent side: one fresh worker per page, pages in parallel, hard time limits.
- `normalize`: remove what varies between machines and runs, and nothing else.
- `golden`: the golden file format, comparison, atomic writes and the drift report.
- `facts`: what a snippet records (counts, timings, ratios, claims); runs in the worker.
- `measured`: how recorded values are written in goldens, shown, and judged by band and claim.
- `prose`: `{{fact:block.name}}` references in a page's text.
- `review`: the report a failed check leaves, and `./book review` over it.
- `jax_changes`: the book run under an older JAX, and the generated page of what changed.
- `jaxpr_parse`: printed jaxprs back into structure; `jaxpr_diff`: cosmetic or structural drift
  and the aligned equation diff; `jaxpr_lexer`: jaxpr highlighting.
- `cache`: the author's block cache, keyed on everything that can change an output.
- `progress`: pages and blocks done, slow blocks, and the summary line.
- `fence`: the markdown-exec formatter that puts it all behind `base_format`'s `run`.
- `notebooks`: each chapter as a `.ipynb`, generated from its prose and snippets at build time.
- `labs`: lab notebooks' code cells as blocks, and the executed copy mkdocs-jupyter renders.
- `engine`: the Engine and one Build per MkDocs build, driven by `hooks/executed_book.py`.
- `guard`: a Markdown extension that stops any build not going through this engine.
"""
