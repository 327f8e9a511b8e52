"""`python -m bookexec`: the engine's own commands, for a book without a command line of its own.

python -m bookexec review [--accept-cosmetic | --list] [--root PATH]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bookexec._internal.command import terminal


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the command; its exit code."""
    parser = argparse.ArgumentParser(prog="python -m bookexec")
    commands = parser.add_subparsers(dest="command", required=True)
    walk = commands.add_parser("review", help="walk the drift the last failed check build left")
    walk.add_argument("--root", type=Path, default=Path(), help="the book (default: here)")
    which = walk.add_mutually_exclusive_group()
    which.add_argument("--accept-cosmetic", action="store_true", help="accept cosmetic drift")
    which.add_argument("--list", action="store_true", help="only list the report")
    options = parser.parse_args(argv)
    root = options.root.resolve()
    return terminal.walk(root, cosmetic=options.accept_cosmetic, list_only=options.list)


if __name__ == "__main__":
    raise SystemExit(main())
