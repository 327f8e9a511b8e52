"""Chapter notebooks: each chapter as a `.ipynb`, generated at build time from its own sources.

The markdown cells are the chapter's prose (with its recorded values already in place) and the
code cells are its snippet files, so a chapter and its notebook cannot disagree. Nobody edits a
notebook: the build writes it next to the page and the page links to it.

The notebook must run top to bottom in a fresh Jupyter kernel with nothing from the build:

- Its code cells are the snippets as the page shows them, without their hidden lines
  (`bookexec._internal.discover.hidden`), so a chapter written for the reader imports nothing of the
  book. Its first cell is a short set-up a reader understands: it installs the pinned JAX only
  when the kernel lacks it, and makes a cell show what it prints, as a block does.
- A chapter whose shown code still imports `bookexec` (not converted to hidden lines yet) gets
  the older set-up instead: a cell that writes `bookexec.facts`, and
  `bookexec._internal.goldens.measured`
  from their source into a temporary folder. There a measured value prints as plain Python
  prints it, where the book's golden keeps a placeholder (`⟦t_jit⟧`).
- A block that must raise (`raises=...`) gets the cell tag `raises-exception`: Jupyter and
  nbclient then show the traceback and go on to the next cell.
- A `fresh="true"` block runs in the book in a new interpreter with nothing imported, because
  what it counts depends on what is imported. In the notebook it runs the same way: its cell
  starts with `%%script {sys.executable}`, which runs the snippet in a new Python process of the
  kernel's own interpreter and shows what it prints. Running it in the kernel instead would
  count what the earlier cells imported. IPython fills `{sys.executable}` from the kernel's
  names, so the set-up cell imports `sys`: without it, `%%script` prints "Couldn't find
  program: '{sys.executable}'", raises nothing, and the cell runs nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import bookexec
from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute.limits import is_fresh
from bookexec._internal.files import write_atomic
from bookexec._internal.goldens.store import golden_path, relative

_PACKAGE = Path(bookexec.__file__).resolve().parent  # the engine, wherever it is installed
_INTERNAL = _PACKAGE / "_internal"
# The build's own notes in a chapter notebook (its chapter, each cell's block and golden) sit
# under the plugin's name: what the site ships names nothing of the engine's package.
METADATA_KEY = "executed-book"

if TYPE_CHECKING:
    from nbformat import NotebookNode


# nbformat's constructors and reader are unannotated: typed once here, for chapters and labs.
# Imported when first used: with its JSON-schema validator it costs a one-block update of a
# chapter, which reads no notebook, a good part of its imports.
def new_notebook() -> NotebookNode:
    """nbformat's empty notebook (v4)."""
    import nbformat

    made: NotebookNode = nbformat.v4.new_notebook()
    return made


def new_markdown_cell(*args: Any, **kwargs: Any) -> NotebookNode:
    """nbformat's markdown cell (v4)."""
    import nbformat

    made: NotebookNode = nbformat.v4.new_markdown_cell(*args, **kwargs)
    return made


def new_code_cell(*args: Any, **kwargs: Any) -> NotebookNode:
    """nbformat's code cell (v4)."""
    import nbformat

    made: NotebookNode = nbformat.v4.new_code_cell(*args, **kwargs)
    return made


def new_output(*args: Any, **kwargs: Any) -> NotebookNode:
    """nbformat's cell output (v4)."""
    import nbformat

    made: NotebookNode = nbformat.v4.new_output(*args, **kwargs)
    return made


def read_notebook(*args: Any, **kwargs: Any) -> NotebookNode:
    """nbformat's reader."""
    import nbformat

    made: NotebookNode = nbformat.read(*args, **kwargs)
    return made


def validate(nb: NotebookNode) -> None:
    """nbformat's validation: an error saying what is wrong with `nb`."""
    import nbformat

    nbformat.validate(nb)


