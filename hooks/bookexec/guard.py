"""The book builds only through its engine: any other builder stops, saying which command to use.

The engine runs the book's Python fences through pymdownx.superfences' public seam: when a
build starts, `register` adds custom fences for `python` and `py` to the MkDocs config the plugin
is handed (markdown-exec's own validator, the engine's format function), as markdown-exec's
plugin adds its own. A book may keep markdown-exec's plugin in `mkdocs.yml`, given none of these
languages (`languages: []`); a book that does not list it has the engine stand in for it
(`bookexec._internal.plugin.MarkdownExecStandIn`): markdown-exec's own formatter gets its other
languages (`sh`, `bash`, `console`, `md`, `pycon`, `tree`, `pyodide`), and its Markdown
config, its assets and its state between builds are kept as its plugin keeps them.

`bookexec.guard`, listed in the book's `markdown_extensions`, is a Python-Markdown extension
whose one option, `engine`, `register` sets to the engine's format function. Another builder
that reads `mkdocs.yml` (Zensical, or MkDocs without the book's plugin) never sets it, and would
show the blocks unrun or run them in-process with markdown-exec's own formatter, comparing no
golden: before each page is converted the guard stops it.

It raises `SystemExit`, not an exception: markdown-exec and builders catch `Exception` from a
block and show it in the page, and the point is a build that fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import markdown_exec
from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from bookexec._internal.errors import BookError

FORMATTER = markdown_exec.formatter  # markdown-exec's fence format function, which runs in-process
MARKER = "__bookexec__"  # set on the engine's format function; read here
LANGUAGES = ("python", "py")  # the fence languages the engine runs
NAME = "bookexec.guard"  # this extension, as `markdown_extensions` names it
PLUGIN = "markdown-exec"  # markdown-exec's plugin, as `plugins:` names it
SUPERFENCES = "pymdownx.superfences"
MESSAGE = (
    "This book's code blocks run only through its engine (the executed-book plugin, "
    "bookexec.ExecutedBookPlugin): build it with `./book build`, or `mkdocs build` with this "
    "mkdocs.yml and "
    "its plugins. This builder would run every block in-process with markdown-exec's own "
    "formatter and compare no golden."
)


# A TypeVar, not `def f[F: ...]`: the engine runs on Python 3.10 (PEP 695 is 3.12's).
Formatter = TypeVar("Formatter", bound=Callable[..., Any])


def engine_formatter(formatter: Formatter) -> Formatter:
    """Mark a fence format function as the engine's, the one the guard lets through."""
    formatter.__dict__[MARKER] = True
    return formatter


def is_engine_formatter(formatter: object) -> bool:
    """Whether superfences would hand a block to the engine through this format function."""
    return bool(getattr(formatter, MARKER, False))


def register(config: Any, formatter: Callable[..., Any]) -> None:
    """Give the engine's `formatter` the executed languages, in the config MkDocs hands the
    plugin at `on_config`, and tell the guard; a config giving them to another stops here."""
    if SUPERFENCES not in config.markdown_extensions:
        raise BookError(f"the book's engine needs the '{SUPERFENCES}' Markdown extension")
    plugin = (getattr(config, "plugins", None) or {}).get(PLUGIN)
    taken = set(getattr(plugin, "config", {}).get("languages") or ()) & set(LANGUAGES)
    if taken:
        raise BookError(
            f"markdown-exec's `languages` option lists {', '.join(sorted(taken))}: the book's "
            "engine runs these fences itself; leave them out (`languages: []`)"
        )
    mdx = config.mdx_configs
    fences = mdx.setdefault(SUPERFENCES, {}).setdefault("custom_fences", [])
    for fence in fences:
        # markdown-exec's own formatter is taken over: a markdown-exec book may have declared
        # its python fence by hand, and switching to the engine changes only its plugins.
        ours = is_engine_formatter(fence.get("format")) or fence.get("format") is FORMATTER
        if fence.get("name") in LANGUAGES and not ours:
            raise BookError(
                f"{SUPERFENCES}'s `custom_fences` has a '{fence['name']}' fence: the book's "
                "engine runs these fences itself; remove it"
            )
    fences[:] = [fence for fence in fences if fence.get("name") not in LANGUAGES]  # a last build's
    fences += [
        {"name": lang, "class": lang, "validator": markdown_exec.validator, "format": formatter}
        for lang in LANGUAGES
    ]
    mdx.setdefault(NAME, {})["engine"] = formatter


def check(engine: object) -> None:
    """Stop the process unless the engine registered its fences for this conversion."""
    if not is_engine_formatter(engine):
        raise SystemExit(MESSAGE)


class GuardPreprocessor(Preprocessor):
    """Runs first on every page: the check, and the page's lines unchanged."""

    def __init__(self, md: Markdown, engine: object) -> None:
        super().__init__(md)
        self.engine = engine

    def run(self, lines: list[str]) -> list[str]:
        """Check the builder, then hand the lines on."""
        check(self.engine)
        return lines


class GuardExtension(Extension):
    """The guard as a Python-Markdown extension."""

    def __init__(self, **kwargs: Any) -> None:
        # Not None: Python-Markdown would turn a function given for a None default into True.
        self.config = {"engine": ["", "The engine's fence format function; set by the plugin."]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        """Register the check before every other preprocessor."""
        guard = GuardPreprocessor(md, self.getConfig("engine"))
        md.preprocessors.register(guard, "bookexec_guard", 1000)


def makeExtension(**kwargs: Any) -> GuardExtension:
    """Python-Markdown's entry point for `markdown_extensions: [bookexec.guard]`."""
    return GuardExtension(**kwargs)
