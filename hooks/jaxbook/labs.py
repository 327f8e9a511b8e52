"""Labs: exercise notebooks under docs/labs/, run by the book's executor and golden-checked.

A lab is stored without outputs. Its code cells are blocks like any page's: they run in order
in one fresh worker (one session, the same time and output limits), their output goes through
the same normalisers, and each is compared with `<goldens>/labs/<lab>/<cell-id>.txt`. The
build then writes a copy of the notebook with those outputs and hands that copy to
mkdocs-jupyter, which renders it as the lab's page.

A cell's options live in its metadata, as a fence's do in its info string::

    {"id": "solution", "metadata": {"tags": ["solution"], "bookexec": {"raises": "TypeError"}}}

Cells tagged `solution` are collapsed: the page shows them in a closed <details> (see
`hooks/templates/lab.html.j2`), and Jupyter opens the notebook with their source hidden; so
is the cell tagged `checks`, which holds each exercise's check. The cells run in page order,
so a check cell records the "not yet" of the stub it follows (docs/guide/labs.md gives the cell
order every lab follows).

The site also ships each lab as the reader's notebook, next to its page (`reader_notebook`):
the lab as given, without outputs, hidden lines or the engine's metadata, opening with the
chapter notebooks' set-up cell, its worked solutions folded into Markdown so that "Run All"
runs none; the page links to it under its title, and, when `repo_url` is a GitHub repository,
to the same file in Colab.

A lab's `checks` cell is built on the lab kit (`jaxbook/labkit.py`): its line `# lab kit` is
replaced by the kit's code wherever the cell runs or is shown (`with_kit`).
"""

from __future__ import annotations

import ast
import copy
import functools
import html
import re
from collections.abc import Mapping, Sequence, Set
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Protocol

from bookexec._internal.discover import hidden, memo
from bookexec._internal.discover import options as fence_options
from bookexec._internal.discover.blocks import _ID, Block, add_block
from bookexec._internal.discover.options import LAB_OPTIONS
from bookexec._internal.errors import BookError
from bookexec._internal.render.fence import pending_note
from jaxbook import notebooks

if TYPE_CHECKING:
    from nbformat import NotebookNode

LAB_DIR = "labs"
# A GitHub repository's address, as MkDocs' `repo_url` gives it: Colab opens files from GitHub.
_GITHUB = re.compile(r"^https?://(?:www\.)?github\.com/(?P<repo>[\w.-]+/[\w.-]+?)(?:\.git)?/?$")
_COLAB = "https://colab.research.google.com/github/{repo}/blob/{branch}/{path}"


def is_lab(src: str) -> bool:
    """docs/labs/<name>.ipynb is a lab; mkdocs-jupyter renders it, the book runs it."""
    path = PurePosixPath(src)
    return path.suffix == ".ipynb" and path.parent == PurePosixPath(LAB_DIR)


def read(path: Path, src: str) -> NotebookNode:
    """A lab notebook, or an error naming it when it is not a valid one."""
    try:
        nb = notebooks.read_notebook(path, as_version=4)
        notebooks.validate(nb)
    except Exception as error:
        raise BookError(f"docs/{src}: not a valid notebook: {error}") from None
    return nb


def stored_outputs(nb: NotebookNode) -> list[str]:
    """Cells that carry outputs or execution counts: a lab source must have none."""
    return [
        cell.get("id", f"#{i}")
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]


# The line of a lab's `checks` cell that the kit's source (`jaxbook/labkit.py`) replaces.
KIT_LINE = "# lab kit"
KIT_HEADER = "# The lab kit: check(n, problem), and what the problems below compare and count."


@functools.cache
def kit_source() -> str:
    """The kit as a checks cell holds it: its code, without the module's docstring (which is
    about the book), under a one-line comment."""
    path = Path(__file__).with_name("labkit.py")
    memo.note(path)
    text = path.read_text(encoding="utf-8")
    docstring = ast.parse(text).body[0]
    lines = text.splitlines()[docstring.end_lineno or 0 :]
    return KIT_HEADER + "\n" + "\n".join(lines).strip("\n") + "\n"


