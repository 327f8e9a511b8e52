"""Which pages a rebuild under `mkdocs serve --dirty` renders again: the engine's page graph.

Each page reads a known set of inputs: its Markdown (or notebook), the blocks planned on it,
the snippets it includes, its goldens, the values it quotes from other pages' blocks (and the
state of their runs), and its own run. At every build the engine works these out for each page
(`page_inputs`); a page is rendered again when one of them differs from what its last render
used, and left as it is otherwise. MkDocs' dirty build then skips it: a page is rebuilt when
its output is older than its source (`File.is_modified`), so a page to render is made older
(`make_older`).

What the graph cannot place renders everything, and the log says why: the first build, a
change of `mkdocs.yml`, the nav, the set of pages or a page's title (every page shows them in
its navigation), a build after a failed one, and a changed file that no page is known to read.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bookexec._internal.discover.blocks import includes
from bookexec._internal.pipeline.run import digest

_LINES = re.compile(r"(:[-\d,]*)+$")  # a selection of lines after the path
_TITLE = re.compile(r"^(?:title:\s*(?P<meta>.+)|#\s+(?P<heading>.+))$", re.M)


def included(markdown: str) -> list[str]:
    """The files a page includes with pymdownx.snippets, as written (relative to the book)."""
    return sorted({_LINES.sub("", path) for _, path in includes(markdown)})


def title_of(text: str) -> str:
    """What MkDocs would take for a page's title when the nav gives none: its front matter's
    `title:` or its first heading ("" for none). Read roughly: a change of it is all that
    matters."""
    found = _TITLE.search(text)
    return (found["meta"] or found["heading"] or "").strip() if found else ""


def titled_in(nav: object) -> set[str]:
    """The pages the nav gives a title (`Title: page.md`): MkDocs shows that one."""
    found: set[str] = set()

    def walk(item: object) -> None:
        if isinstance(item, dict):
            for value in item.values():
                if isinstance(value, str):
                    found.add(value)
                else:
                    walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav or [])
    return found


def read_or_none(path: Path) -> str | None:
    """A file's text, or None when it is missing or unreadable."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


@dataclass(frozen=True)
class Inputs:
    """What one page read, as digests by kind, and the files (relative to the book) behind
    them."""

    page: str
    digests: Mapping[str, str]
    files: frozenset[str] = field(default_factory=frozenset)

    def changed(self, before: Inputs | None) -> list[str]:
        """The kinds that differ from `before` (the page's last render); ["new"] for none."""
        if before is None:
            return ["new"]
        kinds = sorted(set(self.digests) | set(before.digests))
        return [k for k in kinds if self.digests.get(k) != before.digests.get(k)]

    def used(self, run: str, quoted: Mapping[str, str]) -> Inputs:
        """The same inputs with the run states a render actually used (read as it began)."""
        digests = {**self.digests, "run": run, "quoted": digest(sorted(quoted.items()))}
        return Inputs(self.page, digests, self.files)


def page_inputs(
    page: str,
    text: str,
    blocks: Iterable[tuple[str, str, str, Mapping[str, str]]],
    snippets: Mapping[str, str | None],
    goldens: Mapping[str, str | None],
    quoted: Mapping[str, str],
    run: str,
    source: str,
) -> Inputs:
    """A page's inputs: its text; its blocks as (id, snippet, code, options); the text of
    every file it includes and of each block's golden (None: missing), by path relative to the
    book; the run state of each page whose values it quotes; its own run state; `source`, its
    own file relative to the book."""
    digests = {
        "prose": digest(text),
        "blocks": digest([[i, s, c, sorted(o.items())] for i, s, c, o in blocks]),
        "snippets": digest(sorted(snippets.items())),
        "goldens": digest(sorted(goldens.items())),
        "quoted": digest(sorted(quoted.items())),
        "run": run,
    }
    return Inputs(page, digests, frozenset([source, *snippets, *goldens]))


def site_key(config_text: str, nav: object, pages: Mapping[str, str]) -> dict[str, str]:
    """What every page shows: the config file, the nav, and the pages with their titles."""
    return {
        "mkdocs.yml": digest(config_text),
        "the nav": digest(nav),
        "the pages or their titles": digest(sorted(pages.items())),
    }


