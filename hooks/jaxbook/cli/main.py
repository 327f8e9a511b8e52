"""`book`: every command an author, a maintainer or CI runs, with its help and its exit code.

`./book --help` lists the commands and `./book COMMAND --help` says what one does; neither sets
anything up. Every command but `setup`, `jax-venv`, `test-engine` (which needs only pip) and
`help` first brings `.venv` up to date (`cli.environments`), then runs (`cli.commands`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from jaxbook.cli.commands import COMMANDS
from jaxbook.cli.environments import set_up
from jaxbook.cli.parser import PASSES_ON, parser
from jaxbook.cli.process import Failed, become

# What runs before .venv exists: answering these needs nothing installed.
_NO_VENV = {"help", "jax-venv"}


def main(argv: list[str] | None = None, first_run: bool = False) -> int:
    """The `book` entry point: parse, run one command, return its exit code. `first_run` is the
    launcher's, when .venv has no `book` yet: a command that needs .venv makes it, then goes on
    from there."""
    args = sys.argv[1:] if argv is None else argv
    top, commands = parser()
    if not args:
        top.print_help()
        return 0
    name = args[0]
    if name not in commands:
        top.parse_args(args)  # --help, or a usage error naming the command (exit 2)
        return 2
    command = commands[name]
    if name in PASSES_ON:
        options, rest = command.parse_known_args(args[1:])
    else:
        options, rest = command.parse_args(args[1:]), []
    os.environ["NO_MKDOCS_2_WARNING"] = "1"  # MkDocs 1.6.1's banner about 2.0, on every run
    root = Path.cwd()
    try:
        if first_run and name not in _NO_VENV:
            tests = name in {"test", "bench"} or (name == "setup" and options.test)
            set_up(root, "test" if tests else "book")
            become([root / ".venv" / "bin" / "book", *args])
        return COMMANDS[name](root, options, rest, command)
    except Failed as failed:
        if failed.message:
            print(failed.message, file=sys.stderr)
        return failed.code
    except KeyboardInterrupt:
        return 130
    except (OSError, subprocess.SubprocessError) as error:
        # A step that could not even start or finish (a missing tool, a full disk): said in one
        # line, as any other failure of a command; the commands turn the ones they expect into
        # `Failed` with more to say.
        print(f"book: {name}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1


def first_run() -> int:
    """What `./book` runs, from the source and with any python3, while .venv has no `book`."""
    return main(first_run=True)
