"""The page is checked, not only the golden (issue 24).

- Nothing a block holds becomes markup: outputs and sources with runs of backticks or tildes,
  closing tags, `<script>`, the engine's own marker text, Python-Markdown's placeholder
  characters or a snippet include line are shown exactly as printed, on a real fixture build.
- The final HTML is verified: a block missing, shown twice or with text spilling into its box
  fails the strict build, naming the block; under serve the page says so at its top.
- A display option that is not understood, a bare word among the options, a fence indented
  into an indented code block and a fence inside an HTML comment are errors naming the page
  and the line, before anything runs.
- The real book's final HTML: every planned block of every chapter once, with the text of its
  golden, and no engine marker anywhere in the site.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.errors import BookError
from conftest import REPO, Site

# What each block prints; every one once closed its fence or became markup (see the module
# docstring). The code is run by plain Python too, to know what it prints.
OUTPUTS = {
    "backticks": 'print("`" * 8)\nprint("<script>alert(1)</script>")\nprint("`" * 12)\n',
    "tildes": 'print("~" * 8)\nprint("<img src=x onerror=alert(2)>")\nprint("~" * 8)\n',
    "closing-tags": 'print("</code></pre></div></div><script>alert(3)</script>")\n',
    "marker": 'print("bookexecvalue3c623ex and bookexecvalue03c623ex")\nprint("__bookexec__")\n',
    "placeholder": 'print("\\x02wzxhzdk:0\\x03 and \\x02amp\\x03")\n',
    "include-line": "print('--8<-- \"mkdocs.yml\"')\n",
    "leading-blank": 'print()\nprint("after a blank line")\n',
}
# A snippet whose own text would close the source's fence.
SOURCE = '''\
shown = """
`````````
</code></pre></div><img src=x onerror=alert(4)>
~~~~~~~~~
"""
print(len(shown))
'''
TIMED = """\
from bookexec.facts import timing

t = timing("noop", lambda: None)
print(f"took {t}")
print("bookexecvalue3c623ex")
"""


def _write_breakouts(site: Site) -> None:
    fences = [
        f'```python exec="on" id="{name}"\n--8<-- "snippets/ch/{name}.py"\n```\n'
        for name in [*OUTPUTS, "source", "timed"]
    ]
    site.page("ch.md", "# Ch\n\n" + "\n".join(fences))
    for name, code in OUTPUTS.items():
        site.snippet(f"ch/{name}.py", code)
    site.snippet("ch/source.py", SOURCE)
    site.snippet("ch/timed.py", TIMED)


def make_breakouts(site: Site) -> None:
    """The fixture book, built in update mode (its goldens are new)."""
    _write_breakouts(site)
    result = site.build("update")
    assert result.returncode == 0, result.output
    site.__dict__["log"] = result.output


class _Page(HTMLParser):
    """What a browser would make of the page: each `.result` box's code text, each source box's
    code text (a `.highlight` outside `.result`), and the elements the content holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.results: list[str] = []
        self.sources: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []  # "result", "source", "code" or "" per open element
        self.measured = 0
        self.scripts: list[str] = []  # the text of each script element

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        classes = (values.get("class") or "").split()
        self.tags.append((tag, values))
        if "executed-book-measured" in classes:
            self.measured += 1
        kind = ""
        if tag == "div" and classes == ["result"]:
            kind = "result"
            self.results.append("")
        elif tag == "div" and "highlight" in classes and "result" not in self.stack:
            kind = "source"
            self.sources.append("")
        elif tag == "code":
            kind = "code"
        elif tag == "script":
            kind = "script"
            self.scripts.append("")
        if tag not in ("img", "br", "hr", "input", "meta", "link"):
            self.stack.append(kind)

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def text(self, data):
        if "code" not in self.stack:
            return
        if "result" in self.stack:
            self.results[-1] += data
        elif "source" in self.stack:
            self.sources[-1] += data

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "script":
            self.scripts[-1] += data
        self.text(data)

    def handle_entityref(self, name):
        import html

        self.text(html.unescape(f"&{name};"))

    def handle_charref(self, name):
        self.text(chr(int(name[1:], 16) if name[:1] in "xX" else int(name)))


def read_page(site: Site) -> _Page:
    page = _Page()
    page.feed((site.root / "site" / "ch" / "index.html").read_text())
    return page


def printed(code: str) -> str:
    """What plain Python prints for `code`, with the book's line ends."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return run.stdout


@pytest.fixture
def breakouts(prebuilt, tmp_path) -> Site:
    return prebuilt(make_breakouts, tmp_path)


@pytest.mark.parametrize("name", list(OUTPUTS))
def test_an_output_is_shown_exactly_as_printed(breakouts, name):
    page = read_page(breakouts)
    index = list(OUTPUTS).index(name)
    assert page.results[index] == printed(OUTPUTS[name])
    assert len(page.results) == len(OUTPUTS) + 2  # one box per block: nothing broke out
    assert not any("alert" in str(attrs) for _, attrs in page.tags)  # no element carries it
    assert not any("alert" in script for script in page.scripts)  # no script runs it


def test_a_source_is_shown_exactly_as_the_snippet_holds_it(breakouts):
    page = read_page(breakouts)
    assert page.sources[len(OUTPUTS)] == SOURCE
    assert page.results[len(OUTPUTS)] == printed(SOURCE)
    assert not any(tag == "img" for tag, _ in page.tags)


def test_only_the_engine_marks_a_measured_value(breakouts):
    """The block's timing is marked; its printed marker text is text, not a value."""
    page = read_page(breakouts)
    shown = page.results[len(OUTPUTS) + 1]
    assert shown.startswith("took ") and "\nbookexecvalue3c623ex\n" in shown
    # In the output only: the note under it says where it was measured, without repeating it.
    assert page.measured == 1


def _damage_hook(site: Site, body: str) -> None:
    """A second hook that edits each page's HTML after the engine laid it out."""
    hook = site.root / "damage.py"
    hook.write_text("import re\n\n\ndef on_page_content(html, page, config, files):\n" + body)
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + f"hooks:\n  - {hook}\n")


DAMAGE = {
    "shown twice": (
        "    box = re.search(r'<div class=\"result\">.*?</div>\\n</div>', html, re.S)[0]\n"
        "    return html.replace(box, box + box, 1)\n",
        "docs/ch.md:3 (block 'backticks', snippet snippets/ch/backticks.py): on the page, "
        "its output appears 2 times; it must appear once",
    ),
    "missing": (
        "    return re.sub(r'<div class=\"result\">.*?</div>\\n</div>', '', html, count=1, "
        "flags=re.S)\n",
        "docs/ch.md:3 (block 'backticks', snippet snippets/ch/backticks.py): on the page, "
        "its output is missing; it must appear once",
    ),
    "text added": (
        "    end = 'alert(1)&lt;/script&gt;\\n'\n"
        "    return html.replace(end, end + '<b>not printed</b>\\n', 1)\n",
        "docs/ch.md:3 (block 'backticks', snippet snippets/ch/backticks.py): the page's "
        "output box does not hold exactly what the block printed: line 3",
    ),
    "box broken up": (
        "    end = 'alert(1)&lt;/script&gt;\\n'\n"
        "    return html.replace(end, end + '</code></pre><p>not printed</p><pre><code>', 1)\n",
        "docs/ch.md:3 (block 'backticks', snippet snippets/ch/backticks.py): the page's "
        "output box does not hold exactly what the block printed: it has 2 code elements",
    ),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_a_page_that_does_not_show_its_blocks_fails_the_strict_build(breakouts, case):
    body, message = DAMAGE[case]
    _damage_hook(breakouts, body)
    result = breakouts.build("check")
    assert result.returncode != 0, result.output
    assert f"FAILED: {message}" in result.output or message in result.output, result.output
    assert "golden check:" in result.output  # one report, with the rest, not a crash


# -- options and hidden fences: errors naming the page and the line, before anything runs ----


@pytest.fixture
def root(tmp_path) -> Path:
    (tmp_path / "snippets" / "ch").mkdir(parents=True)
    (tmp_path / "snippets" / "ch" / "a.py").write_text("print('a')\n")
    return tmp_path


def scan(root: Path, text: str):
    return scan_page("ch.md", textwrap.dedent(text), root)


BAD_OPTIONS = {
    'hl_lines="zz"': 'option hl_lines="zz" must be line numbers or ranges',
    'hl_lines="1-"': 'option hl_lines="1-" must be',
    'linenums="x"': 'option linenums="x" must be a first line number',
    'linenums="1x"': 'option linenums="1x" must be',
    'tabs="onlyone"': 'option tabs="onlyone" must be two titles split by |',
    'tabs="a|b|c"': 'option tabs="a|b|c" must be',
    'width="wide"': 'option width="wide" must be a positive whole number',
    'source="sideways"': 'option source="sideways" must be one of block, above, below',
    'result="nosuchlanguage"': 'option result="nosuchlanguage" must be a Pygments language',
    'html="on"': "option 'html' is not supported",
    "oops": "'oops' among the options of an executed fence is not name=\"value\"",
    "result": "'result' among the options of an executed fence is not name=\"value\"",
    "raises=KeyError": "'raises=KeyError' among the options of an executed fence is not",
}


@pytest.mark.parametrize("option", list(BAD_OPTIONS))
def test_an_option_not_understood_names_the_page_line_and_option(root, option):
    text = f'# T\n\nProse.\n\n```python exec="on" id="x" {option}\n--8<-- "snippets/ch/a.py"\n```\n'
    with pytest.raises(BookError) as error:
        scan(root, text)
    assert str(error.value).startswith("docs/ch.md:5")
    assert BAD_OPTIONS[option] in str(error.value)


GOOD_OPTIONS = [
    'hl_lines="1 3-4"',
    'linenums="1"',
    'linenums="2 1 2"',
    'tabs="Code|Printed"',
    'source="tabbed-left"',
    'source="console"',
    'result="diff"',
    'title="A title"',
    'width="80"',
]


@pytest.mark.parametrize("option", GOOD_OPTIONS)
def test_the_display_options_still_work(root, option):
    (root / "snippets" / "ch" / "a.py").write_text("a = 1\nb = 2\nc = 3\nprint(a, b, c)\n")
    text = f'```python exec="on" id="x" {option}\n--8<-- "snippets/ch/a.py"\n```\n'
    (block,) = scan(root, text)
    assert block.id == "x"


HIDDEN = {
    "indented four spaces": (
        '# T\n\nProse.\n\n    ```python exec="on" id="x"\n    --8<-- "snippets/ch/a.py"\n    ```\n',
        "docs/ch.md:5: an executed fence indented 4 spaces is an indented code block",
    ),
    "indented eight in a list": (
        '# T\n\n- item\n\n        ```python exec="on" id="x"\n        --8<-- '
        '"snippets/ch/a.py"\n        ```\n',
        "docs/ch.md:5: an executed fence indented 8 spaces",
    ),
    "in an HTML comment": (
        '# T\n\n<!--\nOld example:\n\n```python exec="on" id="x"\n--8<-- "snippets/ch/a.py"\n'
        "```\n-->\n",
        "docs/ch.md:6: an executed fence inside an HTML comment (opened at line 3)",
    ),
    "in a one-line HTML comment": (
        '# T\n\nText <!-- ```python exec="on" id="x" ``` --> more.\n',
        "docs/ch.md:3: an executed fence inside an HTML comment (opened at line 3)",
    ),
}


