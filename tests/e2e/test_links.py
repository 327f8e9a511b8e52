"""The built site's links: every internal link and anchor resolves, and nothing is fetched from
another host. Read from the built HTML, with no network."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

pytestmark = pytest.mark.build

# Attributes that make the browser fetch something as the page loads.
_LOADS = {("script", "src"), ("img", "src"), ("link", "href"), ("iframe", "src")}
_LOADS |= {("source", "src"), ("video", "src"), ("audio", "src"), ("embed", "src")}


class Page(HTMLParser):
    """The ids a page defines, the links it makes and the resources it loads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.loads: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("id", "name") if tag == "a" else ("id",):
            if attrs.get(name):
                self.ids.add(attrs[name])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        for element, attribute in _LOADS:
            if tag == element and attrs.get(attribute):
                self.loads.append(attrs[attribute])


def read(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def target_file(site: Path, url_path: str) -> Path:
    path = site / unquote(url_path).lstrip("/")
    return path / "index.html" if url_path.endswith("/") or path.is_dir() else path


@pytest.fixture(scope="module")
def pages(built_book) -> dict[Path, Page]:
    return {html: read(html) for html in sorted(built_book.rglob("*.html"))}


def internal_problems(site: Path, pages: dict[Path, Page]) -> list[str]:
    """Every internal link of every page, resolved like a browser would; what does not resolve."""
    base = "http://book.invalid/"
    problems = []
    for html, page in pages.items():
        here = base + html.relative_to(site).as_posix()
        for href in page.links:
            url = urlsplit(urljoin(here, href))
            if url.scheme not in ("http", "https") or url.netloc != "book.invalid":
                continue  # another site, mailto:, ...: not ours to resolve
            target = target_file(site, url.path)
            where = f"{html.relative_to(site)}: {href}"
            if not target.is_file():
                problems.append(f"{where}: no file {target.relative_to(site)}")
                continue
            fragment = unquote(url.fragment)
            if fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else read(target).ids
                if fragment not in ids:
                    problems.append(f"{where}: no anchor #{fragment}")
    return problems


def test_every_internal_link_and_anchor_resolves(built_book, pages):
    assert len(pages) >= 15
    links = sum(len(page.links) for page in pages.values())
    assert links > 500  # the navigation alone links every page from every page
    assert internal_problems(built_book, pages) == []


def test_the_link_check_finds_a_broken_link_and_a_broken_anchor(built_book, pages, tmp_path):
    """The check above can fail: a page with one missing file and one missing anchor."""
    broken = tmp_path / "broken.html"
    broken.write_text('<a href="tracers/#no-such-anchor">x</a><a href="no-such-page/">y</a>')
    problems = internal_problems(tmp_path, {broken: read(broken)})
    assert [p.split(": ")[-1] for p in problems] == [
        "no file tracers/index.html",
        "no file no-such-page/index.html",
    ]
    (tmp_path / "tracers").mkdir()
    (tmp_path / "tracers" / "index.html").write_text('<h2 id="real">r</h2>')
    problems = internal_problems(tmp_path, {broken: read(broken)})
    assert problems[0].endswith("no anchor #no-such-anchor")


def test_nothing_loads_from_another_host(built_book, pages):
    """Scripts, styles, images and fonts all come from the site itself."""
    outside = [
        f"{html.relative_to(built_book)}: {src}"
        for html, page in pages.items()
        for src in page.loads
        if urlsplit(src).scheme in ("http", "https") or src.startswith("//")
    ]
    assert outside == []
    for css in built_book.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        remote = re.findall(r"url\(\s*['\"]?(https?:)?//[^)]*\)|@import\s+url\(['\"]?https?:", text)
        assert not remote, (css, remote[:3])


def test_the_site_ships_no_mathjax(built_book, pages):
    """The book has no math: no MathJax file in the site, and no page loads or configures one."""
    assert [p for p in built_book.rglob("*") if "mathjax" in p.name.lower()] == []
    loading = [
        f"{html.relative_to(built_book)}: {src}"
        for html, page in pages.items()
        for src in page.loads
        if "mathjax" in src.lower()
    ]
    assert loading == []
    mentions = [
        html.relative_to(built_book)
        for html in pages
        if re.search(r"mathjax|arithmatex", html.read_text(encoding="utf-8"), re.IGNORECASE)
    ]
    assert mentions == []
