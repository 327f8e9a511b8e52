"""`./book update PAGE[#BLOCK]` (GOLDEN_ONLY): an update that runs one page, or one block and
the blocks before it in its page's session, and writes only the goldens it names (issue 41)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
from test_labs import lab_written  # noqa: F401  (a fixture)

from conftest import Result, open_fixture

pytestmark = pytest.mark.build

FIRST = """\
# First

```python exec="on" id="setup"
--8<-- "snippets/first/setup.py"
```

```python exec="on" id="uses"
--8<-- "snippets/first/uses.py"
```

```python exec="on" id="later"
--8<-- "snippets/first/later.py"
```
"""

SECOND = """\
# Second

```python exec="on" id="other"
--8<-- "snippets/second/other.py"
```
"""


def written_book(site):
    site.page("first.md", FIRST)
    site.page("second.md", SECOND)
    site.page("plain.md", "# Plain\n\nA page of prose, with no block.\n")
    site.snippet("first/setup.py", 'word = "alpha"\nprint("set up", word)\n')
    site.snippet("first/uses.py", 'print("uses", word)\n')
    site.snippet("first/later.py", 'print("later", word)\n')
    site.snippet("second/other.py", 'print("other")\n')
    written = site.build("update")
    assert written.returncode == 0, written.output


def update(book, only: str, way: str) -> Result:
    """The update of `only`: through a whole strict build (GOLDEN_ONLY), or as `./book update
    PAGE[#BLOCK]` runs it, with no page rendered (`jaxbook.cli.partial`)."""
    if way == "build":
        return book.build("update", GOLDEN_ONLY=only)
    proc = subprocess.run(
        [sys.executable, "-m", "jaxbook.cli.partial", only],
        cwd=book.root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    return Result(proc.returncode, proc.stdout)


RENDERERS = {"nbconvert", "mkdocs_jupyter", "jupytext"}  # what converts a lab to HTML
WAYS = pytest.mark.parametrize("way", ["build", "partial"])


@pytest.fixture
def book(prebuilt, tmp_path):
    book = prebuilt(written_book, tmp_path)
    # Every block of the book now prints something else than its golden.
    book.snippet("first/setup.py", 'word = "beta"\nprint("set up", word)\n')
    book.snippet("second/other.py", 'print("other, changed")\n')
    return book


@WAYS
def test_an_update_of_one_block_runs_its_session_and_writes_only_its_golden(book, way):
    before = book.goldens()
    done = update(book, "first.md#uses", way)
    assert done.returncode == 0, done.output
    after = book.goldens()
    # The named block's golden, run after the block its session needs (setup set `word`).
    assert "uses beta" in after["first/uses.txt"]
    # Nothing else is written: not the block before it, not the one after, not another page.
    for name in ("first/setup.txt", "first/later.txt", "second/other.txt"):
        assert after[name] == before[name], name
    assert "2 blocks on 1 page" in done.output  # setup and uses: later and second.md never run
    assert "golden update: 1 block checked, 1 written" in done.output


@WAYS
def test_an_update_of_one_page_writes_that_page_only(book, way):
    before = book.goldens()
    done = update(book, "docs/first.md", way)
    assert done.returncode == 0, done.output
    after = book.goldens()
    assert "set up beta" in after["first/setup.txt"]
    assert "later beta" in after["first/later.txt"]
    assert after["second/other.txt"] == before["second/other.txt"]
    assert "golden update: 3 blocks checked, 3 written" in done.output


@pytest.mark.parametrize(
    ("only", "said"),
    [
        ("nowhere.md", "GOLDEN_ONLY: the book has no page nowhere.md; its pages with blocks: "),
        ("first.md#nothing", "GOLDEN_ONLY: docs/first.md has no block nothing; its blocks: "),
        # a page without blocks: the others are scanned before the error lists them
        ("plain.md", "GOLDEN_ONLY: docs/plain.md has no block; the pages with blocks: first.md, "),
    ],
)
@WAYS
def test_an_update_of_something_the_book_lacks_is_a_clear_error(book, only, said, way):
    before = book.goldens()
    done = update(book, only, way)
    assert done.returncode == 1, done.output
    assert said in done.output
    assert "Traceback" not in done.output
    assert book.goldens() == before


@WAYS
def test_a_bad_fence_on_another_page_still_fails_the_update_and_writes_nothing(book, way):
    """The named page runs while the others are scanned (a one-block update does not wait
    for the book's scan), but a bad fence anywhere still stops it before a golden is written."""
    book.page(
        "third.md",
        '# Third\n\n```python exec="on" id="bad" timeout="forever"\n'
        '--8<-- "snippets/third/bad.py"\n```\n',
    )
    book.snippet("third/bad.py", "print(1)\n")
    before = book.goldens()
    done = update(book, "first.md#uses", way)
    assert done.returncode == 1, done.output
    assert "docs/third.md:3" in done.output and "timeout" in done.output, done.output
    assert "Traceback" not in done.output
    assert book.goldens() == before


def imported(output: str) -> set[str]:
    """The top-level modules a `python -X importtime` run imported, from its report."""
    return {m[1].split(".")[0] for m in re.finditer(r"^import time:.*\|\s+(\S+)$", output, re.M)}


def partial_update(root, only: str, *python: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *python, "-m", "jaxbook.cli.partial", only],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )


