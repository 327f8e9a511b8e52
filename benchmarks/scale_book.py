"""Write a generated book of N executed blocks, for timing the engine at scale (issue 57).

The book `bench_shards.py` times: a `mkdocs.yml` that enables `executed-book` as a book
adopting it would (the plugin and `pymdownx.superfences`, MkDocs' own theme), and pages of
20 blocks each (the last page takes what is left). Every block is a short inline snippet
with an `id`, and prints the same thing on every run: plain Python mostly (arithmetic,
strings, dicts, loops), NumPy for 3 blocks in 10, tiny JAX for 1 in 10. The pages are
independent of each other; inside a page every block defines what it uses.

    python scale_book.py FOLDER --blocks 2000   # FOLDER's docs/ is replaced
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

PER_PAGE = 20
CONFIG = """\
site_name: A generated book of {blocks} blocks
theme:
  name: mkdocs
plugins:
  - executed-book
markdown_extensions:
  - pymdownx.superfences
"""

PLAIN = [
    """
values = [(k * {a}) % {m} for k in range({n})]
print(sum(values), max(values), sorted(values)[:5])
""",
    """
words = "the quick brown fox jumps over the lazy dog number {i}".split()
counts = {{}}
for word in words:
    counts[word[0]] = counts.get(word[0], 0) + 1
print(dict(sorted(counts.items())))
""",
    """
for k in range(1, 6):
    print(f"{{k:>2}} {{k ** {p}:>8}} {{k * {a} / 7:10.4f}}")
""",
    """
total = 0
for step in range({n}):
    total += step * step - {a}
print(f"block {i}: total {{total}}, mean {{total / {n}:.3f}}")
""",
]
NUMPY = [
    """
import numpy as np

matrix = np.arange({n2}, dtype=np.float64).reshape({n}, {n}) / {a}
print(matrix.sum(axis=0).round(3))
print(matrix.trace().round(3))
""",
    """
import numpy as np

rng = np.random.default_rng({i})
sample = rng.integers(0, 100, size={n})
print(sample, round(float(sample.mean()), 3))
""",
    """
import numpy as np

print(np.cumsum(np.linspace(0.0, 1.0, {n})).round(4))
""",
]
JAX = [
    """
import jax
import jax.numpy as jnp

print(jax.make_jaxpr(lambda x: jnp.sin(x) * {a}.0 + x)(1.0))
""",
    """
import jax

print(jax.grad(lambda x: x ** {p} + {a} * x)({n}.0))
""",
    """
import jax.numpy as jnp

print(jnp.arange({n2}).reshape({n}, {n}).sum(axis=0))
""",
]


def snippet(index: int) -> str:
    """Block `index` (1-based) of the book: JAX for 1 in 10, NumPy for 3 in 10, else plain."""
    values = {"i": index, "a": index % 7 + 2, "m": index % 11 + 5, "n": index % 6 + 3}
    values |= {"p": index % 3 + 2, "n2": values["n"] ** 2}
    kind = index % 10
    if kind == 9:
        templates = JAX
    elif kind in (1, 4, 7):
        templates = NUMPY
    else:
        templates = PLAIN
    return templates[index // 10 % len(templates)].format(**values).strip()


def page_text(page: int, first: int, count: int) -> str:
    """Page `page`: `count` blocks from block `first` on, a line of prose before each."""
    parts = [f"# Page {page}\n"]
    for index in range(first, first + count):
        parts.append(f"Block {index} prints what it computes.\n")
        parts.append(f'```python exec="on" id="b{index}"\n{snippet(index)}\n```\n')
    return "\n".join(parts)


def write_book(folder: Path, blocks: int) -> int:
    """Write a book of `blocks` blocks into `folder` (its pages replaced); returns its pages."""
    docs = folder / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    (docs / "index.md").write_text(f"# A generated book\n\n{blocks} blocks, {PER_PAGE} a page.\n")
    pages = 0
    for first in range(1, blocks + 1, PER_PAGE):
        pages += 1
        count = min(PER_PAGE, blocks - first + 1)
        (docs / f"page-{pages:03d}.md").write_text(page_text(pages, first, count))
    (folder / "mkdocs.yml").write_text(CONFIG.format(blocks=blocks))
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the book")
    parser.add_argument("--blocks", type=int, default=2000)
    args = parser.parse_args()
    pages = write_book(args.folder, args.blocks)
    print(f"wrote {pages} pages, {args.blocks} blocks, to {args.folder}")


if __name__ == "__main__":
    main()
