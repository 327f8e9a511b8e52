"""`./book stress [N]` (issue 24): a green build must not depend on a quiet machine.

Busy loops take every core twice over (BOOK_STRESS_LOOPS to change), and each of the N runs is a
cold strict build (BOOK_CACHE=off). The loops stop with the command however it ends: done,
failed, interrupted or terminated.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from bookexec.cli.environments import Environment
from bookexec.cli.process import Failed

BUSY = "book-stress-busy-loop"  # the loop's $0, so that a test can tell its processes apart
_CHECK = re.compile(r"golden check: .*")
_SUMMARY = re.compile(r"bookexec summary: .*")
_PROBLEM = re.compile(r"(ERROR|WARNING) ")


def cores() -> int:
    """The cores this process may run on (what `nproc` says)."""
    return len(os.sched_getaffinity(0))


def loops_wanted() -> int:
    """BOOK_STRESS_LOOPS, or two busy loops per core."""
    text = os.environ.get("BOOK_STRESS_LOOPS", "")
    if not text:
        return 2 * cores()
    if not text.isdigit():
        raise Failed(2, f"book: BOOK_STRESS_LOOPS must be a whole number, not {text!r}")
    return int(text)


@contextmanager
def busy_loops(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` shell busy loops, stopped on the way out; SIGTERM ends the command as Ctrl-C."""

    def terminated(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, terminated)
    loops: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            loops.append(
                subprocess.Popen(
                    ["sh", "-c", "while :; do :; done", BUSY], stdin=subprocess.DEVNULL
                )
            )
        yield loops
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()
        signal.signal(signal.SIGTERM, before)


def stress(env: Environment, runs: int) -> int:
    """Run the strict build `runs` times beside the busy loops; 0 when every run passed."""
    loops = loops_wanted()
    logs = Path(tempfile.mkdtemp(prefix="book-stress-"))
    bad = 0
    try:
        with busy_loops(loops):
            print(f"book: stress: {runs} cold strict builds with {loops} busy loops", end="")
            print(f" on {cores()} cores")
            for run in range(1, runs + 1):
                bad += not _one_run(env, run, runs, logs / f"stress-{run}.txt")
    except KeyboardInterrupt:
        return 130
    under = f"under {loops} busy loops"
    if bad:
        print(f"book: stress: {bad} of {runs} runs FAILED {under}", file=sys.stderr)
        return 1
    print(f"book: stress: {runs} of {runs} runs passed (0 failed, 0 drifted) {under}")
    return 0


def _one_run(env: Environment, run: int, runs: int, log: Path) -> bool:
    started = time.monotonic()
    with log.open("wb") as out:
        done = subprocess.run(
            [str(env.tool("mkdocs")), "build", "--strict"],
            env={**os.environ, "BOOK_CACHE": "off"},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    text = log.read_text(encoding="utf-8", errors="replace")
    passed = done.returncode == 0
    check = _last(_CHECK, text) or "no golden check line"
    summary = _last(_SUMMARY, text) or f"no summary line (see {log})"
    verdict = "passed" if passed else "FAILED"
    print(f"run {run}/{runs}: {verdict} in {int(time.monotonic() - started)} s: {check}")
    print(f"  {summary}")
    if not passed:
        problems = [line for line in text.splitlines() if _PROBLEM.match(line)]
        for line in problems[:20]:
            print(f"  {line}")
        print(f"  full log: {log}")
    sys.stdout.flush()
    return passed


def _last(pattern: re.Pattern[str], text: str) -> str:
    found = pattern.findall(text)
    return found[-1] if found else ""
