"""`./book update PAGE[#BLOCK]`: the update mode for one page or one block, without the site.

The whole book's update is a strict MkDocs build: every page rendered, every lab converted,
for one golden. Here MkDocs loads the config and the files as a build does, and the plugins'
`on_config` and `on_files` run as in one, so the engine plans every page (a bad fence still
fails first) and starts the one run GOLDEN_ONLY names; then the named blocks are judged and
the update is written and said as a build's end writes it (claims refused, failures listed).
No page is rendered: `./book build` checks the pages afterwards. So the plugins that only
render (`RENDER_ONLY`: mkdocs-jupyter's nbconvert and jupytext are over a second of imports)
are left out of the config it loads, unless the update names a notebook: mkdocs-jupyter is
what makes a notebook a page.

    python -m jaxbook.cli.partial PAGE[#BLOCK] [-f mkdocs.yml] [-q | -v]
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from bookexec import BookError, ExecutedBookPlugin, open_book


def update(only: str, config_file: str | None = None) -> None:
    """Run the update of `only` (PAGE or PAGE#BLOCK) in the book whose config is
    `config_file` (mkdocs.yml in the working directory by default)."""
    from mkdocs.structure.files import get_files

    # The settings are read from the environment as a build's are (`bookexec._internal.settings`).
    os.environ["GOLDEN"] = "update"
    os.environ["GOLDEN_ONLY"] = only
    # The render-only plugins are left out, but for a notebook's: mkdocs-jupyter makes it a page.
    notebook = only.partition("#")[0].endswith(".ipynb")
    config = open_book(config_file, os.environ, renders=notebook).config
    config.plugins.on_startup(command="build", dirty=False)
    try:
        config = config.plugins.on_config(config)
        files = config.plugins.on_files(get_files(config), config=config)
        found = [p for p in config.plugins.values() if isinstance(p, ExecutedBookPlugin)]
        if not found:
            raise BookError(f"{config.config_file_path}: the plugin executed-book is not enabled")
        plugin = found[0]
        del files
        # The named blocks judged, and the update written and said, as a build's end does.
        plugin.current().current().finish_unrendered()
    except Exception as error:
        config.plugins.on_build_error(error=error)
        raise
    finally:
        config.plugins.on_shutdown()


def main(argv: list[str] | None = None) -> int:
    """The command line above; its exit code (1 with the reason, never a traceback)."""
    parser = argparse.ArgumentParser(prog="python -m jaxbook.cli.partial")
    parser.add_argument("only", metavar="PAGE[#BLOCK]")
    parser.add_argument("-f", "--config-file", default=None)
    said = parser.add_mutually_exclusive_group()
    said.add_argument("-q", "--quiet", action="store_true")
    said.add_argument("-v", "--verbose", action="store_true")
    options = parser.parse_args(argv)
    # What MkDocs' own command line sets up: its loggers' lines, at its levels.
    logger = logging.getLogger("mkdocs")
    logger.setLevel(logging.DEBUG if options.verbose else logging.INFO)
    logger.propagate = False
    stream = logging.StreamHandler()
    stream.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    stream.setLevel(logging.WARNING if options.quiet else logging.DEBUG)
    logger.addHandler(stream)
    try:
        update(options.only, options.config_file)
    except BookError as error:
        logger.error(str(error))
        return 1
    except Exception as error:  # MkDocs' own: a bad config, a missing file
        logger.error(f"{type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
