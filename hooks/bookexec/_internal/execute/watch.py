"""The book is read-only to its blocks: a block that changes a file of the checkout fails.

The checkout is what the book is made of: its config file (`mkdocs.yml`), everything under the
book's own folders, as its configuration names them (its docs_dir, its golden folder, the
folders its blocks' snippets come from, and any an extension keeps, `Extension.read_only`),
and every file git tracks. Its files' identity (size, modification time, inode) is read when
the build starts (a folder added before the blocks run, when it is added), and read again each
time a block ends. A file created, changed or deleted since is named, with the block that
changed it.

Pages run in parallel, so the block is found by time: a file changed while exactly one block
was running was changed by that block; the modification time of a created or changed file
narrows the blocks down to those running at that moment. When more than one block could have
done it, every one is named and the message says it is ambiguous. The build's own writes
(`.cache/`, `site/`, goldens written by the update mode after every block ran) are not here.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

_SLACK = 0.05  # seconds: a file's time comes from the kernel's coarse clock
_SKIP = frozenset({"__pycache__", ".git"})  # Python's own byte-code caches are not the book's
# The build's own output, even where git tracks it (a scratch copy with no .gitignore): MkDocs
# empties the site while blocks run.
_BUILD_OUTPUT = ("site/", ".cache/")

Identity = tuple[int, int, int]  # size, modification time (ns), inode


def tracked(root: Path) -> list[str]:
    """The files git tracks in the checkout (none outside a git work tree)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"],
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if out.returncode != 0:
        return []
    return sorted(name for name in out.stdout.decode("utf-8", "replace").split("\0") if name)


@dataclass
class Run:
    """One block's run: when it started and ended (time.time(), as files' times are)."""

    where: str
    start: float
    end: float | None = None

    def during(self, moment: float) -> bool:
        """It was running at `moment` (or close enough for a file's coarse time)."""
        end = time.time() if self.end is None else self.end
        return self.start - _SLACK <= moment <= end + _SLACK

    def overlaps(self, first: float, last: float) -> bool:
        """It was running at some time between `first` and `last`."""
        end = time.time() if self.end is None else self.end
        return self.start - _SLACK <= last and first <= end + _SLACK


@dataclass
class FileChange:
    """A file of the checkout that changed, and the blocks that may have changed it."""

    path: str
    what: str  # "created", "changed" or "deleted"
    blocks: list[str] = field(default_factory=list)

    def message(self) -> str:
        """The failure, in words: the file, what happened to it, and the block(s)."""
        if len(self.blocks) == 1:
            return (
                f"{self.blocks[0]}: {self.what} {self.path} while it ran; the book is "
                "read-only to its blocks: write to a temporary folder (tempfile) instead"
            )
        if not self.blocks:
            return (
                f"{self.path} was {self.what} during the build while no block was running; "
                "the book must not change while it builds"
            )
        return (
            f"{self.path} was {self.what} while these blocks ran, so it is ambiguous which one "
            f"did it: {'; '.join(self.blocks)}; the book is read-only to its blocks: write to "
            "a temporary folder (tempfile) instead"
        )


class CheckoutWatch:
    """The checkout's files as the build found them, and the blocks that ran since.

    `folders` are the book's own (relative to `root`, or absolute), `files` its files outside
    them (its config file), both from its configuration; every file git tracks is watched too.
    """

    def __init__(self, root: Path, folders: Iterable[str | Path], files: Iterable[str]) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._folders: set[Path] = set()
        self._files = sorted(
            {*files, *(f for f in tracked(root) if not f.startswith(_BUILD_OUTPUT))}
        )
        self._base: dict[str, Identity] = {}
        self.add(folders)
        self._checked = time.time()
        self._runs: list[Run] = []

    def add(self, folders: Iterable[str | Path]) -> None:
        """Watch these folders too (the snippets' folders, known once the pages are scanned):
        their files as they are now are the base. Before any block runs."""
        with self._lock:
            self._folders |= {self.root / folder for folder in folders}
            self._base = self._scan()

    def _scan(self) -> dict[str, Identity]:
        """Every file's identity, by its path from the root. Read after every block: one
        lstat per file (the directory entry's), none for a tracked file the folders already
        gave (the book's checkout: 1755 files, 32 ms a block by os.walk, lstat and relpath)."""
        found: dict[str, Identity] = {}
        root = str(self.root)
        for folder in sorted(self._folders):
            # A snippet beside mkdocs.yml: the root's files alone, never the whole checkout
            # (its .venv, site/ and .cache/).
            deep = folder != self.root
            self._walk(str(folder), os.path.relpath(folder, root), found, deep)
        for name in self._files:
            if name not in found:
                self._identify(os.path.join(root, name), os.path.normpath(name), found)
        return found

    def _walk(
        self, path: str, relative: str, found: dict[str, Identity], deep: bool = True
    ) -> None:
        """As os.walk finds them: a directory, or a link to one, is no file, and only a real
        directory is entered (if `deep`), skipping `_SKIP`."""
        try:
            entries = list(os.scandir(path))
        except OSError:
            return
        below = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            name = entry.name if relative == "." else f"{relative}/{entry.name}"
            if not is_dir:
                try:
                    stat = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                found[name] = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
            elif deep and entry.name not in _SKIP and not entry.is_symlink():
                below.append((entry.path, name))
        for sub, name in sorted(below):
            self._walk(sub, name, found)

    def _identify(self, path: str, name: str, found: dict[str, Identity]) -> None:
        try:
            stat = os.lstat(path)
        except OSError:
            return
        found[name] = (stat.st_size, stat.st_mtime_ns, stat.st_ino)

    def started(self, where: str) -> Run:
        """A block starts running."""
        run = Run(where, time.time())
        with self._lock:
            self._runs.append(run)
        return run

    def ended(self, run: Run) -> list[FileChange]:
        """A block ended: every change to the checkout since the last look, with the blocks
        that may have made it."""
        run.end = time.time()
        with self._lock:
            changes = self._look()
            # Only runs that may still be blamed for a later change are kept.
            self._runs = [r for r in self._runs if r.end is None or r.end + _SLACK >= self._checked]
        return changes

    def _look(self) -> list[FileChange]:
        now = self._scan()
        since, self._checked = self._checked, time.time()
        changes = []
        for path in sorted(self._base.keys() | now.keys()):
            before, after = self._base.get(path), now.get(path)
            if before == after:
                continue
            if after is None:
                what, blamed = (
                    "deleted",
                    [r for r in self._runs if r.overlaps(since, self._checked)],
                )
            else:
                what = "created" if before is None else "changed"
                moment = after[1] / 1e9
                blamed = [r for r in self._runs if r.during(moment)]
                if not blamed:  # a time set by the snippet (os.utime) says nothing
                    blamed = [r for r in self._runs if r.overlaps(since, self._checked)]
            changes.append(FileChange(path, what, sorted({r.where for r in blamed})))
        self._base = now
        return changes
