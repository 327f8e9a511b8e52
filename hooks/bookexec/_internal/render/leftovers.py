"""Nothing unrendered leaves the build: the engine's own markup, looked for in what it wrote.

After a build has written its site, every page (hover cards included), every notebook and
every JSON file (the search index) is read back, and any of the engine's markup still in it
fails the build, named by the source page and line that wrote it: a reference no step filled
(`{{fact:...}}`, `{{figure:...}}`, `{{stepper:...}}`), a measured value's placeholder or mark
(`⟦name⟧`, `⟦name=1.19⟧`), the layout's own tokens (`bookexecvalue...`) and the markers and
placeholders in the engine's namespaces (`<!-- bookexec:census -->`, `executed-book-card:...`).
It is a check of the output, not of the places known to fill them: a new feature that forgets
to fill its text is caught the same way.

A page may show the syntax on purpose: in fenced code, in inline code (but a reference there is
filled: `render.prose`), or as an escaped reference (`\\{{fact:...}}`, in prose or inline code).
Those occurrences, read from the page's source, are what its output may hold.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

MARKUP = re.compile(
    r"\{\{\s*(?:fact|figure|stepper)\s*:[^{}\n]{0,200}?(?:\}\}|(?=[{}\n])|$)"
    r"|⟦\w+(?:=[^⟦⟧\n]*)?⟧"
    r"|bookexecvalue\w*"
    r"|(?<!\w)(?:bookexec|executed-book-card|executed-book-cell):[a-z](?:[\w-]*\w)?"
)
# Where a piece of markup can begin: found with `str.find`, then `MARKUP` read from there (a
# regex search of every position costs seconds over a book's site).
_STARTS = ("{{", "⟦", "bookexec", "executed-book-c")
_REFERENCE = re.compile(r"\{\{\s*(?:fact|figure|stepper)\s*:")
_ESCAPED = re.compile(r"\\(?=\{\{\s*(?:fact|figure|stepper)\s*:)")
_FENCE = re.compile(r"^\s*(?:>\s*)*(`{3,}|~{3,})\s*(?P<info>.*)$")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_TAG = re.compile(r"<[^>]*>")
# The files a build writes that a reader reads: pages, notebooks, JSON (the search index).
SCANNED = (".html", ".htm", ".ipynb", ".json")


def found_in(text: str) -> Iterator[str]:
    """Each piece of markup in `text`, as `MARKUP.finditer` finds it, only faster."""
    seen: set[int] = set()
    for start in _STARTS:
        at = text.find(start)
        while at >= 0:
            match = MARKUP.match(text, at)
            if match and at not in seen:
                seen.add(at)
                yield match[0]
            at = text.find(start, at + 1)


@dataclass(frozen=True)
class Leftover:
    """Markup found in one file of the site: its text, and the page it came from (or None)."""

    file: str  # relative to the site's folder
    page: str | None
    text: str


def shown(markdown: str) -> set[str]:
    """The markup a page's source shows on purpose: inside fenced code (but a fence markdown-exec
    runs as Markdown, whose body becomes the page's prose), in inline code (but a reference,
    which is filled there), and escaped references anywhere."""
    found: set[str] = set()
    fence: str | None = None
    prose_fence = False
    for line in markdown.splitlines():
        opened = _FENCE.match(line)
        if fence is None and opened:
            fence = opened[1]
            info = opened["info"]
            prose_fence = bool(re.match(r"(?:md|markdown)\b", info)) and "exec=" in info
            continue
        if fence is not None:
            stripped = line.strip().lstrip("> ")
            if stripped.startswith(fence) and set(stripped) == {fence[0]}:
                fence = None
            elif not prose_fence:
                found |= {match[0] for match in MARKUP.finditer(_ESCAPED.sub("", line))}
            continue
        for match in MARKUP.finditer(line):
            before = line[: match.start()]
            if _REFERENCE.match(match[0]):
                if before.endswith("\\"):
                    found.add(match[0])
            elif any(s.start() < match.start() < s.end() for s in _CODE_SPAN.finditer(line)):
                found.add(match[0])
    return found


def html_texts(page_html: str) -> Iterator[str]:
    """What to look in: the HTML as written (comments, attributes) and its text as a reader
    sees it (highlighting's elements gone, entities read)."""
    yield page_html
    yield html.unescape(_TAG.sub("", page_html))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def json_texts(text: str) -> Iterator[tuple[str | None, str]]:
    """Each string of a JSON file, with the site location it belongs to when it names one (an
    entry of the search index: its `location`); a notebook's prose and outputs as Jupyter
    shows them (its lines joined)."""
    try:
        data = json.loads(text)
    except ValueError:
        yield None, text
        return
    docs = data.get("docs") if isinstance(data, dict) else None
    if isinstance(docs, list):  # a search index: each entry a location of the site
        yield from _index_texts(docs)
    elif isinstance(data, dict) and isinstance(data.get("cells"), list):  # a notebook
        yield from _notebook_texts(data["cells"])
    else:
        for string in _strings(data):
            yield None, string


def _index_texts(docs: list[object]) -> Iterator[tuple[str | None, str]]:
    """Each string of a search index's entries, as text, with the entry's location."""
    for doc in docs:
        if isinstance(doc, dict):
            location = str(doc.get("location", "")).partition("#")[0]
            for string in _strings(doc):
                yield location, html.unescape(_TAG.sub("", string))


def _notebook_texts(cells: list[object]) -> Iterator[tuple[str | None, str]]:
    """A notebook's prose and outputs, each as Jupyter shows it (its lines joined)."""
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        # A code cell's source is the code its page shows (a set-up cell may carry the
        # engine's own modules): its prose and outputs are what a reader reads.
        keys = ("source", "outputs") if cell.get("cell_type") != "code" else ("outputs",)
        for key in keys:
            yield None, "".join(_strings(cell.get(key, "")))


def scan(
    files: Mapping[str, str], page_of: Callable[[str, str | None], str | None]
) -> list[Leftover]:
    """The markup in each file (path under the site -> its text); `page_of(path, location)`:
    the page a file (or a search entry's location in it) came from, or None."""
    found: dict[tuple[str, str | None, str], Leftover] = {}
    for path, text in sorted(files.items()):
        suffix = PurePosixPath(path).suffix
        parts: Iterator[tuple[str | None, str]]
        if suffix in (".html", ".htm"):
            parts = ((None, part) for part in html_texts(text))
        else:
            parts = json_texts(text)
        for location, part in parts:
            page = page_of(path, location)
            for text_found in found_in(part):
                key = (path, page, text_found)
                found.setdefault(key, Leftover(path, page, text_found))
    return list(found.values())


def where_written(text: str, sources: Mapping[str, str], first: list[str]) -> str | None:
    """`page:line` of the first line of the sources that writes `text` unescaped, looking in
    the pages of `first` before the others; None when no page does."""
    order = [page for page in first if page in sources]
    order += [page for page in sorted(sources) if page not in order]
    for page in order:
        for number, line in enumerate(sources[page].splitlines(), start=1):
            at = line.find(text)
            while at >= 0:
                if not line[:at].endswith("\\"):
                    return f"{page}:{number}"
                at = line.find(text, at + 1)
    return None


def problems(
    leftovers: list[Leftover],
    sources: Mapping[str, str],
    glossary: str = "",
    docs: str = "docs",
) -> list[tuple[str, str, str]]:
    """(page, text, message) for each piece of markup left that its page does not show on
    purpose, grouped over the files it is in; each message names the source page and line."""
    allowed = {page: shown(text) for page, text in sources.items()}
    anywhere = set().union(*allowed.values()) if allowed else set()
    grouped: dict[tuple[str, str], list[str]] = {}
    for left in leftovers:
        if left.text in (allowed.get(left.page, set()) if left.page else anywhere):
            continue
        first = [p for p in (left.page, glossary) if p]
        written = where_written(left.text, sources, first)
        place = f"{docs}/{written}" if written else f"{docs}/{left.page or '?'}"
        grouped.setdefault((place, left.text), []).append(left.file)
    out = []
    for (place, text), files in sorted(grouped.items()):
        listed = ", ".join(sorted(set(files))[:3])
        more = len(set(files)) - 3
        listed += f" and {more} more" if more > 0 else ""
        message = (
            f"{place}: {text!r} reaches the reader unrendered, in the built site's {listed}; "
            "the engine fills its own markup, or a page shows it escaped "
            "(\\{{fact:...}}) or as code"
        )
        page = place.removeprefix(f"{docs}/").rpartition(":")[0] or place.removeprefix(f"{docs}/")
        out.append((page, text, message))
    return out
