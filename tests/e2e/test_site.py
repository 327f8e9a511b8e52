"""The built book in a real browser (Debian's chromium), served from localhost with no network.

It opens every page and fails on any console error, failed request or request to another
host; it searches, switches the theme, checks the jaxpr colours, checks that every chapter and
lab page that prints a jaxpr highlights it, and saves a screenshot of one chapter in each
theme. The screenshots are written to the test's temporary folder and copied to
`.cache/screenshots/` (git-ignored), named `<chapter>-light.png` and `<chapter>-dark.png`.
"""

from __future__ import annotations

import re
import shutil
from importlib.metadata import version
from urllib.parse import urlsplit

import jax
import pytest

from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.goldens.store import parse as parse_golden
from conftest import REPO, jaxpr_goldens, page_paths, static_server, visit

pytestmark = [pytest.mark.build, pytest.mark.browser]

SCREENSHOTS = REPO / ".cache" / "screenshots"
CHAPTER = "tracers"
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
# The parts of a jaxpr the lexer marks, as Pygments CSS classes.
JAXPR_CLASSES = {"k": "keyword", "kt": "type", "nf": "primitive", "nv": "binder"}
JAXPR_CLASSES |= {"na": "parameter", "m": "number"}


@pytest.fixture(scope="module")
def served(built_book):
    with static_server(built_book) as base:
        yield base


@pytest.fixture
def new_page(browser):
    """A fresh page in its own context (its own storage, so the theme starts from default)."""
    contexts = []

    def make(scheme: str = "light"):
        context = browser.new_context(
            viewport={"width": 1280, "height": 1000}, color_scheme=scheme, service_workers="block"
        )
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


class Watch:
    """Everything that went wrong while a page loaded."""

    def __init__(self, page) -> None:
        self.problems: list[str] = []
        self.requests: list[str] = []
        self.aborted: list[str] = []
        self.loaded: set[str] = set()
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("request", self._request)
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def _failed(self, request) -> None:
        # Moving to the next page aborts what the last one still fetched (the search worker's
        # index, on a busy machine): that is no failure if the same URL loads elsewhere.
        if "ERR_ABORTED" in (request.failure or ""):
            self.aborted.append(request.url)
        else:
            self.problems.append(f"failed: {request.url} {request.failure}")

    def never_loaded(self) -> list[str]:
        """Aborted requests whose URL never answered on any page."""
        return [f"aborted, never loaded: {url}" for url in self.aborted if url not in self.loaded]

    def _console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text}")

    def _request(self, request) -> None:
        self.requests.append(request.url)
        url = urlsplit(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if url.hostname not in LOCAL_HOSTS:
            self.problems.append(f"request to another host: {request.url}")

    def _response(self, response) -> None:
        if response.status < 400:
            self.loaded.add(response.url)
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")


def test_every_page_loads_cleanly_from_localhost_alone(built_book, served, new_page):
    paths = page_paths(built_book)
    assert "" in paths and f"{CHAPTER}/" in paths and len(paths) >= 15
    page = new_page()
    watch = Watch(page)
    for path in paths:
        response = visit(page, served + path)
        expected = 404 if path == "404.html" else 200  # the static server's status for it
        assert response is not None and response.status in (200, expected), path
        assert page.locator("h1").count() >= 1, path
    assert watch.problems == []
    assert watch.never_loaded() == []
    # The pages really loaded their scripts, styles and the search index from the site.
    assert any(urlsplit(url).path.endswith(".js") for url in watch.requests)
    assert any(urlsplit(url).path.endswith(".css") for url in watch.requests)
    assert any("search" in url for url in watch.requests)


def test_the_watch_sees_a_request_to_another_host(served, new_page, tmp_path):
    """The check above can fail: a page that asks another host for a script is reported."""
    (tmp_path / "index.html").write_text(
        '<html><body><script src="http://fonts.example.invalid/x.js"></script>'
        '<script src="gone.js"></script></body></html>'
    )
    page = new_page()
    watch = Watch(page)
    page.route(
        "http://fonts.example.invalid/**", lambda route: route.abort()
    )  # never leaves the machine
    page.route("**/gone.js", lambda route: route.abort("aborted"))  # never answers anywhere
    with static_server(tmp_path) as base:
        page.goto(base)
    assert any("another host" in p for p in watch.problems)
    assert any("failed" in p for p in watch.problems)
    assert any(p.endswith("/gone.js") for p in watch.never_loaded())


def test_search_finds_the_tracer_error(served, new_page):
    page = new_page()
    visit(page, served)
    search = page.locator("input.md-search__input")
    search.click()
    search.press_sequentially("TracerBoolConversionError", delay=20)  # typed, as a reader would
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=20_000)
    text = page.locator(".md-search-result").inner_text()
    assert "TracerBoolConversionError" in text
    assert "control flow" in text.lower()


