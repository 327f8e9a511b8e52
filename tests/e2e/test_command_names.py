"""One name for each command (issue 41): what the check report, the page and the serve log
tell an author to run is the book's own command: `./book update PAGE#BLOCK` where the book has
that launcher (the plugin's `launcher` option), the plain MkDocs form where it has none."""

from __future__ import annotations

import html
import re
import urllib.request

import pytest

from conftest import serving

pytestmark = pytest.mark.build

PAGE = '# New\n\n```python exec="on" id="fresh"\n--8<-- "snippets/new/fresh.py"\n```\n'


def new_block_book(site, launcher: str) -> None:
    config = site.root / "mkdocs.yml"
    text = re.sub(r"\n\s+launcher: .*", "", config.read_text())  # the fixture names ./book
    if launcher:
        text = text.replace("      extensions:", f"      launcher: {launcher}\n      extensions:")
    config.write_text(text)
    site.page("new.md", PAGE)
    site.snippet("new/fresh.py", 'print("fresh")\n')


@pytest.mark.parametrize(
    ("launcher", "command"),
    [
        ("./book", "./book update new.md#fresh"),
        ("", "GOLDEN=update GOLDEN_ONLY=new.md#fresh mkdocs build --strict"),
    ],
)
def test_a_new_block_names_the_books_own_update_command(site, tmp_path, launcher, command):
    new_block_book(site, launcher)
    checked = site.build()
    assert checked.returncode == 1, checked.output
    assert f"no golden yet; run {command} to write it" in checked.output
    with serving(site.root, tmp_path / "serve.log") as served:
        served.until(lambda: "no golden yet" in served.log())
        assert f"no golden yet; run {command} to write it" in served.log()

        def page() -> str:
            with urllib.request.urlopen(served.url + "new/", timeout=10) as answer:
                return answer.read().decode()

        served.until(lambda: "No golden yet" in page())
        assert f"Run <code>{html.escape(command)}</code> to write it" in page()