def with_kit(source: str) -> str:
    """A cell's source with its `# lab kit` line, if any, replaced by the kit's code."""
    lines = source.split("\n")
    if KIT_LINE not in lines:
        return source
    at = lines.index(KIT_LINE)
    return "\n".join([*lines[:at], kit_source().rstrip("\n"), *lines[at + 1 :]])


def scan_lab(src: str, path: Path) -> list[Block]:
    """The lab's code cells as blocks, or a BookError naming the lab and the cell."""
    memo.note(path)
    nb = read(path, src)
    if stored := stored_outputs(nb):
        raise BookError(
            f"docs/{src}: cells {', '.join(stored)} have stored outputs; lab sources are stored "
            "without outputs (the build adds them): clear them and save"
        )
    blocks: list[Block] = []
    seen: set[str] = set()
    for number, cell in enumerate(nb.cells, start=1):
        if cell.cell_type != "code":
            continue
        cell_id = cell.get("id", "")
        where = f"docs/{src}, cell {number}"
        if not _ID.match(cell_id or ""):
            raise BookError(
                f"{where}: cell id '{cell_id}' must be lower-case letters, digits, '-' or '_'"
            )
        if cell_id in seen:
            raise BookError(f"{where}: duplicate cell id '{cell_id}'")
        seen.add(cell_id)
        options = dict(cell.metadata.get("bookexec", {}))
        if unknown := set(options) - LAB_OPTIONS:
            raise BookError(f"{where} ('{cell_id}'): unknown options {sorted(unknown)}")
        values = {key: str(value) for key, value in options.items()}
        fence_options.check(values, f"{where} ('{cell_id}')")  # the same values a fence accepts
        source = with_kit(cell.source)  # what runs is what the page and the download show
        add_block(blocks, src, number, cell_id, f"docs/{src}", source, values)
    return blocks


def executed(path: Path, src: str, outputs: dict[str, str]) -> NotebookNode:
    """The lab with each code cell's shown output, as one text stream, and its count."""
    nb = read(path, src)
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        count += 1
        cell.source = with_kit(cell.source)
        cell.execution_count = count
        text = outputs.get(cell.id, "")
        cell.outputs = [notebooks.new_output("stream", name="stdout", text=text)] if text else []
    return nb


class Failing(Protocol):
    """Why a block has no output (`bookexec._internal.goldens.report.Failure`)."""

    @property
    def message(self) -> str:
        """The failure in words, shown in the cell."""
        ...


class CellJudge(Protocol):
    """What a lab's render asks of the build (a part of `bookexec.BuildView`)."""

    @property
    def plans(self) -> Mapping[str, Sequence[Block]]:
        """Each page's blocks."""
        ...

    @property
    def pending_blocks(self) -> Set[tuple[str, str]]:
        """(page, block id) of the blocks shown from their goldens while they are checked."""
        ...

    def judged(self, page: str, block: Block, /) -> tuple[str, object, Failing | None]:
        """The block's output as the reader sees it, its comparison, or why it has none."""
        ...


def colab_url(repo_url: str | None, branch: str, site_path: str) -> str | None:
    """The shipped notebook opened in Colab, or None when `repo_url` is not on GitHub.

    Colab reads a notebook from a GitHub branch; the site's files are on `branch` when it is
    published with `mkdocs gh-deploy` (MkDocs' `remote_branch`), at their path in the site."""
    found = _GITHUB.match((repo_url or "").strip())
    if found is None:
        return None
    return _COLAB.format(repo=found["repo"], branch=branch, path=site_path)


def download_link(src: str, colab: str | None) -> str:
    """Raw HTML for the lab's page: MkDocs would check a markdown link against the docs."""
    name = notebooks.notebook_name(src)
    links = f'<a href="{name}" download="{name}">Download this lab as a Jupyter notebook</a>'
    if colab:
        links += f' or <a href="{html.escape(colab)}">open it in Colab</a>'
    return f'<p class="book-notebook">{links}</p>'


SOLUTION_SUMMARY = "Worked solution"