@pytest.mark.parametrize("case", list(HIDDEN))
def test_a_fence_the_page_would_hide_names_the_page_and_line(root, case):
    text, message = HIDDEN[case]
    with pytest.raises(BookError) as error:
        scan(root, text)
    assert message in str(error.value)


INDENTED_ON_PURPOSE = {
    "two spaces": '  ```python exec="on" id="x"\n  --8<-- "snippets/ch/a.py"\n  ```\n',
    "in a list item": '- item\n\n    ```python exec="on" id="x"\n    --8<-- "snippets/ch/a.py"\n'
    "    ```\n",
    "in a numbered item": '1. item\n\n    ```python exec="on" id="x"\n    --8<-- '
    '"snippets/ch/a.py"\n    ```\n',
    "in an admonition": '!!! note\n\n    Text.\n\n    ```python exec="on" id="x"\n    --8<-- '
    '"snippets/ch/a.py"\n    ```\n',
    "in a content tab": '=== "Tab"\n\n    Text.\n\n    ```python exec="on" id="x"\n    --8<-- '
    '"snippets/ch/a.py"\n    ```\n',
    "after a closed comment": '<!-- a note -->\n\n```python exec="on" id="x"\n--8<-- '
    '"snippets/ch/a.py"\n```\n',
}


@pytest.mark.parametrize("case", list(INDENTED_ON_PURPOSE))
def test_a_fence_indented_as_its_containers_content_runs(root, case):
    (block,) = scan(root, "# T\n\n" + INDENTED_ON_PURPOSE[case])
    assert block.id == "x"


