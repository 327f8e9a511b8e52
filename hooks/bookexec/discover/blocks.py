"""Find the executed blocks of a page before markdown-exec renders it.

Scanning up front lets every page start running in parallel while MkDocs still renders pages
one at a time, and lets a missing id or a bad include fail before anything runs.

An executed block looks like this, and its body is exactly one snippet include::

    ```python exec="on" id="scalar-jaxpr"
    --8<-- "snippets/tracers/scalar_jaxpr.py"
    ```
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bookexec.discover.options import check as options_check
from bookexec.discover.options import is_true
from bookexec.errors import BookError

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
_ATTR = re.compile(r"""([A-Za-z_][\w-]*)=("[^"]*"|'[^']*'|[^\s"']+)""")
_INCLUDE = re.compile(r"""^--8<--[ \t]+(["'])(?P<path>[^"']+)\1[ \t]*$""")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# An id names its golden file and, with a prefix such as "prose-", cells of the chapter's
# notebook, where nbformat allows 64 characters: 48 leaves room for both.
MAX_ID_LENGTH = 48
EXEC_LANGUAGES = {"python", "py"}


@dataclass(frozen=True)
class Block:
    """One executed fence: where it is, what it runs, and how the author configured it."""

    page: str  # docs-relative path, e.g. "tracers.md"
    index: int  # position among the page's executed blocks
    line: int  # 1-based line of the opening fence in the page source
    id: str
    snippet: str  # repository-relative path of the included file
    code: str
    options: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def where(self) -> str:
        """Page, line, block and snippet: how every error names the block."""
        return f"docs/{self.page}:{self.line} (block '{self.id}', snippet {self.snippet})"


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split a fence's info string into its language and its key="value" options."""
    info = info.strip()
    if info.startswith("{") and info.endswith("}"):
        info = info[1:-1].strip()
    language, _, rest = info.partition(" ")
    language = language.lstrip(".")
    options = {key: value.strip("\"'") for key, value in _ATTR.findall(rest)}
    return language, options


def is_executed(language: str, options: dict[str, str]) -> bool:
    """Exactly the fences markdown-exec executes: a language the book runs, with `exec` true by
    markdown-exec's rule, or named in markdown-exec's MARKDOWN_EXEC_AUTO."""
    if language not in EXEC_LANGUAGES:
        return False
    auto = [name.strip() for name in os.environ.get("MARKDOWN_EXEC_AUTO", "").split(",")]
    return language in auto or is_true(options.get("exec", "no"))


def snippet_dir_for(page: str) -> str:
    """Snippets are named after their chapter: docs/tracers.md -> snippets/tracers/."""
    return str(PurePosixPath("snippets") / PurePosixPath(page).with_suffix(""))


def scan_page(page: str, markdown: str, root: Path) -> list[Block]:
    """Return the page's executed blocks in order, or raise a BookError naming page and line."""
    lines = markdown.splitlines()
    blocks: list[Block] = []
    seen: dict[str, int] = {}
    i = 0
    while i < len(lines):
        opened = _FENCE_OPEN.match(lines[i])
        if not opened:
            i += 1
            continue
        fence, indent = opened["fence"], opened["indent"]
        start = i + 1  # 1-based line number of the opening fence
        body: list[str] = []
        i += 1
        while i < len(lines):
            stripped = lines[i].strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                break
            body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        language, options = parse_info(opened["info"])
        if not is_executed(language, options):
            continue
        where = f"docs/{page}:{start}"
        # Name the snippet in every error, even before the block is known to be well formed.
        named = _include_of(body)
        in_snippet = f" (snippet {named})" if named else ""
        block_id = options.get("id", "")
        if not block_id:
            raise BookError(
                f'{where}: executed block has no id{in_snippet}; add id="..." to the fence, '
                "lower-case and unique in the page"
            )
        if len(block_id) > MAX_ID_LENGTH:
            raise BookError(
                f"{where}: block id '{block_id[:MAX_ID_LENGTH]}...'{in_snippet} is "
                f"{len(block_id)} characters long; an id may have at most {MAX_ID_LENGTH} (it "
                "names the golden file and the notebook's cells): shorten it"
            )
        if not _ID.match(block_id):
            raise BookError(
                f"{where}: block id '{block_id}'{in_snippet} must be lower-case letters, digits, "
                "'-' or '_'; rename it"
            )
        if block_id in seen:
            raise BookError(
                f"{where}: duplicate block id '{block_id}' "
                f"(first used at docs/{page}:{seen[block_id]}){in_snippet}; "
                "give each block of a page its own id"
            )
        seen[block_id] = start
        snippet = _single_include(body, where, block_id)
        options_check(options, f"{where} (block '{block_id}', snippet {snippet})")
        expected_dir = snippet_dir_for(page)
        if PurePosixPath(snippet).parent != PurePosixPath(expected_dir):
            raise BookError(
                f"{where}: block '{block_id}' includes {snippet}; "
                f"snippets of docs/{page} live in {expected_dir}/: move the file there"
            )
        if not (root / snippet).is_file():
            raise BookError(
                f"{where}: block '{block_id}' includes {snippet}, which does not exist; "
                "create the file or fix the path in the include"
            )
        code = read_snippet(snippet, root, where, block_id)
        add_block(blocks, page, start, block_id, snippet, code, options)
    return blocks


def add_block(
    blocks: list[Block],
    page: str,
    line: int,
    block_id: str,
    snippet: str,
    code: str,
    options: dict[str, str],
) -> None:
    """Append a page's (or a lab's) next block: its index is its place among them."""
    blocks.append(Block(page, len(blocks), line, block_id, snippet, code, options))


def read_snippet(snippet: str, root: Path, where: str, block_id: str) -> str:
    """A snippet's text. It may not include other files: then its text is all the block runs,
    and the cache key, which hashes that text, cannot miss a dependency."""
    try:
        text = (root / snippet).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BookError(
            f"{where}: block '{block_id}' includes {snippet}, which is not valid UTF-8 "
            f"(byte {error.start}); save the file as UTF-8"
        ) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if _INCLUDE.match(line.strip()):
            raise BookError(
                f"{where}: block '{block_id}': {snippet}:{number} includes another file; a "
                "snippet must stand alone: copy what it needs into it, or into an earlier block"
            )
    return text


def _include_of(body: list[str]) -> str | None:
    """The included snippet's path, if the body is a single include."""
    content = [line for line in body if line.strip()]
    match = _INCLUDE.match(content[0].strip()) if len(content) == 1 else None
    return match["path"] if match else None


def _single_include(body: list[str], where: str, block_id: str) -> str:
    path = _include_of(body)
    if path is None:
        raise BookError(
            f"{where}: block '{block_id}' must contain exactly one snippet include, "
            f'like --8<-- "snippets/<chapter>/<name>.py"'
        )
    return path
