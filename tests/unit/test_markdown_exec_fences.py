"""A markdown-exec book's fences, as the engine reads them (`snippets: anywhere`, `fences:
markdown-exec`, the plugin's defaults): the body is the code, an id is optional, options the
engine cannot honour are named with what to write instead, and the plugin's new options."""

from __future__ import annotations

import logging

import pytest
from mkdocs.config import base

from bookexec._internal.discover.blocks import ANYWHERE, PAGE_FOLDERS, Reading, scan_page
from bookexec._internal.discover.options import (
    ENGINE,
    MARKDOWN_EXEC,
    UNKNOWN_ERROR,
    check_markdown_exec,
)
from bookexec._internal.errors import BookError
from bookexec._internal.execute.runtime import PythonRuntime, Runtime
from bookexec._internal.goldens.compare import PLAIN_WORDS, Comparison
from bookexec._internal.goldens.report import Report
from bookexec._internal.goldens.store import update_command, written_by
from bookexec._internal.jax.jax_runtime import JaxRuntime
from bookexec._internal.pipeline.plan import Plan
from bookexec._internal.plugin import BookConfig, DottedPath, Folder
from bookexec._internal.settings import Settings, bases, read

pytestmark = pytest.mark.engine

MDEXEC = Reading(ANYWHERE, MARKDOWN_EXEC, "docs")


def fence(body: str, info: str = 'exec="on"', lang: str = "python") -> str:
    return f"```{lang} {info}\n{body}\n```\n"


def test_the_body_is_the_code_and_a_block_without_id_is_named_by_its_place(tmp_path):
    page = "# P\n\n" + "\n".join(
        [
            fence('print("one")'),
            fence('print("two")', 'exec="1" id="named"'),
            fence("x = 3\nprint(x)", 'exec="true"', lang="py"),
        ]
    )
    blocks = scan_page("p.md", page, tmp_path, reading=MDEXEC)
    assert [b.id for b in blocks] == ["block-1", "named", "block-3"]
    assert blocks[2].code == "x = 3\nprint(x)\n"
    assert all(b.inline for b in blocks)
    assert blocks[0].where == "docs/p.md:3 (block 'block-1', inline code)"
    assert blocks[0].snippet == "docs/p.md (inline)"