def folded_solution(cell: NotebookNode) -> NotebookNode:
    """A worked solution as the reader's notebook holds it: Markdown, a fenced block in a
    closed <details>, so that "Run All" never runs it over the reader's own answer."""
    fence = "````" if "```" in cell.source else "```"
    text = (
        f"<details><summary>{SOLUTION_SUMMARY}</summary>\n\n"
        f"{fence}python\n{cell.source}\n{fence}\n\n</details>"
    )
    metadata = {"tags": list(cell.metadata.get("tags", []))}
    return notebooks.new_markdown_cell(text, id=cell.id, metadata=metadata)


def reader_notebook(
    source: NotebookNode, blocks: Sequence[Block], jax: str, jaxlib: str, colab: str | None
) -> NotebookNode:
    """The lab a reader downloads: as given, without outputs, each code cell as the page shows
    it (no hidden lines), no engine metadata, a set-up cell after the task, and the Colab link.
    Its worked solutions are folded Markdown: "Run All" runs only the reader's cells.
    """
    nb = copy.deepcopy(source)
    shown = {block.id: block.shown.rstrip("\n") for block in blocks}
    nb.metadata.pop("bookexec", None)
    for at, cell in enumerate(nb.cells):
        cell.metadata.pop("bookexec", None)  # the build's options: nothing a reader runs
        if cell.cell_type == "code":
            cell.source = shown.get(cell.id) or hidden.shown(with_kit(cell.source)).rstrip("\n")
            if "solution" in cell.metadata.get("tags", []):
                nb.cells[at] = folded_solution(cell)
                continue
            cell.outputs = []
            cell.execution_count = None
    cells = [notebooks.new_code_cell(notebooks.reader_setup(jax, jaxlib, "lab"), id="setup")]
    if colab:
        link = f"[Open this notebook in Colab]({colab})"
        cells.insert(0, notebooks.new_markdown_cell(link, id="open-in-colab"))
    nb.cells[1:1] = cells  # after the task: the reader sees what the lab is first
    return nb


def render(
    build: CellJudge, src: str, source: Path, out_dir: Path, note: str = "", download: str = ""
) -> Path:
    """Run-or-wait for the lab's cells, judge each against its golden, write the executed copy.

    The copy is what mkdocs-jupyter renders; `download` (raw HTML) goes under the lab's title.
    """
    outputs: dict[str, str] = {}
    for block in build.plans.get(src, []):
        text, _, failure = build.judged(src, block)
        outputs[block.id] = f"{failure.message}\n" if failure else text  # shown in the cell
    target = out_dir / PurePosixPath(src).name
    nb = executed(source, src, outputs)
    if any((src, block_id) in build.pending_blocks for block_id in outputs):
        # Under serve, while its cells run in the background (bookexec._internal.serve.background).
        note_cell = notebooks.new_markdown_cell(pending_note("cells"), id="executed-book-pending")
        nb.cells.insert(0, note_cell)
    if download:  # a fixed id, as below
        at = 1 + next((i for i, c in enumerate(nb.cells) if c.get("id") == "task"), 0)
        nb.cells.insert(at, notebooks.new_markdown_cell(download, id="executed-book-download"))
    if note:  # how the outputs were made, closing the page as on every chapter
        # A fixed id: nbformat's random one would change the copy, and its render key, each build.
        nb.cells.append(notebooks.new_markdown_cell(note, id="executed-book-provenance"))
    notebooks.write(target, nb)  # the one notebook writer: validated, atomic
    return target


def lab_for(page: str) -> str:
    """docs/tracers.md -> labs/tracers.ipynb, the lab of its "Try it yourself" task."""
    return f"{LAB_DIR}/{PurePosixPath(page).stem}.ipynb"


def add_lab_link(markdown: str, page: str, lab_pages: set[str]) -> str:
    """End the chapter's task with a link to its lab, when there is one."""
    lab = lab_for(page)
    if lab not in lab_pages:
        return markdown
    return (
        markdown.rstrip("\n")
        + f"\n\nThe [lab]({lab}) turns this into exercises of rising difficulty, each with a"
        " check that says whether your answer is right, and a worked solution.\n"
    )
