"""The built book as a reader sees it, measured in a real browser (Debian's chromium) at a
desktop width and at a phone's: no code box cuts its text off, the copy button covers no text,
a wide table scrolls instead of being cut off, a code box is titled for the reader and not with
a path of the repository, a search for a JAX term lists the chapters before the maintainers'
guide, and an output that mixes text with a jaxpr colours only the jaxpr.

Every page is opened once at each width in one browser session (`readings`), and each test
reads its part of what was measured.
"""

from __future__ import annotations

import json

import pytest
import yaml

from bookexec._internal.goldens.store import parse as parse_golden
from conftest import REPO, page_paths, static_server, visit

pytestmark = [pytest.mark.build, pytest.mark.browser]

# A desktop window and a phone's (an iPhone 12 to 15 is 390 CSS pixels wide).
WIDTHS = {"desktop": (1280, 1000), "phone": (390, 844)}
# The phone again, in the dark palette, over the reader's pages (the guide's are not).
DARK = "phone, dark"
# JAX terms a reader searches for, and where the answer should come from.
SEARCHES = ("cache", "jaxpr", "tracer", "vmap")
GUIDE = "guide/"
LABS = "labs/"
# What a reader types (an error's name, a transformation, a phrase): a chapter comes first.
READER_QUERIES = (
    "ConcretizationTypeError",
    "vmap",
    "tracer leak",
    "TracerBoolConversionError",
    "cache",
    "donate",
    "pytree",
)
# The error control-flow's prose takes apart, printed whole by its golden.
TRACER_ERROR = REPO / "tests" / "golden" / "control-flow" / "python-if.txt"

