"""A chapter notebook as written (`jaxbook.notebooks`), made from a tiny page without a
build: its metadata keys name the plugin, `executed-book`, never the engine's package."""

from __future__ import annotations

import nbformat

# The prose as the build hands it over: a measured value already marked for the page's styling.
PAGE = (
    '# Ch\n\nIt took <span class="executed-book-measured">12 ms</span>.\n\n'
    '<figure class="executed-book-figure wide" id="figure-f"><svg></svg></figure>\n\n'
    '```python exec="on" id="a"\n--8<-- "snippets/ch/a.py"\n```\n'
)


def written_chapter(tmp_path) -> tuple[str, nbformat.NotebookNode]:
    from bookexec._internal.discover.blocks import scan_page
    from jaxbook.notebooks import chapter_notebook, write

    (tmp_path / "snippets" / "ch").mkdir(parents=True)
    (tmp_path / "snippets" / "ch" / "a.py").write_text("import jax\n\nprint(jax.numpy.ones(2))\n")
    blocks = scan_page("ch.md", PAGE, tmp_path)
    nb = chapter_notebook(
        "ch.md", PAGE, blocks, tmp_path / "tests" / "golden", ("j", "l", "p"), tmp_path
    )
    write(tmp_path / "ch.ipynb", nb)
    text = (tmp_path / "ch.ipynb").read_text(encoding="utf-8")
    return text, nbformat.reads(text, as_version=4)


def test_a_plain_jax_chapter_notebook_never_names_bookexec(tmp_path):
    """What a reader downloads for a chapter whose shown code needs only JAX: not even a
    metadata key says `bookexec`."""
    text, nb = written_chapter(tmp_path)
    assert "bookexec" not in text, [
        line.strip() for line in text.splitlines() if "bookexec" in line
    ]
    assert nb.metadata["executed-book"]["chapter"] == "docs/ch.md"
    # the measured value keeps a mark, so that two builds' notebooks differ only inside it
    assert '<span class="executed-book-measured">12 ms</span>' in nb.cells[2].source
    assert '<figure class="executed-book-figure wide"' in nb.cells[2].source  # a figure's too
    (setup,) = [c for c in nb.cells if c.metadata.get("executed-book", {}).get("setup")]
    assert "%pip install" in setup.source
    (cell,) = [c for c in nb.cells if "block" in c.metadata.get("executed-book", {})]
    assert cell.metadata["executed-book"] == {
        "block": "a",
        "snippet": "snippets/ch/a.py",
        "golden": "tests/golden/ch/a.txt",
    }


def test_a_page_saved_again_after_its_scan_is_told_from_the_page_as_scanned(tmp_path):
    """Issue 55: under serve a page can be saved between the build's scan and MkDocs' read; its
    notebook then waits for the next build (`fences_as_planned`), rather than being cut at
    lines that no longer hold its fences (an IndexError, before)."""
    from bookexec._internal.discover.blocks import scan_page
    from jaxbook.notebooks import fences_as_planned

    (tmp_path / "snippets" / "ch").mkdir(parents=True)
    (tmp_path / "snippets" / "ch" / "a.py").write_text("print(1)\n")
    blocks = scan_page("ch.md", PAGE, tmp_path)
    assert fences_as_planned(PAGE, blocks)
    grown = PAGE.replace("# Ch\n\n", "# Ch\n\nA new paragraph\nof two lines.\n\n")
    assert not fences_as_planned(grown, blocks)
    other = PAGE.replace('id="a"', 'id="b"')  # another block where this one was
    assert not fences_as_planned(other, blocks)
