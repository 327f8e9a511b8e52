"""Scans kept across the builds of one `mkdocs serve` (issue 55): a rebuild after a prose edit
scanned every page of the book again, about a third of its time.

A page's scan is reused when its text is the same and every file the scan looked at (each
snippet, each file an include names, found or not) has the same size and modification and
change times as when it was scanned: the files are noted as `scan_page` reads them
(`noting`). A file modified less than `RACY_NS` before it was noted is never trusted (a second
edit in the same tick of a coarse clock would keep its times): its page is scanned again. A
plain `mkdocs build` makes no memo, so it scans as it always did.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import time
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Generic, TypeVar

Kept = TypeVar("Kept")
# A file as a scan saw it, not through a symlink: (size, modification and change times in
# ns, inode), None when missing.
Seen = tuple[int, int, int, int] | None
RACY_NS = 2_000_000_000
_RACY: Seen = (-1, -1, -1, -1)  # what no file is: what read it is read again at the next build

_noted: contextvars.ContextVar[dict[str, Seen] | None] = contextvars.ContextVar(
    "noted", default=None
)


def note(path: Path | str) -> None:
    """The scan under way looks at `path` (nothing when no memo listens): called before it
    reads the file, so that a file changed while it is read differs at the next build."""
    files = _noted.get()
    if files is not None:
        name = os.fspath(path)
        if name not in files:
            files[name] = stamp(name)


@contextlib.contextmanager
def noting() -> Iterator[dict[str, Seen]]:
    """The files `note`d inside the block, each as it was when first noted."""
    files: dict[str, Seen] = {}
    token = _noted.set(files)
    try:
        yield files
    finally:
        _noted.reset(token)


def seen(path: str | Path) -> Seen:
    """How a file is now, as a scan compares it."""
    try:
        stat = os.lstat(path)
    except OSError:
        return None
    return stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino


def stamp(path: str | Path) -> Seen:
    """How a file is now, to be compared with `seen` at the next build; one modified less than
    `RACY_NS` ago is never trusted (it may change again in the same tick of the clock)."""
    now, found = time.time_ns(), seen(path)
    if found is not None and now - found[1] < RACY_NS:
        return _RACY
    return found


class ScanMemo(Generic[Kept]):
    """What each page's last scan found, by page, with what it read; kept by the serve."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Hashable, dict[str, Seen], Kept]] = {}
        self.scanned: list[str] = []  # the pages scanned afresh (not reused), for the tests

    def get(self, page: str, key: Hashable, scan: Callable[[], Kept]) -> Kept:
        """The page's scan: the last one when `key` (its text and how it is read) and every
        file it looked at are as they were; else `scan()`, kept for the next build. A scan
        that fails keeps nothing."""
        kept = self._kept.get(page)
        if kept is not None and kept[0] == key and all(seen(f) == s for f, s in kept[1].items()):
            return kept[2]
        with noting() as files:
            found = scan()
        self._kept[page] = (key, files, found)
        self.scanned.append(page)
        return found


class TextMemo:
    """Files' texts kept across the builds of one serve, each read again once it changed (a
    rebuild under `--dirty` reads every page's snippets to tell what each page's render used)."""

    def __init__(self) -> None:
        self._kept: dict[Path, tuple[Seen, str | None]] = {}

    def text(self, path: Path) -> str | None:
        """The file's text (undecodable bytes replaced), None when missing or unreadable."""
        held = self._kept.get(path)
        if held is not None and held[0] == seen(path):
            return held[1]
        when = stamp(path)  # before the read: a write during it shows at the next build
        try:
            text: str | None = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = None
        self._kept[path] = (when, text)
        return text
