"""The labs a reader takes home: each lab page links to a notebook the site ships, and that
notebook runs in a plain Jupyter kernel where `import bookexec` fails.

One kernel per lab (nbclient, a fresh ipykernel in an empty folder) runs the shipped notebook
twice: as "Run All" runs it, every code cell in order (its worked solutions are folded Markdown,
so none runs), where every check must print "not yet" and no cell "correct"; then, after
`%reset -f` and with each `answer-<n>` cell's code replaced by its `solution-<n>`'s, unfolded,
where every check must print "correct". No cell may end in an error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from conftest import REPO

pytestmark = pytest.mark.build

LABS = sorted(path.stem for path in (REPO / "docs" / "labs").glob("*.ipynb"))
_LAB_TIMEOUT = 900
# The hidden-line marks (bookexec._internal.discover.hidden): a trailing `# hidden`, a region's
# ends.
_HIDDEN = re.compile(r"(?m)#\s*hidden\s*$|#\s*hidden:\s*(?:begin|end)\b")

# First, in the test's copy only: the venv's editable install puts hooks/ on sys.path, which a
# reader's kernel does not have; the cell then proves the book's engine is out of reach.
_NO_BOOKEXEC = """\
import os, sys
sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or '.', 'bookexec'))]
try:
    import bookexec
except ModuleNotFoundError:
    print('no bookexec')
else:
    raise SystemExit('bookexec is importable: the run would prove nothing')"""


@pytest.fixture(scope="module")
def site(built_book) -> Path:
    """The book's site as CI builds it, once per run: what readers download."""
    return built_book


def shipped(site: Path, lab: str) -> Path:
    return site / "labs" / lab / f"{lab}.ipynb"


def test_every_lab_page_links_to_a_notebook_the_site_ships(site):
    for lab in LABS:
        html = (site / "labs" / lab / "index.html").read_text(encoding="utf-8")
        assert f'href="{lab}.ipynb"' in html, f"labs/{lab}: no link to its notebook"
        assert shipped(site, lab).is_file(), f"labs/{lab}: links to {lab}.ipynb, not shipped"
        nbformat.validate(nbformat.read(shipped(site, lab), as_version=4))


def test_no_shipped_notebook_holds_engine_code_or_hidden_lines(site):
    """What a reader downloads, a lab's notebook or a chapter's, names nothing of the book's
    engine (`grep -rl bookexec` over the site's notebooks finds nothing), and shows no hidden
    mark, in its code or in a notebook's or a cell's metadata."""
    found = sorted(site.rglob("*.ipynb"))
    labs = [path for path in found if path.parent.parent.name == "labs"]
    assert len(labs) == len(LABS), [str(p.relative_to(site)) for p in labs]
    assert len(found) > len(labs), "the site ships no chapter notebook"
    for path in found:
        nb = nbformat.read(path, as_version=4)
        metadata = [nb.metadata] + [cell.metadata for cell in nb.cells]
        assert "bookexec" not in json.dumps(metadata), path.relative_to(site)
        assert "bookexec" not in path.read_text(encoding="utf-8"), path.relative_to(site)
        for cell in nb.cells:  # code cells are the snippets as the page shows them
            if cell.cell_type == "code":
                assert not _HIDDEN.search(cell.source), (path.relative_to(site), cell.id)


# The pages that are about the engine: the colophon and the maintainers' guide.
_ABOUT_THE_ENGINE = ("how-it-stays-true", "guide")


def test_no_reader_page_names_the_engine(site):
    """`grep -rl bookexec` over the built site's chapter and lab pages finds only the colophon
    and the guide: not in the code a reader copies, nor in the classes and attributes of the
    page's HTML."""
    pages = sorted(site.rglob("*.html"))
    naming = [
        str(page.relative_to(site))
        for page in pages
        if page.relative_to(site).parts[0] not in _ABOUT_THE_ENGINE
        and "bookexec" in page.read_text(encoding="utf-8")
    ]
    assert naming == []
    assert any(
        "bookexec" in page.read_text(encoding="utf-8") for page in site.glob("guide/*/*.html")
    )


def test_a_lab_notebook_starts_with_the_reader_s_set_up(site):
    nb = nbformat.read(shipped(site, "tracers"), as_version=4)
    task, setup = nb.cells[0], nb.cells[1]
    assert task.cell_type == "markdown" and task.source.startswith("# Lab: ")
    assert setup.cell_type == "code" and "%pip install -q jax==" in setup.source
    assert 'if installed != "' in setup.source  # installs only when the pinned JAX is missing
    source = nbformat.read(REPO / "docs" / "labs" / "tracers.ipynb", as_version=4)
    assert [c.id for c in nb.cells if c.id != "setup"] == [c.id for c in source.cells]
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")


_FOLDED = re.compile(
    r"\A<details><summary>Worked solution</summary>\n\n(`{3,})python\n(.*)\n\1\n\n</details>\Z",
    re.S,
)


def unfolded(cell) -> str:
    """The code of a worked solution, which the shipped notebook holds as folded Markdown."""
    found = _FOLDED.match(cell.source)
    assert cell.cell_type == "markdown" and found, (cell.id, cell.source[:80])
    return found[2]


def played(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The shipped lab run as a reader's "Run All" runs it, then reset and solved, in one
    kernel: its code cells in order (a worked solution is Markdown, so none runs), then the
    same with each `answer-<n>` cell's code replaced by its `solution-<n>`'s, unfolded."""
    run = nbformat.v4.new_notebook(metadata=nb.metadata)
    run.cells.append(nbformat.v4.new_code_cell(_NO_BOOKEXEC, id="no-bookexec"))
    solutions = {c.id: c for c in nb.cells if "solution" in c.metadata.get("tags", [])}
    for mode in ("given", "solved"):
        if mode == "solved":
            run.cells.append(nbformat.v4.new_code_cell("%reset -f", id="reset"))
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            source = cell.source
            if mode == "solved" and cell.id.startswith("answer-"):
                source = unfolded(solutions["solution-" + cell.id.removeprefix("answer-")])
            run.cells.append(nbformat.v4.new_code_cell(source, id=f"{mode}-{cell.id}"))
    return run


def printed(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.parametrize("lab", LABS)
def test_shipped_lab_runs_in_a_plain_kernel_not_yet_as_given_correct_when_solved(
    site, lab, tmp_path
):
    nb = nbformat.read(shipped(site, lab), as_version=4)
    run = played(nb)
    client = NotebookClient(
        run,
        timeout=_LAB_TIMEOUT,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    errors = [
        f"{c.id}: {o.ename}: {o.evalue}"
        for c in run.cells
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert errors == [], errors
    assert printed(run.cells[0]).strip() == "no bookexec"
    numbers = [int(c.id.split("-")[1]) for c in nb.cells if re.fullmatch(r"answer-\d+", c.id)]
    assert len(numbers) >= 3
    said = {c.id: printed(c) for c in run.cells}
    given = "".join(text for cell_id, text in said.items() if cell_id.startswith("given-"))
    assert "correct" not in given, f"labs/{lab}: Run All printed 'correct': {given!r}"
    for mode, verdict in (("given", "not yet: "), ("solved", "correct")):
        for n in numbers:
            out = said[f"{mode}-check-{n}"]
            assert out.startswith(f"Exercise {n}: {verdict}") and out.count("\n") == 1, (
                f"labs/{lab}, {mode}, check {n}: {out!r}"
            )
