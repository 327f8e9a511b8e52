"""The scanner: which fences run, and the errors that name the page and the line."""

from __future__ import annotations

import pytest

from bookexec._internal.discover.blocks import (
    ANYWHERE,
    Reading,
    check_includes,
    includes,
    parse_info,
    scan_page,
)
from bookexec._internal.discover.options import MARKDOWN_EXEC
from bookexec._internal.errors import BookError
from bookexec._internal.privacy import Masker

pytestmark = pytest.mark.engine


@pytest.fixture
def root(tmp_path):
    (tmp_path / "snippets" / "ch").mkdir(parents=True)
    (tmp_path / "snippets" / "ch" / "a.py").write_text("print('a')\n")
    (tmp_path / "snippets" / "ch" / "b.py").write_text("print('b')\n")
    (tmp_path / "snippets" / "other").mkdir()
    (tmp_path / "snippets" / "other" / "c.py").write_text("print('c')\n")
    return tmp_path


def page(*fences: str) -> str:
    return "# Title\n\nSome prose.\n\n" + "\n\n".join(fences) + "\n"


def fence(info: str, body: str = '--8<-- "snippets/ch/a.py"', ticks: str = "```") -> str:
    return f"{ticks}{info}\n{body}\n{ticks}"


def test_finds_executed_blocks_in_order_with_lines_and_code(root):
    text = page(
        fence('python exec="on" id="first"'),
        fence("python"),  # not executed: no exec option
        fence('python exec="on" id="second" raises="KeyError"', '--8<-- "snippets/ch/b.py"'),
    )
    blocks = scan_page("ch.md", text, root)
    assert [(b.id, b.line, b.snippet, b.code) for b in blocks] == [
        ("first", 5, "snippets/ch/a.py", "print('a')\n"),
        ("second", 13, "snippets/ch/b.py", "print('b')\n"),
    ]
    assert blocks[1].options["raises"] == "KeyError"


def test_fences_inside_a_longer_fence_are_not_blocks(root):
    inner = fence('python exec="on" id="shown-not-run"')
    text = page(fence("markdown", inner, ticks="````"))
    assert scan_page("ch.md", text, root) == []


def test_a_fence_line_indented_inside_the_code_does_not_close_the_block(root):
    """As superfences reads it (issue 53): a line of backticks indented further than the
    opening fence is code (a fence inside a string); the scan read the block as ending there,
    so the code it planned was not the code superfences handed over, and nothing ran it."""
    code = 'print("""\n    ```\n    inside\n    ```\n""")'
    text = page(fence('python exec="on"', code))
    reading = Reading(snippets=ANYWHERE, fences=MARKDOWN_EXEC)
    (block,) = scan_page("ch.md", text, root, reading=reading)
    assert block.code == code + "\n"


def test_a_python_fence_inside_an_md_fence_markdown_exec_runs_is_a_block(root):
    inner = fence('python exec="on"', 'print("nested")')
    text = page(fence('md exec="on"', "Markdown first.\n\n" + inner, ticks="````"))
    reading = Reading(snippets=ANYWHERE, fences=MARKDOWN_EXEC)
    blocks = scan_page("ch.md", text, root, reading=reading)
    assert [(b.id, b.line, b.code) for b in blocks] == [("block-1", 8, 'print("nested")\n')]
    shown_only = page(fence("md", inner, ticks="````"))  # an example markdown-exec never runs
    assert scan_page("ch.md", shown_only, root, reading=reading) == []


def test_indented_block_in_a_content_tab(root):
    text = (
        '=== "Tab"\n\n    ```python exec="on" id="tabbed"\n    --8<-- "snippets/ch/a.py"\n    ```\n'
    )
    (block,) = scan_page("ch.md", text, root)
    assert (block.id, block.line) == ("tabbed", 3)