def test_a_bad_option_or_hidden_fence_stops_the_build_before_anything_runs(site):
    site.page(
        "ch.md",
        '# Ch\n\n```python exec="on" id="fine"\n--8<-- "snippets/ch/fine.py"\n```\n\n'
        '<!--\n```python exec="on" id="hidden"\n--8<-- "snippets/ch/fine.py"\n```\n-->\n',
    )
    site.snippet("ch/fine.py", "print('ran')\n")
    result = site.build("update")
    assert result.returncode != 0
    assert "docs/ch.md:8: an executed fence inside an HTML comment" in result.output
    assert "blocks on" not in result.output  # nothing was planned, so nothing ran
    site.page(
        "ch.md",
        '# Ch\n\n```python exec="on" id="fine" tabs="one"\n--8<-- "snippets/ch/fine.py"\n```\n',
    )
    result = site.build("update")
    assert result.returncode != 0 and "blocks on" not in result.output
    assert "docs/ch.md:3 (block 'fine', snippet snippets/ch/fine.py): option tabs=\"one\"" in (
        result.output
    )


# -- under serve: shown, not fatal ---------------------------------------------------------


def test_under_serve_a_page_problem_is_shown_at_the_top_of_the_page(tmp_path):
    from test_engine import (
        IDS,
        PAGE,
        FakeExecutor,
        FakeRuntime,
        book_context,
        make_book,
        render_page,
    )

    from bookexec._internal.engine import Build
    from bookexec._internal.serve.state import ServeState

    markdown = make_book(tmp_path)
    build = Build(
        book_context(tmp_path, serving=True),
        FakeRuntime(),
        executor=FakeExecutor({i: "x\n" for i in IDS}),
        served=ServeState(),
    )
    build.plan([(PAGE, markdown)])
    build.enter_page(PAGE, markdown)
    render_page(build)  # every block once: nothing to say
    assert not build.failures
    article = '<article class="md-content__inner md-typeset">'
    shown = build.check_page(PAGE, f"<html><body>{article}<p>nothing</p></article></body></html>")
    assert 'class="admonition failure executed-book-page-check"' in shown
    assert shown.index("executed-book-page-check") > shown.index(article)
    assert "block &#x27;first&#x27;" in shown and "is missing" in shown
    assert any("(block 'second'" in f.message for f in build.failures.values())


