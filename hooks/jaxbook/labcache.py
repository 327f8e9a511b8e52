"""Labs are rendered again only when they change.

mkdocs-jupyter converts every notebook with nbconvert on every build, and with a custom
template (the book's `hooks/templates/lab.html.j2`) its own cache is off. Each conversion
also builds a new nbconvert exporter, whose fresh Jinja environment compiles the templates
again. On a rebuild after a prose edit that was almost half the render time, for labs that did
not change.

`LabRenderCache.install()` wraps the two functions mkdocs-jupyter calls for a notebook page:

- `nb2html(path, **options)`, the HTML of the notebook, is stored under
  `.cache/bookexec/lab-html/` keyed on `html_key`: the bytes of the executed copy the book
  wrote (its outputs and provenance note included), its path (nbconvert resolves images
  against it), every option mkdocs-jupyter passed (theme, template name, mathjax...), the
  text of the custom template, and the versions of the packages that render it
  (mkdocs-jupyter, nbconvert, Jinja2, mistune, Pygments, nbformat) with the source of the
  Pygments lexers installed as plugins (the book's `jaxpr` lexer, which the template calls);
- `_get_nb_toc_tokens(path, depth)`, the page's headings, keyed the same way without the
  template (`toc_key`).

An entry that cannot be read is a miss. If mkdocs-jupyter no longer has the functions it
wraps, nothing is wrapped and the labs render as before (tests/integration/test_labcache.py
fails loudly).

Both wrapped functions are mkdocs-jupyter's own, not public API: no public way exists, since its
`cache` option is off with a custom template and nbconvert has no setting for it. A lab that is
converted compiles nbconvert's templates again (an earlier version shared one bytecode cache by
replacing a method of nbconvert's TemplateExporter; no public seam offers that).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, entry_points, version
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from bookexec._internal.files import write_atomic

log = logging.getLogger("mkdocs.plugins.bookexec")

SCHEMA = 1
RENDERERS = ("mkdocs-jupyter", "nbconvert", "jinja2", "mistune", "pygments", "nbformat")

NbPath = str | os.PathLike[str]
# What a lab whose conversion is deferred shows meanwhile (under serve only).
WAITING = (
    '<p class="executed-book-pending">This lab\'s cells are running; the page shows them, '
    "converted, when they are done.</p>"
)
# A cache entry, as JSON reads it back.
Entry = dict[str, Any]
# mkdocs-jupyter's `nb2html(nb_path, **options)`: the notebook's HTML. Its options are
# mkdocs-jupyter's own (theme, template, mathjax...), of whatever type each has.
Nb2Html = Callable[..., str]
# mkdocs-jupyter's `_get_nb_toc_tokens(path, depth)`: Python-Markdown's toc tokens (dicts) and
# the title (the first level-1 heading), if any.
TocTokens = Callable[[NbPath, int], tuple[list[dict[str, Any]], str | None]]


@functools.cache
def versions() -> str:
    """The versions of the packages that render a lab, and the source of the Pygments lexers
    installed as plugins, as one string."""
    parts = []
    for name in RENDERERS:
        try:
            parts.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            parts.append(f"{name}==?")
    return ";".join([*parts, *plugin_lexer_sources()])


def plugin_lexer_sources() -> list[str]:
    """A digest of each Python file beside each Pygments plugin lexer (the book's `jaxpr`
    lexer and the parser it reads jaxprs with): the lab template colours jaxpr outputs with it,
    and its version does not change when its source does."""
    folders = set()
    for entry in entry_points(group="pygments.lexers"):
        spec = find_spec(entry.module)
        if spec is not None and spec.origin:
            folders.add(Path(spec.origin).parent)
    return [
        f"{path.name}={hashlib.sha256(path.read_bytes()).hexdigest()}"
        for folder in sorted(folders)
        for path in sorted(folder.glob("*.py"))
    ]


def _digest(*parts: bytes | str) -> str:
    digest = hashlib.sha256(f"executed-book-lab-render-{SCHEMA}\0".encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def html_key(nb_path: NbPath, options: dict[str, Any], renderers: str | None = None) -> str:
    """What the rendered HTML of one notebook depends on, as one digest."""
    path = Path(nb_path).resolve()
    template = options.get("custom_template")
    template_text = Path(template).read_bytes() if template else b""
    shown = {k: v for k, v in options.items() if k != "image_dependencies"}
    return _digest(
        "html",
        str(path),
        path.read_bytes(),
        json.dumps(shown, sort_keys=True, default=repr),
        template_text,
        versions() if renderers is None else renderers,
    )


def toc_key(nb_path: NbPath, depth: int, renderers: str | None = None) -> str:
    """What the headings of one notebook depend on, as one digest."""
    path = Path(nb_path).resolve()
    return _digest(
        "toc",
        str(path),
        path.read_bytes(),
        str(depth),
        versions() if renderers is None else renderers,
    )


def _images_unchanged(dependencies: dict[str, str]) -> bool:
    for path, expected in dependencies.items():
        try:
            actual = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            actual = None
        if actual != expected:
            return False
    return True


class LabRenderCache:
    """One build's lab render cache: where its entries live, and its hits and misses."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # None: nothing stored, only the shared templates
        self.hits = 0
        self.misses = 0
        # Executed copies not converted on a miss (`defer`): under serve, a lab whose cells
        # still run is rendered again when they end, so converting its recorded outputs first
        # would only delay every page of the build.
        self.deferred: set[str] = set()
        self.waiting = 0

    def defer(self, nb_path: NbPath) -> None:
        """Answer a miss for this notebook with `WAITING`, not a conversion, in this build."""
        self.deferred.add(os.path.realpath(nb_path))

    def load(self, key: str) -> Entry | None:
        """The entry under `key`, or None: missing, unreadable or of another schema."""
        if self.folder is None:
            return None
        try:
            entry = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(entry, dict) and entry.get("schema") == SCHEMA:
            return entry
        return None

    def save(self, key: str, entry: Entry) -> None:
        """Store an entry; a cache that cannot be written only costs time."""
        if self.folder is None:
            return
        try:
            write_atomic(self.folder / f"{key}.json", json.dumps({"schema": SCHEMA, **entry}))
        except OSError as error:
            log.info(f"bookexec: lab render cache not written ({error})")

    def cached_nb2html(self, original: Nb2Html) -> Nb2Html:
        """mkdocs-jupyter's `nb2html`, answered from this cache when the lab is unchanged."""

        def nb2html(nb_path: NbPath, **options: Any) -> str:
            key = html_key(nb_path, options)
            entry = self.load(key)
            if entry is not None and _images_unchanged(entry.get("image_dependencies", {})):
                if options.get("image_dependencies") is not None:
                    options["image_dependencies"].update(entry.get("image_dependencies", {}))
                self.hits += 1
                cached: str = entry["html"]
                return cached
            if os.path.realpath(nb_path) in self.deferred:
                self.waiting += 1
                return WAITING
            self.misses += 1
            images = options.get("image_dependencies")
            if images is None:
                images = options["image_dependencies"] = {}
            html = original(nb_path, **options)
            self.save(key, {"html": html, "image_dependencies": images})
            return html

        nb2html.__dict__["bookexec_original"] = original
        return nb2html

    def cached_toc(self, original: TocTokens) -> TocTokens:
        """mkdocs-jupyter's `_get_nb_toc_tokens`, answered from this cache likewise."""

        def toc_tokens(fpath: NbPath, toc_depth: int) -> tuple[list[dict[str, Any]], str | None]:
            key = toc_key(fpath, toc_depth)
            entry = self.load(key)
            if entry is not None:
                stored: list[dict[str, Any]] = entry["tokens"]
                title: str | None = entry["title"]
                return stored, title
            if os.path.realpath(fpath) in self.deferred:
                return [], None  # the nav's title, and no headings until it is converted
            tokens, title = original(fpath, toc_depth)
            self.save(key, {"tokens": tokens, "title": title})
            return tokens, title

        toc_tokens.__dict__["bookexec_original"] = original
        return toc_tokens

    def install(self) -> bool:
        """Wrap mkdocs-jupyter's conversion with this cache, in place of an earlier build's.

        Returns False when mkdocs-jupyter's internals are not the ones this wraps.
        """
        # No public seam: mkdocs-jupyter's own cache is off with a custom template.
        try:
            from mkdocs_jupyter import convert, plugin
        except ImportError:
            return False
        if not callable(getattr(convert, "nb2html", None)) or not callable(
            getattr(plugin, "_get_nb_toc_tokens", None)
        ):
            log.info("bookexec: the lab cache does not know this mkdocs-jupyter; labs render")
            return False
        convert.nb2html = self.cached_nb2html(_original(convert.nb2html))
        plugin._get_nb_toc_tokens = self.cached_toc(_original(plugin._get_nb_toc_tokens))
        return True

    def counts(self) -> tuple[int, int]:
        """Labs rendered from the cache and labs converted, since `install`."""
        return self.hits, self.misses


def _original[F: Callable[..., object]](function: F) -> F:
    """The function mkdocs-jupyter had before any build wrapped it."""
    original: F = getattr(function, "bookexec_original", function)
    return original