def test_material_features_a_reader_uses(served, new_page):
    """Sections in the navigation, a table of contents, copy buttons, tabs, footnotes."""
    page = new_page()
    visit(page, served + f"{CHAPTER}/")
    assert page.locator(".md-sidebar--primary .md-nav__item--section").count() >= 3
    headings = page.locator("article h2").count()
    assert headings >= 3
    assert page.locator(".md-sidebar--secondary .md-nav__link").count() >= headings
    assert page.locator(".highlight button[data-md-type=copy]").count() >= 3
    visit(page, served + "lesson/")  # the lesson's three depths are content tabs
    assert page.locator(".tabbed-set .tabbed-labels label").count() == 3
    page.locator(".tabbed-labels label", has_text="Developer").click()
    assert page.locator(".tabbed-block", has_text="Paying once").first.is_visible()
    visit(page, served + "guide/goldens/")  # the census table's footnote
    assert page.locator(".footnote li").count() >= 1


def scheme_of(page) -> tuple[str, str]:
    scheme = page.locator("body").get_attribute("data-md-color-scheme")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    return scheme, background


def test_the_dark_mode_toggle_changes_the_theme(served, new_page):
    page = new_page("light")
    visit(page, served + f"{CHAPTER}/")
    light = scheme_of(page)
    assert light[0] == "default"
    page.get_by_title("Switch to the dark theme").click()
    dark = scheme_of(page)
    assert dark[0] == "slate" and dark[1] != light[1]
    visit(page)  # the choice is remembered
    assert scheme_of(page) == dark
    page.get_by_title("Switch to the light theme").click()
    assert scheme_of(page) == light


