"""`review`: the drift a failed check build left, walked in a terminal one key at a time, in
the spirit of `cargo insta review` (`python -m bookexec review`, and the book's `./book review`).

What it reads, accepts and writes is `bookexec._internal.goldens.review`; here is only the terminal.
"""

from __future__ import annotations

import sys
import termios
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bookexec._internal.errors import BookError
from bookexec._internal.files import CachePaths, exclusive
from bookexec._internal.goldens.review import (
    REPORT,
    Entry,
    accept,
    accept_cosmetic,
    clear,
    kinds,
    listed,
    load,
    save_remaining,
    show,
)


def read_key(prompt: str) -> str:
    """One key, no Enter needed, as `cargo insta review` reads it; end of input quits."""
    print(prompt, end="", flush=True)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        key = sys.stdin.read(1)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    print(key if key.isprintable() else "")
    if not key or key == "\x04":
        raise EOFError
    return key


def interactive(
    root: Path,
    data: dict[str, Any],
    entries: list[Entry],
    ask: Callable[[str], str] = read_key,
    say: Callable[[str], object] = print,
) -> int:
    """Walk the entries one key at a time: accept, skip or quit."""
    if data.get("versions"):
        say(data["versions"])
    say(
        f"review: {len(entries)} blocks ({kinds(entries)}) "
        f"from the check build of {data['written']}"
    )
    remaining: list[Entry] = []
    counts = {"accepted": 0, "rejected": 0, "skipped": 0}
    for number, entry in enumerate(entries, start=1):
        say(show(entry, number, len(entries)))
        try:
            answer = _ask(ask)
        except KeyboardInterrupt:
            answer = "q"
        if answer == "a":
            outcome = accept(root, entry)
            say(outcome)
            if outcome.startswith("not accepted"):
                remaining.append(entry)
                counts["skipped"] += 1
            else:
                counts["accepted"] += 1
        elif answer == "r":
            say(f"rejected: {entry.golden} keeps its text; change the snippet to match it")
            counts["rejected"] += 1
        else:
            remaining.append(entry)
            counts["skipped"] += 1
            if answer == "q":
                remaining += entries[number:]
                counts["skipped"] += len(entries) - number
                break
    save_remaining(root, data, remaining)
    say(
        f"review: {counts['accepted']} accepted, {counts['rejected']} rejected, "
        f"{counts['skipped']} skipped; {len(remaining)} left in {REPORT}"
    )
    return 0


def _ask(ask: Callable[[str], str]) -> str:
    while True:
        try:
            answer = ask("accept, skip, reject or quit? [a/s/r/q] ").strip().lower()
        except EOFError:
            return "q"
        if not answer:
            continue
        if answer[:1] in ("a", "s", "r", "q"):
            return answer[:1]


def walk(
    root: Path, *, cosmetic: bool = False, list_only: bool = False, golden_dir: Path | None = None
) -> int:
    """Walk the report through a terminal, accept its cosmetic drift (`cosmetic`), or list it.
    Called by `python -m bookexec review` and by a book's own command line (this book's
    `./book review`), which may name its golden folder: a report naming another is refused."""
    data, entries = load(root, golden_dir)
    try:  # an update running meanwhile would write the same goldens
        with exclusive(CachePaths(root).update_lock, "review"):
            return _review(root, data, entries, cosmetic, list_only)
    except BookError as busy:
        raise SystemExit(str(busy)) from None


def _review(
    root: Path, data: dict[str, Any], entries: list[Entry], cosmetic: bool, list_only: bool
) -> int:
    if not entries:
        clear(root)
        print("review: nothing to review")
        return 0
    if cosmetic:
        return accept_cosmetic(root, data, entries)
    if list_only or not sys.stdin.isatty():
        if data.get("versions"):
            print(data["versions"])
        if not list_only:
            print("review: not a terminal; listing only (use --accept-cosmetic to accept)")
        for entry in entries:
            print(listed(entry))
        return 0
    return interactive(root, data, entries)
