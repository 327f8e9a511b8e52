"""The lab a reader downloads (`jaxbook.labs.reader_notebook`), its page link and its
Colab address, made from a lab without a build."""

from __future__ import annotations

import json

import nbformat

from conftest import REPO

LAB = """\
{"cells": [
 {"cell_type": "markdown", "id": "task", "metadata": {}, "source": "# Lab: demo"},
 {"cell_type": "code", "id": "start", "metadata": {}, "execution_count": null, "outputs": [],
  "source": "x = 7\\nassert x == 7  # hidden\\nprint('x is', x)"},
 {"cell_type": "code", "id": "oops", "execution_count": null, "outputs": [],
  "metadata": {"bookexec": {"raises": "ValueError"}, "tags": ["raises-exception"]},
  "source": "int('seven')"},
 {"cell_type": "code", "id": "checks", "execution_count": null, "outputs": [],
  "metadata": {"tags": ["checks"], "jupyter": {"source_hidden": true}},
  "source": "# hidden: begin\\nimport sys\\n# hidden: end\\n# lab kit\\nprint('checking')"},
 {"cell_type": "code", "id": "answer-1", "execution_count": null, "outputs": [],
  "metadata": {}, "source": "y = None"},
 {"cell_type": "code", "id": "solution-1", "execution_count": null, "outputs": [],
  "metadata": {"tags": ["solution"], "jupyter": {"source_hidden": true}},
  "source": "y = 49  # hidden\\ny = x * x\\nprint('correct')"}
],
 "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
  "language": "python"}, "bookexec": {"note": "engine"}},
 "nbformat": 4, "nbformat_minor": 5}
"""


def reader(tmp_path, colab=None):
    from jaxbook import labs

    path = tmp_path / "demo.ipynb"
    path.write_text(LAB)
    blocks = labs.scan_lab("labs/demo.ipynb", path)
    source = labs.read(path, "labs/demo.ipynb")
    return labs.reader_notebook(source, blocks, "0.1.2", "0.1.3", colab)


def test_reader_lab_has_the_set_up_no_hidden_lines_and_no_engine_metadata(tmp_path):
    nb = reader(tmp_path)
    nbformat.validate(nb)
    ids = ["task", "setup", "start", "oops", "checks", "answer-1", "solution-1"]
    assert [c.id for c in nb.cells] == ids
    setup = nb.cells[1].source
    assert "%pip install -q jax==0.1.2 jaxlib==0.1.3" in setup
    assert 'if installed != "0.1.2":' in setup and "this lab under JAX 0.1.2" in setup
    cells = {c.id: c for c in nb.cells}
    assert cells["start"].source == "x = 7\nprint('x is', x)"
    kit = labs_module().kit_source().rstrip("\n")
    assert cells["checks"].source == kit + "\nprint('checking')"
    assert cells["checks"].metadata == {"tags": ["checks"], "jupyter": {"source_hidden": True}}
    assert cells["oops"].metadata == {"tags": ["raises-exception"]}
    text = json.dumps(nb)
    assert "bookexec" not in text and "hidden" not in text.replace("source_hidden", "")
    assert "colab" not in text.lower()


def labs_module():
    from jaxbook import labs

    return labs


def test_reader_lab_folds_each_worked_solution_into_markdown_that_never_runs(tmp_path):
    """ "Run All" on the download runs the reader's cells only: a worked solution is a fenced
    block in a closed <details>, as the page shows it, with no hidden line."""
    solution = {c.id: c for c in reader(tmp_path).cells}["solution-1"]
    assert solution.cell_type == "markdown"
    assert solution.metadata == {"tags": ["solution"]}
    assert solution.source == (
        "<details><summary>Worked solution</summary>\n\n"
        "```python\ny = x * x\nprint('correct')\n```\n\n</details>"
    )


def test_the_checks_cell_carries_the_kit_a_plain_kernel_can_run():
    """The kit's code replaces the `# lab kit` line, without the book's docstring, and needs
    nothing of the book to run: it defines check() in a namespace of its own."""
    labs = labs_module()
    cell = labs.with_kit("x = 1\n# lab kit\nprint(x)")
    assert cell.startswith("x = 1\n" + labs.KIT_HEADER + "\n") and cell.endswith("\nprint(x)")
    assert "jaxbook" not in labs.kit_source() and "bookexec" not in labs.kit_source()
    namespace: dict = {}
    exec(compile(labs.kit_source(), "checks", "exec"), namespace)
    assert callable(namespace["check"]) and callable(namespace["differs"])
    assert labs.with_kit("print(1)") == "print(1)"


def test_reader_lab_links_to_colab_when_given(tmp_path):
    url = "https://colab.research.google.com/github/o/r/blob/gh-pages/labs/demo/demo.ipynb"
    nb = reader(tmp_path, url)
    assert [c.id for c in nb.cells][:3] == ["task", "open-in-colab", "setup"]
    assert nb.cells[1].source == f"[Open this notebook in Colab]({url})"


def test_colab_address_is_built_from_a_github_repo_url_only():
    from jaxbook.labs import colab_url

    want = "https://colab.research.google.com/github/me/book/blob/gh-pages/labs/a/a.ipynb"
    for repo in (
        "https://github.com/me/book",
        "https://github.com/me/book/",
        "http://github.com/me/book.git",
    ):
        assert colab_url(repo, "gh-pages", "labs/a/a.ipynb") == want, repo
    for repo in (None, "", "https://gitlab.com/me/book", "https://github.com/me"):
        assert colab_url(repo, "gh-pages", "labs/a/a.ipynb") is None, repo


def test_lab_page_download_link_names_the_notebook_and_colab_only_when_known():
    from jaxbook.labs import download_link

    plain = download_link("labs/demo.ipynb", None)
    assert 'href="demo.ipynb" download="demo.ipynb"' in plain and "colab" not in plain.lower()
    linked = download_link("labs/demo.ipynb", "https://colab.research.google.com/x?a=1&b=2")
    assert 'href="https://colab.research.google.com/x?a=1&amp;b=2">open it in Colab</a>' in linked


def test_every_real_lab_becomes_a_reader_notebook_without_the_engine():
    from jaxbook import labs

    for path in sorted((REPO / "docs" / "labs").glob("*.ipynb")):
        src = f"labs/{path.name}"
        nb = labs.reader_notebook(
            labs.read(path, src), labs.scan_lab(src, path), "0.1.2", "0.1.3", None
        )
        nbformat.validate(nb)
        assert "bookexec" not in json.dumps(nb), path.name
        assert nb.cells[1].id == "setup", path.name