# -- the real book --------------------------------------------------------------------------

_MEASURED = re.compile(r'<span class="executed-book-measured">(.*?)</span>')


@pytest.mark.build
def test_the_real_books_pages_show_every_block_once_with_its_golden(built_book):
    """Independent of the build's own check: each chapter's final HTML against the goldens,
    every value the golden leaves as a placeholder matched by a marked value on the page."""
    from bookexec._internal.goldens.normalize import addresses
    from bookexec._internal.goldens.store import golden_path, parse, read_golden
    from bookexec._internal.render.verify import boxes_of

    checked = ids_printed = 0
    for path in sorted((REPO / "docs").glob("*.md")):
        blocks = scan_page(path.name, path.read_text(), REPO)
        if not blocks:
            continue
        html = (built_book / path.stem / "index.html").read_text()
        if path.stem == "index":
            html = (built_book / "index.html").read_text()
        boxes = boxes_of(_MEASURED.sub(r"⟦\1⟧", html))
        for block in blocks:
            mine = [box for box in boxes if box.block_id == block.id]
            kinds = sorted(box.kind for box in mine)
            text, problem = read_golden(golden_path(REPO / "tests" / "golden", path.name, block.id))
            assert problem is None
            recorded = parse(text or "")
            exact = {f.name: str(f.value) for f in recorded.facts if not f.banded}
            golden = re.sub(r"⟦(\w+)⟧", lambda m, e=exact: e.get(m[1], m[0]), recorded.output)
            assert kinds == (["output", "source"] if golden else ["source"]), block.where
            source = next(box for box in mine if box.kind == "source")
            assert "".join(source.text) == block.shown.strip("\n") + "\n", block.where
            if golden:
                printed = "".join(next(box for box in mine if box.kind == "output").text)
                shown = addresses(printed)  # the golden's placeholders for ids and addresses
                ids_printed += printed != shown
                pattern = re.sub(r"⟦\w+⟧", "⟦[^⟧]+⟧", re.escape(golden))
                note = r"(\n\[timed in this build on the \w+ backend:[^\]]*\]\n)?"
                assert re.fullmatch(pattern + note, shown, re.S), block.where
            checked += 1
    assert checked > 100
    # A tracer's object id and a function's address are on the page as printed, never `<id>`.
    assert ids_printed >= 4


