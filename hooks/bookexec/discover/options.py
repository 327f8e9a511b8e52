"""The options an executed fence may carry, checked before anything runs.

A misspelt option (`timout="300"`) would otherwise be ignored in silence, and a bad value
(`timeout="soon"`) would fail deep inside a worker thread with a raw traceback.
"""

from __future__ import annotations

from bookexec.errors import BookError

# What the book itself reads (see the README's table).
BOOK = ("id", "exec", "raises", "timeout", "limit", "band", "fresh")
# markdown-exec's and superfences' display options that still work with the book's executor.
# markdown-exec's `session`, `workdir` and `returncode` do not: each page is its own session.
DISPLAY = ("source", "result", "title", "tabs", "html", "width", "hl_lines", "linenums")
KNOWN = frozenset(BOOK + DISPLAY)
_POSITIVE = ("timeout", "limit", "band")
_BOOLEAN = {"true", "false", "yes", "no", "on", "off", "1", "0"}


def check(options: dict[str, str], where: str) -> None:
    """Raise a BookError naming the first unknown option or bad value, and how to fix it."""
    known = ", ".join(sorted(KNOWN))
    for name in options:
        if name not in KNOWN:
            raise BookError(
                f"{where}: unknown option '{name}' on an executed fence; "
                f"remove it or use one of: {known}"
            )
    for name in _POSITIVE:
        if name in options and not _positive_number(options[name], integer=name == "limit"):
            kind = "a positive whole number" if name == "limit" else "a positive number"
            raise BookError(
                f'{where}: option {name}="{options[name]}" must be {kind}, '
                f'like {name}="{_EXAMPLE[name]}"'
            )
    if "fresh" in options and options["fresh"].lower() not in _BOOLEAN:
        fresh = options["fresh"]
        raise BookError(f'{where}: option fresh="{fresh}" must be fresh="true" or "false"')


_EXAMPLE = {"timeout": "300", "limit": "500000", "band": "10"}


def _positive_number(text: str, integer: bool) -> bool:
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        return False
    return value > 0 and value != float("inf")
