"""The README is short and the guides are pages of the site: in the nav, listed by the README,
and running nothing (their code is shown, never executed). No build: read from the files."""

from __future__ import annotations

import re

import yaml

from bookexec._internal.discover.blocks import scan_page
from conftest import REPO

GUIDE = REPO / "docs" / "guide"
SECTION = "Authors' and maintainers' guide"


def _nav_section() -> list[str]:
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    for item in config["nav"]:
        if isinstance(item, dict) and SECTION in item:
            return [page for entry in item[SECTION] for page in entry.values()]
    raise AssertionError(f"mkdocs.yml's nav has no section {SECTION!r}")


def test_the_guide_is_a_tab_of_its_own_out_of_the_readers_book_and_search():
    """Issue 52: the authors' guide is in the site but not among the chapters: the nav has two
    top-level entries, shown as tabs (the reader's book, the guide), no guide page sits in the
    reader's, and each guide page keeps out of the reader's search results."""
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    assert "navigation.tabs" in config["theme"]["features"]
    assert [next(iter(item)) for item in config["nav"]] == ["Book", SECTION]

    def pages(entries: object) -> list[str]:
        if isinstance(entries, str):
            return [entries]
        items = entries.values() if isinstance(entries, dict) else entries
        return [page for item in items for page in pages(item)]  # type: ignore[union-attr]

    book = pages(config["nav"][0]["Book"])
    assert "index.md" in book and not [page for page in book if page.startswith("guide/")]
    for path in sorted(GUIDE.glob("*.md")):
        front = path.read_text().split("\n---\n", 1)[0]
        assert re.search(r"^search:\n\s+exclude: true$", front, re.M), path.name


def test_the_readme_is_read_in_two_minutes():
    readme = (REPO / "README.md").read_bytes()
    assert len(readme) <= 8 * 1024, f"README.md is {len(readme)} bytes; keep it under 8 KB"
    text = readme.decode()
    assert "./book serve" in text and "./book test" in text


def test_every_guide_page_is_in_the_nav_and_the_readme():
    pages = sorted(f"guide/{path.name}" for path in GUIDE.glob("*.md"))
    assert len(pages) >= 10
    assert sorted(_nav_section()) == pages
    listed = sorted(re.findall(r"`docs/(guide/[\w-]+\.md)`", (REPO / "README.md").read_text()))
    assert listed == pages, "the README's table of guide pages is not the guide's pages"


def test_the_guide_runs_nothing():
    """Its fences are examples to read: none is executed, so none needs a golden."""
    for path in sorted(GUIDE.glob("*.md")):
        text = path.read_text()
        assert scan_page(f"guide/{path.name}", text, REPO) == [], path.name
    assert "```python" in (GUIDE / "facts.md").read_text()  # shown, and still not run


# A path of the repository in inline code: `tests/test_x.py`, `hooks/bookexec/`,
# `bookexec/_internal/files.py` (under hooks/), with an optional `::test_name` after a test file.
NAMED_PATH = re.compile(
    r"`((?:tests|hooks|benchmarks|snippets|docs|\.github|\.ci|bookexec)/[^`\s:]*)"
)


def named_paths(text: str) -> list[str]:
    """The repository paths a page names, but patterns (`snippets/<chapter>/`, `BOOK_*`)."""
    return [p for p in NAMED_PATH.findall(text) if not set(p) & set("<*")]


def missing_paths(text: str) -> list[str]:
    """The paths a page names that are not in the repository."""
    return [
        path
        for path in named_paths(text)
        if not (REPO / ("hooks/" if path.startswith("bookexec/") else "") / path).exists()
    ]


def test_every_file_the_guide_names_exists():
    """A module or a test moved or renamed leaves no guide page pointing at nothing."""
    named = 0
    for path in [*sorted(GUIDE.glob("*.md")), REPO / "README.md"]:
        text = path.read_text()
        named += len(named_paths(text))
        assert missing_paths(text) == [], f"{path.name} names files that are not there"
    assert named >= 100  # the pattern still finds what the pages name
    assert missing_paths("see `tests/test_gone.py::test_x` and `bookexec/nowhere.py`") == [
        "tests/test_gone.py",
        "bookexec/nowhere.py",
    ]


def test_every_guide_page_is_audited_for_versions_only():
    """A guide page's numbers are the tool's: one equal to a value a block records under another
    JAX must not fail that upgrade's build (tests/e2e/test_upgrade.py builds under two)."""
    for page in sorted(GUIDE.glob("*.md")):
        text = page.read_text()
        assert text.startswith("---\n"), f"{page.name} has no front matter"
        meta = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
        assert str(meta.get("prose-audit-versions-only", "")).strip(), page.name


def test_every_guide_page_stays_out_of_the_readers_search():
    """A reader's search for a JAX term lists the chapters, and the index every page downloads
    carries none of the guide: each guide page excludes itself with Material's `search:
    exclude:` (tests/e2e/test_readable_outputs.py reads the built index and searches)."""
    excluded = {}
    for page in sorted(GUIDE.glob("*.md")):
        text = page.read_text()
        meta = yaml.safe_load(text[4 : text.index("\n---\n", 4)])
        excluded[page.name] = (meta.get("search") or {}).get("exclude")
    assert excluded and set(excluded.values()) == {True}, excluded


def test_the_home_page_promises_of_a_page_s_code_only_what_holds():
    """Issue 53: the home page promised that a chapter's blocks, copied in order into a file,
    print what the page shows; a chapter with a block that raises stops there as a script.
    Such chapters exist (read from their fences), so the promise names notebooks and says what
    an error example does to a script."""
    chapters = [p for p in (REPO / "docs").glob("*.md") if 'raises="' in p.read_text()]
    assert chapters  # the case the promise must cover
    home = " ".join((REPO / "docs" / "index.md").read_text().split())
    start = home.index("The code shown is all you need")
    promise = home[start : home.index("Timings and their ratios", start)]
    assert "into a file" not in promise, promise
    assert "raises it" in promise and "a script of the whole page" in promise, promise