_MARK = "\x00executed-book-cell:"
_CLOSE = re.compile(r"^\s*(`{3,}|~{3,})\s*$")
_OPEN = re.compile(r"^\s*(`{3,}|~{3,})\s*\S")
_TAB = re.compile(r'^(?P<indent>\s*)===\+?\s+"(?P<title>[^"]*)"\s*$')
_ADMONITION = re.compile(
    r'^(?P<indent>\s*)(?:!!!|\?\?\?\+?)\s+(?P<kind>\w+)(?:\s+"(?P<title>[^"]*)")?'
)
# A link to another chapter points at that chapter's notebook.
_CHAPTER_LINK = re.compile(r"\]\((?P<page>[\w-]+)\.md(?P<anchor>#[^)\s]*)?\)")

# Appended to facts.py in the notebook: print measured values, and not the golden's placeholders.
_SHOW_VALUES = """

# Added by the notebook's setup: a measured value prints as itself, exactly as plain Python
# prints the number, without the mark the book's golden masks.
Measured._mark = lambda self, text: text
"""

_SETUP = """\
# Setup, written by the book's build. The snippets record measured values with the book's
# small `bookexec.facts` module; this cell writes it, and the engine's module that formats the
# values, into a temporary folder, so the notebook needs nothing but JAX {jax}.
import os
import pathlib
import sys
import tempfile

_modules = {modules}
_folder = pathlib.Path(tempfile.mkdtemp(prefix="tracing-jax-"))
for _name, _source in _modules.items():
    (_folder / _name).parent.mkdir(parents=True, exist_ok=True)
    (_folder / _name).write_text(_source, encoding="utf-8")
sys.path.insert(0, str(_folder))
# Cells marked %%script run in a new interpreter; it finds the module the same way.
_paths = [str(_folder), os.environ.get("PYTHONPATH")]
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, _paths))

import bookexec.facts  # noqa: E402


def _new_cell(*_):
    bookexec.facts.take()  # each cell records its own values, as each block does in the book


def _cell_done(*_):
    jax = sys.modules.get("jax")
    if jax is not None:
        jax.effects_barrier()  # jax.debug.print output lands in the cell that caused it


get_ipython().events.register("pre_run_cell", _new_cell)
get_ipython().events.register("post_run_cell", _cell_done)
# A cell shows what it prints, as a block in the book does, and not its last expression too.
get_ipython().ast_node_interactivity = "none"
"""


def notebook_name(page: str) -> str:
    """docs/tracers.md -> tracers.ipynb; the page links to it by this name."""
    return PurePosixPath(page).with_suffix(".ipynb").name


def site_path(site_dir: Path, dest_uri: str, page: str) -> Path:
    """Next to the page's HTML, so a link by bare name works with and without directory URLs."""
    return site_dir / PurePosixPath(dest_uri).parent / notebook_name(page)


def download_link(page: str) -> str:
    """Raw HTML: MkDocs would check a markdown link against the docs, where no notebook is."""
    name = notebook_name(page)
    return (
        f'<p class="book-notebook"><a href="{name}" download="{name}">'
        "Download this chapter as a Jupyter notebook</a></p>\n"
    )


def add_link(markdown: str, page: str) -> str:
    """Put the download link right under the chapter's title."""
    lines = markdown.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("# "):
            return "".join([*lines[: i + 1], "\n", download_link(page), *lines[i + 1 :]])
    return download_link(page) + "\n" + markdown


# The set-up of a chapter whose shown code is plain JAX: what a reader needs, and no more.
_READER_SETUP = """\
# Set-up. The book ran this {what} under JAX {jax}; install it only if this kernel has
# another version, or none (then restart the kernel).
from importlib.metadata import PackageNotFoundError, version

try:
    installed = version("jax")
except PackageNotFoundError:
    installed = None
if installed != "{jax}":
    %pip install -q jax=={jax} jaxlib=={jaxlib}{fresh}
# Each cell shows what it prints, as on the book's page, not the value of its last line too.
get_ipython().ast_node_interactivity = "none"
"""


def needs_engine(blocks: Sequence[Block]) -> bool:
    """Does a chapter's shown code still import the book's own modules (no hidden lines)?"""
    return any(re.search(r"^\s*(?:from|import)\s+bookexec\b", b.shown, re.M) for b in blocks)


