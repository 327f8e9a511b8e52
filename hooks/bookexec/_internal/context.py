"""A book opened once: where it lives, its settings and every path they name, worked out in one
place from `mkdocs.yml` (through MkDocs' own loader) and the environment.

Every driver of the stages starts from a `BookContext`: the plugin at each build's `on_config`,
and outside MkDocs `./book update PAGE`, `./book jax-changes`, `./book review`, the drift watch
and the benchmarks, through `open_book`. No other module reads `mkdocs.yml`, and none joins a
configured folder to the book's root: the golden folder is `BookContext.golden_dir`, the
cache's paths `BookContext.cache`, the limits `BookContext.settings.limits`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from bookexec._internal.errors import BookError
from bookexec._internal.files import CachePaths, not_of_the_book
from bookexec._internal.settings import Settings, bases, read

# The plugin's name in `plugins:` (its entry point).
NAME = "executed-book"

# Plugins whose work is a rendered page (its HTML, its search index), which a command that
# renders no page never needs: mkdocs-jupyter's nbconvert and jupytext are over a second of
# imports. The book's engine reads the labs itself.
RENDER_ONLY = frozenset({"search", "mkdocs-jupyter"})


@dataclass(frozen=True)
class BookContext:
    """One book, opened: its root (mkdocs.yml's folder), its settings, and the paths they name,
    each worked out once. Frozen: a driver hands it down, no stage changes it."""

    root: Path
    config_file: Path
    docs_dir: Path  # MkDocs' docs_dir, absolute (`settings.docs` names it in messages)
    settings: Settings
    golden_dir: Path  # the `goldens` option, joined to the root here alone
    serving: bool = False  # under `mkdocs serve`
    # MkDocs' configuration the context was made from: its pages and nav.
    config: Any = field(default=None, repr=False, compare=False)

    @property
    def cache(self) -> CachePaths:
        """The engine's folders under `.cache/bookexec`."""
        return CachePaths(self.root)

    @property
    def launcher(self) -> str:
        """The command line that messages name: the book's launcher (`./book`), or its builder."""
        return self.settings.launcher or self.settings.builder

    @property
    def nav(self) -> list[object] | None:
        """MkDocs' `nav` as configured (None when MkDocs makes one from the files)."""
        nav: list[object] | None = getattr(self.config, "nav", None)
        return nav

    def relative(self, path: Path) -> str:
        """A path of the book as messages and git name it: relative to the root, with /."""
        return path.relative_to(self.root).as_posix()

    def pages(self) -> list[tuple[str, str]]:
        """The book's Markdown pages as a build collects them, as (docs-relative path, text), by
        path: MkDocs' own files of the docs_dir (`mkdocs.structure.files.get_files`: what
        `exclude_docs` and `draft_docs` leave out is no page of the build). Notebooks are not
        among them. A page that is not the book's own file (a symlink, or outside the book) is
        refused, as a build refuses it."""
        from mkdocs.structure.files import get_files

        found = [
            (file.src_uri, self.docs_dir / file.src_uri)
            for file in get_files(self.config).documentation_pages()
        ]
        pages = []
        for src, path in sorted(found, key=lambda item: PurePosixPath(item[0])):
            if problem := not_of_the_book(path, self.root):
                raise BookError(
                    f"{self.settings.docs}/{src}: {problem}; the book runs only its own files: "
                    "put the file itself there. Nothing ran"
                )
            pages.append((src, path.read_text(encoding="utf-8")))
        return pages


def from_config(
    config: Any,
    options: Mapping[str, Any],
    environ: Mapping[str, str],
    *,
    builder: str = "mkdocs",
    serving: bool = False,
) -> BookContext:
    """The context of the book MkDocs' `config` describes, given the plugin's `options` and the
    environment (whose variables override the options; `bookexec._internal.settings`)."""
    config_file = Path(config.config_file_path).resolve()
    root = config_file.parent
    docs_dir = Path(config.docs_dir).resolve()
    settings = read(options, environ, docs_name(root, docs_dir), builder)
    # Includes are found where pymdownx.snippets finds them (its base_path).
    settings = dataclasses.replace(settings, bases=bases(config.mdx_configs, root))
    return BookContext(
        root, config_file, docs_dir, settings, root / settings.goldens, serving, config
    )


def open_book(
    config_file: str | os.PathLike[str] | None,
    environ: Mapping[str, str],
    *,
    renders: bool = False,
) -> BookContext:
    """The book whose config is `config_file` (None: mkdocs.yml or mkdocs.yaml in the working
    folder), opened outside a build in `environ` (the command line's): loaded by MkDocs as a
    build loads it, but for the plugins that only render (`RENDER_ONLY`) unless `renders`. A
    config that does not enable the plugin is a BookError: nothing of it would run a block."""
    config = load_config(config_file, renders=renders)
    plugin = config.plugins.get(NAME)
    if plugin is None:
        raise BookError(f"{config.config_file_path} does not list the {NAME} plugin")
    return from_config(config, plugin.config, environ)


def load_config(config_file: str | os.PathLike[str] | None = None, *, renders: bool = True) -> Any:
    """MkDocs' configuration of the book, loaded as a build loads it (INHERIT and !ENV
    resolved as MkDocs resolves them); without the render-only plugins unless `renders`."""
    from mkdocs.config import load_config as mkdocs_load_config
    from mkdocs.config.defaults import MkDocsConfig

    path = os.fspath(config_file) if config_file is not None else None
    if renders:
        return mkdocs_load_config(config_file=path)
    raw = MkDocsConfig()
    found = path or next(
        (name for name in ("mkdocs.yml", "mkdocs.yaml") if os.path.isfile(name)), "mkdocs.yml"
    )
    try:
        with open(found, "rb") as handle:
            raw.load_file(handle)
    except OSError as error:
        raise BookError(f"{found}: cannot read the book's config ({error.strerror})") from None
    # No `plugins`: MkDocs' default is search alone, render-only too.
    return mkdocs_load_config(config_file=path, plugins=without_render_only(raw.get("plugins")))


def without_render_only(plugins: Any) -> Any:
    """The config's `plugins` (a list or a mapping, as MkDocs accepts) without RENDER_ONLY."""
    if isinstance(plugins, dict):
        return {name: value for name, value in plugins.items() if name not in RENDER_ONLY}
    if not isinstance(plugins, list):
        return plugins or []  # MkDocs' own validation says what is wrong with it
    kept = []
    for entry in plugins:
        name = next(iter(entry), None) if isinstance(entry, dict) else entry
        if name not in RENDER_ONLY:
            kept.append(entry)
    return kept


def docs_name(root: Path, docs_dir: Path) -> str:
    """MkDocs' docs_dir as messages name it: relative to the book's root where it is inside."""
    inside = os.path.commonpath([root, docs_dir]) == str(root)
    return docs_dir.relative_to(root).as_posix() if inside else str(docs_dir)
