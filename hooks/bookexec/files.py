"""Files the engine writes: atomically, so an interrupted write loses nothing; and where."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside the target, then rename over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class CachePaths:
    """Every path under `.cache/bookexec/` (git-ignored), from the book's root: one home."""

    root: Path

    @property
    def base(self) -> Path:
        """The folder holding everything below."""
        return self.root / ".cache" / "bookexec"

    @property
    def blocks(self) -> Path:
        """The author's block cache (`execute.cache`)."""
        return self.base / "blocks"

    @property
    def run_times(self) -> Path:
        """Each block's last run time, for the time-left estimate (`execute.eta`)."""
        return self.base / "run-times.json"

    @property
    def labs(self) -> Path:
        """The executed copies of the labs that mkdocs-jupyter renders."""
        return self.base / "labs"

    @property
    def lab_html(self) -> Path:
        """Rendered lab HTML, reused while a lab is unchanged (`book.labcache`)."""
        return self.base / "lab-html"

    @property
    def report(self) -> Path:
        """The report a failed check leaves for `./book review`."""
        return self.base / "last-report.json"