# In the set-up of a chapter with cells that run in a new interpreter (`%%script`).
_FRESH_SETUP = """
# Cells that start with %%script {sys.executable} run in a new Python interpreter, this
# kernel's own: IPython reads sys.executable from the names this cell imports.
import sys"""


def reader_setup(jax: str, jaxlib: str, what: str = "chapter", fresh: bool = False) -> str:
    """The set-up cell of a chapter (or a lab: `what`) whose shown code needs nothing but JAX;
    `fresh`: it has cells that run in a new interpreter."""
    return _READER_SETUP.format(
        jax=jax, jaxlib=jaxlib, what=what, fresh=_FRESH_SETUP if fresh else ""
    )


def setup_source(jax_version: str) -> str:
    """The setup cell: writes the book's small facts module where the cells import it."""
    modules = {
        "bookexec/__init__.py": "",
        "bookexec/facts.py": (_PACKAGE / "facts.py").read_text(encoding="utf-8") + _SHOW_VALUES,
        # facts refuses characters that are not plain text with the engine's own list
        "bookexec/_internal/__init__.py": "",
        "bookexec/_internal/escapes.py": (_INTERNAL / "escapes.py").read_text(encoding="utf-8"),
        "bookexec/_internal/goldens/__init__.py": "",
        "bookexec/_internal/goldens/measured.py": (_INTERNAL / "goldens" / "measured.py").read_text(
            encoding="utf-8"
        ),
    }
    return _SETUP.format(jax=jax_version, modules=_literal(modules))


def _literal(modules: dict[str, str]) -> str:
    """The sources as a readable dict literal: one triple-quoted string per module."""
    parts = []
    for name, source in modules.items():
        # Doubled backslashes and broken-up triple quotes: the literal is the source, exactly.
        escaped = source.replace("\\", "\\\\").replace("'''", r"\'\'\'")
        parts.append(f"    {name!r}: '''\\\n{escaped}''',\n")
    return "{\n" + "".join(parts) + "}"


def chapter_notebook(
    page: str,
    markdown: str,
    blocks: Sequence[Block],
    golden_dir: Path,
    versions: tuple[str, ...],
    root: Path,
) -> NotebookNode:
    """The chapter as a notebook: prose between the executed fences, each snippet as a cell.

    Each cell names its golden relative to the book's `root`, wherever `golden_dir` lies."""
    jax, jaxlib, python = versions
    nb = new_notebook()
    nb.metadata.update(
        {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python", "version": python},
            METADATA_KEY: {"chapter": f"docs/{page}", "jax": jax, "jaxlib": jaxlib},
        }
    )
    cells = nb.cells
    intro = (
        f"*Generated from `docs/{page}` and its snippet files by the book's build; do not edit.*"
        f" It runs top to bottom in a fresh kernel with `jax=={jax}` and `jaxlib=={jaxlib}`"
        " installed. Measured values in the prose are the ones the book's build measured; the"
        " cells measure your own."
    )
    cells.append(_markdown(intro, "about"))
    fresh = any(is_fresh(block) for block in blocks)
    setup = setup_source(jax) if needs_engine(blocks) else reader_setup(jax, jaxlib, fresh=fresh)
    cells.append(_code(setup, "setup", {METADATA_KEY: {"setup": True}}))
    # Each executed fence becomes a marker line, so that the prose can be converted as a
    # whole (a fence may sit inside a tab) and then cut into cells at the markers.
    lines = markdown.splitlines()
    by_id = {block.id: block for block in blocks}
    for block in reversed(blocks):
        opening = block.line - 1
        indent = lines[opening][: len(lines[opening]) - len(lines[opening].lstrip())]
        lines[opening : _closing_fence(lines, opening) + 1] = [f"{indent}{_MARK}{block.id}"]
    prose: list[str] = []
    converted = jupyter_markdown("\n".join(lines))
    for line in converted.splitlines():
        marker = line.lstrip(" >")  # a fence inside an admonition ends up quoted
        if not marker.startswith(_MARK):
            prose.append(line)
            continue
        block = by_id[marker.removeprefix(_MARK).strip()]
        _add_prose(cells, "\n".join(prose), f"prose-{block.id}")
        prose = []
        _add_block(cells, block, page, golden_dir, root)
    _add_prose(cells, "\n".join(prose), "prose-end")
    return nb