@pytest.mark.build
def test_no_engine_marker_reaches_the_real_site(built_book):
    """The measured-value tokens are the engine's alone: none is left on any page, lab or
    search index (a lab once showed them raw)."""
    token = re.compile(r"bookexecvalue[0-9a-f]+x")
    leaks = [
        str(path.relative_to(built_book))
        for path in sorted(built_book.rglob("*"))
        if path.suffix in (".html", ".json") and token.search(path.read_text(errors="replace"))
    ]
    assert leaks == []


def test_a_lab_page_that_does_not_show_its_cells_fails_the_strict_build(tmp_path):
    """Labs too: mkdocs-jupyter renders the executed copy; its page must show each cell's
    output as the cell printed it."""
    from test_labs import configure_labs

    from conftest import new_site

    site = new_site(tmp_path / "book")
    configure_labs(site)
    assert site.build("update").returncode == 0
    assert site.build("check").returncode == 0
    _damage_hook(site, "    return html.replace('x squared is 49', 'x squared is 50')\n")
    hook = (site.root / "damage.py").read_text().replace("on_page_content", "on_post_page")
    (site.root / "damage.py").write_text(
        hook.replace("(html, page, config, files)", "(html, page, config)")
    )
    result = site.build("check")
    assert result.returncode != 0
    assert (
        "FAILED: docs/labs/demo.ipynb:3 (block 'solution', snippet docs/labs/demo.ipynb): the "
        "lab's page does not show exactly what the cell printed: line 1"
    ) in result.output, result.output


LAYOUTS = {
    "block": "",
    "above": 'source="above"',
    "below": 'source="below"',
    "tabbed-left": 'source="tabbed-left" tabs="Code|Printed"',
    "tabbed-right": 'source="tabbed-right"',
    "console": 'source="console" result="pycon"',
    "numbered": 'linenums="3" hl_lines="2" title="Two lines"',
    "diff": 'result="diff"',
}


def test_every_layout_is_laid_out_by_the_engine_and_passes_the_page_check(site):
    """Each display option still works, and the page check holds for each layout (the strict
    build runs it): tabs, console, line numbers, highlighted lines, a title."""
    fences = [
        f'```python exec="on" id="{name}" {options}\n--8<-- "snippets/ch/two.py"\n```\n'
        for name, options in LAYOUTS.items()
    ]
    site.page("ch.md", "# Ch\n\n" + "\n".join(fences))
    site.snippet("ch/two.py", 'print("+ one")\nprint("- two ```````` <b>")\n')
    config = site.root / "mkdocs.yml"
    tabbed = "  - pymdownx.tabbed:\n      alternate_style: true\n"
    config.write_text(
        config.read_text().replace("markdown_extensions:\n", "markdown_extensions:\n" + tabbed)
    )
    result = site.build("update")
    assert result.returncode == 0, result.output
    html = (site.root / "site" / "ch" / "index.html").read_text()
    assert html.count('class="tabbed-set tabbed-alternate"') == 2
    assert 'for="tabbed-left-__tabbed_1_1">Code</label>' in html
    assert html.count("data-executed-book-source=") == len(LAYOUTS) - 1
    assert html.count("data-executed-book-output=") == len(LAYOUTS) - 1
    assert html.count('data-executed-book-console="console"') == 1
    assert '<span class="filename">Two lines</span>' in html
    assert '<td class="linenos">' in html and '<span class="hll">' in html
    assert "<b>" not in html.split('id="block-block"')[1].split("</article>")[0]
