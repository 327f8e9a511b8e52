"""A served page is never stale: each kind of input it is made from changes it.

One `mkdocs serve` (live reload, block cache, background runs) of a two-page site; the
`uses` page shows its own block and a fact recorded by the `source` page. Each case changes one
input and waits for the served `uses` page to show the change: its markdown, its snippet, its
golden (through the update mode, as `./book update` or `./book review` would write it), the
fact it quotes from the other page, and the nav.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from conftest import REPO, serving

pytestmark = pytest.mark.build

USES = """\
# Uses

Intro {marker}.

```python exec="on" id="own"
--8<-- "snippets/uses/own.py"
```

The other page counted {{{{fact:source.md#counted.n}}}} items.
"""

SOURCE = """\
# Source

```python exec="on" id="counted"
--8<-- "snippets/source/counted.py"
```
"""


def counted(n: int) -> str:
    return f"from bookexec.facts import record\n\nprint('items:', record('n', {n}))\n"


def book_watch() -> str:
    """The `watch:` section of the book's mkdocs.yml, as it is written there."""
    text = (REPO / "mkdocs.yml").read_text()
    section = text.split("\nwatch:\n", 1)[1]
    items = []
    for line in section.splitlines():
        if not line.startswith("  - "):
            break
        items.append(line)
    return "watch:\n" + "\n".join(items) + "\n"


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def result(html: str) -> str:
    return html.split('<div class="result">', 1)[1].split("</div>", 1)[0]


def wait_until(served, check) -> str:
    """The served page, once it is built, no block on it is still being checked and it
    passes `check`."""

    def shown() -> str | None:
        html = get(served.url + "uses/")
        return html if "executed-book-pending" not in html and check(html) else None

    return served.until(shown, 180)


def test_each_input_of_a_served_page_changes_it(site, tmp_path):
    site.page("uses.md", USES.format(marker="one"))
    site.page("source.md", SOURCE)
    site.snippet("uses/own.py", "print('own output v1')\n")
    site.snippet("source/counted.py", counted(3))
    (site.root / "tests" / "golden").mkdir(parents=True)
    config = site.root / "mkdocs.yml"
    config.write_text(
        config.read_text()
        + "nav:\n  - Uses page: uses.md\n  - Source: source.md\n"
        + book_watch()  # what the book's own mkdocs.yml watches
    )
    assert site.build("update").returncode == 0

    with serving(site.root, tmp_path / "serve.log", BOOK_CACHE=None) as served:
        html = wait_until(served, lambda h: "own output v1" in result(h))
        assert "counted 3 items" in html and "executed-book-drift" not in html
        time.sleep(1.0)  # let the watcher settle

        # 1. its markdown
        site.page("uses.md", USES.format(marker="two"))
        wait_until(served, lambda h: "Intro two." in h)

        # 2. its snippet: the live output, and its drift from the golden
        site.snippet("uses/own.py", "print('own output v2')\n")
        html = wait_until(served, lambda h: "own output v2" in result(h))
        assert 'executed-book-drift" data-block="own"' in html

        # 3. its golden, rewritten by the update mode while the server runs: no drift now
        assert site.build("update").returncode == 0
        wait_until(served, lambda h: "executed-book-drift" not in h)

        # 4. a fact it quotes from another page
        site.snippet("source/counted.py", counted(5))
        wait_until(served, lambda h: "counted 5 items" in h)

        # 5. the nav
        config.write_text(config.read_text().replace("Uses page", "Renamed page"))
        wait_until(served, lambda h: "Renamed page" in h)


# -- `mkdocs serve --dirty`: only the pages an edit touches render again ----------------------

SHOWS_SHARED = """\
# {title}

The shared code:

```python
--8<-- "snippets/shared/marker.py"
```
"""


def page_outputs(site_dir) -> dict[str, int]:
    """Each page MkDocs wrote in the served site, by source page: its output's mtime."""
    found = {}
    for path in site_dir.rglob("index.html"):
        rel = path.parent.relative_to(site_dir).as_posix()
        if rel.startswith(("assets", "search")):
            continue
        found["index.md" if rel == "." else f"{rel}.md"] = path.stat().st_mtime_ns
    return found


def searched(site_dir) -> dict[str, str]:
    """The served search index, each page's text by its URL, once checked whole: every page in
    it, and no entry twice."""
    docs = json.loads((site_dir / "search" / "search_index.json").read_text())["docs"]
    locations = [doc["location"] for doc in docs]
    assert len(locations) == len(set(locations)), sorted(locations)
    pages: dict[str, str] = {}
    for doc in docs:
        url = doc["location"].partition("#")[0]
        pages[url] = pages.get(url, "") + " " + doc["title"] + " " + doc["text"]
    assert set(pages) == {"", "uses/", "source/", "first/", "second/", "other/", "labs/demo/"}
    return pages


def settled(served, seconds: float = 240.0) -> None:
    """Every build the server began has ended, and none began for 3 s (a background run's end
    asks for one more). The engine's summary line ends each build: MkDocs logs its own
    "Documentation built in N seconds" once per distinct N (its logger drops repeats)."""

    def quiet() -> bool:
        text = served.log()
        began, ended = text.count("Building documentation..."), text.count("bookexec summary:")
        if began != ended:
            return False
        time.sleep(3.0)
        return served.log().count("Building documentation...") == began

    served.until(quiet, seconds)


def test_a_dirty_serve_renders_only_the_pages_an_edit_touches(site, tmp_path):
    """Each kind of input changes in turn: every page that reads it shows the change, and no
    other page is rendered again (its output in the served site is not rewritten). What the
    graph cannot place renders every page, and the log says why."""
    from test_labs import DEMO, configure_labs, notebook

    configure_labs(site)  # index.md and the lab labs/demo.ipynb, as the book configures labs
    site.page("uses.md", USES.format(marker="one"))
    site.page("source.md", SOURCE)
    site.page("first.md", SHOWS_SHARED.format(title="First"))
    site.page("second.md", SHOWS_SHARED.format(title="Second"))
    site.page("other.md", "# Other\n\nNothing shared.\n")
    site.snippet("uses/own.py", "print('own output v1')\n")
    site.snippet("source/counted.py", counted(3))
    site.snippet("shared/marker.py", "marker_one = 1\n")
    (site.root / "tests" / "golden").mkdir(parents=True, exist_ok=True)
    config = site.root / "mkdocs.yml"
    nav = (
        "nav:\n  - Home: index.md\n  - Uses page: uses.md\n  - Source: source.md\n"
        "  - First: first.md\n  - Second: second.md\n  - Other: other.md\n"
        "  - Lab: labs/demo.ipynb\n"
    )
    # The book's theme and its search, whose index a dirty build must keep whole and fresh.
    text = config.read_text().replace("plugins:\n", "plugins:\n  - search\n", 1)
    text = text.replace("docs_dir: docs\n", "docs_dir: docs\ntheme:\n  name: material\n", 1)
    config.write_text(text + nav + book_watch())
    assert site.build("update").returncode == 0
    temp = tmp_path / "tmp"  # MkDocs serves from a folder it makes here (tempfile.mkdtemp)
    temp.mkdir()
    every = {"index.md", "uses.md", "source.md", "first.md", "second.md", "other.md"}
    every.add("labs/demo.md")

    with serving(
        site.root,
        tmp_path / "serve.log",
        "--dirty",
        BOOK_CACHE=None,
        TMPDIR=str(temp),
        PYTHONUNBUFFERED="1",
    ) as served:
        wait_until(served, lambda h: "own output v1" in result(h) and "counted 3 items" in h)
        settled(served)
        (site_dir,) = temp.glob("mkdocs_*")
        assert set(page_outputs(site_dir)) == every
        assert "rendering the home page first (the first build)" in served.log()

        def step(edit, shown, expected: set[str], url: str = "uses/") -> str:
            before, mark = page_outputs(site_dir), len(served.log())
            edit()

            def shows() -> str | None:
                html = get(served.url + url)
                return html if shown(html) and "executed-book-pending" not in html else None

            served.until(shows, 180)
            settled(served)
            after = page_outputs(site_dir)
            again = {page for page in after if after[page] != before.get(page)}
            assert again == expected, served.log()[mark:]
            said = served.log()[mark:]
            assert "A 'dirty' build" not in said  # strict serve would fail on that warning
            searched(site_dir)
            return said

        # 1. a page's prose
        step(
            lambda: site.page("uses.md", USES.format(marker="two")),
            lambda h: "Intro two." in h,
            {"uses.md"},
        )
        index = searched(site_dir)
        assert "Intro two." in index["uses/"] and "Intro one." not in str(index)
        # 2. a snippet two pages show
        step(
            lambda: site.snippet("shared/marker.py", "marker_two = 2\n"),
            lambda h: "marker_two" in h,
            {"first.md", "second.md"},
            url="first/",
        )
        assert "marker_two" in get(served.url + "second/")
        index = searched(site_dir)
        assert "marker_two" in index["first/"] and "marker_two" in index["second/"]
        assert "marker_one" not in str(index)  # neither page's old entries are left
        # 3. a page's own snippet (shown from the golden while it runs, then live)
        step(
            lambda: site.snippet("uses/own.py", "print('own output v2')\n"),
            lambda h: "own output v2" in result(h),
            {"uses.md"},
        )
        # 4. its golden, rewritten by the update mode while the server runs
        step(lambda: site.build("update"), lambda h: "executed-book-drift" not in h, {"uses.md"})
        # 5. a fact another page quotes
        step(
            lambda: site.snippet("source/counted.py", counted(5)),
            lambda h: "counted 5 items" in h,
            {"source.md", "uses.md"},
        )
        # 6. a lab
        cells = [
            dict(c, source="x = 8\nprint('x is', x)") if c["id"] == "start" else c for c in DEMO
        ]
        lab = site.root / "docs" / "labs" / "demo.ipynb"
        step(
            lambda: lab.write_text(notebook(cells)),
            lambda h: "x is 8" in h,
            {"labs/demo.md"},
            url="labs/demo/",
        )
        # 7. a file no page reads: every page, and the log says why
        said = step(lambda: site.snippet("notes.txt", "a note\n"), lambda h: True, every)
        assert (
            "rendering every page (snippets/notes.txt changed, and no page is known to read it)"
            in said
        )
        # 8. the nav
        said = step(
            lambda: config.write_text(config.read_text().replace("Uses page", "Renamed")),
            lambda h: "Renamed" in h,
            every,
            url="other/",
        )
        assert "rendering every page (mkdocs.yml and the nav changed)" in said
        # 9. mkdocs.yml
        said = step(
            lambda: config.write_text(
                config.read_text().replace("site_name: fixture", "site_name: fixture two")
            ),
            lambda h: "fixture two" in h,
            every,
            url="other/",
        )
        assert "rendering every page (mkdocs.yml changed)" in said
