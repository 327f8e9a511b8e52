"""MkDocs hooks for the executed book: each event hands off to `bookexec.build`.

MkDocs loads this file by path, with its folder on sys.path while it loads, so the import of
the sibling package `bookexec` works whether or not the project is installed.
"""

from __future__ import annotations

from pathlib import Path

import markdown_exec

from bookexec import build
from bookexec.fence import format_python


def on_startup(command: str, dirty: bool) -> None:
    build.set_command(command)


def on_config(config):
    for language in ("python", "py"):
        markdown_exec.formatters[language] = format_python
    build.start(Path(config.config_file_path).resolve().parent)
    return config


def on_files(files, config):
    pages = [(f.src_uri, f.content_string) for f in files.documentation_pages()]
    build.current().plan(pages)
    return files


def on_page_markdown(markdown, page, config, files):
    return build.current().enter_page(page.file.src_uri, markdown)


def on_post_build(config):
    build.current().finish()


def on_build_error(error):
    build.stop_current()


def on_shutdown():
    build.stop_current()
