"""Masks (`bookexec._internal.goldens.masks`) on a real markdown-exec book: three outputs that
change on every run (a matplotlib SVG's date and ids, a plotly figure's random div id, an `ls -l`
listing's sizes and dates). The engine's default rules mask the first two; the third is the
settings guide's own rule (`docs/guide/settings.md`).

Built with `default_masks: false` and no `masks`, each block drifts from the golden the update
wrote a moment before; built with the defaults and the guide's rule, every golden holds, stores
the placeholders, and the page still shows what the block printed. A bad pattern is MkDocs'
configuration error naming the option.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from conftest import REPO, Site

pytestmark = pytest.mark.build

CONFIG = """\
site_name: Masks
docs_dir: docs
plugins:
  - executed-book{options}
markdown_extensions:
  - pymdownx.superfences
"""
# The rules exactly as the settings guide shows them: the guide cannot drift from what holds.
GUIDE = REPO / "docs" / "guide" / "settings.md"
_SHOWN = re.compile(r"```yaml\nplugins:\n  - executed-book:(\n      masks:\n.*?)```", re.S)
MASKS = _SHOWN.findall(GUIDE.read_text())[0]
PAGES = {
    "figures.md": """
        # A figure

        ```python exec="on" html="1" id="figure"
        import io

        import matplotlib

        matplotlib.use("svg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(3, 2))
        axes.plot([0, 1, 2], [0, 1, 4])
        drawn = io.StringIO()
        figure.savefig(drawn, format="svg")
        print(drawn.getvalue())
        ```
        """,
    "chart.md": """
        # A chart

        ```python exec="on" html="1" id="chart"
        import plotly.graph_objects as go

        figure = go.Figure(go.Bar(x=["a", "b", "c"], y=[1, 3, 2]))
        print(figure.to_html(full_html=False, include_plotlyjs=False))
        ```
        """,
    "files/listing.md": """
        # A listing

        ```python exec="on" result="text" id="listing"
        import pathlib
        import subprocess
        import tempfile
        import time

        with tempfile.TemporaryDirectory() as folder:
            for name in ("data.csv", "notes.txt"):
                pathlib.Path(folder, name).write_text(f"written at {time.time()}\\n")
            listing = subprocess.run(
                ["ls", "-l", "--time-style=full-iso", folder],
                capture_output=True, text=True, check=True,
            )
        print(listing.stdout, end="")
        ```
        """,
}
# Each case: its page, block, golden, and a value the block printed that a mask replaces.
CASES = {
    "matplotlib": ("figures.md", "figure", "goldens/figures/figure.txt", r"<dc:date>2\d{3}-"),
    "plotly": ("chart.md", "chart", "goldens/chart/chart.txt", r'<div id="[0-9a-f]{8}-'),
    "listing": ("files/listing.md", "listing", "goldens/files/listing/listing.txt", r"\d{9}"),
}
PLACEHOLDERS = {
    "matplotlib": ("<dc:date>(date)</dc:date>", 'clip-path="url(#p(id))"'),
    "plotly": ('<div id="(plotly-id)"',),
    "listing": ("total (blocks)", " (size) (date) data.csv"),
}


def _book(root: Path, masks: str) -> Site:
    for name, text in PAGES.items():
        page = root / "docs" / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(textwrap.dedent(text).lstrip())
    options = ":" + masks.rstrip() if masks else ""
    (root / "mkdocs.yml").write_text(CONFIG.format(options=options))
    return Site(root)


def _updated_then_checked(root: Path, masks: str) -> tuple[Site, str]:
    book = _book(root, masks)
    update = book.build("update")
    assert update.returncode == 0, update.output
    return book, book.build("check").output


@pytest.fixture(scope="module")
def masked(tmp_path_factory) -> tuple[Site, str]:
    """The book with the engine's default masks and the guide's rule: written by an update,
    then checked by a second run."""
    return _updated_then_checked(tmp_path_factory.mktemp("masked") / "book", MASKS)


@pytest.fixture(scope="module")
def unmasked(tmp_path_factory) -> tuple[Site, str]:
    """The same book without any: neither the guide's rule nor the engine's defaults."""
    root = tmp_path_factory.mktemp("unmasked") / "book"
    return _updated_then_checked(root, "\n      default_masks: false")


def _drifted(said: str, page: str, block: str) -> bool:
    return f"DRIFTED (text): page docs/{page}, block '{block}'" in said


@pytest.mark.parametrize("case", CASES)
def test_each_case_drifts_on_every_run_without_its_mask(unmasked, case):
    page, block, _, _ = CASES[case]
    _, said = unmasked
    assert _drifted(said, page, block), said
    assert "golden check: 3 blocks checked, 0 failed, 3 drifted" in said, said


@pytest.mark.parametrize("case", CASES)
def test_each_case_holds_with_its_mask_and_the_page_shows_what_ran(masked, case):
    page, block, golden, printed = CASES[case]
    book, said = masked
    assert not _drifted(said, page, block), said
    assert "golden check: 3 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in said, said
    stored = (book.root / golden).read_text()
    for placeholder in PLACEHOLDERS[case]:
        assert placeholder in stored, stored
    assert not re.search(printed, stored.partition("---\n")[2]), stored
    # The reader's page has the values as the block printed them, never the placeholders.
    html = (book.root / "site" / Path(page).with_suffix("") / "index.html").read_text()
    assert re.search(printed, html), html[:2000]
    assert not any(placeholder in html for placeholder in PLACEHOLDERS[case])


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        (
            "        - pattern: '(unclosed'\n          replace: x\n",
            "pattern '(unclosed' is not a regular expression (Python's re): missing ), "
            "unterminated subpattern at position 0",
        ),
        (
            "        - pattern: 'a(b)'\n          replace: '\\2'\n",
            "replace '\\\\2' does not fit the pattern 'a(b)': invalid group reference 2",
        ),
    ],
)
def test_a_bad_rule_is_a_configuration_error_naming_the_option(tmp_path, rule, said):
    book = _book(tmp_path / "book", "\n      masks:\n" + rule)
    shutil.rmtree(book.root / "docs" / "files")  # never run: the configuration stops it first
    built = book.build("check")
    assert built.returncode != 0, built.output
    assert "masks" in built.output and said in built.output, built.output
