"""The copy-run contract: what a chapter shows is code a reader can run, and it prints the page.

A reader copies a source box (its copy button) or downloads the chapter's notebook, and both
hold the same code. For every chapter of the built site (the `built_book` the e2e layer builds
once), the source boxes of its executed blocks are read from the page's HTML in page order.

- A chapter with a notebook: each box must be exactly its block's shown code (the snippet
  without its hidden lines) and exactly the notebook's code cell for that block (a `fresh`
  block's cell first says `%%script {sys.executable}`, which runs it in a new interpreter as
  the book does). `tests/e2e/test_notebooks.py` runs every such notebook top to bottom in a new
  kernel where `import bookexec` fails, and each cell must print its block's golden: so what
  the boxes hold runs and prints the page, without a second run of the book's code here.
- A page without a notebook (the colophon): the boxes are saved as files under the snippets'
  own names in an empty folder and run in order by plain `python` in one session, as a reader
  runs them: an interpreter with the pinned JAX where `import bookexec` fails (the editable
  install's path is taken off `sys.path`, and the driver checks it). Each block must print
  what its golden recorded, after the engine's normalisation; a measured value's placeholder
  (`⟦name⟧`) matches any number. A block declared `raises=` must raise that exception, shown
  as the page shows it; a `fresh` block runs in a new interpreter of its own.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

import nbformat
import pytest
from test_notebooks import CHAPTERS as NOTEBOOK_CHAPTERS

from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.goldens.measured import TOKEN
from bookexec._internal.goldens.normalize import machine_path_rules, normalize
from bookexec._internal.goldens.store import golden_path
from bookexec._internal.goldens.store import parse as parse_golden
from bookexec._internal.privacy import worker_environment
from bookexec._internal.render.verify import boxes_of
from conftest import REPO

pytestmark = pytest.mark.build

CHAPTERS = sorted(
    page.stem for page in (REPO / "docs").glob("*.md") if 'exec="on"' in page.read_text()
)
# The chapters whose notebook test_notebooks.py runs; the others are run here.
WITH_NOTEBOOK = set(NOTEBOOK_CHAPTERS)
_CHAPTER_TIMEOUT = 900
# JAX's note that it filtered its own frames: the page leaves it out
# (`bookexec._internal.jax.jax_runtime`).
_HIDDEN_NOTE = "For simplicity, JAX has removed its internal frames"

# Run by plain `python`: the blocks in order in one `__main__`, each block's stdout and stderr
# in one buffer as the book captures them, a result line per block on the file descriptor it
# is given. Nothing here may import bookexec.
_DRIVER = textwrap.dedent(
    """\
    import io, json, os, subprocess, sys, traceback, types

    sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or ".", "bookexec"))]
    try:
        import bookexec  # noqa: F401
    except ModuleNotFoundError:
        pass
    else:
        raise SystemExit("bookexec is importable: the copy-run would not prove anything")
    if sys.argv[1] == "--probe":
        import jax

        raise SystemExit(print("jax", jax.__version__, "without bookexec"))
    if sys.argv[1] == "--fresh":  # a fresh block: this check, then the block alone
        import runpy

        runpy.run_path(sys.argv[2], run_name="__main__")
        raise SystemExit(0)
    results = os.fdopen(int(sys.argv[1]), "w")
    blocks = json.loads(open(sys.argv[2], encoding="utf-8").read())
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    real = sys.stdout, sys.stderr
    for block in blocks:
        error = None
        if block["fresh"]:
            fresh = [sys.executable, sys.argv[0], "--fresh", block["snippet"]]
            run = subprocess.run(fresh, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            text = run.stdout.decode("utf-8", errors="replace")
        else:
            raw = io.BytesIO()  # one ordered capture with a .buffer, as a terminal has
            buffer = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", write_through=True)
            sys.stdout = sys.stderr = buffer
            try:
                with open(block["snippet"], encoding="utf-8") as source:
                    exec(compile(source.read(), block["snippet"], "exec"), main.__dict__)
            except BaseException as exc:
                notes = getattr(exc, "__notes__", None)
                if notes is not None:
                    exc.__notes__ = [n for n in notes if HIDDEN_NOTE not in n]
                error = type(exc).__name__, type(exc).__module__ + "." + type(exc).__qualname__
                if block["raises"] in error:
                    buffer.write("".join(traceback.format_exception_only(exc)))
                else:
                    buffer.write("".join(traceback.format_exception(exc)))
            finally:
                if "jax" in sys.modules:
                    sys.modules["jax"].effects_barrier()
                sys.stdout, sys.stderr = real
            text = raw.getvalue().decode("utf-8", errors="replace")
        results.write(json.dumps({"id": block["id"], "output": text, "raised": error}) + "\\n")
        results.flush()
    """
).replace("HIDDEN_NOTE", repr(_HIDDEN_NOTE))


def reader_environment() -> dict[str, str]:
    """The environment the book's workers get, and no PYTHONPATH: nothing points at hooks/."""
    environ = worker_environment(os.environ)
    environ.pop("PYTHONPATH", None)
    return environ


def shown_blocks(site: Path, chapter: str) -> list[dict[str, object]]:
    """The chapter's executed blocks as the page shows them: id, snippet, raises, fresh, and
    the text of its source box, in page order."""
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    sources = {b.block_id: "".join(b.text) for b in boxes_of(html) if b.kind == "source"}
    planned = scan_page(f"{chapter}.md", (REPO / "docs" / f"{chapter}.md").read_text(), REPO)
    assert [b.id for b in planned] == list(sources), f"{chapter}: the page's blocks"
    return [
        {
            "id": block.id,
            "snippet": block.snippet,
            "raises": block.options.get("raises", ""),
            "fresh": block.options.get("fresh", "false") == "true",
            "source": sources[block.id],
        }
        for block in planned
    ]


def matches(golden_output: str, printed: str) -> bool:
    """The golden's text exactly, but any number where it keeps a measured placeholder."""
    literal = TOKEN.split(golden_output)[::2]  # split keeps the placeholder names at odd places
    number = r"[-+]?(?:\d[\d_,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
    pattern = number.join(re.escape(piece) for piece in literal)
    return re.fullmatch(pattern, printed) is not None


def copy_run(chapter: str, blocks: list[dict[str, object]], folder: Path) -> list[str]:
    """Run the chapter's shown code as a reader would, block by block; what differs from the
    goldens, stopping at the first block that does."""
    for block in blocks:
        path = folder / str(block["snippet"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(str(block["source"]), encoding="utf-8")
    (folder / "blocks.json").write_text(json.dumps(blocks), encoding="utf-8")
    (folder / "driver.py").write_text(_DRIVER, encoding="utf-8")
    rules = machine_path_rules(REPO, os.environ)
    read, write = os.pipe()
    log = folder / "driver.log"  # what reached the process's own stdout and stderr
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "driver.py", str(write), "blocks.json"],
            cwd=folder,
            env=reader_environment(),
            pass_fds=(write,),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    os.close(write)
    problems: list[str] = []
    try:
        with os.fdopen(read, encoding="utf-8") as results:
            for line, block in zip(results, blocks, strict=False):
                problem = _judge(chapter, block, json.loads(line), rules)
                if problem:
                    problems.append(problem)
                    break
        if not problems:
            proc.wait(timeout=_CHAPTER_TIMEOUT)
            if proc.returncode != 0:
                tail = log.read_text(errors="replace")[-2000:]
                problems.append(f"{chapter}: the copy-run stopped ({proc.returncode}):\n{tail}")
    finally:
        proc.kill()
        proc.wait()
    return problems


def _judge(chapter: str, block: dict[str, object], result: dict[str, object], rules) -> str:
    path = golden_path(REPO / "tests" / "golden", f"{chapter}.md", str(block["id"]))
    golden = parse_golden(path.read_text(encoding="utf-8"))
    printed = normalize(str(result["output"]), rules)
    raised = result["raised"]
    if block["raises"] and (raised is None or block["raises"] not in raised):
        return f"{block['snippet']} (block '{block['id']}'): did not raise {block['raises']}"
    if not matches(golden.output, printed):
        return (
            f"{block['snippet']} (block '{block['id']}'), run as shown, differs from its "
            f"golden:\n--- golden\n{golden.output}--- printed\n{printed}"
        )
    return ""


def test_the_copy_run_has_jax_and_cannot_import_bookexec(tmp_path):
    """The venv's editable install makes `bookexec` importable by any `python`; the driver's
    interpreter has the pinned JAX and not bookexec."""
    (tmp_path / "driver.py").write_text(_DRIVER, encoding="utf-8")
    environ = reader_environment()
    plain = [sys.executable, "-c", "import bookexec; print(bookexec.__name__)"]
    found = subprocess.run(plain, cwd=tmp_path, env=environ, capture_output=True, text=True)
    assert found.stdout == "bookexec\n", found.stderr  # so taking it away is needed
    probe = [sys.executable, "driver.py", "--probe"]
    run = subprocess.run(probe, cwd=tmp_path, env=environ, capture_output=True, text=True)
    assert run.stdout == f"jax {version('jax')} without bookexec\n", run.stderr


def same_as_notebook(site: Path, chapter: str, blocks: list[dict[str, object]]) -> list[str]:
    """What differs between the chapter's source boxes, its blocks' shown code and the code
    cells of the notebook the site ships for it."""
    planned = {
        block.id: block
        for block in scan_page(f"{chapter}.md", (REPO / "docs" / f"{chapter}.md").read_text(), REPO)
    }
    nb = nbformat.read(site / chapter / f"{chapter}.ipynb", as_version=4)
    cells = {
        c.metadata["executed-book"]["block"]: c.source
        for c in nb.cells
        if "block" in c.metadata.get("executed-book", {})
    }
    problems = []
    for block in blocks:
        shown = planned[str(block["id"])].shown.rstrip("\n")
        box = str(block["source"]).rstrip("\n")
        cell = cells.get(str(block["id"]), "")
        if block["fresh"]:
            cell = cell.removeprefix("%%script {sys.executable}\n")
        for name, text in (("source box", box), ("notebook cell", cell)):
            if text != shown:
                problems.append(
                    f"{block['snippet']} (block '{block['id']}'): its {name} is not the shown "
                    f"code:\n--- shown\n{shown}\n--- {name}\n{text}"
                )
    return problems


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_chapter_runs_as_shown_and_prints_its_page(built_book, chapter, tmp_path):
    blocks = shown_blocks(built_book, chapter)
    if chapter in WITH_NOTEBOOK:  # run by test_notebooks.py, cell by cell
        problems = same_as_notebook(built_book, chapter, blocks)
    else:
        problems = copy_run(chapter, blocks, tmp_path)
    assert not problems, "\n".join(problems)
