"""This book's own features, on top of the engine.

- `extensions`: each feature below as an `Extension` the engine calls; the plugin lists them.
- `audit`: the prose audit (version numbers, recorded numbers, lists of names in the prose).
- `census`: the census table of executed blocks, and the nav order.
- `provenance`: the note on each page saying how its outputs were made.
- `notebooks`: each chapter as a generated `.ipynb`.
- `labs`: lab notebooks' code cells as blocks, and the executed copy mkdocs-jupyter renders.
- `labcache`: lab HTML rendered again only when a lab changes.
- `jax_changes`: the book under older JAX releases, and the generated page of what changed.
- `drift_watch`: the book run under a newer JAX, and what drifted.
"""
