"""Write a small markdown-exec book: 5 pages of 4 small Python blocks, as an author would.

The book `bench_small.py` times (see its docstring): MkDocs' own `mkdocs` theme, the
`markdown-exec` plugin and `pymdownx.superfences`, nothing else. Each block is inline code in
an `exec="on"` fence; each page has
- a `session=` pair: arithmetic, then a dict and string formatting over the first's results;
- a loop (`result="text"`), which also prints the names it can see from the other pages' blocks,
  "none" wherever every block is isolated (in markdown-exec, and in the book's engine, whose
  session is the page);
- a block that prints Markdown (a list with bold and code), rendered as the page's Markdown.

Two configs, identical except the plugin: `mkdocs.yml` (markdown-exec) and
`mkdocs.executed-book.yml` (`executed-book` in place of `markdown-exec`).

    python make_book.py FOLDER          # FOLDER is created; an existing book there is replaced
    python make_book.py FOLDER --ids    # every fence also gets id="pN-..." (markdown-exec's id)
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

PAGES = 5
BLOCKS_PER_PAGE = 4
BLOCKS = PAGES * BLOCKS_PER_PAGE
PROBE = "names from other pages:"  # each loop block prints this, then "none" if isolated
CONFIG = "mkdocs.yml"
VARIANT = "mkdocs.executed-book.yml"  # the same config with executed-book in place
TOPICS = ["Groceries", "Travel", "Books", "Garden", "Workshop"]
ITEMS = {
    "Groceries": ["apples", "bread", "cheese"],
    "Travel": ["tickets", "hotel", "meals"],
    "Books": ["novel", "atlas", "cookbook"],
    "Garden": ["seeds", "soil", "hose"],
    "Workshop": ["nails", "glue", "saw"],
}

CONFIG_TEXT = """\
site_name: A small markdown-exec book
site_description: Five pages of small executed Python blocks, for timing builds.
theme:
  name: mkdocs
nav:
{nav}
plugins:
  - {plugin}
markdown_extensions:
  - pymdownx.superfences
"""


def fence(options: str, code: str, ids: bool, block_id: str) -> str:
    extra = f' id="{block_id}"' if ids else ""
    return f'```python exec="on"{options}{extra}\n{code.strip()}\n```\n'


def page_text(number: int, ids: bool) -> str:
    """Page `number` (1-based): prose around its four blocks."""
    topic = TOPICS[number - 1]
    items = ITEMS[topic]
    others = [k for k in range(1, PAGES + 1) if k != number]
    session = f' session="page-{number}"'
    first = f"""
marker_page_{number} = {number}
unit = {number} * 2.5 + 1
count = {number + 2} * 3 - 1
total = unit * count
print(f"{{count}} units at {{unit}} each make {{total}}.")
"""
    second = """
budget = {"unit": unit, "count": count, "total": total, "tax": round(total * 0.2, 2)}
for name, value in budget.items():
    print(f"{name:>6}: {value:8.2f}")
print(f"With tax: {budget['total'] + budget['tax']:.2f}")
"""
    third = f"""
squares = []
for step in range(1, {number + 5}):
    squares.append(step * step)
    print(step, step * step, sum(squares))
others = [f"marker_page_{{k}}" for k in {others!r}]
leaked = [name for name in others if name in globals()]
print("{PROBE}", ", ".join(leaked) or "none")
"""
    fourth = f"""
items = {items!r}
print("Three items for **{topic.lower()}**, longest first:\\n")
for item in sorted(items, key=len, reverse=True):
    print(f"- **{{item}}**: {{len(item)}} letters, `{{item.upper()}}`")
"""
    return f"""# {number}. {topic}

This page computes a small {topic.lower()} budget. The first two blocks share a session:
the second reads what the first computed.

{fence(session, first, ids, f"p{number}-unit")}
The budget, as a dictionary, formatted line by line:

{fence(session + ' source="above" result="text"', second, ids, f"p{number}-budget")}
## A loop

A running sum of squares, printed as text. It also says which names it can see from the
other pages' blocks: none, if every block is isolated.

{fence(' result="text"', third, ids, f"p{number}-squares")}
## A list

This block prints Markdown, which the page renders:

{fence("", fourth, ids, f"p{number}-list")}"""


def write_book(folder: Path, ids: bool = False) -> list[Path]:
    """Write the book into `folder` (replacing a book there); returns the files written."""
    docs = folder / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    written = []
    nav = []
    for number in range(1, PAGES + 1):
        name = f"page-{number}.md"
        (docs / name).write_text(page_text(number, ids))
        written.append(docs / name)
        nav.append(f"  - {TOPICS[number - 1]}: {name}")
    for config, plugin in ((CONFIG, "markdown-exec"), (VARIANT, "executed-book")):
        (folder / config).write_text(CONFIG_TEXT.format(nav="\n".join(nav), plugin=plugin))
        written.append(folder / config)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the book")
    parser.add_argument("--ids", action="store_true", help='give every fence an id="..."')
    args = parser.parse_args()
    written = write_book(args.folder, args.ids)
    print(f"wrote {len(written)} files ({PAGES} pages, {BLOCKS} blocks) to {args.folder}")


if __name__ == "__main__":
    main()
