"""What the engine knows of JAX: printed jaxprs read as programs.

- `parse`: printed jaxprs back into structure, wherever they sit in an output; `is_jaxpr`.
- `diff`: cosmetic or structural drift between two outputs, the aligned equation diff, and
  `classify`, the classifier the build hands the goldens.
- `lexer`: the Pygments `jaxpr` lexer for the book's outputs.
- `stepper`: the trace stepper's mapping, taken in the worker from JAX's own source info.
"""