@pytest.mark.parametrize(
    ("fences", "message"),
    [
        ([fence('python exec="on"')], "docs/ch.md:5: executed block has no id"),
        (
            [fence('python exec="on" id="same"'), fence('python exec="1" id="same"')],
            "docs/ch.md:9: duplicate block id 'same' (first used at docs/ch.md:5)",
        ),
        (
            [fence('python exec="on" id="Bad Id"')],
            "docs/ch.md:5: block id 'Bad Id' (snippet snippets/ch/a.py) must be",
        ),
        (
            [fence('python exec="on" id="typo" timout="300"')],
            "docs/ch.md:5 (block 'typo', snippet snippets/ch/a.py): unknown option 'timout'",
        ),
        (
            [fence('python exec="on" id="slow" timeout="soon"')],
            "docs/ch.md:5 (block 'slow', snippet snippets/ch/a.py): option timeout=\"soon\" must",
        ),
        (
            [fence('python exec="on" id="big" limit="1.5"')],
            'option limit="1.5" must be a positive whole number, like limit="500000"',
        ),
        ([fence('python exec="on" id="f" fresh="maybe"')], 'option fresh="maybe" must be'),
        (
            [fence('python exec="on" id="inline"', "print('inline code')")],
            "docs/ch.md:5: block 'inline' must contain exactly one snippet include",
        ),
        (
            [fence('python exec="on" id="gone"', '--8<-- "snippets/ch/gone.py"')],
            "docs/ch.md:5: block 'gone' includes snippets/ch/gone.py, which does not exist",
        ),
        (
            [fence('python exec="on" id="elsewhere"', '--8<-- "snippets/other/c.py"')],
            "snippets of docs/ch.md live in snippets/ch/",
        ),
    ],
)
def test_bad_blocks_name_page_and_line(root, fences, message):
    with pytest.raises(BookError) as error:
        scan_page("ch.md", page(*fences), root)
    assert message in str(error.value)


def test_unknown_option_lists_the_known_ones(root):
    with pytest.raises(BookError) as error:
        scan_page("ch.md", page(fence('python exec="on" id="s" session="x"')), root)
    message = str(error.value)
    assert "unknown option 'session'" in message
    assert "remove it or use one of: band, exec, fresh, hl_lines, id, limit" in message


@pytest.mark.parametrize(
    ("info", "name"),
    [
        ('python exec="on" id="x" id="y"', "id"),
        ('python exec="on" id="x" timeout="1" timeout="300"', "timeout"),
        ('{ .python exec="on" id="x" raises="KeyError" raises="ValueError" }', "raises"),
    ],
)
def test_an_option_given_twice_is_refused_by_name(root, info, name):
    """Issue 53: `id="x" id="y"` silently took `y`, as superfences reads it."""
    with pytest.raises(BookError) as error:
        scan_page("ch.md", page(fence(info)), root)
    assert f"docs/ch.md:5: option '{name}' is given twice on an executed fence" in str(error.value)


def test_parse_info_reads_quoted_and_bare_options():
    assert parse_info("python exec=\"on\" id=plain title='A title'") == (
        "python",
        {"exec": "on", "id": "plain", "title": "A title"},
    )
    assert parse_info('{ .python exec="on" id="braced" }') == (
        "python",
        {"exec": "on", "id": "braced"},
    )


EXEC_VALUES = [
    "on",
    "y",
    "1",
    "TRUE",
    "Yes",
    "please",
    "",
    "no",
    "off",
    "0",
    "false",
    "FALSE",
    "Off",
]


def executed_by_markdown_exec(text: str) -> list[str]:
    """The ids of the fences markdown-exec executes, read by markdown-exec's own validator
    through superfences, as MkDocs renders a page."""
    import markdown
    from markdown_exec import validator

    ran: list[str] = []

    def record(source, language, css_class, options, md, **kwargs):
        ran.append(options["id"])
        return ""

    fences = [{"name": "python", "class": "python", "validator": validator, "format": record}]
    md = markdown.Markdown(
        extensions=["attr_list", "pymdownx.highlight", "pymdownx.superfences"],  # as the book
        extension_configs={"pymdownx.superfences": {"custom_fences": fences}},
    )
    md.convert(text)
    return ran


