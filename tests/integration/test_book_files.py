"""A page shows and runs only files of the book, and masks the build's credentials in all it shows.

A snippet, a file a page includes with pymdownx.snippets (or a file that one includes), a page
or a lab that is a symlink, or whose path resolves outside the book, is refused by the strict
build with an error naming the page, the line and the file: what it points to (here a fake
private file outside the book) is never read, run or published. A credential of the build's
environment is masked in a shown source, an included file and the prose, as in an output.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import Site

pytestmark = pytest.mark.build

SECRET = "fake-secret-7d1c0a9e4b"  # what a private file outside the book holds
PRIVATE = f'TOKEN = "{SECRET}"\nprint("leaked")\n'
PAGE = '# Leak\n\nBefore.\n\n```python exec="on" id="leak"\n--8<-- "snippets/leak/code.py"\n```\n'


def _outside(tmp_path: Path) -> Path:
    """A private file outside the book."""
    private = tmp_path / "outside" / "private.py"
    private.parent.mkdir(parents=True)
    private.write_text(PRIVATE)
    return private


def _published(site: Site) -> list[str]:
    """Every file of the book's folder (site, cache, goldens) that holds the secret."""
    found = subprocess.run(
        ["grep", "-r", "-a", "-l", "-F", "-e", SECRET, str(site.root)],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.split()


def _assert_refused(site: Site, where: str, named: str) -> None:
    result = site.build("update")
    assert result.returncode != 0, result.output
    assert "Traceback" not in result.output, result.output[-1500:]
    assert where in result.output and named in result.output, result.output[-1500:]
    assert SECRET not in result.output
    assert _published(site) == []


@pytest.mark.parametrize("link", ["file", "folder"])
def test_a_snippet_that_is_a_symlink_is_refused_naming_page_line_and_snippet(site, tmp_path, link):
    private = _outside(tmp_path)
    site.page("leak.md", PAGE)
    if link == "file":
        (site.root / "snippets" / "leak").mkdir(parents=True)
        (site.root / "snippets" / "leak" / "code.py").symlink_to(private)
        named = "snippets/leak/code.py is a symlink"
    else:
        (site.root / "snippets").mkdir()
        private.rename(private.parent / "code.py")
        (site.root / "snippets" / "leak").symlink_to(private.parent)
        named = "snippets/leak is a symlink"
    _assert_refused(site, "docs/leak.md:5: block 'leak' includes snippets/leak/code.py", named)


@pytest.mark.parametrize("how", ["symlink", "nested-symlink", "outside-path"])
def test_an_include_that_is_not_a_file_of_the_book_is_refused(site, tmp_path, how):
    private = _outside(tmp_path)
    site.snippet("leak/code.py", 'print("fine")\n')
    written = {"symlink": "notes/key.txt", "nested-symlink": "notes/index.txt"}.get(
        how, f"../{private.parent.name}/{private.name}"
    )
    site.page("leak.md", PAGE + f'\n```text\n--8<-- "{written}"\n```\n')
    (site.root / "notes").mkdir()
    if how != "outside-path":
        (site.root / "notes" / "key.txt").symlink_to(private)
    if how == "nested-symlink":
        (site.root / "notes" / "index.txt").write_text('Keys:\n--8<-- "notes/key.txt"\n')
        where = "docs/leak.md:10: notes/index.txt:2: includes notes/key.txt"
        named = "notes/key.txt is a symlink"
    elif how == "symlink":
        where, named = "docs/leak.md:10: includes notes/key.txt", "notes/key.txt is a symlink"
    else:
        where, named = f"docs/leak.md:10: includes {written}", "is outside the book"
    _assert_refused(site, where, named)


def test_a_page_that_is_a_symlink_is_refused(site, tmp_path):
    private = _outside(tmp_path)
    private.write_text(f"# Private\n\n{SECRET}\n")
    site.page("index.md", "# Home\n")
    (site.root / "docs" / "private.md").symlink_to(private)
    _assert_refused(site, "docs/private.md: docs/private.md is a symlink", "Nothing was read")


def test_a_credential_is_masked_in_every_source_and_include_a_page_shows(site):
    """The secret is the build's (an environment variable whose name looks like a credential),
    and the book's own files hold it: the shown source, an included file, the prose."""
    site.snippet("leak/code.py", f'TOKEN = "{SECRET}"  # pasted by mistake\nprint(1)\n')
    site.page(
        "leak.md",
        f"# Leak\n\nThe prose quotes {SECRET} too.\n\n"
        '```python exec="on" id="leak"\n--8<-- "snippets/leak/code.py"\n```\n\n'
        '```text\n--8<-- "notes/config.txt"\n```\n',
    )
    (site.root / "notes").mkdir()
    (site.root / "notes" / "config.txt").write_text(f"api_key = {SECRET}\n")
    env = {"BOOK_FAKE_API_TOKEN": SECRET}
    updated = site.build("update", **env)
    assert updated.returncode == 0, updated.output
    checked = site.build(**env)
    assert checked.returncode == 0, checked.output
    shown = [path for path in _published(site) if "/site/" in path]
    assert shown == []
    page = (site.root / "site" / "leak" / "index.html").read_text()
    assert page.count("***") >= 3  # the source, the include and the prose each show the mask
    (notebook,) = (site.root / "site" / "leak").glob("*.ipynb")  # the chapter's notebook
    assert "***" in notebook.read_text()
