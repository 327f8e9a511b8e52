"""Running the tools a command is made of: each step's failure ends the command with its code."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path


class Failed(Exception):
    """A step failed; `book` exits with `code` (the step's own exit code, or 1)."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code = code or 1
        self.message = message


def call(
    command: Sequence[str | Path], env: Mapping[str, str] | None = None, quiet: bool = False
) -> None:
    """Run one step to its end (with `quiet`, its standard output dropped); a non-zero exit
    raises `Failed` with that code. The step's own output says what went wrong, as it would
    from a shell script with `set -e`."""
    argv = [str(c) for c in command]
    out = subprocess.DEVNULL if quiet else None
    try:
        done = subprocess.run(argv, env=_environ(env), stdout=out, check=False)
    except OSError as error:
        raise Failed(127, f"book: cannot run {argv[0]}: {error.strerror}") from None
    if done.returncode:
        raise Failed(done.returncode)


def become(command: Sequence[str | Path], env: Mapping[str, str] | None = None) -> None:
    """Replace this process with the last step (mkdocs serve, pytest): its signals, terminal and
    exit code are then the user's, with no Python process in between."""
    argv = [str(c) for c in command]
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(argv[0], argv, _environ(env))
    except OSError as error:
        raise Failed(127, f"book: cannot run {argv[0]}: {error.strerror}") from None


def _environ(extra: Mapping[str, str] | None) -> dict[str, str]:
    return {**os.environ, **(extra or {})}
