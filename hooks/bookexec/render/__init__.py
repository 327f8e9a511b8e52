"""Rendering a page's executed blocks and facts into what the reader sees.

- `fence`: the markdown-exec formatter for executed Python, the notes at a block, anchors.
- `layout`: a block's source and output boxes as HTML, never through Markdown.
- `verify`: the final HTML of a page checked against what its blocks hold and printed.
- `prose`: `{{fact:...}}` references, `{{figure:...}}` and `{{stepper:...}}` lines in a page's text.
- `figures`: SVG figures drawn at build time from the values a block recorded.
- `stepper`: the trace stepper's HTML from the mapping a block recorded, and its assets.
"""
