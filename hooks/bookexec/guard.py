"""The book builds only through its engine: any other builder stops, saying which command to use.

A Python-Markdown extension, listed in the book's `markdown_extensions` as `bookexec.guard`.
Another builder that reads `mkdocs.yml` (Zensical, or MkDocs without the book's plugin) would run
the blocks in-process through markdown-exec's own formatter: no golden compared, no isolation,
and a block that raises shows its traceback in the page and the build still passes. So before
each page is converted the guard checks that markdown-exec's Python formatter is the engine's,
which the plugin registers when the build starts, and otherwise stops the build.

It raises `SystemExit`, not an exception: markdown-exec and builders catch `Exception` from a
block and show it in the page, and the point is a build that fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import markdown_exec
from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

MARKER = "__bookexec__"  # set on the engine's formatter; read here
LANGUAGES = ("python", "py")  # the fence languages the plugin takes over
MESSAGE = (
    "This book's code blocks run only through its engine (the executed-book plugin, "
    "bookexec.plugin): build it with `./book build`, or `mkdocs build` with this mkdocs.yml and "
    "its plugins. This builder would run every block in-process with markdown-exec's own "
    "formatter and compare no golden."
)


def engine_formatter[F: Callable[..., Any]](formatter: F) -> F:
    """Mark a markdown-exec formatter as the engine's, the one the guard lets through."""
    formatter.__dict__[MARKER] = True
    return formatter


def is_engine_formatter(formatter: object) -> bool:
    """Whether markdown-exec would hand a block to the engine through this formatter."""
    return bool(getattr(formatter, MARKER, False))


def check() -> None:
    """Stop the process unless the engine's formatter handles every executed language."""
    if not all(is_engine_formatter(markdown_exec.formatters.get(lang)) for lang in LANGUAGES):
        raise SystemExit(MESSAGE)


class GuardPreprocessor(Preprocessor):
    """Runs first on every page: the check, and the page's lines unchanged."""

    def run(self, lines: list[str]) -> list[str]:
        """Check the builder, then hand the lines on."""
        check()
        return lines


class GuardExtension(Extension):
    """The guard as a Python-Markdown extension."""

    def extendMarkdown(self, md: Markdown) -> None:
        """Register the check before every other preprocessor."""
        md.preprocessors.register(GuardPreprocessor(md), "bookexec_guard", 1000)


def makeExtension(**kwargs: Any) -> GuardExtension:
    """Python-Markdown's entry point for `markdown_extensions: [bookexec.guard]`."""
    return GuardExtension(**kwargs)