# What one page shows, with every closed part opened (a lab's worked solution, every tab), as
# a reader who opens them sees it:
# - clipped: code boxes whose text is wider than the box (cut off, or hidden behind a scroll);
# - covered: code boxes whose copy button lies over a character of their text;
# - tables: tables cut off by the page (not whole in view, and in no scrollable wrapper);
# - overflow: how far the page itself is wider than the window;
# - titles: the titles of the code boxes;
# - mixed: in outputs that hold a jaxpr, the text outside the jaxpr that has a token's colour;
# - boxes: the text of each output box (to find the one that prints the tracer error).
_MEASURE = r"""
() => {
  document.querySelectorAll('.md-content details').forEach((d) => { d.open = true; });
  const style = document.createElement('style');
  style.textContent = '.tabbed-set > .tabbed-content > .tabbed-block {display: block !important}';
  document.head.appendChild(style);
  const content = document.querySelector('.md-content');
  const found = {
    clipped: [], covered: [], tables: [], titles: [], mixed: [], boxes: [], wrapped: [],
    steppers: [], uncued: []};
  const name = (el) => {
    const box = el.closest(
      '[data-executed-book-source],[data-executed-book-output],[data-executed-book-console]');
    const block = box && [...box.attributes].find((a) => a.name.startsWith('data-executed-book-'));
    const kind = block && block.name.slice('data-executed-book-'.length);
    const what = block ? `${kind} of block '${block.value}'` : el.tagName;
    return `${what}: ${el.textContent.trim().split('\n')[0].slice(0, 50)}`;
  };
  for (const pre of content.querySelectorAll('pre')) {
    for (const el of [pre, ...pre.querySelectorAll(':scope > code')]) {
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        found.clipped.push(`${name(pre)} (${el.scrollWidth}px of text in ${el.clientWidth}px)`);
      }
    }
  }
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  for (const button of content.querySelectorAll('button[data-md-type=copy], .md-clipboard')) {
    // What covers the text: the bar of code buttons, with its background, or the button.
    const place = (button.closest('.md-code__nav') || button).getBoundingClientRect();
    const holder = button.closest('.highlight, pre');
    const code = holder && holder.querySelector('code');
    if (!code || place.width === 0) continue;
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let hit = null;
    for (let node = walker.nextNode(); node && !hit; node = walker.nextNode()) {
      for (const run of node.data.matchAll(/\S+/g)) {
        range.setStart(node, run.index);
        range.setEnd(node, run.index + run[0].length);
        if ([...range.getClientRects()].some((r) => meet(r, place))) { hit = run[0]; break; }
      }
    }
    if (hit) found.covered.push(`${name(code)} (the button covers ${JSON.stringify(hit)})`);
  }
  // A table is whole in view, or in a scrolling box that is, which scrolls to both its ends.
  const right = document.documentElement.clientWidth;
  const inView = (r) => r.left >= -0.5 && r.right <= right + 0.5;
  for (const table of content.querySelectorAll('table')) {
    const box = table.getBoundingClientRect();
    if (box.width === 0 || inView(box)) continue;
    let scroller = null;
    for (let el = table; el && el !== content; el = el.parentElement) {
      const style = getComputedStyle(el);  // a table's own overflow scrolls nothing
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      if (scrolls && !style.display.includes('table') && inView(el.getBoundingClientRect())) {
        scroller = el;
        break;
      }
    }
    let reached = false;
    if (scroller) {
      const frame = scroller.getBoundingClientRect();
      const before = scroller.scrollLeft;
      scroller.scrollLeft = scroller.scrollWidth;
      const end = table.getBoundingClientRect().right <= frame.right + 0.5;
      scroller.scrollLeft = 0;
      const start = table.getBoundingClientRect().left >= frame.left - 0.5;
      scroller.scrollLeft = before;
      reached = start && end;
    }
    if (!reached) {
      const span = `${Math.round(box.left)}px to ${Math.round(box.right)}px of ${right}px`;
      const how = scroller ? 'does not scroll to its ends' : 'is cut off, in no scrolling box';
      found.tables.push(`${how} (${span}): ${table.textContent.trim().slice(0, 60)}`);
    }
  }
  // A line of a code box shown on more than one row continues right of its own indentation
  // (the end of its leading spaces, or its first character): a continuation at or left of
  // that column reads as a new, dedented statement. A line indented past much of the box
  // continues in the box's right part, which is no statement's column either.
  const range = document.createRange();
  const rows = (node, from, to) => {
    range.setStart(node, from);
    range.setEnd(node, to);
    return [...range.getClientRects()].filter((r) => r.width > 0);
  };
  for (const box of content.querySelectorAll('pre > code, .jupyter-wrapper pre')) {
    if (box.clientWidth === 0) continue;
    const lines = [[]];
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      let at = 0;
      for (const part of node.data.split('\n')) {
        if (part) lines[lines.length - 1].push([node, at, at + part.length]);
        at += part.length + 1;
        if (at <= node.data.length) lines.push([]);
      }
    }
    lines.forEach((segments, number) => {
      const runs = segments.flatMap(([node, from, to]) =>
        [...node.data.slice(from, to).matchAll(/\S+/g)].map((m) =>
          [node, from + m.index, from + m.index + m[0].length]));
      if (!runs.length) return;
      const [node, from] = segments[0];
      const lead = /^[ \t]*/.exec(node.data.slice(from))[0].length;
      const first = lead ? rows(node, from, from + lead)[0] : rows(node, from, from + 1)[0];
      if (!first) return;
      const frame = box.getBoundingClientRect();
      const indent = Math.min(lead ? first.right : first.left, frame.left + 0.4 * frame.width);
      const later = runs.flatMap((run) => rows(...run))
        .filter((r) => r.top > first.top + first.height / 2);
      const starts = Math.min(...later.map((r) => r.left));
      if (later.length && starts <= indent + 1) {
        const text = segments.map(([node, from, to]) => node.data.slice(from, to)).join('');
        const shown = JSON.stringify(text.trim().slice(0, 40));
        found.wrapped.push(`${name(box)} line ${number + 1} ${shown} continues`
          + ` at ${Math.round(starts - indent)}px from its indentation`);
      }
    });
  }
  // A stepper shows the whole of every line: no list of it is wider than its box.
  for (const list of content.querySelectorAll('figure.executed-book-stepper ol')) {
    const cut = [...list.querySelectorAll('code, samp')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1);
    if (list.scrollWidth > list.clientWidth + 1 || cut.length) {
      const figure = list.closest('figure');
      const what = cut.length ? `, ${JSON.stringify(cut[0].textContent.trim().slice(0, 40))}` : '';
      found.steppers.push(
        `${figure.id} ${list.className}: ${list.scrollWidth}px in ${list.clientWidth}px${what}`);
    }
  }
  // A table that scrolls in its box says so: its scroller draws a shadow at the edge.
  for (const table of content.querySelectorAll('table')) {
    for (let el = table; el && el !== content; el = el.parentElement) {
      const style = getComputedStyle(el);
      if (!['auto', 'scroll'].includes(style.overflowX) || el.scrollWidth <= el.clientWidth + 1) {
        continue;
      }
      if (!style.backgroundImage.includes('gradient')) {
        const size = `${el.scrollWidth}px in ${el.clientWidth}px`;
        found.uncued.push(`${table.textContent.trim().slice(0, 60)} (${size})`);
      }
      break;
    }
  }
  found.overflow = document.documentElement.scrollWidth - right;
  found.titles = [...content.querySelectorAll('.highlight .filename')].map((t) => t.textContent);
  // A token's colour comes from the class of a span around its text (the engine's own
  // marks, of measured values and hidden controls, are no token).
  const classed = (node, root) => {
    for (let el = node.parentElement; el && el !== root; el = el.parentElement) {
      const cls = [...el.classList].filter((c) => !c.startsWith('bookexec') && c !== 'book-line');
      if (el.tagName === 'SPAN' && cls.length) return cls.join(' ');
    }
    return '';
  };
  const outputs = '[data-executed-book-output] code, .jp-OutputArea-output';
  for (const code of content.querySelectorAll(outputs)) {
    const text = code.textContent;
    found.boxes.push(text);
    // Only an output coloured as jaxpr (an author may show one as a diff, with `result=`).
    if (!text.includes('{ lambda ') || !code.closest('.language-jaxpr')) continue;
    // The lines of each jaxpr: from its `{ lambda` (or a `let name =` before it) to its brace.
    const jaxprLine = new Set();
    for (let start = text.indexOf('{ lambda '); start !== -1; ) {
      let depth = 0, end = start;
      for (; end < text.length; end++) {
        depth += text[end] === '{' ? 1 : text[end] === '}' ? -1 : 0;
        if (depth === 0) break;
      }
      const first = text.slice(0, start).split('\n').length - 1;
      const last = text.slice(0, end).split('\n').length - 1;
      for (let line = first; line <= last; line++) jaxprLine.add(line);
      start = text.indexOf('{ lambda ', end);
    }
    const lines = text.split('\n');
    const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    let at = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const line = text.slice(0, at).split('\n').length - 1;
      const cls = classed(node, code);
      at += node.data.length;
      if (!cls || !node.data.trim()) continue;
      if (node.data.includes('\n')) continue;  // a multi-line token: none in plain text
      if (!jaxprLine.has(line)) {
        const said = `${JSON.stringify(node.data)} coloured as '${cls}'`;
        found.mixed.push(`${said} in the line ${JSON.stringify(lines[line])}`);
      }
    }
  }
  return found;
}
"""


