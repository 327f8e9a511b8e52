"""Which blocks were running: a build that a block kills is named by the next build.

A snippet can end the build's own process (`os.kill(os.getppid(), signal.SIGKILL)`): nothing
of the build is left to say why. So the build keeps a small journal of the blocks running now,
one file per executor under `.cache/bookexec/`, rewritten in place as each block starts and
ends (one write of the whole text), and removed when the build ends normally. The next build
reads the journals of builds whose process is gone, names their running blocks, and removes
them.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

_PREFIX = "running-"


class Journal:
    """This build's journal of running blocks."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # One per executor: a serve process may have two at once.
        self.path = folder / f"{_PREFIX}{os.getpid()}-{id(self)}.json"
        self._lock = threading.Lock()
        self._running: dict[int, str] = {}
        self._started = time.strftime("%Y-%m-%d %H:%M:%S")
        self._next = 0
        self._closed = False
        self._fd = -1  # the journal, open while the build runs
        self._size = 0  # bytes written at its start: a shorter text is padded to it

    def started(self, where: str) -> int:
        """A block starts; its token for `ended`."""
        with self._lock:
            self._next += 1
            self._running[self._next] = where
            self._write()
            return self._next

    def ended(self, token: int) -> None:
        """The block of `token` ended."""
        with self._lock:
            self._running.pop(token, None)
            self._write()

    def close(self) -> None:
        """The build ended on its own: no journal is left."""
        with self._lock:
            self._running.clear()
            self._closed = True  # a block still ending after a stop writes no new journal
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1
            self.path.unlink(missing_ok=True)

    def _write(self) -> None:
        if self._closed:
            return
        entry = {"pid": os.getpid(), "started": self._started, "running": [*self._running.values()]}
        text = (json.dumps(entry, indent=1) + "\n").encode()
        # One write over the last text, padded with spaces (JSON's whitespace) to its length,
        # so that the file always holds one whole journal: a build killed by a block has
        # written it before the block ran. Not renamed into place (ext4 waits for the data of a
        # file renamed over another: 3-4 ms a block), not synced: it must survive the
        # build's process, not the machine.
        text = text.ljust(self._size)
        try:
            if self._fd < 0:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            os.pwrite(self._fd, text, 0)
        except OSError:  # a read-only checkout: the journal is a help, not the build's job
            return
        self._size = len(text)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def killed_builds(folder: Path) -> list[str]:
    """What the journals of builds that died say, one message each; those journals are removed.
    A journal whose build still runs (another build at once) is left alone."""
    messages = []
    for path in sorted(folder.glob(f"{_PREFIX}*.json")):
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
            pid, running = int(entry["pid"]), [str(w) for w in entry["running"]]
        except (OSError, ValueError, KeyError, TypeError):
            path.unlink(missing_ok=True)
            continue
        if pid == os.getpid() or _alive(pid):
            continue
        path.unlink(missing_ok=True)
        if running:
            messages.append(
                f"bookexec: the build of {entry.get('started', '?')} (process {pid}) was ended "
                "from outside while these blocks ran; if it was not stopped on purpose, one of "
                "them killed it (a snippet must not end the build's process): " + "; ".join(running)
            )
    return messages
