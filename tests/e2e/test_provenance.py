"""Each executed page says how its outputs were made, and the census counts what the build ran.

A small fixture book, built twice by real MkDocs: once executing (which also writes its
goldens; the module's fixture keeps its pages), once with BOOK_EXEC=off, where the page must
say its outputs are recorded goldens.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from importlib.metadata import version

import jax
import pytest

from jaxbook import census

pytestmark = pytest.mark.build

PAGE = """\
# Counted

```python exec="on" id="jaxpr"
--8<-- "snippets/counted/jaxpr.py"
```

```python exec="on" id="raises" raises="ZeroDivisionError"
--8<-- "snippets/counted/raises.py"
```

```python exec="on" id="count"
--8<-- "snippets/counted/count.py"
```

```python exec="on" id="eight" fresh="true"
--8<-- "snippets/counted/eight.py"
```

## Census

<!-- bookexec:census -->
"""

JAXPR = "import jax\nprint(jax.make_jaxpr(lambda x: x * 2.0)(1.0))\n"
COUNT = (
    "from bookexec.facts import record, timing\n"
    "n = record('equations', 3)\n"
    "t = timing('noop', lambda: None)\n"
    "print('equations', n)\n"
)


# A block in a new process of its own, asking the CPU backend for eight devices (the page's
# session asks for none): the note must say what each block ran with (issue 52).
EIGHT = "import jax\njax.config.update('jax_num_cpu_devices', 8)\nprint(jax.device_count())\n"


class Text(HTMLParser):
    """The text of the elements with a given class, and of everything inside them."""

    def __init__(self, cls: str) -> None:
        super().__init__()
        self.cls, self.depth, self.parts = cls, 0, []

    def handle_starttag(self, tag, attrs):
        if self.depth or self.cls in (dict(attrs).get("class") or "").split():
            self.depth += 1

    def handle_endtag(self, tag):
        self.depth = max(0, self.depth - 1)

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def text_of(html: str, cls: str) -> str:
    parser = Text(cls)
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    from conftest import new_site

    site = new_site(tmp_path_factory.mktemp("counted") / "book")
    root = site.root
    with (root / "mkdocs.yml").open("a") as config:
        config.write("  - tables\n")
    site.page("counted.md", PAGE)
    site.page("plain.md", "# Plain\n\nNo code here.\n")
    site.snippet("counted/jaxpr.py", JAXPR)
    site.snippet("counted/raises.py", "1 / 0\n")
    site.snippet("counted/count.py", COUNT)
    site.snippet("counted/eight.py", EIGHT)
    result = site.build("update", SOURCE_DATE_EPOCH="1700000000")
    assert result.returncode == 0, result.output
    site_dir = root / "site"
    pages = {name: (site_dir / name / "index.html").read_text() for name in ("counted", "plain")}
    return site, pages


def test_an_executed_page_names_versions_backend_devices_and_date(counted):
    _, pages = counted
    html = pages["counted"]
    note = text_of(html, "executed-book-provenance")
    py = sys.version_info
    versions = f"JAX {version('jax')} (jaxlib {version('jaxlib')}) and Python {py.major}.{py.minor}"
    assert versions in note
    devices, backend = jax.device_count(), jax.default_backend()
    plural = "" if devices == 1 else "s"
    assert f"on the {backend.upper()} backend with {devices} device{plural}" in note
    # Said to a reader: nothing of how the site is made.
    assert "About these outputs" in note
    for word in ("build", "golden", "this machine", "How this page was made"):
        assert word not in note.replace("How this book stays true", ""), (word, note)
    if backend == "cpu":  # the fresh block's own process had eight devices; the note says so
        assert "eight.py ran in a new process on the CPU backend with 8 devices." in note
        assert '<a href="#block-eight">eight.py</a>' in html
    # The date sits alone in its own element, so a determinism check can leave it out.
    assert re.search(
        r'<time class="executed-book-build-date" datetime="2023-11-14">2023-11-14</time>', html
    )
    assert html.count("executed-book-build-date") == 1
    assert "executed-book-provenance" not in pages["plain"]

    # The census: one row for the page with blocks, none for the plain page.
    row = re.search(r"<td>.*?Counted.*?</td>((?:\s*<td[^>]*>\d+</td>){5})", html, re.S)
    assert row, html
    numbers = [int(n) for n in re.findall(r">(\d+)</td>", row[1])]
    assert numbers == [4, 1, 1, 1, 1]  # blocks, timings, counts, errors, jaxprs
    table = re.search(r"<table.*?</table>", html, re.S)[0]
    assert "Plain" not in table and table.count("<tr>") == 3  # header, the page, the total


def test_with_execution_off_the_page_says_its_outputs_are_recorded(counted):
    counted, _ = counted
    result = counted.build("check", BOOK_EXEC="off")
    assert result.returncode == 0, result.output
    html = (counted.root / "site" / "counted" / "index.html").read_text()
    note = text_of(html, "executed-book-provenance")
    assert "recorded earlier" in note and "without running its code again" in note
    versions = (counted.root / "tests" / "golden" / "VERSIONS").read_text()
    recorded_jax = re.search(r"^jax: (.+)$", versions, re.M)[1]
    assert f"with JAX {recorded_jax} (jaxlib" in note
    assert "device" not in note  # what was not recorded is not claimed
    assert "executed-book-build-date" in html
    # The census is the same under BOOK_EXEC=off: it counts the goldens the page shows.
    numbers = [int(n) for n in re.findall(r'right;">(\d+)</td>', html)][:5]
    assert numbers == [4, 1, 1, 1, 1]


def test_a_page_without_the_marker_is_left_alone():
    text = "# Page\n\nno census here\n"
    assert census.fill(text, "page.md", lambda: pytest.fail("rows made for no marker")) == text


def test_the_census_follows_the_navigation():
    nav = [{"Home": "index.md"}, {"Part": [{"B": "b.md"}, {"A": "a.md"}]}]
    assert census.nav_order(nav, ["a.md", "b.md", "extra.md"]) == ["b.md", "a.md", "extra.md"]


def test_a_census_row_is_named_by_its_heading_or_its_nav_title(tmp_path):
    """A comment in a page's front matter is not its title, and a lab has its nav title."""
    (tmp_path / "page.md").write_text("---\n# a comment, not a title\n---\n\n# The page\n")
    (tmp_path / "labs").mkdir()
    (tmp_path / "labs" / "x.ipynb").write_text('{"cells": []}')
    block = census.Block("page.md", 0, 1, "b", "snippets/page/b.py", "print(1)\n")
    made = census.rows(
        ["page.md", "labs/x.ipynb"],
        tmp_path,
        lambda page: [(block, "1\n", [])],
        {"labs/x.ipynb": "Lab: a title"},
    )
    assert [row.title for row in made] == ["The page", "Lab: a title"]


