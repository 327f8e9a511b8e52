"""A book written for markdown-exec switches to the engine by one line: tests/sites/mdexec.

Its `mkdocs.yml` lists `executed-book` where a markdown-exec book lists `markdown-exec`, and
nothing else of the engine: its fences have inline code, most have no id, and they use
markdown-exec's `result=`, `html=`, `source=` and `session=`. The update records its goldens in
the default folder (`goldens/`), the check passes, the pages' HTML is markdown-exec's own for
the same book, a changed output fails with a readable diff, and a bad option value fails
naming it. The build process never imports JAX, nor do its workers.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import REPO, Site

pytestmark = [pytest.mark.build, pytest.mark.engine]

FIXTURE = REPO / "tests" / "sites" / "mdexec"
PAGES = {"index.md": "index.html", "sessions.md": "sessions/index.html"}
# What the engine adds to every page outside the content (the trace stepper's assets), and
# the date MkDocs' theme writes: not the pages' blocks.
_ENGINE_ASSETS = re.compile(r"^\s*<(?:link|script)[^>]*assets/executed-book/.*$\n", re.M)
_BUILD_DATE = re.compile(r"Build Date UTC : [^\n<]*")


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Site:
    """The fixture book after its first update (goldens written), under `-X importtime`."""
    root = tmp_path_factory.mktemp("mdexec") / "book"
    shutil.copytree(FIXTURE, root)
    book = Site(root)
    importtime = [sys.executable, "-X", "importtime", "-m", "mkdocs", "build", "--strict"]
    update = book.build("update", command=importtime)
    assert update.returncode == 0, update.output
    book.update_output = update.output  # type: ignore[attr-defined]
    return book


@pytest.fixture(scope="module")
def markdown_exec_site(tmp_path_factory) -> Path:
    """The same book built by markdown-exec itself: the line switched back."""
    root = tmp_path_factory.mktemp("mdexec-own") / "book"
    shutil.copytree(FIXTURE, root)
    config = root / "mkdocs.yml"
    config.write_text(config.read_text().replace("  - executed-book\n", "  - markdown-exec\n"))
    built = Site(root).build()  # markdown-exec reads no GOLDEN
    assert built.returncode == 0, built.output
    return root / "site"


def test_the_update_records_every_block_in_the_default_golden_folder(book):
    said = book.update_output
    assert "golden update: 11 blocks checked, 11 written (11 new)" in said, said
    goldens = sorted(p.relative_to(book.root).as_posix() for p in book.root.rglob("*.txt"))
    assert goldens == [
        *(f"goldens/index/{name}.txt" for name in ("above", "block-1", "block-2", "block-3")),
        "goldens/index/block-6.txt",
        "goldens/index/from-file.txt",
        *(f"goldens/sessions/block-{n}.txt" for n in (1, 2, 3, 4, 5)),
    ]
    first = (book.root / "goldens" / "index" / "block-1.txt").read_text()
    assert first == (
        "block: docs/index.md#block-1\nsnippet: docs/index.md (inline)\n"
        "written-by: GOLDEN=update mkdocs build --strict (never edit by hand)\n"
        "---\n**bold** and `code`\n"
    )
    # Neither the build process nor its workers imported JAX.
    assert not re.search(r"\|\s+jax(?:\.|$)", said, re.M), "the build imported jax"
    assert "jax imported: False" in (book.root / "goldens" / "index" / "block-6.txt").read_text()


def test_sessions_are_markdown_exec_s_fresh_globals_unless_named(book):
    def golden(n: int) -> str:
        return (book.root / "goldens" / "sessions" / f"block-{n}.txt").read_text()

    assert golden(1).endswith("---\nset x\n")
    assert golden(2).endswith("---\nFalse\n")  # no session: x is not there
    assert golden(3).endswith("---\nFalse\n")  # nor the y of the block before it
    assert golden(4).endswith("---\nx doubled: 42\n")  # the same session: x is there
    assert golden(5).endswith("---\nx in another session: False\n")


def test_the_check_passes_and_the_pages_are_markdown_exec_s_own(book, markdown_exec_site):
    check = book.build("check")
    assert check.returncode == 0, check.output
    assert "golden check: 11 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in check.output
    for page in PAGES.values():
        ours = (book.root / "site" / page).read_text()
        theirs = (markdown_exec_site / page).read_text()
        assert _BUILD_DATE.sub("", _ENGINE_ASSETS.sub("", ours)) == _BUILD_DATE.sub("", theirs)
    index = (book.root / "site" / "index.html").read_text()
    assert "<strong>bold</strong> and <code>code</code>" in index  # printed Markdown, rendered
    assert '<p class="made-by-a-block">raw HTML</p>' in index  # html="1"
    assert "plain 42" in index


def test_a_changed_output_fails_with_a_readable_diff(book, tmp_path):
    changed = book.copy(tmp_path / "book")
    page = changed.root / "docs" / "index.md"
    page.write_text(page.read_text().replace("6 * 7", "6 * 8"))
    drifted = changed.build("check")
    assert drifted.returncode != 0, drifted.output
    said = drifted.output
    assert "DRIFTED (text): page docs/index.md, block 'block-2', snippet docs/index.md" in said
    assert "-plain 42" in said and "+plain 48" in said, said
    assert "golden check: 11 blocks checked, 0 failed, 1 drifted, 0 new, 0 stale" in said
    assert "to accept the new outputs: GOLDEN=update mkdocs build --strict" in said
    assert "./book" not in said


def test_a_bad_option_value_fails_naming_it(book, tmp_path):
    refused = book.copy(tmp_path / "book")
    page = refused.root / "docs" / "sessions.md"
    page.write_text(page.read_text().replace('session="other"', 'session="other" width="wide"'))
    built = refused.build("check")
    assert built.returncode != 0, built.output
    assert (
        "docs/sessions.md:23 (block 'block-5', inline code): option width=\"wide\" must be a "
        "positive whole number"
    ) in built.output, built.output


def test_a_session_named_on_two_pages_fails_naming_both(book, tmp_path):
    shared = book.copy(tmp_path / "book")
    page = shared.root / "docs" / "index.md"
    page.write_text(
        page.read_text().replace('exec="1" result="text"', 'exec="1" session="numbers"')
    )
    built = shared.build("check")
    assert built.returncode != 0, built.output
    assert 'option session="numbers" is also used on docs/index.md:11' in built.output
