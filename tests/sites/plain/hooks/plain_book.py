"""The hook file of a book without JAX: the book's engine with the plain Python runtime.

Only what executes and checks blocks; none of the JAX book's own features.
"""

from __future__ import annotations

from pathlib import Path

import markdown_exec

from bookexec import build
from bookexec.execute.runtime import PythonRuntime
from bookexec.render.fence import format_python


def on_startup(command: str, dirty: bool) -> None:
    build.set_command(command)


def on_config(config):
    for language in ("python", "py"):
        markdown_exec.formatters[language] = format_python
    build.start(Path(config.config_file_path).resolve().parent, PythonRuntime())
    return config


def on_files(files, config):
    build.current().plan([(f.src_uri, f.content_string) for f in files.documentation_pages()])
    return files


def on_page_markdown(markdown, page, config, files):
    offset = max(page.file.content_string.count("\n") - markdown.count("\n"), 0)
    return build.current().enter_page(page.file.src_uri, markdown, page.meta, offset)


def on_post_build(config):
    build.current().finish()


def on_build_error(error):
    build.stop_current()


def on_shutdown():
    build.stop_current()