@pytest.fixture(scope="module")
def readings(built_book, browser) -> dict[tuple[str, str], dict]:
    """What `_MEASURE` found on every page of the built book, by (width, page)."""
    found: dict[tuple[str, str], dict] = {}
    paths = page_paths(built_book)
    views = [(width, size, "light", paths) for width, size in WIDTHS.items()]
    views.append((DARK, WIDTHS["phone"], "dark", [p for p in paths if not p.startswith(GUIDE)]))
    with static_server(built_book) as base:
        for view, (x, y), scheme, shown in views:
            context = browser.new_context(viewport={"width": x, "height": y}, color_scheme=scheme)
            page = context.new_page()
            for path in shown:
                visit(page, base + path)
                found[(view, path)] = page.evaluate(_MEASURE)
            context.close()
    return found


def problems(readings: dict[tuple[str, str], dict], part: str) -> list[str]:
    return [
        f"{width} {path or 'home'}: {problem}"
        for (width, path), found in readings.items()
        for problem in found[part]
    ]


def test_no_code_box_cuts_its_text_off_on_a_desktop_or_a_phone(readings):
    assert {width for width, _ in readings} == {*WIDTHS, DARK}
    assert sum(len(found["boxes"]) for found in readings.values()) > 100  # it measured boxes
    clipped = problems(readings, "clipped")
    assert clipped == [], f"{len(clipped)} code boxes cut off:\n" + "\n".join(clipped[:40])


