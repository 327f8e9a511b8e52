"""The one error type the book raises for bad input."""

from mkdocs.exceptions import PluginError


class BookError(PluginError):
    """A problem in a page, a snippet or a golden; MkDocs prints it and aborts the build."""