def test_an_include_may_be_a_file_anywhere_in_the_book_alone_or_among_lines(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text("def f():\n    return 1\n")
    alone = fence('--8<-- "lib/helper.py"')
    mixed = fence('import math\n--8<-- "lib/helper.py"\nprint(f())')
    blocks = scan_page("p.md", alone + "\n" + mixed, tmp_path, reading=MDEXEC)
    assert blocks[0].snippet == "lib/helper.py" and not blocks[0].inline
    assert blocks[1].code == "import math\ndef f():\n    return 1\nprint(f())\n"
    with pytest.raises(BookError, match=r"docs/p\.md:1: block 'block-1' includes lib/nope\.py"):
        scan_page("p.md", fence('--8<-- "lib/nope.py"'), tmp_path, reading=MDEXEC)


def test_the_jax_books_rule_still_wants_an_id_and_a_file_in_its_pages_folder(tmp_path):
    strict = Reading(PAGE_FOLDERS, ENGINE, "src")
    with pytest.raises(BookError, match=r"^src/p\.md:1: executed block has no id"):
        scan_page("p.md", fence('print("one")'), tmp_path, reading=strict)
    with pytest.raises(BookError, match="must contain exactly one snippet include"):
        scan_page("p.md", fence('print("one")', 'exec="on" id="a"'), tmp_path, reading=strict)


def test_an_id_a_place_would_give_is_a_duplicate_naming_both(tmp_path):
    page = fence("print(1)", 'exec="on" id="block-2"') + "\n" + fence("print(2)")
    with pytest.raises(BookError, match=r"duplicate block id 'block-2' \(the id of a block"):
        scan_page("p.md", page, tmp_path, reading=MDEXEC)


def test_each_block_runs_in_fresh_globals_unless_it_names_a_session(tmp_path):
    page = fence("a = 1", 'exec="on" session="s"') + "\n" + fence("print(2)")
    blocks = scan_page("p.md", page, tmp_path, reading=MDEXEC)
    assert [b.namespace for b in blocks] == ["s", ""]


def test_the_engines_fences_share_the_page_session(tmp_path):
    page = fence("print(1)") + "\n" + fence("print(2)")
    blocks = scan_page("p.md", page, tmp_path, reading=Reading(ANYWHERE, ENGINE))
    assert [b.namespace for b in blocks] == [None, None]


@pytest.mark.parametrize(
    ("option", "says"),
    [
        ('workdir="data"', 'option workdir="data" must be a folder of the book, .* no folder'),
        ('workdir="../out"', 'option workdir="../out" must be a folder of the book'),
        ('width="wide"', 'option width="wide" must be a positive whole number'),
        ('returncode="one"', 'option returncode="one" must be a whole number'),
        ('source="sideways"', 'option source="sideways" must be one of above, below, block'),
        ('session="s" fresh="true"', 'option fresh="true" runs .* cannot share session="s"'),
    ],
)
def test_a_bad_option_is_named_with_what_to_write(tmp_path, option, says):
    with pytest.raises(BookError, match=rf"^docs/p\.md:1 \(block 'block-1', inline code\): {says}"):
        scan_page("p.md", fence("print(1)", f'exec="on" {option}'), tmp_path, reading=MDEXEC)


def test_an_option_neither_reads_is_handed_on_with_a_note_or_refused_when_asked(tmp_path, caplog):
    page = fence("print(1)", 'exec="on" colour="red"')
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.bookexec"):
        (block,) = scan_page("p.md", page, tmp_path, reading=MDEXEC)
    assert block.options["colour"] == "red"  # handed on, as markdown-exec hands it on
    assert "docs/p.md:1 (block 'block-1', inline code): option 'colour' is neither" in caplog.text
    assert all(record.levelno == logging.INFO for record in caplog.records)  # --strict passes
    strict = Reading(ANYWHERE, MARKDOWN_EXEC, "docs", unknown=UNKNOWN_ERROR)
    with pytest.raises(BookError, match=r"unknown option 'colour' .* \(unknown_options: error\)"):
        scan_page("p.md", page, tmp_path, reading=strict)


def test_markdown_exec_options_that_work_pass(tmp_path):
    check_markdown_exec(
        {
            "source": "tabbed-left",
            "result": "text",
            "html": "1",
            "session": "a",
            "tabs": "Code|Out",
            "idprefix": "x-",
            "updatetoc": "no",
            "title": "t.py",
            "timeout": "30",
            "workdir": "docs",
            "width": "80",
            "returncode": "1",  # markdown-exec reads it and ignores it on a python fence
        },
        "here",
    )


def test_includes_are_found_in_pymdownx_snippets_base_path_folders_in_order(tmp_path, monkeypatch):
    (tmp_path / "docs" / "snippets").mkdir(parents=True)
    (tmp_path / "docs" / "snippets" / "a.py").write_text("print('from snippets')\n")
    (tmp_path / "a.py").write_text("print('from the root')\n")
    (tmp_path / "b.py").write_text("print('only at the root')\n")
    page = fence('--8<-- "a.py"') + fence('--8<-- "b.py"')
    first, second = scan_page("p.md", page, tmp_path, reading=MDEXEC)
    assert (first.code, second.code) == ("print('from the root')\n", "print('only at the root')\n")
    snippets_first = Reading(ANYWHERE, MARKDOWN_EXEC, "docs", bases=("docs/snippets", ""))
    first, second = scan_page("p.md", page, tmp_path, reading=snippets_first)
    assert first.code == "print('from snippets')\n"
    assert second.code == "print('only at the root')\n"
    config = {"pymdownx.snippets": {"base_path": [str(tmp_path), "docs/snippets", "/elsewhere"]}}
    monkeypatch.chdir(tmp_path)  # pymdownx reads a relative base_path from there
    assert bases(config, tmp_path.resolve()) == ("", "docs/snippets")  # not outside it
    assert bases({}, tmp_path) == bases({"pymdownx.snippets": {}}, tmp_path)


def test_a_session_shared_across_pages_fails_naming_both(tmp_path):
    plan = Plan(MDEXEC)
    one = fence("a = 1", 'exec="on" session="shared"')
    with pytest.raises(
        BookError, match=r"docs/b\.md:1 .* session=\"shared\" is also used on docs/a"
    ):
        plan.scan([("a.md", one), ("b.md", one)], tmp_path, ())


def test_the_new_options_reach_the_settings_with_their_defaults():
    settings = read({}, {})
    assert (settings.goldens, settings.snippets, settings.fences) == (
        "goldens",
        ANYWHERE,
        MARKDOWN_EXEC,
    )
    chosen = read(
        {"goldens": "tests/golden", "snippets": PAGE_FOLDERS, "fences": ENGINE},
        {},
        docs="src",
        builder="properdocs",
    )
    assert chosen.reading() == Reading(PAGE_FOLDERS, ENGINE, "src")
    assert chosen.builder == "properdocs"
    assert "fences=engine" in chosen.key() and "fences=markdown-exec" in Settings().key()


def test_the_plugin_defaults_are_a_markdown_exec_books():
    config = BookConfig()
    config.load_dict({})
    assert not config.validate()[0]
    assert config.runtime == "bookexec.PythonRuntime"
    assert (config.goldens, config.snippets, config.fences) == (
        "goldens",
        "anywhere",
        "markdown-exec",
    )


@pytest.mark.parametrize("value", ["/abs", "../out", "a/../b", "", "~/g", 3])
def test_the_golden_folder_must_lie_in_the_book(value):
    with pytest.raises(base.ValidationError, match="expected a folder inside the book"):
        Folder("goldens").validate(value)


class NeedsMissing(PythonRuntime):
    requires = ("no_such_package_for_bookexec",)


def test_a_runtime_whose_package_is_missing_is_a_configuration_error_naming_it(monkeypatch):
    monkeypatch.setattr(
        "bookexec._internal.plugin._resolve", lambda path: NeedsMissing if "Needs" in path else None
    )
    with pytest.raises(base.ValidationError) as raised:
        DottedPath(Runtime).validate("tests.NeedsMissing")
    said = str(raised.value)
    assert "needs the package no_such_package_for_bookexec, which is not installed" in said
    assert "such as bookexec.PythonRuntime" in said
    assert JaxRuntime.requires == ("jax", "jaxlib")


def test_messages_name_the_builder_the_book_is_built_with():
    assert update_command("", "p.md#a") == "GOLDEN=update GOLDEN_ONLY=p.md#a mkdocs build --strict"
    assert update_command("properdocs") == "GOLDEN=update properdocs build --strict"
    assert update_command("./book", "p") == "./book update p"
    assert (
        written_by("properdocs") == "GOLDEN=update properdocs build --strict (never edit by hand)"
    )


def test_drift_classes_are_worded_by_the_runtime(tmp_path, monkeypatch):
    monkeypatch.setattr(Report, "kinds", lambda self: ["structural", "text"])

    def line(words: object = None) -> str:
        report = Report(tmp_path, tmp_path, [], [], words=words)  # type: ignore[arg-type]
        return next(ln for ln in report._check_lines() if ln.startswith("drift by class"))

    plain = line()
    assert "1 structural (what an output describes changed)" in plain
    assert "0 cosmetic (only whitespace or the header)" in plain and "jaxpr" not in plain
    assert PythonRuntime.drift_words == PLAIN_WORDS
    assert "1 structural (a jaxpr's program changed)" in line(JaxRuntime.drift_words)
    # Unless told, a report words the classes as the runtime that classed its drift does.
    classed = Comparison("p.md", "a", "s.py", tmp_path, "x", "y", classify=JaxRuntime().classify)
    assert Report(tmp_path, tmp_path, [classed], []).class_words() == JaxRuntime.drift_words


def test_the_plugin_stands_in_for_markdown_exec_s_when_the_book_lists_none(tmp_path, monkeypatch):
    import markdown_exec

    from bookexec._internal.plugin import MarkdownExecStandIn

    class Config(dict):
        def __init__(self, plugins: dict) -> None:
            super().__init__(extra_css=[], extra_javascript=[])
            self.plugins = plugins
            self.markdown_extensions = ["pymdownx.superfences"]
            self.mdx_configs: dict = {}
            self.config_file_path = str(tmp_path / "mkdocs.yml")
            self.site_dir = str(tmp_path / "site")

    monkeypatch.delenv("MKDOCS_CONFIG_DIR", raising=False)
    config = Config({"executed-book": object()})
    stand_in = MarkdownExecStandIn()
    stand_in.start(config, ansi="off")
    fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    names = {fence["name"] for fence in fences}
    assert {"sh", "bash", "console", "md", "pycon", "tree", "pyodide"} <= names
    assert not names & {"python", "py"}  # the engine's, registered by bookexec.guard
    # markdown-exec's formatter for each; for the fences it runs in this process, through the
    # stand-in, which hands what it made to the engine for its golden (issue 53)
    for fence in fences:
        shell = fence["name"] in ("sh", "bash", "console", "pycon")
        assert fence["format"] == (stand_in.checked if shell else markdown_exec.formatter)
    assert markdown_exec.markdown_config.exts == config.markdown_extensions
    assert str(tmp_path) == __import__("os").environ["MKDOCS_CONFIG_DIR"]
    stand_in.assets(config)
    assert config["extra_css"] == ["assets/_markdown_exec_pyodide.css"]
    assert (tmp_path / "site" / "assets" / "_markdown_exec_pyodide.js").is_file()
    markdown_exec.MarkdownConverter.counter = 7
    stand_in.end()
    assert markdown_exec.MarkdownConverter.counter == 0
    assert markdown_exec.markdown_config.exts is None
    assert "MKDOCS_CONFIG_DIR" not in __import__("os").environ
    listed = Config({"markdown-exec": object(), "executed-book": object()})
    MarkdownExecStandIn().start(listed)  # markdown-exec's own plugin does it all
    assert listed.mdx_configs == {}


def test_markdown_exec_s_plugin_options_are_honoured(tmp_path, monkeypatch):
    import importlib.util

    from mkdocs.exceptions import PluginError

    from bookexec._internal.plugin import MarkdownExecStandIn

    class Config(dict):  # what the stand-in reads of MkDocs' config
        def __init__(self) -> None:
            super().__init__(extra_css=[], extra_javascript=[])
            self.plugins = {"executed-book": object()}
            self.markdown_extensions = ["pymdownx.superfences"]
            self.mdx_configs: dict = {}
            self.config_file_path = str(tmp_path / "mkdocs.yml")
            self.site_dir = str(tmp_path / "site")

    config = Config

    monkeypatch.delenv("MKDOCS_CONFIG_DIR", raising=False)
    coloured = config()
    stand_in = MarkdownExecStandIn()
    stand_in.start(coloured, ansi="required", languages=["bash", "tree"])
    names = {f["name"] for f in coloured.mdx_configs["pymdownx.superfences"]["custom_fences"]}
    assert names >= {"bash", "tree"} and not names & {"sh", "md", "pyodide"}
    stand_in.assets(coloured)
    assert coloured["extra_css"] == ["assets/_markdown_exec_ansi.css"]
    assert (tmp_path / "site" / "assets" / "_markdown_exec_ansi.css").is_file()
    stand_in.end()
    none = config()
    MarkdownExecStandIn().start(none, ansi="off", languages=[])  # as markdown-exec: no fence
    assert none.mdx_configs["pymdownx.superfences"]["custom_fences"] == []
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    plain = config()
    with pytest.raises(PluginError, match=r"ansi='required' needs the package pygments-ansi"):
        MarkdownExecStandIn().start(plain, ansi="required")
    auto = MarkdownExecStandIn()
    auto.start(plain, ansi="auto")  # without the package: no style, as markdown-exec
    auto.assets(plain)
    assert "assets/_markdown_exec_ansi.css" not in plain["extra_css"]
    auto.end()