@pytest.mark.parametrize("value", EXEC_VALUES)
def test_the_book_scans_exactly_the_fences_markdown_exec_executes(root, value):
    """A fence markdown-exec runs but the book did not scan would run unchecked and fail."""
    # Last: a fence markdown-exec declines, carrying options, is no fence to superfences.
    text = page(fence('python exec="on" id="a"'), fence(f'python exec="{value}" id="b"'))
    scanned = [block.id for block in scan_page("ch.md", text, root)]
    assert sorted(scanned) == sorted(executed_by_markdown_exec(text))
    assert ("b" in scanned) == (value.lower() not in ("", "no", "off", "0", "false"))


def test_markdown_exec_auto_executes_without_exec_and_so_does_the_scan(root, monkeypatch):
    from markdown_exec._internal import main

    from bookexec._internal import settings

    auto = settings.read({}, {"MARKDOWN_EXEC_AUTO": "python"}).auto  # as a build reads it
    monkeypatch.setattr(main, "MARKDOWN_EXEC_AUTO", ["python"])  # read at its import
    text = page(fence('python id="auto"'), fence('python exec="no" id="no"'))
    scanned = [block.id for block in scan_page("ch.md", text, root, auto)]
    assert scanned == executed_by_markdown_exec(text) == ["auto", "no"]


def test_is_true_is_markdown_exec_s_rule():
    from markdown_exec._internal.main import _to_bool

    from bookexec._internal.discover.options import is_true

    for value in [*EXEC_VALUES, "NO", "nope", " ", "false ", "2"]:
        assert is_true(value) == _to_bool(value), value


def test_the_book_s_own_switches_are_strict(monkeypatch):
    """`fresh`, BOOK_CACHE, BOOK_EXEC and BOOK_SERVE_BACKGROUND: a typo is an error naming it."""
    from bookexec._internal import settings
    from bookexec._internal.discover.options import parse_bool, parse_switch

    assert [parse_bool(v, "X") for v in ("true", "Yes", "ON", "1")] == [True] * 4
    assert [parse_bool(v, "X") for v in ("false", "No", "OFF", "0")] == [False] * 4
    assert parse_switch("auto", "X") is None
    for name in ("BOOK_CACHE", "BOOK_EXEC", "BOOK_SERVE_BACKGROUND"):
        with pytest.raises(BookError, match=rf'{name}: "of" is not a yes or no; use one of "true"'):
            settings.read({}, {name: "of"})

    def cache(serving: bool, value: str, mode: str = "check") -> tuple[bool, bool]:
        read = settings.read({}, {"BOOK_CACHE": value, "GOLDEN": mode})
        return read.block_cache(serving), read.lab_cache()

    # One reading of auto: blocks from the cache only under serve; labs' renders always.
    assert cache(True, "auto") == (True, True)
    assert cache(False, "auto") == (False, True)
    assert cache(False, "Yes") == (True, True)
    assert cache(True, "no") == (False, False)
    assert cache(True, "on", mode="update") == (False, True)  # the update runs every block


def test_a_fresh_value_is_checked_with_the_same_rule(root):
    with pytest.raises(BookError, match='option fresh="y" must be fresh="true" or "false"'):
        scan_page("ch.md", page(fence('python exec="on" id="s" fresh="y"')), root)
    (block,) = scan_page("ch.md", page(fence('python exec="on" id="s" fresh="Yes"')), root)
    from bookexec._internal.execute.limits import is_fresh

    assert is_fresh(block)