def snapshot(root: Path, watched: Iterable[Path]) -> dict[str, int]:
    """Every file under the watched paths: path relative to `root` (or absolute, outside it)
    -> modification time in nanoseconds."""
    files: dict[str, int] = {}
    for top in watched:
        if top.is_file():
            files[relative(top, root)] = top.stat().st_mtime_ns
            continue
        for folder, dirs, names in os.walk(top):
            dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", ".git"))
            under = relative(Path(folder), root)  # once a folder: resolving paths is slow
            for name in names:
                try:
                    mtime = os.stat(os.path.join(folder, name)).st_mtime_ns
                except OSError:
                    continue
                files[name if under == "." else f"{under}/{name}"] = mtime
    return files


def relative(path: Path, root: Path) -> str:
    """`path` relative to the book, POSIX; absolute when it lies outside."""
    path = path.resolve()
    try:
        return path.relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def changed_files(before: Mapping[str, int], now: Mapping[str, int]) -> list[str]:
    """Files added, removed or modified between two snapshots, sorted."""
    return sorted(p for p in set(before) | set(now) if before.get(p) != now.get(p))


def make_older(dest: Path) -> None:
    """Make a page's written output older than any source, so MkDocs' dirty build renders the
    page again (`File.is_modified` compares the two times)."""
    with contextlib.suppress(FileNotFoundError):  # never written: MkDocs renders it anyway
        os.utime(dest, ns=(0, 0))


PLACEHOLDER = """<!doctype html>
<html><head><meta charset="utf-8"><title>Being built</title></head>
<body><div class="executed-book-pending"><p>This page is being built: it shows here by itself
in a few seconds.</p></div></body></html>
"""


def placeholder(dest: Path, source: Path) -> None:
    """Write a short notice as a page's output, newer than its source, so that MkDocs' dirty
    build leaves the page for a later build (the notice reloads by itself when it is built)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(PLACEHOLDER, encoding="utf-8")
    try:
        newer = max(time.time(), source.stat().st_mtime) + 1
    except OSError:
        newer = time.time() + 1
    os.utime(dest, (newer, newer))


@dataclass
class Decision:
    """What a build renders: every page (and why), or these pages with what changed."""

    everything: bool
    reason: str = ""
    pages: dict[str, list[str]] = field(default_factory=dict)

    def line(self, total: int) -> str:
        """The build's log line saying what it renders, and why."""
        if self.everything:
            return f"bookexec: rendering every page ({self.reason})"
        if not self.pages:
            return f"bookexec: no page's inputs changed: 0 of {total} pages rendered again"
        named = ", ".join(f"{page} ({', '.join(kinds)})" for page, kinds in self.pages.items())
        return f"bookexec: rendering {len(self.pages)} of {total} pages again: {named}"


class Graph:
    """What each page's last render read, kept for a whole `mkdocs serve`."""

    def __init__(self) -> None:
        self.site: dict[str, str] | None = None
        self.rendered: dict[str, Inputs] = {}
        self.files: dict[str, int] | None = None
        self.failed = False

    def decide(
        self,
        site: dict[str, str],
        inputs: Mapping[str, Inputs],
        files: dict[str, int],
        known: Iterable[str] = (),
    ) -> Decision:
        """Which pages this build renders. `files`: the watched files now (`snapshot`);
        `known`: files that no page reads but that change no page either (a page's own assets
        under docs/, which MkDocs copies itself)."""
        before_site, before_files = self.site, self.files
        self.site, self.files = site, files
        if before_site is None or before_files is None:
            return Decision(True, "the first build")
        if self.failed:
            self.failed = False
            return Decision(True, "the last build failed")
        moved = [name for name in site if site[name] != before_site.get(name)]
        if moved:
            return Decision(True, f"{' and '.join(moved)} changed")
        read = set(known)
        for page_inputs_ in (*inputs.values(), *self.rendered.values()):
            read |= page_inputs_.files
        unplaced = [path for path in changed_files(before_files, files) if path not in read]
        if unplaced:
            more = f" and {len(unplaced) - 1} more" if len(unplaced) > 1 else ""
            return Decision(True, f"{unplaced[0]}{more} changed, and no page is known to read it")
        pages = {}
        for page, now in inputs.items():
            kinds = now.changed(self.rendered.get(page))
            if kinds:
                pages[page] = kinds
        return Decision(False, pages=pages)

    def rendered_page(self, inputs: Inputs) -> None:
        """A page was rendered from these inputs."""
        self.rendered[inputs.page] = inputs

    def forget(self) -> None:
        """A build failed: what it rendered is unknown, so the next one renders everything."""
        self.failed = True
        self.rendered.clear()
