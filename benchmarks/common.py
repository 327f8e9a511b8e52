"""The edits both benchmarks make to a copy of the book, as an author would make them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

PAGE = "tracers.md"  # the chapter whose prose is edited, under docs/
SNIPPET = "snippets/captures/local_state.py"  # a block halfway down its page, with a golden


def check_edits(root: Path, page: str, snippet: str) -> None:
    """Stop before the first build when `--page` or `--snippet` names no file of the book."""
    _existing(root, f"docs/{page}", "--page")
    _existing(root, snippet, "--snippet")


def _existing(root: Path, name: str, option: str) -> Path:
    path = root / name
    if not path.is_file():
        sys.exit(f"{option}: the book has no file {name}")
    return path


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
    """Change one line the way an author would: the code changes, its output does not.

    Never to a missing file: appending would create it, and the round would time an edit no
    page reads.
    """
    with _existing(root, snippet, "--snippet").open("a") as handle:
        handle.write(f"# benchmark edit {number}\n")
