"""Facts in prose: `{{fact:block-id.name}}` puts a value an executed block recorded into a sentence.

The value is checked through its block's golden, so the sentence cannot go stale. A value on
another page is `{{fact:chapter.md#block-id.name}}`; `{{fact:block-id.name|code}}` shows it as
inline code. A value as an older JAX printed it comes from that release's record in
`tests/other-jax/`: `{{fact:chapter.md#block-id.name@0.11.2}}`. The reserved block `versions`
names the versions themselves: `{{fact:versions.jax}}` is the running JAX,
`{{fact:versions.jax@0.10.2}}` the one a record was made under. The reserved block `nav` numbers
the pages as `mkdocs.yml`'s nav lists them, the first (the home page) 0: `{{fact:nav.sharding}}`
is the place of `sharding.md`, so a map of the chapters follows the nav, and its numbers are
never typed (the prose audit would take a chapter's number for a count). Values are HTML-escaped, so
`key<fry>` stays text. A reference in inline code is filled too, its value shown as code
(`` `{{fact:block-id.name}}` `` is `{{fact:block-id.name|code}}`); fenced code is left alone.
A page shows the syntax itself by escaping it with a backslash: `\\{{fact:block-id.name}}`
(in prose or in inline code) is shown as `{{fact:block-id.name}}`, the backslash dropped.
Anything of this syntax left in what the build writes fails it
(`bookexec._internal.render.leftovers`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from bookexec._internal.discover.blocks import fenced_lines
from bookexec._internal.errors import BookError
from bookexec._internal.goldens import measured
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.render import figures, stepper_html

REFERENCE = re.compile(r"\{\{\s*fact:(?P<ref>[^{}\s|]*)(?:\|(?P<style>code))?\s*\}\}")
# A reference the page shows as syntax: a backslash before it, which the page drops.
ESCAPED = re.compile(r"\\(?=\{\{\s*(?:fact|figure|stepper)\s*:)")
_FILLED = re.compile(rf"(?P<escape>\\)?{REFERENCE.pattern}")
VERSIONS_BLOCK = "versions"
NAV_BLOCK = "nav"
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")

# (page, block id, release or None) -> the block's facts by name, or None when there is no block
Lookup = Callable[[str, str, str | None], dict[str, Fact] | None]
# (reference, "<docs>/page:line") -> the figure's HTML (see bookexec._internal.render.figures)
FigureMaker = Callable[[str, str], str]
# (page, message): a reference that cannot be filled, reported instead of raised
OnError = Callable[[str, str], None]


def nav_places(nav: object) -> dict[str, Fact]:
    """Each page MkDocs' `nav` lists, by its path without `.md`, with its place in the nav
    (the first page 0), as the facts of the reserved block `nav`."""
    pages: list[str] = []

    def walk(item: object) -> None:
        if isinstance(item, str):
            pages.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav or [])
    names = [page.removesuffix(".md") for page in pages if page.endswith(".md")]
    return {name: Fact(name, "exact", str(place)) for place, name in enumerate(names)}


def parse_reference(ref: str, page: str) -> tuple[str, str, str, str | None]:
    """'block.name', 'other.md#block.name', either with '@release' -> (page, block, name,
    release or None)."""
    ref, at, release = ref.partition("@")
    target_page, hash_, rest = ref.rpartition("#")
    block_id, dot, name = rest.partition(".")
    if not (block_id and dot and name) or (hash_ and not target_page) or (at and not release):
        raise ValueError(ref)
    return (target_page or page), block_id, name, (release or None)


def render(
    markdown: str,
    page: str,
    lookup: Lookup,
    figure: FigureMaker | None = None,
    on_error: OnError | None = None,
    steps: FigureMaker | None = None,
    docs: str = "docs",
    start: int = 1,
) -> str:
    """Replace every fact reference outside fenced code with its value, or raise naming page
    and line (the page under `docs`, the book's docs_dir as messages name it; `start`: the
    number of the text's first line in the page).

    A line holding only `{{figure:block-id.name}}` becomes that figure, drawn by `figure`; one
    holding only `{{stepper:block-id.name}}` becomes that trace stepper, made by `steps`.
    With `on_error`, a bad reference is handed to it (page, message) instead, and shows as
    `[missing fact: ...]`, so the rest of the page still renders.
    """
    out = []
    for number, line, code in fenced_lines(markdown.splitlines(keepends=True), start=start):
        where = f"{docs}/{page}:{number}"
        if code:
            out.append(line)
        elif figure is not None and (found := figures.REFERENCE.match(line)):
            out.append(_drawn(figure, found["ref"], where, "figure", page, on_error))
        elif steps is not None and (found := stepper_html.REFERENCE.match(line)):
            out.append(_drawn(steps, found["ref"], where, "stepper", page, on_error))
        elif "{{" in line:
            out.append(_render_line(line, _Line(docs, page, number, lookup, on_error)))
        else:
            out.append(line)
    return "".join(out)


def _drawn(
    draw: FigureMaker, ref: str, where: str, kind: str, page: str, on_error: OnError | None
) -> str:
    """A line that holds only a figure or a stepper, drawn; with `on_error`, a bad reference
    is handed to it and shows as `[missing <kind>: ...]`."""
    try:
        return draw(ref, where) + "\n"
    except BookError as error:
        if on_error is None:
            raise
        on_error(page, str(error))
        return f"[missing {kind}: {html.escape(ref)}]\n"


class _Line(NamedTuple):
    """A line of a page being filled: where messages say it is (`docs`: the book's docs_dir,
    as they name a page's folder), how a reference is looked up, and who hears of a bad one."""

    docs: str
    page: str
    number: int
    lookup: Lookup
    on_error: OnError | None


def _render_line(line: str, at: _Line) -> str:
    pieces: list[str] = []
    last = 0
    for span in _CODE_SPAN.finditer(line):
        pieces.append(_replace(line[last : span.start()], at))
        pieces.append(_code_span(span, at))
        last = span.end()
    pieces.append(_replace(line[last:], at))
    return "".join(pieces)


def _code_span(span: re.Match[str], at: _Line) -> str:
    """Inline code: its references filled, the whole made an HTML `<code>` (Markdown would
    escape a value's markup inside backticks); its escaped references shown as syntax."""
    inner = span[0][len(span[1]) : -len(span[1])]
    if not any(found["escape"] is None for found in _FILLED.finditer(inner)):
        return ESCAPED.sub("", span[0])
    inner = inner.strip()  # as Markdown strips a code span
    text, last = [], 0
    for found in _FILLED.finditer(inner):
        text.append(html.escape(inner[last : found.start()], quote=False))
        if found["escape"] is not None:
            text.append(html.escape(found[0][1:], quote=False))
        else:
            plain = found[0].replace("|code", "")  # the span is code already
            text.append(_replace(plain, at))
        last = found.end()
    text.append(html.escape(inner[last:], quote=False))
    return "<code>" + "".join(text) + "</code>"


def _replace(text: str, at: _Line) -> str:
    """Fill the fact references of prose text on line `at`."""
    docs, page, number, lookup, on_error = at

    def value(match: re.Match[str]) -> str:
        if on_error is None:
            return _value(match)
        try:
            return _value(match)
        except BookError as error:
            on_error(page, str(error))
            return f"[missing fact: {html.escape(match['ref'])}]"

    def _value(match: re.Match[str]) -> str:
        where = f"{docs}/{page}:{number}"
        ref = match["ref"]
        try:
            target_page, block_id, name, release = parse_reference(ref, page)
        except ValueError:
            raise BookError(
                f"{where}: fact reference '{ref}' must look like block-id.name, "
                "chapter.md#block-id.name, or either with @release"
            ) from None
        facts = lookup(target_page, block_id, release)
        if facts is None:
            under = f" in the record of JAX {release}" if release else ""
            raise BookError(
                f"{where}: fact '{ref}' names block '{block_id}', "
                f"which {docs}/{target_page} does not have{under}"
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

    def filled(match: re.Match[str]) -> str:
        return match[0][1:] if match["escape"] is not None else value(match)

    return ESCAPED.sub("", _FILLED.sub(filled, text))


def quoted_blocks(markdown: str, page: str) -> set[tuple[str, str]]:
    """The (page, block id) of every block whose values this page quotes in a fact or draws in a
    figure; the reserved blocks and other releases' records are left out. Read anywhere, code
    included: a reference too many only renders a page once more."""
    refs = [m["ref"] for m in REFERENCE.finditer(markdown)]
    refs += [m["ref"] for m in figures.REFERENCE_ANYWHERE.finditer(markdown)]
    refs += [m["ref"] for m in stepper_html.REFERENCE_ANYWHERE.finditer(markdown)]
    found = set()
    for ref in refs:
        try:
            target, block_id, _, release = parse_reference(ref, page)
        except ValueError:
            continue
        if release is None and block_id not in (NAV_BLOCK, VERSIONS_BLOCK):
            found.add((target, block_id))
    return found


def sentences_using(
    docs_dir: Path, page: str, block_id: str, docs: str = "docs"
) -> list[tuple[str, str]]:
    """Every line of the book that quotes a value of this block: (page:line, its text), the
    page under `docs`, the name messages give `docs_dir`."""
    found = []
    for path in sorted(docs_dir.rglob("*.md")):
        src = path.relative_to(docs_dir).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in REFERENCE.finditer(line):
                try:
                    target, block, _, _ = parse_reference(match["ref"], src)
                except ValueError:
                    continue
                if (target, block) == (page, block_id):
                    found.append((f"{docs}/{src}:{number}", line.strip()))
                    break
    return found
