"""A markdown-exec book renders the same under the engine: tests/sites/mdexec-parity.

The fixture is written for markdown-exec, with what its own documentation uses and the engine
once refused or rendered otherwise (issue 58): the plugin's `ansi: required`, an include found
in the second of pymdownx.snippets' `base_path` folders, `workdir`, `width` and `returncode` on
Python fences, an option neither reads, a printed heading (markdown-exec numbers its anchor
across the whole build), a Markdown line break and an HTML line of spaces. It is built by
markdown-exec as written, and by the engine with `executed-book` in place of `markdown-exec`
(that line only); every file of the two sites is the same but for the build date MkDocs writes.
benchmarks/markdown_exec_parity.py does the same with two real books.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, Site

pytestmark = pytest.mark.build

FIXTURE = REPO / "tests" / "sites" / "mdexec-parity"
SWITCH = ("  - markdown-exec:\n", "  - executed-book:\n")
_BUILD_DATE = re.compile(r"Build Date UTC : [^\n<]*")


def _switched(root: Path) -> Site:
    config = root / "mkdocs.yml"
    text = config.read_text()
    assert text.count(SWITCH[0]) == 1
    config.write_text(text.replace(*SWITCH))
    return Site(root)


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Site:
    """The fixture under the engine, after its first update (goldens written)."""
    root = tmp_path_factory.mktemp("parity") / "book"
    shutil.copytree(FIXTURE, root)
    book = _switched(root)
    update = book.build("update")
    assert update.returncode == 0, update.output
    book.update_output = update.output  # type: ignore[attr-defined]
    return book


@pytest.fixture(scope="module")
def markdown_exec_site(tmp_path_factory) -> Path:
    """The fixture built by markdown-exec itself, as written."""
    root = tmp_path_factory.mktemp("parity-own") / "book"
    shutil.copytree(FIXTURE, root)
    built = Site(root).build()  # markdown-exec reads no GOLDEN
    assert built.returncode == 0, built.output
    return root / "site"


def _site_files(site: Path) -> dict[str, bytes]:
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and p.suffix != ".gz"  # the sitemap's archive holds its own date
    }


def _differences(ours: Path, theirs: Path) -> list[str]:
    """Each file of either site that differs, with its first differing line."""
    mine, yours = _site_files(ours), _site_files(theirs)
    found = [f"{name}: only under the engine" for name in sorted(mine.keys() - yours.keys())]
    found += [f"{name}: only under markdown-exec" for name in sorted(yours.keys() - mine.keys())]
    for name in sorted(mine.keys() & yours.keys()):
        a = _BUILD_DATE.sub("", mine[name].decode(errors="replace")).splitlines()
        b = _BUILD_DATE.sub("", yours[name].decode(errors="replace")).splitlines()
        if a != b:
            at = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)),
            )
            ours_line, theirs_line = (x[at] if at < len(x) else "<end>" for x in (a, b))
            found.append(f"{name}:{at + 1}: engine {ours_line!r} != markdown-exec {theirs_line!r}")
    return found


def test_the_update_and_the_check_build_markdown_exec_s_site(book, markdown_exec_site):
    assert _differences(book.root / "site", markdown_exec_site) == []
    check = book.build("check")
    assert check.returncode == 0, check.output
    assert "golden check: 8 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in check.output
    assert _differences(book.root / "site", markdown_exec_site) == []
    # What the comparison stands on: the style, the anchors, the break and the spaces.
    page = (book.root / "site" / "index.html").read_text()
    assert 'href="assets/_markdown_exec_ansi.css"' in page
    assert 'id="exec-6--printed-heading"' in page
    assert "A line that breaks<br />" in page or "A line that breaks<br>" in page
    assert "first\n   \nlast" in page
    second = (book.root / "site" / "second" / "index.html").read_text()
    assert 'id="exec-7--another-printed-heading"' in second


def test_includes_workdir_and_width_run_as_under_markdown_exec(book):
    def golden(n: int) -> str:
        return (book.root / "goldens" / "index" / f"block-{n}.txt").read_text().split("---\n")[1]

    assert golden(1) == "area: 49\n"  # includes/square.py, found through base_path
    assert golden(3) == "['index.md', 'second.md']\n"  # run in docs/
    assert golden(4) == "columns: 37\n"


def test_an_option_neither_reads_is_handed_on_and_said(book, tmp_path):
    said = book.update_output
    assert (
        "docs/index.md:29 (block 'block-5', inline code): option 'note' is neither "
        "markdown-exec's nor the engine's; handed on to the shown source's fence"
    ) in said, said
    strict = book.copy(tmp_path / "book")
    config = strict.root / "mkdocs.yml"
    config.write_text(
        config.read_text().replace(SWITCH[1], SWITCH[1] + "      unknown_options: error\n")
    )
    refused = strict.build("check")
    assert refused.returncode != 0, refused.output
    assert (
        "docs/index.md:29 (block 'block-5', inline code): unknown option 'note' on an executed "
        "fence (unknown_options: error)"
    ) in refused.output, refused.output


def test_a_workdir_that_is_no_folder_of_the_book_fails_naming_it(book, tmp_path):
    wrong = book.copy(tmp_path / "book")
    page = wrong.root / "docs" / "index.md"
    page.write_text(page.read_text().replace('workdir="docs"', 'workdir="nowhere"'))
    built = wrong.build("check")
    assert built.returncode != 0, built.output
    assert (
        "docs/index.md:17 (block 'block-3', inline code): option workdir=\"nowhere\" must be a "
        "folder of the book"
    ) in built.output, built.output
