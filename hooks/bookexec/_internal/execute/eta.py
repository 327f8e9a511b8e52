"""How long the blocks still to run will take, from how long each took last time.

Every block that runs records its seconds in `.cache/bookexec/run-times.json` (git-ignored),
keyed by page and block id, whatever its code: an edited block usually takes about as long
as before. A block never timed counts as the median of those that were (or 1 s); with no time
recorded at all (a fresh clone), the time left is not known, and not said.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import threading
from pathlib import Path

from bookexec._internal.files import write_atomic


class RunTimes:
    """Each block's last run time, kept between builds in one JSON file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.seconds: dict[str, float] = {}
        if path is not None:
            try:
                loaded = json.loads(path.read_text())
                self.seconds = {str(k): float(v) for k, v in loaded.items()}
            except (OSError, ValueError, AttributeError, TypeError):
                self.seconds = {}
        known = sorted(self.seconds.values())
        self.known = bool(known)  # any time recorded: without one, no estimate is honest
        self.default = statistics.median(known) if known else 1.0

    def last(self, key: str) -> float:
        """The block's last run time, or the median of all known ones."""
        return self.seconds.get(key, self.default)

    def record(self, key: str, seconds: float) -> None:
        """Remember this run's time for the block."""
        with self._lock:
            self.seconds[key] = round(seconds, 3)

    def save(self) -> None:
        """Write the times for the next build; a failure only costs the estimate."""
        if self.path is None:
            return
        with self._lock:
            text = json.dumps(self.seconds, indent=0, sort_keys=True)
        with contextlib.suppress(OSError):  # only the next estimate suffers
            write_atomic(self.path, text + "\n")


def left(seconds: float) -> str:
    """`about 1 min 20 s left`, rounded as a person would read it."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"about {seconds} s left"
    minutes, rest = divmod(seconds, 60)
    return f"about {minutes} min {rest:02d} s left"
