"""The census of executed blocks: a table the build writes into a page, never typed by hand.

A page asks for it with a line holding only `<!-- bookexec:census -->`. Each row is one page
with executed blocks: how many blocks, and how many of them record a timing, record a count,
declare an error with `raises=`, and print a jaxpr. The numbers come from this build's runs
(or, under BOOK_EXEC=off, from the goldens the pages show). The table is read by readers, so
its headings say what each column means in their words, never in the options' names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bookexec._internal.discover.blocks import Block
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.jax.parse import is_jaxpr

MARKER = "<!-- bookexec:census -->"
_COUNT = re.compile(r"-?\d+")
_TITLE = re.compile(r"^# (.+)$", re.M)
# YAML front matter, whose comments start with `# ` too: never a page's title.
_FRONT_MATTER = re.compile(r"\A---\n.*?^---$", re.M | re.S)

Results = Callable[[str], Iterable[tuple[Block, str, Sequence[Fact]]]]

# The columns in a reader's words, each read as "blocks ...": a timing, an exact count and a
# `raises=` option are the authors' terms for what the last four say.
HEADINGS = (
    "Page",
    "blocks",
    "timing code",
    "with a count in the prose",
    "raising on purpose",
    "printing a jaxpr",
)


@dataclass
class Row:
    """One page of the census: its blocks, and how many do each thing."""

    page: str
    title: str
    blocks: int = 0
    timings: int = 0
    counts: int = 0
    errors: int = 0
    jaxprs: int = 0

    def add(self, block: Block, output: str, facts: Sequence[Fact]) -> None:
        """Count one block."""
        self.blocks += 1
        self.timings += any(fact.kind == "timing" for fact in facts)
        self.counts += any(
            fact.kind == "exact" and _COUNT.fullmatch(str(fact.value)) for fact in facts
        )
        self.errors += bool(block.options.get("raises"))
        self.jaxprs += is_jaxpr(output)


def nav_pages(nav: list[object] | None) -> list[tuple[str, str | None]]:
    """(page, title) for each page MkDocs' `nav` lists, in its order; None for an untitled one."""
    listed: list[tuple[str, str | None]] = []

    def walk(item: object, title: str | None = None) -> None:
        if isinstance(item, str):
            listed.append((item, title))
        elif isinstance(item, dict):
            for key, value in item.items():
                walk(value, key)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav or [])
    return listed


def nav_order(nav: list[object] | None, pages: Iterable[str]) -> list[str]:
    """The pages in the order the navigation lists them (MkDocs' `nav` setting), then the rest."""
    listed = [page for page, _ in nav_pages(nav)]
    pages = list(pages)
    return [p for p in listed if p in pages] + [p for p in pages if p not in listed]


def rows(
    pages: Iterable[str],
    docs: Path,
    results: Results,
    titles: Mapping[str, str | None] | None = None,
) -> list[Row]:
    """The census rows of the pages that have executed blocks, in the order given; a page
    without a heading (a lab) is named by its nav title (`titles`), else by its file."""
    table = []
    for page in pages:
        row = Row(page, title_of(docs / page) or (titles or {}).get(page) or page)
        for block, output, facts in results(page):
            row.add(block, output, facts)
        if row.blocks:
            table.append(row)
    return table


def title_of(path: Path) -> str | None:
    """A page's first level-one heading after its front matter, or None."""
    if not path.is_file() or path.suffix != ".md":
        return None
    found = _TITLE.search(_FRONT_MATTER.sub("", path.read_text(encoding="utf-8"), count=1))
    return found[1].strip() if found else None


def table(rows: list[Row], here: str) -> str:
    """The markdown table, links relative to the page `here` that shows it."""
    up = "../" * here.count("/")
    lines = [f"| {' | '.join(HEADINGS)} |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        lines.append(
            f"| [{row.title}]({up}{row.page}) | {row.blocks} | {row.timings} | {row.counts} "
            f"| {row.errors} | {row.jaxprs} |"
        )
    total = Row("", "")
    for row in rows:
        for name in ("blocks", "timings", "counts", "errors", "jaxprs"):
            setattr(total, name, getattr(total, name) + getattr(row, name))
    lines.append(
        f"| **all {len(rows)} pages with code** | **{total.blocks}** | **{total.timings}** "
        f"| **{total.counts}** | **{total.errors}** | **{total.jaxprs}** |"
    )
    return "\n".join(lines) + "\n"


def fill(markdown: str, here: str, make_rows: Callable[[], list[Row]]) -> str:
    """Replace the marker line with the table; pages without it are returned unchanged."""
    if not any(line.strip() == MARKER for line in markdown.splitlines()):
        return markdown
    made = table(make_rows(), here)
    return "".join(
        made if line.strip() == MARKER else line for line in markdown.splitlines(keepends=True)
    )