@pytest.mark.needs_book
def test_option_names_have_one_home():
    """The scan accepts and a lab cell takes the names options.py lists (the fence lays a block
    out from the display options alone: it hands markdown-exec none of them)."""
    from bookexec._internal.discover import options
    from jaxbook import labs

    assert labs.LAB_OPTIONS is options.LAB_OPTIONS
    assert set(options.RUN_OPTIONS) == set(options.BOOK) - {"id", "exec"}
    assert set(options.RUN_OPTIONS) - {"fresh"} == options.LAB_OPTIONS


@pytest.mark.parametrize("length", [59, 300])
def test_an_id_too_long_for_a_golden_file_or_a_notebook_cell_is_named_with_page_and_line(
    root, length
):
    from bookexec._internal.discover.blocks import MAX_ID_LENGTH

    long_id = "a" * length
    with pytest.raises(BookError) as error:
        scan_page("ch.md", page(fence(f'python exec="on" id="{long_id}"')), root)
    message = str(error.value)
    assert message.startswith(f"docs/ch.md:5: block id '{'a' * MAX_ID_LENGTH}...'")
    assert f"is {length} characters long; an id may have at most {MAX_ID_LENGTH}" in message
    assert scan_page("ch.md", page(fence(f'python exec="on" id="{"a" * MAX_ID_LENGTH}"')), root)


@pytest.mark.parametrize(
    "word", ["true", "Yes", "ON", "1", "false", "No", "off", "0", " on ", "y", "of", "2", ""]
)
def test_one_reading_of_yes_and_no(word):
    """A fence's `fresh`, BOOK_CACHE, mkdocs.yml's cache and a [y/N] prompt read a yes and a
    no by `parse_bool`'s one rule (the prompt adds y)."""
    from bookexec._internal import settings
    from bookexec._internal.discover.options import check, parse_bool

    try:
        read: bool | None = parse_bool(word, "X")
    except BookError:
        read = None
    try:
        check({"fresh": word}, "docs/p.md")
        fence_ok = True
    except BookError:
        fence_ok = False
    assert fence_ok == (read is not None)
    if read is not None:
        assert settings._cache(word) is read
        assert settings.read({}, {"BOOK_CACHE": word}).cache is read
    else:
        with pytest.raises(BookError):
            settings._cache(word)


@pytest.mark.needs_book
@pytest.mark.parametrize("answer,agreed", [("y", True), ("Yes", True), ("", False), ("n", False)])
def test_the_chromium_prompt_reads_the_book_s_yes(answer, agreed, monkeypatch):
    from jaxbook.cli import chromium
    from jaxbook.cli.process import Failed

    monkeypatch.setattr(chromium.shutil, "which", lambda name: None if name == "chromium" else name)
    monkeypatch.setattr(chromium.os, "geteuid", lambda: 0)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(chromium.sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: answer)
    calls = []
    monkeypatch.setattr(chromium, "call", lambda command, **kw: calls.append(command))
    if agreed:
        chromium.ensure_chromium(yes=False)
        assert calls and calls[-1][:2] == ["apt-get", "install"]
    else:
        with pytest.raises(Failed, match="not installed"):
            chromium.ensure_chromium(yes=False)
        assert calls == []


# Issue 38, points 6 and 12: every numeric option has a range, checked before anything runs.
OUT_OF_RANGE = {
    # 30 million lines took the main process 2.5 s; these would take hours.
    'hl_lines="1-99999999999"': 'hl_lines="1-99999999999" must be line numbers from 1 to 3',
    'hl_lines="2 4"': 'hl_lines="2 4" must be line numbers from 1 to 3',
    'hl_lines="0"': 'hl_lines="0" must be line numbers from 1 to 3',
    # faulthandler and the pipes' waits refuse such a number of seconds: the worker died.
    'timeout="1e13"': 'timeout="1e13" must be a positive number of seconds, like timeout="300", '
    "at most 86400",
    'limit="99999999999999"': 'limit="99999999999999" must be a positive whole number',
    'memory="1e30T"': 'memory="1e30T" must be a size in bytes',
    'band="1e300"': 'band="1e300" must be',
    'width="99999999999999"': 'width="99999999999999" must be',
    'linenums="99999999999999"': 'linenums="99999999999999" must be',
}


