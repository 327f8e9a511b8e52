"""Facts in prose: `{{fact:block-id.name}}` puts a value an executed block recorded into a sentence.

The value is checked through its block's golden, so the sentence cannot go stale. A value on
another page is `{{fact:chapter.md#block-id.name}}`; `{{fact:block-id.name|code}}` shows it as
inline code. Values are HTML-escaped, so `key<fry>` stays text. Code, fenced or inline, is
left alone, so a page can show the syntax itself.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from bookexec import figures, measured
from bookexec.errors import BookError
from bookexec.measured import Fact

REFERENCE = re.compile(r"\{\{\s*fact:(?P<ref>[^{}\s|]*)(?:\|(?P<style>code))?\s*\}\}")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")

# (page, block id) -> the block's facts by name, or None when the page has no such block
Lookup = Callable[[str, str], dict[str, Fact] | None]
# (reference, "docs/page:line") -> the figure's HTML (see bookexec.figures)
FigureMaker = Callable[[str, str], str]


def parse_reference(ref: str, page: str) -> tuple[str, str, str]:
    """'block.name' or 'other.md#block.name' -> (page, block id, name)."""
    target_page, hash_, rest = ref.rpartition("#")
    block_id, dot, name = rest.partition(".")
    if not (block_id and dot and name) or (hash_ and not target_page):
        raise ValueError(ref)
    return (target_page or page), block_id, name


def render(markdown: str, page: str, lookup: Lookup, figure: FigureMaker | None = None) -> str:
    """Replace every fact reference outside code with its value, or raise naming page and line.

    A line holding only `{{figure:block-id.name}}` becomes that figure, drawn by `figure`.
    """
    out = []
    fence: str | None = None
    for number, line in enumerate(markdown.splitlines(keepends=True), start=1):
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened[1]
        elif (
            fence is not None and line.strip().startswith(fence) and set(line.strip()) == {fence[0]}
        ):
            fence = None
        elif fence is None and figure is not None and (found := figures.REFERENCE.match(line)):
            line = figure(found["ref"], f"docs/{page}:{number}") + "\n"
        elif fence is None and "{{" in line:
            line = _render_line(line, page, number, lookup)
        out.append(line)
    return "".join(out)


def _render_line(line: str, page: str, number: int, lookup: Lookup) -> str:
    pieces, last = [], 0
    for span in _CODE_SPAN.finditer(line):
        pieces.append(_replace(line[last : span.start()], page, number, lookup))
        pieces.append(span[0])
        last = span.end()
    pieces.append(_replace(line[last:], page, number, lookup))
    return "".join(pieces)


def _replace(text: str, page: str, number: int, lookup: Lookup) -> str:
    def value(match: re.Match) -> str:
        where = f"docs/{page}:{number}"
        ref = match["ref"]
        try:
            target_page, block_id, name = parse_reference(ref, page)
        except ValueError:
            raise BookError(
                f"{where}: fact reference '{ref}' must look like block-id.name "
                "or chapter.md#block-id.name"
            ) from None
        facts = lookup(target_page, block_id)
        if facts is None:
            raise BookError(
                f"{where}: fact '{ref}' names block '{block_id}', "
                f"which docs/{target_page} does not have"
            )
        if name not in facts:
            known = ", ".join(sorted(facts)) or "nothing"
            raise BookError(
                f"{where}: fact '{ref}': block '{block_id}' recorded no value '{name}' "
                f"(it recorded: {known})"
            )
        fact = facts[name]
        shown = html.escape(fact.shown(), quote=False)
        if fact.banded:
            shown = measured.html_mark(shown)
        return f"<code>{shown}</code>" if match["style"] == "code" else shown

    return REFERENCE.sub(value, text)