def test_the_books_census_agrees_with_its_goldens_and_pages(built_book):
    from bookexec._internal.goldens.store import parse as parse_golden
    from conftest import REPO

    html = (built_book / "guide" / "goldens" / "index.html").read_text()
    total = re.search(r"<strong>all (\d+) pages with code</strong>.*?</tr>", html, re.S)
    assert total, "no census table in the guide's goldens page"
    blocks, timings, counts, errors, jaxprs = map(
        int, re.findall(r"<strong>(\d+)</strong>", total[0])
    )
    goldens = [parse_golden(p.read_text()) for p in (REPO / "tests" / "golden").rglob("*.txt")]
    assert blocks == len(goldens)
    assert jaxprs == sum("{ lambda " in g.output for g in goldens)
    assert timings == sum(any(f.kind == "timing" for f in g.facts) for g in goldens)
    from jaxbook import labs

    pages = [p.read_text() for p in (REPO / "docs").glob("*.md")]
    fences = [line for p in pages for line in p.splitlines() if 'exec="on"' in line]
    lab_cells = [
        labs.scan_lab(f"labs/{path.name}", path)
        for path in (REPO / "docs" / "labs").glob("*.ipynb")
    ]
    lab_errors = sum("raises" in cell.options for cells in lab_cells for cell in cells)
    assert errors == sum('raises="' in line for line in fences) + lab_errors
    assert int(total[1]) == sum('exec="on"' in p for p in pages) + len(lab_cells)
    assert 0 < counts <= blocks