def test_the_tracer_error_the_prose_takes_apart_is_shown_whole(readings):
    message = parse_golden(TRACER_ERROR.read_text()).output.strip()
    assert "TracerBoolConversionError" in message
    assert max(len(line) for line in message.splitlines()) > 100  # wider than a phone
    for width in WIDTHS:
        found = readings[(width, "control-flow/")]
        assert [box for box in found["boxes"] if message in box], (width, message[:80])
        assert [box for box in found["clipped"] if "'python-if'" in box] == [], width


def test_a_wrapped_line_continues_indented_on_every_screen(readings):
    """At 1280 and 390 pixels and in the dark palette, over every chapter and lab: a code
    line too long for its box goes on past its own indentation, never at the left edge; a
    stepper cuts off no line; a table that scrolls in its box shows a cue that it does."""
    dark = {path for (view, path) in readings if view == DARK}
    assert "control-flow/" in dark and "labs/control-flow/" in dark and "guide/" not in dark
    wrapped = problems(readings, "wrapped")
    assert wrapped == [], f"{len(wrapped)} wrapped lines at the left edge:\n" + "\n".join(
        wrapped[:40]
    )
    steppers = problems(readings, "steppers")
    assert steppers == [], f"{len(steppers)} stepper lists cut off:\n" + "\n".join(steppers)
    uncued = problems(readings, "uncued")
    assert uncued == [], f"{len(uncued)} tables scroll with no cue:\n" + "\n".join(uncued[:40])


def test_the_copy_button_covers_no_text(readings):
    covered = problems(readings, "covered")
    assert covered == [], f"{len(covered)} copy buttons over text:\n" + "\n".join(covered[:40])


def test_on_a_phone_every_table_is_whole_or_scrolls(readings):
    tables = problems({k: v for k, v in readings.items() if k[0] == "phone"}, "tables")
    assert tables == [], "\n".join(tables[:40])
    wide = {path: found["overflow"] for (w, path), found in readings.items() if found["overflow"]}
    assert wide == {}, f"pages wider than the window (by px): {wide}"


def test_no_code_box_is_titled_with_a_repository_path(readings):
    titles = [title for found in readings.values() for title in found["titles"]]
    assert len(titles) > 100  # the source boxes keep a title
    assert [title for title in titles if "snippets/" in title] == []


def test_a_mixed_output_colours_only_its_jaxpr(readings):
    coloured = problems({k: v for k, v in readings.items() if k[0] == "desktop"}, "mixed")
    assert coloured == [], f"{len(coloured)} pieces of text coloured:\n" + "\n".join(coloured[:40])
    # An output of text lines, then a jaxpr, which stays coloured (the issue named tracers'
    # grad-inside, which since prints no jaxpr: control-flow's switch-jaxpr has the same shape).
    mixed = next(
        box for box in readings[("desktop", "control-flow/")]["boxes"] if "switch( 0): " in box
    )
    assert "{ lambda " in mixed


def index_boosts(site) -> dict[str, list[float]]:
    """The search boost of every entry of the built search index, by kind of page."""
    index = json.loads((site / "search" / "search_index.json").read_text())
    boosts: dict[str, list[float]] = {"guide": [], "lab": [], "chapter": [], "other": []}
    for entry in index["docs"]:
        boosts[kind_of(entry["location"])].append(entry.get("boost", 1.0))
    return boosts