def test_a_one_block_update_converts_nothing_so_imports_no_notebook_renderer(lab_written):  # noqa: F811
    """What the update of one block does not need is not loaded: mkdocs-jupyter's conversion
    (nbconvert, a second or more of imports alone) renders pages, and it renders none (issue 41:
    a one-block update within its page's run plus 1.5x a trivial build). A lab's update still
    works: mkdocs-jupyter is what makes a notebook a page."""
    book = lab_written
    book.page(
        "chapter.md",
        '# Chapter\n\n```python exec="on" id="b"\n--8<-- "snippets/chapter/b.py"\n```\n',
    )
    book.snippet("chapter/b.py", 'print("chapter block")\n')
    done = partial_update(book.root, "chapter.md#b", "-X", "importtime")
    assert done.returncode == 0, done.stdout
    assert "golden update: 1 block checked, 1 written (1 new)" in done.stdout, done.stdout
    assert "chapter block" in book.golden("chapter.md", "b").read_text()
    loaded = imported(done.stdout)
    assert "bookexec" in loaded  # the report is read right
    assert not loaded & RENDERERS, sorted(loaded & RENDERERS)

    golden = book.golden("labs/demo.ipynb", "start")
    lab = book.root / "docs" / "labs" / "demo.ipynb"
    lab.write_text(lab.read_text().replace("x = 7", "x = 8"))
    done = partial_update(book.root, "labs/demo.ipynb#start")
    assert done.returncode == 0, done.stdout
    assert "golden update: 1 block checked, 1 written" in done.stdout, done.stdout
    assert "x is 8" in golden.read_text()


# The update of `first.md#uses` in-process, as `./book update` runs it, saying which records and
# goldens the generated page reads before the named page's run has ended, and which after.
WATCHED_UPDATE = """
import sys
from bookexec._internal.pipeline import finish
from jaxbook import jax_changes
from jaxbook.cli import partial

phase = ["during"]
read = jax_changes._read
update = finish.Finish._update


def reading(path):
    print("READ", phase[0], path, flush=True)
    return read(path)


def updating(self, report):
    phase[0] = "after"
    return update(self, report)


jax_changes._read = reading
finish.Finish._update = updating
sys.exit(partial.main(["first.md#uses"]))
"""


def test_a_one_page_update_makes_the_other_chapters_changes_while_its_page_runs(book):
    """The generated page (docs/jax-changes.md) is made from every chapter's goldens and
    records, but a one-page update writes its own page's goldens only: the other chapters'
    share is made while that page runs, and only its own waits for the run (issue 41: a
    one-block update within its page's run plus 1.5x a trivial build). The page is the one a
    whole render makes."""
    from bookexec._internal.goldens.store import VERSIONS_FILE
    from jaxbook.jax_changes import RECORDS, RELEASES, render_page, write_page

    for release in RELEASES:  # each chapter recorded under the older releases, as it is now
        folder = book.root / RECORDS / release
        shutil.copytree(book.root / "tests" / "golden", folder)
    assert write_page(open_fixture(book.root))
    assert (book.root / RECORDS / RELEASES[0] / VERSIONS_FILE).is_file()
    done = subprocess.run(
        [sys.executable, "-c", WATCHED_UPDATE],
        cwd=book.root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout
    assert "rewrote docs/jax-changes.md from the new goldens" in done.stdout, done.stdout
    reads = re.findall(r"^READ (during|after) (\S+)$", done.stdout, re.MULTILINE)
    during = {path for when, path in reads if when == "during"}
    after = {path for when, path in reads if when == "after"}
    assert any("/second/" in path for path in during), done.stdout
    assert after and all("/first/" in path for path in after), sorted(after)
    page = (book.root / "docs" / "jax-changes.md").read_text()
    assert page == render_page(open_fixture(book.root))


def test_a_one_block_update_of_a_book_without_labs_imports_no_notebook_library(book):
    """nbformat (and the JSON-schema validator under it) reads and writes notebooks: the
    update of a chapter's block in a book without labs never needs it, and a book with labs
    reads them while the named page runs, not before (issue 41: the imports before the page's
    worker starts are what a one-block update waits for on top of its page's run)."""
    done = partial_update(book.root, "first.md#uses", "-X", "importtime")
    assert done.returncode == 0, done.stdout
    assert "golden update: 1 block checked, 1 written" in done.stdout, done.stdout
    loaded = imported(done.stdout)
    assert "bookexec" in loaded  # the report is read right
    assert not loaded & {"nbformat", "jsonschema"}, sorted(loaded & {"nbformat", "jsonschema"})


# The update of `first.md#uses`, saying each golden the build reads and whether its page's
# worker has been started yet.
WATCHED_READS = """
import sys
from bookexec._internal import engine
from jaxbook.cli import partial
from bookexec._internal.goldens import compare

phase = ["before"]
read = compare.read_golden
start = engine.Build._start


def reading(path, inside=None):
    print("GOLDEN", phase[0], path, flush=True)
    return read(path, inside)


def starting(self):
    phase[0] = "after"
    return start(self)


compare.read_golden = reading
engine.Build._start = starting
sys.exit(partial.main(["first.md#uses"]))
"""


def test_a_one_page_update_reads_only_its_page_s_goldens(book):
    """The goldens are read as the build begins, before any block runs (a block cannot change
    the verdict on itself), but a one-page update judges its own page's only: the book's
    other goldens are not read before its page's worker starts, nor after its run (no page is
    rendered, so no prose is audited against the book's outputs) (issue 41)."""
    done = subprocess.run(
        [sys.executable, "-c", WATCHED_READS],
        cwd=book.root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout
    assert "golden update: 1 block checked, 1 written" in done.stdout, done.stdout
    before = re.findall(r"^GOLDEN before (\S+)$", done.stdout, re.MULTILINE)
    assert any(path.endswith("/first/uses.txt") for path in before), done.stdout
    assert all("/tests/golden/first/" in path for path in before), before
    every = re.findall(r"^GOLDEN \w+ (\S+)$", done.stdout, re.MULTILINE)
    assert all("/tests/golden/first/" in path for path in every), every
    assert "uses beta" in book.goldens()["first/uses.txt"]