_CONTRAST = """
([selector, cls]) => {
  const token = document.querySelector(selector + ' .' + cls);
  if (!token) return null;
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  let node = token, bg = null;
  while (node) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length < 4 || c[3] > 0) { bg = c; break; }
    node = node.parentElement;
  }
  const lum = ([r, g, b]) => {
    const lin = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const fg = rgb(getComputedStyle(token).color);
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  return {color: getComputedStyle(token).color, contrast: (hi + 0.05) / (lo + 0.05)};
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_jaxpr_outputs_are_highlighted_and_readable(served, new_page, scheme):
    """Each part of a jaxpr has its own colour, at least 4.5:1 against the code background."""
    page = new_page(scheme)
    visit(page, served + f"{CHAPTER}/")
    expected = "slate" if scheme == "dark" else "default"
    assert page.locator("body").get_attribute("data-md-color-scheme") == expected
    jaxpr = ".result .language-jaxpr"
    assert page.locator(jaxpr).count() >= 3
    found = {}
    for cls, part in JAXPR_CLASSES.items():
        measured = page.evaluate(_CONTRAST, [jaxpr, cls])
        assert measured is not None, f"no {part} ({cls}) token in a jaxpr output"
        assert measured["contrast"] >= 4.5, (scheme, part, measured)
        found[part] = measured["color"]
    # Types, primitives, binders and keywords are told apart by colour.
    parts = ("type", "primitive", "binder", "keyword")
    assert len({found[part] for part in parts}) == 4, found


def expected_devices(chapter: str) -> int:
    """A page's device count: what its session's snippets ask JAX for, else what this process
    sees. A `fresh` block runs alone in a process of its own, so it does not count."""
    if chapter.startswith("labs/"):
        sources = [REPO / "docs" / f"{chapter}.ipynb"]
    else:
        page = f"{chapter}.md"
        blocks = scan_page(page, (REPO / "docs" / page).read_text(encoding="utf-8"), REPO)
        sources = [REPO / b.snippet for b in blocks if b.options.get("fresh") != "true"]
    for snippet in sources:
        asked = re.search(r'\\?"jax_num_cpu_devices\\?", (\d+)', snippet.read_text())
        if asked and jax.default_backend() == "cpu":
            return int(asked[1])
    return jax.device_count()


def test_each_executed_page_says_how_it_was_made(built_book, served, new_page):
    executed = {
        page.stem for page in (REPO / "docs").glob("*.md") if 'exec="on"' in page.read_text()
    } | {f"labs/{lab.stem}" for lab in (REPO / "docs" / "labs").glob("*.ipynb")}
    assert CHAPTER in executed
    page = new_page()
    for path in page_paths(built_book):
        page.goto(served + path)
        note = page.locator(".executed-book-provenance")
        name = path.strip("/") or "index"
        if name not in executed:
            assert note.count() == 0, path
            continue
        assert note.count() == 1, path
        text = note.inner_text()
        devices = expected_devices(name)
        for said in (
            f"JAX {version('jax')}",
            f"jaxlib {version('jaxlib')}",
            "Python 3.",
            f"on the {jax.default_backend().upper()} backend with {devices} device"
            + ("" if devices == 1 else "s"),
        ):
            assert said in text, (path, said, text)
        assert note.locator("time.executed-book-build-date").count() == 1


def test_screenshots_of_a_chapter_in_both_themes(served, new_page, tmp_path):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for scheme in ("light", "dark"):
        page = new_page(scheme)
        visit(page, served + f"{CHAPTER}/")
        # The dense layer: source and a jaxpr with params, types and several primitives.
        dense = page.locator(".result", has_text="dot_general").first
        dense.evaluate("element => element.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(800)  # the header's title swaps with an animation on scroll
        shot = tmp_path / f"{CHAPTER}-{scheme}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 20_000
        shutil.copy(shot, SCREENSHOTS / shot.name)
    light = (SCREENSHOTS / f"{CHAPTER}-light.png").read_bytes()
    assert light != (SCREENSHOTS / f"{CHAPTER}-dark.png").read_bytes()


def pages_printing_jaxprs() -> dict[str, int]:
    """Each chapter and lab page whose blocks print a jaxpr, by URL path, with how many do.

    Read from the goldens, not from the site: a page whose output lost its highlighting (or
    its jaxpr) is still expected to show one.
    """
    golden_dir = REPO / "tests" / "golden"
    found: dict[str, int] = {}
    for path in jaxpr_goldens():
        if "{ lambda " in parse_golden(path.read_text()).output:
            page = path.parent.relative_to(golden_dir).as_posix() + "/"
            found[page] = found.get(page, 0) + 1
    return found


# Every block output on a page (a chapter's `.result`, a lab cell's output area) that shows a
# jaxpr, and whether the jaxpr lexer coloured it with the book's jaxpr colours (book.css).
_JAXPR_OUTPUTS = """
() => {
  const hex = (value) => {
    const v = value.trim().replace('#', '');
    const n = [0, 2, 4].map((i) => parseInt(v.slice(i, i + 2), 16));
    return `rgb(${n[0]}, ${n[1]}, ${n[2]})`;
  };
  const outputs = [...document.querySelectorAll('.result, .jp-OutputArea-output')]
    .filter((e) => e.textContent.includes('{ lambda '));
  return outputs.map((e) => {
    const code = e.matches('.language-jaxpr') ? e : e.querySelector('.language-jaxpr');
    const text = e.textContent.trim().slice(0, 60);
    if (!code) return {text, highlighted: false};
    const style = getComputedStyle(code);
    const colours = {};
    for (const [cls, part] of [['nf', 'primitive'], ['kt', 'type'], ['k', 'keyword']]) {
      const token = code.querySelector('.' + cls);
      colours[part] = token && getComputedStyle(token).color === hex(
        style.getPropertyValue('--jaxpr-' + part));
    }
    return {text, highlighted: Object.values(colours).every(Boolean), colours};
  });
}
"""


def jaxpr_outputs(page) -> list[dict]:
    return page.evaluate(_JAXPR_OUTPUTS)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_that_prints_a_jaxpr_highlights_it(served, new_page, scheme):
    """Chapters and labs alike: each output holding a jaxpr has the jaxpr lexer's colours."""
    expected = pages_printing_jaxprs()
    assert any(p.startswith("labs/") for p in expected) and len(expected) >= 10, expected
    page = new_page(scheme)
    for path, count in expected.items():
        visit(page, served + path)
        outputs = jaxpr_outputs(page)
        assert len(outputs) >= count, (path, count, outputs)
        plain = [o for o in outputs if not o["highlighted"]]
        assert plain == [], (scheme, path, plain)


def test_the_highlight_check_sees_a_jaxpr_printed_as_plain_text(new_page, tmp_path):
    """The check above can fail: a lab output with the jaxpr in a bare <pre> is reported."""
    (tmp_path / "index.html").write_text(
        '<div class="jp-OutputArea-output"><pre>{ lambda ; a:f32[]. let  in (a,) }</pre></div>'
    )
    page = new_page()
    with static_server(tmp_path) as base:
        page.goto(base)
        assert jaxpr_outputs(page) == [
            {"text": "{ lambda ; a:f32[]. let  in (a,) }", "highlighted": False}
        ]


def test_a_visited_page_is_read_whole_on_a_slow_machine(served, new_page):
    """The checks above read a page only when all of it is there, however busy the machine.

    With the browser's CPU slowed twentyfold the network is quiet long before the parser
    reaches the end of a long chapter; a check that waited for that alone saw part of it.
    """
    page = new_page()
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 20})
    visit(page, served + "control-flow/", timeout=300_000)
    assert page.evaluate("document.readyState") == "complete"
    assert len(jaxpr_outputs(page)) == pages_printing_jaxprs()["control-flow/"]