def chapters() -> set[str]:
    """The chapters' URL paths: the pages of mkdocs.yml's nav sections before the appendix."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # !relative and such
    nav = yaml.load((REPO / "mkdocs.yml").read_text(), Loader)["nav"]
    book = next(entry["Book"] for entry in nav if "Book" in entry)  # the reader's tab
    found: set[str] = set()
    for section in book:
        title, pages = next(iter(section.items()))
        if title == "Appendix":
            return found
        if isinstance(pages, list):
            found |= {str(p).removesuffix(".md") for page in pages for p in page.values()}
    return found


def kind_of(location: str) -> str:
    """A page's kind from its URL path: guide, lab, chapter or other (home, appendix, review,
    the pages about the book)."""
    page = location.split("#")[0].split("?")[0].strip("/")
    if page.startswith(GUIDE):
        return "guide"
    if page.startswith(LABS):
        return "lab"
    return "chapter" if page in chapters() else "other"


def test_the_search_index_holds_no_guide_page_and_ranks_labs_below_chapters(built_book):
    boosts = index_boosts(built_book)
    assert boosts["guide"] == [], "the guide is in the reader's search index"
    assert boosts["lab"] and boosts["chapter"] and boosts["other"]
    assert max(boosts["lab"]) < min(boosts["chapter"]), boosts


def searched(page, query: str) -> list[str]:
    """The pages Material's search box lists for `query`, in its order, as typed by a reader."""
    search = page.locator("input.md-search__input")
    search.click()
    search.fill("")
    search.press_sequentially(query, delay=20)
    page.locator(".md-search-result__item").first.wait_for(timeout=20_000)
    page.wait_for_timeout(500)  # the list is replaced as each letter arrives
    links = page.locator(".md-search-result__item > .md-search-result__link")
    return [href.split("#")[0] for href in links.evaluate_all("l => l.map((a) => a.href)")]


@pytest.mark.parametrize("query", SEARCHES)
def test_a_search_for_a_jax_term_lists_the_chapters_first(built_book, browser, query):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    try:
        with static_server(built_book) as base:
            visit(page, base)
            pages = searched(page, query)
    finally:
        context.close()
    guide = [i for i, url in enumerate(pages) if f"/{GUIDE}" in url]
    reader = [i for i, url in enumerate(pages) if f"/{GUIDE}" not in url]
    assert reader, (query, pages)
    assert not guide or max(reader) < min(guide), (query, [p.split("/", 3)[-1] for p in pages])


def listed(page, query: str) -> list[str]:
    """`searched`, for a query that may find nothing: Material then says so."""
    search = page.locator("input.md-search__input")
    search.click()
    search.fill("")
    search.press_sequentially(query, delay=20)
    page.wait_for_function(
        "() => /matching/i.test(document.querySelector('.md-search-result__meta').textContent)",
        timeout=20_000,
    )
    page.wait_for_timeout(500)  # the list is replaced as each letter arrives
    links = page.locator(".md-search-result__item > .md-search-result__link")
    return [href.split("#")[0] for href in links.evaluate_all("l => l.map((a) => a.href)")]


def test_a_reader_query_lists_a_chapter_first(built_book, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    first = {}
    try:
        with static_server(built_book) as base:
            visit(page, base)
            for query in READER_QUERIES:
                pages = listed(page, query)
                first[query] = pages[0].removeprefix(base) if pages else "nothing found"
    finally:
        context.close()
    wrong = {query: url for query, url in first.items() if kind_of(url) != "chapter"}
    assert wrong == {}, f"the first result is no chapter: {wrong}"


def test_the_table_check_sees_a_table_cut_off(browser, tmp_path):
    """The table check above can fail (Material's wrapper already scrolled every table of the
    book before it was written): a table wider than a phone in a box that clips it is reported,
    the same table in a box that scrolls is not."""
    row = '<table><tr><td style="white-space: nowrap">' + "wide " * 80 + "</td></tr></table>"
    (tmp_path / "index.html").write_text(
        '<html><body><div class="md-content">'
        f'<div style="width: 300px; overflow: hidden">{row}</div>'
        f'<div style="width: 300px; overflow-x: auto">{row}</div>'
        "</div></body></html>"
    )
    context = browser.new_context(viewport={"width": WIDTHS["phone"][0], "height": 844})
    try:
        page = context.new_page()
        with static_server(tmp_path) as base:
            visit(page, base)
            found = page.evaluate(_MEASURE)
    finally:
        context.close()
    assert len(found["tables"]) == 1 and "in no scrolling box" in found["tables"][0]
