"""MkDocs hooks for the executed book: each event hands off to `bookexec.build`.

MkDocs loads this file by path, with its folder on sys.path while it loads, so the import of
the sibling package `bookexec` works whether or not the project is installed.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import markdown_exec
from mkdocs.plugins import event_priority

from bookexec import build
from bookexec.book import audit, census, labcache, labs, notebooks, provenance, vendor
from bookexec.errors import BookError
from bookexec.execute import background
from bookexec.jax.runtime import JaxRuntime
from bookexec.render.fence import anchor_blocks, format_python, page_summary

log = logging.getLogger("mkdocs.plugins.bookexec")
provenance_date = [""]  # one date for every page of a build, set in on_config


def on_startup(command: str, dirty: bool) -> None:
    build.set_command(command)


def on_config(config):
    for language in ("python", "py"):
        markdown_exec.formatters[language] = format_python
    root = Path(config.config_file_path).resolve().parent
    build.start(root, JaxRuntime())
    # Labs are converted again only when their executed copy, template or renderer changed.
    off = os.environ.get("BOOK_CACHE", "auto").lower() in ("off", "0", "no", "false")
    labcache.install(None if off else root / ".cache" / "bookexec" / "lab-html")
    provenance_date[0] = provenance.build_date()
    return config


def on_files(files, config):
    pages, lab_blocks = [], {}
    for f in files.documentation_pages():
        if labs.is_lab(f.src_uri):
            lab_blocks[f.src_uri] = labs.scan_lab(f.src_uri, Path(config.docs_dir) / f.src_uri)
        else:
            pages.append((f.src_uri, f.content_string))
    build.current().plan(pages, lab_blocks)
    build.current().nav_titles = audit.nav_titles(config.nav)
    return vendor.add_mathjax(files, config)


@event_priority(50)  # before mkdocs-jupyter reads the notebook it is about to render
def on_pre_page(page, config, files):
    src = page.file.src_uri
    if labs.is_lab(src):
        out_dir = build.current().root / ".cache" / "bookexec" / "labs"
        made = page_made(build.current(), src)
        note = provenance.note_html(made, provenance_date[0], src) if made else ""
        executed = labs.render(build.current(), src, Path(config.docs_dir) / src, out_dir, note)
        page.file.abs_src_path = str(executed)
    return page


def on_page_markdown(markdown, page, config, files):
    current, src = build.current(), page.file.src_uri
    if labs.is_lab(src):
        return markdown
    # Block lines count from the file's top; page.markdown starts after the front matter.
    offset = max(page.file.content_string.count("\n") - markdown.count("\n"), 0)
    markdown = current.enter_page(src, markdown, page.meta, offset)
    docs = Path(config.docs_dir)
    markdown = census.fill(
        markdown,
        src,
        lambda: census.rows(
            census.nav_order(config.nav, current.plans), docs, lambda p: current.results(p)[0]
        ),
    )
    blocks = current.plans.get(src)
    if blocks and page.meta.get("notebook", True):  # offer a chapter with code as a notebook
        padded = "\n" * offset + markdown
        nb = notebooks.chapter_notebook(src, padded, blocks, current.golden_dir, current.versions)
        notebooks.write(notebooks.site_path(Path(config.site_dir), page.file.dest_uri, src), nb)
        markdown = notebooks.add_link(markdown, src)
    if blocks:
        markdown = anchor_blocks(markdown, {block.id for block in blocks})
    lab_pages = {f.src_uri for f in files.documentation_pages() if labs.is_lab(f.src_uri)}
    markdown = labs.add_lab_link(markdown, src, lab_pages)
    return markdown + provenance_note(current, src)


def page_made(current: build.Build, src: str) -> provenance.Made | None:
    """How this page's outputs were made; None for a page with no executed blocks."""
    blocks = current.plans.get(src)
    if not blocks:
        return None
    if not current.execute or current.pending(src):
        return provenance.from_goldens(current.golden_dir, blocks)
    try:
        _, run = current.results(src)
    except BookError:  # a cancelled page: the failure is reported at its block
        return None
    if run is None or run.failure:
        return None
    return provenance.executed(current.versions, run.backend, run.devices)


def provenance_note(current: build.Build, src: str) -> str:
    made = page_made(current, src)
    if made is None:
        return ""
    return provenance.note(
        made, provenance_date[0], src, link=provenance.TRUE_PAGE in current.plans
    )


def on_page_content(html, page, config, files):
    current = build.current()
    if current.serving and not labs.is_lab(page.file.src_uri):
        failures, drifted = current.page_problems(page.file.src_uri)
        if failures or drifted:  # one summary at the top; the details stay at the blocks
            html = page_summary(failures, drifted) + html
    return html


def on_post_build(config):
    hits, misses = labcache.counts()
    if hits or misses:
        log.info(f"bookexec: labs: {hits} rendered from the cache, {misses} converted")
    build.current().finish()


def on_build_error(error):
    build.stop_current()


def on_serve(server, config, builder):
    background.attach(server)  # a page whose blocks finish in the background reloads live
    return server


def on_shutdown():
    build.stop_current()
    background.shutdown()