def _add_block(
    cells: list[NotebookNode], block: Block, page: str, golden_dir: Path, root: Path
) -> None:
    code = block.shown.rstrip("\n")  # no hidden lines: what the page shows
    tags = []
    if block.options.get("raises"):
        tags.append("raises-exception")
    if is_fresh(block):
        note = (
            "*This cell runs in a new Python interpreter, as the book runs it: what it "
            "counts depends on what is imported, and the cells above imported JAX.*"
        )
        cells.append(_markdown(note, f"fresh-{block.id}"))
        code = "%%script {sys.executable}\n" + code
    golden = golden_path(golden_dir, page, block.id)
    meta: dict[str, str | bool] = {
        "block": block.id,
        "snippet": block.snippet,
        "golden": PurePosixPath(relative(golden, root)).as_posix(),
    }
    if block.options.get("raises"):
        meta["raises"] = block.options["raises"]
    if is_fresh(block):
        meta["fresh"] = True
    metadata = {METADATA_KEY: meta, **({"tags": tags} if tags else {})}
    cells.append(_code(code, block.id, metadata))


def write(path: Path, nb: NotebookNode, mask: Callable[[str], str] = str) -> None:
    """Validate the notebook and write it (atomically), `mask`ing the build's secrets."""
    validate(nb)
    write_atomic(path, mask(json.dumps(nb, indent=1, ensure_ascii=False) + "\n"))


def fences_as_planned(markdown: str, blocks: Sequence[Block]) -> bool:
    """Whether each block's fence opens on the line of `markdown` where the build found it,
    naming the block's id if it names one. Not so when the page was saved again after the
    build scanned it (under serve, while a rebuild reads the book): its notebook would be cut
    at the wrong lines."""
    lines = markdown.splitlines()
    for block in blocks:
        line = lines[block.line - 1] if 0 < block.line <= len(lines) else ""
        named = re.search(r"""\bid\s*=\s*["']?([^"'\s}]+)""", line)
        if not _OPEN.match(line) or (named is not None and named[1] != block.id):
            return False
    return True


def _closing_fence(lines: list[str], opening: int) -> int:
    fence = lines[opening].strip()[:3]
    for i in range(opening + 1, len(lines)):
        found = _CLOSE.match(lines[i])
        if found and found[1][0] == fence[0]:
            return i
    return len(lines) - 1


def _add_prose(cells: list[NotebookNode], text: str, cell_id: str) -> None:
    text = jupyter_markdown(text).strip("\n")
    if text.strip():
        cells.append(_markdown(text, cell_id))


def _markdown(source: str, cell_id: str) -> NotebookNode:
    return new_markdown_cell(source, id=cell_id)


def _code(source: str, cell_id: str, metadata: dict[str, Any]) -> NotebookNode:
    return new_code_cell(source, id=cell_id, metadata=metadata)


def jupyter_markdown(text: str) -> str:
    """The book's markdown as Jupyter renders it: tabs become headed sections, admonitions
    become block quotes, and their indented bodies are dedented (else they read as code)."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        tab, note = _TAB.match(line), _ADMONITION.match(line)
        found = tab or note
        if found is None:
            out.append(line)
            i += 1
            continue
        indent = len(found["indent"])
        body, i = _indented_body(lines, i + 1, indent + 4)
        inner = jupyter_markdown("\n".join(body)).splitlines()
        if tab:
            out += [f"### {tab['title']}", "", *inner]
        else:
            title = found["title"] or found["kind"].capitalize()
            out += [f"> **{title}**", ">", *[f"> {ln}".rstrip() for ln in inner]]
    return _CHAPTER_LINK.sub(lambda m: f"]({m['page']}.ipynb{m['anchor'] or ''})", "\n".join(out))


def _indented_body(lines: list[str], i: int, indent: int) -> tuple[list[str], int]:
    body: list[str] = []
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) >= indent):
        body.append(lines[i][indent:] if lines[i].strip() else "")
        i += 1
    while body and not body[0]:
        body.pop(0)
    while body and not body[-1]:
        body.pop()
        i -= 1
    return body, i


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
