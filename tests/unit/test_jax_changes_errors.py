"""The summary of docs/jax-changes.md calls a raising block's change "error reworded" only when
a line of the error's message changed, read from the book's real records (no build, no worker)."""

from __future__ import annotations

import re
import shutil

from bookexec._internal.goldens.store import VERSIONS_FILE
from conftest import REPO, open_fixture
from jaxbook.jax_changes import RECORDS, RELEASES, render_page

GOLDEN = REPO / "tests" / "golden"
# A raising block whose records under the two older releases differ in a gradient's last digit.
NAME = "derivatives/has-aux.txt"


def _book(tmp_path, extra: dict[str, str] | None = None):
    """A book of one raising block, its golden and its two real older records (`extra`: a line
    appended to the record under that release)."""
    for base, folder in [(GOLDEN, "tests/golden")] + [
        (REPO / RECORDS / release, f"{RECORDS}/{release}") for release in RELEASES
    ]:
        target = tmp_path / folder / NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(base / VERSIONS_FILE, tmp_path / folder / VERSIONS_FILE)
        text = re.sub(r"^sources: .*\n", "", (base / NAME).read_text(), count=1, flags=re.M)
        target.write_text(text + (extra or {}).get(folder.rsplit("/", 1)[-1], ""))
    (tmp_path / "snippets/derivatives").mkdir(parents=True)
    (tmp_path / "snippets/derivatives/has_aux.py").write_text("raise TypeError('x')\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/derivatives.md").write_text(
        '# D\n\n```python exec="on" id="has-aux" raises="TypeError"\n'
        '--8<-- "snippets/derivatives/has_aux.py"\n```\n'
    )
    return open_fixture(tmp_path, "nav:\n  - Derivatives: derivatives.md\n")


def _first_step(page: str) -> str:
    start = page.index(f"### From JAX {RELEASES[0]} to JAX {RELEASES[1]}")
    return page[start : page.index("\n### ", start + 1)]


def test_a_raising_block_whose_message_kept_its_words_is_not_an_error_reworded(tmp_path):
    said = _first_step(render_page(_book(tmp_path)))
    assert "**Errors reworded.**" not in said
    assert "**Rounding.**" in said
    assert "[`has-aux`](#changes-derivatives-has-aux)" in said.split("**Rounding.**")[1]


def test_a_raising_block_whose_message_changed_is_an_error_reworded(tmp_path):
    # The message gains a line under the newer release: that is a reworded error.
    book = _book(tmp_path, {RELEASES[1]: "Did you mean has_aux=True?\n"})
    said = _first_step(render_page(book))
    assert "**Errors reworded.**" in said
    assert "[`has-aux`](#changes-derivatives-has-aux)" in said.split("**Errors reworded.**")[1]


def test_jax_changes_reads_the_book_s_own_settings_from_its_mkdocs_yml(tmp_path):
    """`./book jax-changes` runs the book as a build would: its blocks under the limits
    mkdocs.yml gives them, its pages from its docs_dir, read by its snippet rule (it used to
    read `docs/` with the environment's limits alone)."""
    from bookexec import open_book

    (tmp_path / "pages").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: b\ndocs_dir: pages\nplugins:\n  - executed-book:\n"
        "      snippets: page-folders\n      fences: engine\n"
        "      limits:\n        timeout: 7\n        output: 1234\n"
        "markdown_extensions:\n  - pymdownx.superfences\n"
    )
    settings = open_book(tmp_path / "mkdocs.yml", {"BOOK_OUTPUT_LIMIT": "999"}).settings
    assert settings.docs == "pages"
    assert (settings.limits.timeout, settings.limits.output) == (7.0, 999)  # the variable wins
    assert (settings.snippets, settings.fences) == ("page-folders", "engine")
