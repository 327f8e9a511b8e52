"""`./book serve`'s last step: MkDocs' own `mkdocs serve`, in this process (`book` execs into
it, so its signals and its terminal are the author's), exiting as `./book --help` says:
130 after Ctrl+C and 143 after SIGTERM (128 + the signal, as a shell reports it), where MkDocs'
serve stops cleanly and exits 0 after either.

    python -m jaxbook.cli.serving [MKDOCS SERVE OPTIONS...]
"""

from __future__ import annotations

import signal
import sys
from types import FrameType

SIGNALLED = 128  # + the signal's number: the code a shell gives a command a signal ended


def main(argv: list[str]) -> int:
    """Run `mkdocs serve` with `argv`; its exit code, or 128 + the signal when Ctrl+C (130)
    or SIGTERM (143) stopped it."""
    from mkdocs.__main__ import cli

    interrupted: list[int] = []

    def interrupt(signum: int, frame: FrameType | None) -> None:
        interrupted.append(signum)
        raise KeyboardInterrupt  # as Python's own handler: MkDocs stops the server on it

    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)  # the plugin then leaves SIGTERM to this handler
    try:
        cli.main(["serve", *argv], prog_name="mkdocs")  # standalone: it always exits
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    if isinstance(code, str):  # a message for the terminal, as SystemExit prints it
        print(code, file=sys.stderr)
        code = 1
    return SIGNALLED + interrupted[0] if interrupted and not code else int(code or 0)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
