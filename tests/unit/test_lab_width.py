"""A lab's code fits its box as a chapter's does: every line of a cell the learner reads (the
start cell, the answer stubs, the worked solutions) is at most the book's `shown_line_length`.
The folded checks cell is the checker's code, not the learner's, and is left out."""

from __future__ import annotations

import nbformat
import pytest
import yaml

from conftest import REPO

LABS = sorted((REPO / "docs" / "labs").glob("*.ipynb"))


def book_width() -> int:
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "executed-book" in plugin:
            return int(plugin["executed-book"]["shown_line_length"])
    raise AssertionError("mkdocs.yml configures no executed-book plugin")


def wide_lines(path, width: int) -> list[str]:
    found = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or cell.get("id") == "checks":
            continue
        for number, line in enumerate(cell.source.splitlines(), start=1):
            if len(line) > width:
                found.append(f"{path.name}#{cell.id} line {number}: {len(line)} characters")
    return found


def test_the_book_sets_a_width():
    assert book_width() > 0


@pytest.mark.parametrize("lab", LABS, ids=lambda p: p.stem)
def test_every_line_a_learner_reads_fits_the_box(lab):
    assert not wide_lines(lab, book_width())


def test_a_line_too_wide_is_named(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("x = 1\n" + "y = " + "1 + " * 30 + "1", id="answer-1"),
        nbformat.v4.new_code_cell("z = " + "2 + " * 30 + "2", id="checks"),
    ]
    path = tmp_path / "lab.ipynb"
    nbformat.write(nb, path)
    assert wide_lines(path, 77) == ["lab.ipynb#answer-1 line 2: 125 characters"]
