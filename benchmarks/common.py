"""The edits both benchmarks make to a copy of the book, as an author would make them."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def edit_prose(root: Path, page: str, word: str = "indeed") -> str:
    """Add one word to the first plain paragraph line of a chapter; returns where."""
    path = root / "docs" / page
    lines = path.read_text().splitlines(keepends=True)
    in_fence = False
    for number, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        elif not in_fence and re.match(r"^[A-Za-z]", line):
            lines[number] = line.rstrip("\n") + f" {word}\n"
            path.write_text("".join(lines))
            return f"docs/{page}:{number + 1}"
    sys.exit(f"no paragraph line found in docs/{page}")


def edit_snippet(root: Path, snippet: str, number: int) -> None:
    """Change one line the way an author would: the code changes, its output does not."""
    with (root / snippet).open("a") as handle:
        handle.write(f"# benchmark edit {number}\n")
