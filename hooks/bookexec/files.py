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


def _under(name: str, doc: str) -> property:
    return property(lambda self: self.base / name, doc=doc)


@dataclass(frozen=True)
class CachePaths:
    """Every path under `.cache/bookexec/` (git-ignored), from the book's root: one home."""

    root: Path

    @property
    def base(self) -> Path:
        """The folder holding everything below."""
        return self.root / ".cache" / "bookexec"

    blocks = _under("blocks", "The author's block cache (`execute.cache`).")
    run_times = _under("run-times.json", "Each block's last run time (`execute.eta`).")
    labs = _under("labs", "The executed copies of the labs that mkdocs-jupyter renders.")
    lab_html = _under("lab-html", "Rendered lab HTML, reused while a lab is unchanged.")
    report = _under("last-report.json", "The report a failed check leaves for `./book review`.")
