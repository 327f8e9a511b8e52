"""Third-party browser code the site ships itself, so a page never loads from another host.

MathJax (for `pymdownx.arithmatex`) comes from the `django-static-mathjax` package, a plain
copy of MathJax 3's files on PyPI. The build adds the one combined script the pages load and
the fonts it fetches relative to itself; MkDocs copies them into the site like any other file.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

from bookexec.errors import BookError

SITE_FOLDER = "vendor/mathjax"
SCRIPT = "tex-mml-chtml.js"
FONTS = "output/chtml/fonts/woff-v2"


def mathjax_root() -> Path:
    try:
        import mathjax  # the django-static-mathjax package
    except ImportError:
        raise BookError(
            "MathJax is missing: install the book's dependencies (pip install -e .), "
            "which include django-static-mathjax"
        ) from None
    root = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
    if not (root / SCRIPT).is_file():
        raise BookError(f"django-static-mathjax has no {SCRIPT} under {root}")
    return root


def mathjax_files(root: Path) -> list[tuple[str, Path]]:
    """(path in the site, file on disk) for the script and every font it may load."""
    wanted = [root / SCRIPT, *sorted((root / FONTS).glob("*.woff"))]
    return [(f"{SITE_FOLDER}/{path.relative_to(root).as_posix()}", path) for path in wanted]


def wants_mathjax(config) -> bool:
    """Only a site whose extra_javascript loads the vendored MathJax gets its files."""
    scripts = [str(getattr(script, "path", script)) for script in config.extra_javascript]
    return any(script.startswith(SITE_FOLDER + "/") for script in scripts)


def add_mathjax(files: Files, config) -> Files:
    if not wants_mathjax(config):
        return files
    for src_uri, path in mathjax_files(mathjax_root()):
        if files.get_file_from_path(src_uri) is None:
            files.append(File.generated(config, src_uri, abs_src_path=str(path)))
    return files
