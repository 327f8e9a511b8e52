"""MkDocs hooks for the executed book: each event goes to the one `Engine` this file makes.

MkDocs loads this file by path, with its folder on sys.path while it loads, so the import of
the sibling package `bookexec` works whether or not the project is installed. Hook files need
module-level functions; the state lives in the engine, which makes a new build per build.
"""

from __future__ import annotations

from mkdocs.plugins import event_priority

from bookexec.book.extensions import book_extensions
from bookexec.engine import Engine
from bookexec.jax.runtime import JaxRuntime

_engine = Engine(runtime=JaxRuntime(), extensions=book_extensions())


def on_startup(command, dirty):
    """Note the command (build or serve)."""
    _engine.on_startup(command, dirty)


def on_config(config):
    """Start a new build."""
    return _engine.on_config(config)


def on_files(files, config):
    """Plan the pages and start running them."""
    return _engine.on_files(files, config)


@event_priority(50)  # before mkdocs-jupyter reads the notebook it is about to render
def on_pre_page(page, config, files):
    """Before MkDocs reads a page."""
    return _engine.on_pre_page(page, config, files)


def on_page_markdown(markdown, page, config, files):
    """Fill a page's facts and the book's additions."""
    return _engine.on_page_markdown(markdown, page, config, files)


def on_page_content(html, page, config, files):
    """A served page's summary of its problems."""
    return _engine.on_page_content(html, page, config, files)


@event_priority(-100)  # last: the page as it is written, after every other plugin
def on_post_page(output, page, config):
    """Check the page's final HTML against what its blocks printed."""
    return _engine.on_post_page(output, page, config)


def on_post_build(config):
    """Judge the build."""
    _engine.on_post_build(config)


def on_build_error(error):
    """Stop the build's workers."""
    _engine.on_build_error(error)


def on_serve(server, config, builder):
    """Reload pages live as their blocks finish."""
    return _engine.on_serve(server, config, builder)


def on_shutdown():
    """Stop everything."""
    _engine.on_shutdown()
