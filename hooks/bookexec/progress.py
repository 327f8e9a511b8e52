"""What a long build says while it runs: pages and blocks done, slow blocks, one summary line."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_SLOW = float(os.environ.get("BOOK_SLOW", "5"))


@dataclass
class Tally:
    executed: int = 0
    cached: int = 0
    replayed: int = 0  # cached blocks run again only to rebuild their page's session


class Progress:
    """Counts finished pages and blocks from the executor's threads, and says so as they end."""

    def __init__(self, say: Callable[[str], None], slow: float = DEFAULT_SLOW) -> None:
        self.say = say
        self.slow = slow
        self.pages = self.blocks = 0
        self.pages_done = self.blocks_done = 0
        self.tally = Tally()
        self._lock = threading.Lock()

    def expect(self, pages: int, blocks: int) -> None:
        with self._lock:
            self.pages, self.blocks = pages, blocks

    def block_done(self, where: str, seconds: float, cached: bool) -> None:
        with self._lock:
            self.blocks_done += 1
            if cached:
                self.tally.cached += 1
            else:
                self.tally.executed += 1
        if not cached and seconds >= self.slow:
            self.say(f"bookexec: slow block {where}: {seconds:.1f} s (BOOK_SLOW={self.slow:g})")

    def replayed(self) -> None:
        with self._lock:
            self.tally.replayed += 1

    def page_done(self, page: str, ran: int, cached: int, seconds: float) -> None:
        with self._lock:
            self.pages_done += 1
            done = (
                f"[{self.pages_done}/{self.pages} pages, {self.blocks_done}/{self.blocks} blocks]"
            )
        parts = [f"{ran} run"] + ([f"{cached} from cache"] if cached else [])
        self.say(f"bookexec: {done} docs/{page}: {', '.join(parts)}, {seconds:.1f} s")


def summary(
    tally: Tally, drifted: int, new: int, seconds: float, shown: int = 0, failed: int = 0
) -> str:
    """The build's last line: what ran, what came from the cache, what drifted, how long."""
    replayed = f" ({tally.replayed} cached blocks replayed for their session)"
    parts = [
        f"{tally.executed} blocks executed",
        f"{tally.cached} from cache" + (replayed if tally.replayed else ""),
    ]
    if shown:
        parts = [f"0 blocks executed, {shown} shown from goldens (BOOK_EXEC=off)"]
    if failed:
        parts.append(f"{failed} failed")
    parts.append(f"{drifted} drifted")
    if new:
        parts.append(f"{new} new")
    return f"bookexec summary: {', '.join(parts)}; {seconds:.1f} s"
