"""The hook file of a book without JAX: the book's engine with the plain Python runtime.

Only what executes and checks blocks: none of the JAX book's extensions.
"""

from __future__ import annotations

from bookexec.engine import Engine
from bookexec.execute.runtime import PythonRuntime

_engine = Engine(runtime=PythonRuntime())


def on_startup(command, dirty):
    _engine.on_startup(command, dirty)


def on_config(config):
    return _engine.on_config(config)


def on_files(files, config):
    return _engine.on_files(files, config)


def on_page_markdown(markdown, page, config, files):
    return _engine.on_page_markdown(markdown, page, config, files)


def on_post_page(output, page, config):
    return _engine.on_post_page(output, page, config)


def on_post_build(config):
    _engine.on_post_build(config)


def on_build_error(error):
    _engine.on_build_error(error)


def on_shutdown():
    _engine.on_shutdown()