@pytest.mark.parametrize("option", list(OUT_OF_RANGE))
def test_a_number_out_of_its_range_names_the_page_line_snippet_and_option(root, option):
    (root / "snippets" / "ch" / "a.py").write_text("x = 1\ny = 2\nprint(x + y)\n")
    with pytest.raises(BookError) as error:
        scan_page("ch.md", page(fence(f'python exec="on" id="s" {option}')), root)
    message = str(error.value)
    assert message.startswith("docs/ch.md:5 (block 's', snippet snippets/ch/a.py): option ")
    assert OUT_OF_RANGE[option] in message


@pytest.mark.parametrize(
    "option", ['hl_lines="1 2-3"', 'timeout="86400"', 'memory="1T"', 'linenums="10 2 4"']
)
def test_a_number_inside_its_range_is_taken(root, option):
    (root / "snippets" / "ch" / "a.py").write_text("x = 1\ny = 2\nprint(x + y)\n")
    (block,) = scan_page("ch.md", page(fence(f'python exec="on" id="s" {option}')), root)
    assert block.id == "s"


def test_every_include_form_pymdownx_reads_is_found_with_its_line():
    text = (
        '--8<-- "a.txt"\n'
        ';--8<-- "escaped.txt"\n'
        "  -8<- 'b.txt:3:9'\n"
        "--8<--\n"
        "c.txt\n"
        ";d.txt\n"
        "--8<--\n"
    )
    assert includes(text) == [(1, "a.txt"), (3, "b.txt:3:9"), (5, "c.txt")]


def test_an_include_of_lines_through_a_symlinked_folder_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "key.txt").write_text("private\n")
    book = tmp_path / "book"
    book.mkdir()
    (book / "notes").symlink_to(outside)
    with pytest.raises(BookError) as refused:
        check_includes("docs/p.md", 'Text.\n\n--8<-- "notes/key.txt:1:1"\n', book)
    assert str(refused.value).startswith("docs/p.md:3: includes notes/key.txt:1:1, but notes is")
    check_includes("docs/p.md", '--8<-- "https://example.com/x.txt"\n', book)  # pymdownx's


def test_a_secret_is_masked_as_written_html_escaped_and_json_escaped():
    masker = Masker(('s3cr&t"<value>',))
    shown = 's3cr&t"<value> s3cr&amp;t&quot;&lt;value&gt; s3cr&amp;t"&lt;value&gt; s3cr&t\\"<value>'
    assert masker.mask_shown(shown) == "*** *** *** ***"


WIDE = "wide = 'a hidden line may run past the box: no reader sees it'  # hidden\n"


@pytest.mark.parametrize("width", [0, 40])
def test_a_shown_line_within_the_width_passes_and_hidden_lines_never_count(root, width):
    (root / "snippets" / "ch" / "a.py").write_text(WIDE + "print('a' * 3)\n")
    reading = Reading(shown_line_length=width)
    (block,) = scan_page("ch.md", page(fence('python exec="on" id="first"')), root, reading=reading)
    assert block.shown == "print('a' * 3)\n"


def test_a_shown_line_past_the_width_names_page_block_snippet_and_its_line(root):
    long = "print('" + "a" * 40 + "')"  # 49 characters
    (root / "snippets" / "ch" / "a.py").write_text(WIDE + f"x = 1\n{long}\n{long}\n{long}\n")
    with pytest.raises(BookError) as error:
        scan_page(
            "ch.md",
            page(fence('python exec="on" id="first"')),
            root,
            reading=Reading(shown_line_length=48),
        )
    assert str(error.value) == (
        "docs/ch.md:5 (block 'first', snippet snippets/ch/a.py): line 3 has 49 characters, "
        "more than the 48 a shown line may have (shown_line_length: what the code box holds); "
        "so are its lines 4, 5; wrap it, or hide it if the reader need not see it"
    )
