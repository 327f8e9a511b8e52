"""Under `mkdocs serve --dirty`: the pages a build renders, chosen from the page graph.

The engine works out what each page reads (`bookexec._internal.serve.rebuild.page_inputs`, through
the build); here the graph decides which pages render again, those are made older than their
sources so that MkDocs renders them, and the log says which and why. MkDocs skips the others.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bookexec._internal.serve import rebuild

log = logging.getLogger("mkdocs.plugins.bookexec")


def render_all(pages: list[Any]) -> None:
    """`mkdocs build --dirty`: no last build is known here, so every page renders."""
    for f in pages:
        rebuild.make_older(Path(f.abs_dest_path))


def choose(
    graph: rebuild.Graph,
    pages: list[Any],
    inputs: Mapping[str, rebuild.Inputs],
    titles: Mapping[str, str],
    nav: Any,
    config_text: str,
    now: dict[str, int],
    under_docs: str,
    live_reload: bool,
) -> set[str]:
    """Make older the output of each page to render again, and say which and why; the pages
    left for the build right after the server starts (none but at the first build)."""
    titled = rebuild.titled_in(nav)
    titles = {src: "" if src in titled else title for src, title in titles.items()}
    site = rebuild.site_key(config_text, nav, titles)
    known = {path for path in now if path.startswith(under_docs)}
    first = graph.site is None
    decision = graph.decide(site, inputs, now, known)
    home = next((f for f in pages if f.dest_uri == "index.html"), None)
    if first and live_reload and home is not None and len(pages) > 1:
        # The first page answers once it is rendered, not once every page is: the others
        # show a notice that reloads, and the build right after the server starts (asked
        # by `on_serve`) renders them, the home page again with them (its nav then reads
        # every page's title).
        deferred = {f.src_uri for f in pages if f is not home}
        for f in pages:
            if f is not home:
                rebuild.placeholder(Path(f.abs_dest_path), Path(f.abs_src_path))
        rebuild.make_older(Path(home.abs_dest_path))
        others = len(deferred)
        log.info(
            f"bookexec: rendering the home page first (the first build); {others} other "
            f"page{'s' if others > 1 else ''} right after the server starts"
        )
        return deferred
    for f in pages:
        if decision.everything or f.src_uri in decision.pages:
            rebuild.make_older(Path(f.abs_dest_path))
    log.info(decision.line(len(pages)))
    return set()
