"""The build object with a fake executor: canned worker results, no worker, no MkDocs build."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import markdown_exec
import pytest
from markdown import Markdown

from bookexec._internal import engine
from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import Block, scan_page
from bookexec._internal.engine import Build, Engine
from bookexec._internal.errors import BookError
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.execute.runtime import PythonRuntime
from bookexec._internal.extension import Extension
from bookexec._internal.files import CachePaths
from bookexec._internal.goldens import review
from bookexec._internal.goldens.store import golden_path, parse, read_golden
from bookexec._internal.goldens.store import render as render_golden
from bookexec._internal.render.fence import format_python
from bookexec._internal.settings import Settings
from conftest import REPO

pytestmark = pytest.mark.engine

PACKAGE = REPO / "hooks" / "bookexec"
INTERNAL = PACKAGE / "_internal"
PAGE = "ch.md"
IDS = ("first", "second", "third")


# The JAX book's reading of its pages: its golden folder, snippet rule and the engine's fences.
BOOK = {"goldens": "tests/golden", "snippets": "page-folders", "fences": "engine"}


class FakeRuntime(PythonRuntime):
    """The plain runtime with fixed versions: the build's goldens record these."""

    def versions(self) -> dict[str, str]:
        return {"python": "3.13"}


class FakeExecutor:
    """Hands back canned page runs; records what the build asked of it."""

    def __init__(self, outputs: dict[str, str | None], page_failure: str | None = None) -> None:
        self.outputs = outputs  # block id -> output, or None: that block failed
        self.page_failure = page_failure
        self.cache = None
        self.jobs = 1
        self.notes: list[Note] = []
        self.submitted: dict[str, list[Block]] = {}
        self.stopped = False

    def submit(self, page: str, blocks: list[Block]) -> None:
        self.submitted[page] = blocks

    def page(self, page: str) -> PageRun:
        runs = []
        for block in self.submitted[page]:
            if block.id not in self.outputs:
                continue  # the page stopped before it
            output = self.outputs[block.id]
            failure = None if output is not None else f"{block.where}: raised ValueError"
            runs.append(BlockRun(block=block, output=output or "", failure=failure))
        if self.page_failure:
            nobody = Block(page, -1, 0, "", "", "")
            runs.append(BlockRun(block=nobody, failure=self.page_failure))
        return PageRun(page, runs, backend="cpu", devices=1)

    def ready(self, page: str) -> bool:
        return True

    def pending(self) -> list[str]:
        return []

    def close(self) -> None:
        pass

    def stop(self) -> None:
        self.stopped = True


def make_book(root: Path) -> str:
    """A page with three executed blocks, each printing its own id."""
    folder = root / "snippets" / "ch"
    folder.mkdir(parents=True)
    fences = []
    for block_id in IDS:
        (folder / f"{block_id}.py").write_text(f"print({block_id!r})\n")
        fences.append(
            f'```python exec="on" id="{block_id}"\n--8<-- "snippets/ch/{block_id}.py"\n```\n'
        )
    (root / "tests" / "golden").mkdir(parents=True, exist_ok=True)
    return "# Ch\n\n" + "\n".join(fences)


def book_context(
    root: Path, settings: Settings | None = None, *, serving: bool = False, config=None
) -> BookContext:
    """The context a build of the book at `root` starts from, with these settings (what
    `bookexec._internal.context.from_config` makes of a real mkdocs.yml)."""
    settings = settings or Settings()
    golden_dir = root / settings.goldens
    docs = root / settings.docs
    return BookContext(root, root / "mkdocs.yml", docs, settings, golden_dir, serving, config)


def configured(engine: Engine, config, settings: Settings):
    """`Engine.on_config` as the plugin calls it, with a context of these settings."""
    root = Path(config.config_file_path).parent
    serving = engine.command == "serve"
    return engine.on_config(config, book_context(root, settings, serving=serving, config=config))


def make_build(
    root: Path, executor: FakeExecutor, extensions=(), settings: Settings | None = None
) -> Build:
    markdown = make_book(root)
    context = book_context(root, settings or Settings(**BOOK))
    build = Build(context, FakeRuntime(), extensions, executor=executor)
    build.plan([(PAGE, markdown)])
    build.enter_page(PAGE, markdown)
    return build


def code(build: Build, block_id: str) -> str:
    return build.planned.pages[PAGE][IDS.index(block_id)].code


def render_page(build: Build) -> str:
    """The page as the real formatter lays out its blocks, checked as `on_post_page` checks
    the page MkDocs writes."""
    page = "".join(
        format_python(
            build.render, code=code(build, i), id=i, md=Markdown(), source="", result="", extra={}
        )
        for i in IDS
    )
    return build.check_page(PAGE, page)


def test_outputs_are_looked_up_by_page_and_id_in_any_order_and_twice(tmp_path):
    build = make_build(tmp_path, FakeExecutor({i: f"out of {i}\n" for i in IDS}))
    for block_id in [*reversed(IDS), "second"]:  # out of order, and one block twice
        block, output, _, failure = build.render.output_for(block_id, code(build, block_id))
        assert (block.id, output, failure) == (block_id, f"out of {block_id}\n", None)
    # Looked up is not shown: a block counts as rendered once its page's HTML holds it.
    assert build.render.rendered == set()
    with pytest.raises(BookError, match="executed blocks that no page rendered"):
        build.check_all_rendered()


def test_a_block_is_known_by_its_page_and_id_alone(tmp_path):
    """Every executed fence has an id (the scanner refuses one without), so (page, id) is a
    stable key; a fence markdown-exec renders with no id, or an unknown one, names its page."""
    build = make_build(tmp_path, FakeExecutor({i: "x\n" for i in IDS}))
    with pytest.raises(BookError, match=r"docs/ch\.md: markdown-exec rendered block '\?'"):
        build.render.output_for("", "print(1)\n")
    with pytest.raises(BookError, match=r"docs/ch\.md: .*block 'nope'"):
        build.render.output_for("nope", "print(1)\n")
    with pytest.raises(BookError, match=r"docs/p\.md:3: executed block has no id"):
        scan_page("p.md", '# P\n\n```python exec="on"\nprint(1)\n```\n', tmp_path)
    other = make_build(tmp_path / "again", FakeExecutor({i: "x\n" for i in IDS}))
    assert [b.id for b in other.plans[PAGE]] == [b.id for b in build.plans[PAGE]]


def test_a_block_saved_onto_the_page_mid_build_is_named_as_such(tmp_path):
    """A page saved after the build read it (under serve, an author's save while the book
    builds) hands the renderer a block the build never ran: the error says so and that the
    next build runs it, not that the fence is written wrongly."""
    build = make_build(tmp_path, FakeExecutor({i: "x\n" for i in IDS}))
    (tmp_path / "snippets" / "ch" / "fourth.py").write_text("print('fourth')\n")
    saved = make_book(tmp_path / "unused") + (
        '\n```python exec="on" id="fourth"\n--8<-- "snippets/ch/fourth.py"\n```\n'
    )
    build.enter_page(PAGE, saved)
    with pytest.raises(BookError) as raised:
        build.render.output_for("fourth", "print('fourth')\n")
    assert str(raised.value) == (
        "docs/ch.md: block 'fourth' is not the build's: the page was saved after the build read "
        "it, so the block did not run; the next build runs it"
    )


def test_a_failure_is_reported_at_its_block(tmp_path):
    build = make_build(tmp_path, FakeExecutor({"first": "a\n", "second": None, "third": "c\n"}))
    _, output, _, failure = build.render.output_for("second", code(build, "second"))
    assert output == "" and failure.block_id == "second"
    assert "block 'second'" in failure.message
    _, output, _, failure = build.render.output_for("third", code(build, "third"))
    assert (output, failure) == ("c\n", None)
    build.render.output_for("first", code(build, "first"))
    failures = build.report().failures
    assert [(f.page, f.block_id) for f in failures] == [(PAGE, "second")]


def test_a_page_level_failure_is_the_pages_not_a_blocks(tmp_path):
    executor = FakeExecutor({"first": "a\n"}, page_failure="docs/ch.md: the worker died")
    build = make_build(tmp_path, executor)
    assert build.render.output_for("first", code(build, "first"))[3] is None
    _, _, _, failure = build.render.output_for("second", code(build, "second"))
    assert "not run; the page failed: docs/ch.md: the worker died" in failure.message
    build.render.output_for("third", code(build, "third"))
    reported = [(f.page, f.block_id, f.message) for f in build.report().failures]
    assert reported == [(PAGE, "", "docs/ch.md: the worker died")]


def test_drift_gives_the_reports_lines_and_fails_the_check(tmp_path, monkeypatch):
    for block_id in IDS:  # before the build: it judges the goldens it found when it began
        path = golden_path(tmp_path / "tests" / "golden", PAGE, block_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        body = f"now {block_id}\n" if block_id != "second" else "before\n"
        path.write_text(render_golden(PAGE, block_id, f"snippets/ch/{block_id}.py", body))
    build = make_build(tmp_path, FakeExecutor({i: f"now {i}\n" for i in IDS}))
    render_page(build)
    report = build.report()
    assert [c.block_id for c in report.comparisons if c.status == "drifted"] == ["second"]
    lines = "\n".join(report.check_lines())
    assert "DRIFTED (text): page docs/ch.md, block 'second'" in lines
    assert "-before\n+now second" in lines and "block 'first'" not in lines
    with pytest.raises(BookError, match="1 drifted"):
        build.finish()
    assert (tmp_path / review.REPORT).is_file()  # `./book review` reads it


def test_the_update_writes_the_goldens_through_the_report(tmp_path, monkeypatch):
    ran = []

    class After(Extension):
        def after_update(self, build):
            ran.append(build)

    executor = FakeExecutor({i: f"out {i}\n" for i in IDS})
    build = make_build(tmp_path, executor, [After()], Settings(mode="update", **BOOK))
    render_page(build)
    build.finish()
    for block_id in IDS:
        text, problem = read_golden(golden_path(build.golden_dir, PAGE, block_id))
        assert problem is None and parse(text).output == f"out {block_id}\n"
    assert ran == [build]


def fixture_config(root: Path, **more) -> SimpleNamespace:
    """What `Engine.on_config` reads of MkDocs' config."""
    (root / "mkdocs.yml").write_text("site_name: t\n")
    extensions = ["pymdownx.superfences", "pymdownx.snippets", "bookexec.guard"]
    config = SimpleNamespace(config_file_path=str(root / "mkdocs.yml"), nav=None, plugins={})
    config.markdown_extensions, config.mdx_configs = extensions, {}
    config.mdx_configs["pymdownx.snippets"] = {"base_path": str(root), "check_paths": True}
    config.extra_css, config.extra_javascript = [], []  # the engine links its own assets
    return SimpleNamespace(**{**vars(config), **more})


def test_two_builds_in_one_process_get_two_builds(tmp_path, monkeypatch):
    """`mkdocs serve` reloads the config for each rebuild: each gets its own Build, the last
    one stops, and the fences the engine registers in the config reach the new one."""
    made: list[FakeExecutor] = []

    def executor(self, *made_for):
        made.append(FakeExecutor({i: f"build {len(made)} {i}\n" for i in IDS}))
        return made[-1], False

    monkeypatch.setattr(Engine, "_executor", executor)
    markdown = make_book(tmp_path)
    eng = Engine(FakeRuntime())
    eng.on_startup("serve", dirty=False)
    first = configured(eng, fixture_config(tmp_path), Settings(**BOOK)) and eng.build
    config = fixture_config(tmp_path)
    second = configured(eng, config, Settings(**BOOK)) and eng.build
    assert first is not second and made[0].stopped and not made[1].stopped
    assert second.serving
    second.plan([(PAGE, markdown)])
    second.enter_page(PAGE, markdown)
    # The page converted with the config the engine was handed: superfences, the snippet
    # include, the guard; the engine's fence renders the block.
    md = Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)
    html = md.convert(markdown)
    assert "build 1 first" in html and "build 0" not in html  # the second build's output
    assert "build 1 third" in html
    eng.on_shutdown()  # the serve's browser review, too


def test_under_serve_one_browser_review_is_offered_each_pages_drift(tmp_path, monkeypatch):
    """`mkdocs serve`: one review server for the whole serve, its address and token handed to
    each build's render stage, each page's drift offered as it is written, closed at the end;
    a plain build has none."""
    golden_dir = tmp_path / "tests" / "golden"
    for block_id in IDS:
        path = golden_path(golden_dir, PAGE, block_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "before\n" if block_id == "second" else f"now {block_id}\n"
        path.write_text(render_golden(PAGE, block_id, f"snippets/ch/{block_id}.py", body))

    def executor(self, *made_for):
        return FakeExecutor({i: f"now {i}\n" for i in IDS}), False

    monkeypatch.setattr(Engine, "_executor", executor)
    markdown = make_book(tmp_path)
    eng = Engine(FakeRuntime())
    eng.on_startup("serve", dirty=False)
    config = fixture_config(tmp_path, site_url="http://127.0.0.1:8123/")
    configured(eng, config, Settings(**BOOK))
    served = eng.serve.review
    assert served is not None and served.origins == {
        "http://127.0.0.1:8123",
        "http://localhost:8123",
    }
    configured(eng, config, Settings(**BOOK))  # a rebuild keeps it
    assert eng.serve.review is served and eng.build.render.review == (served.url, served.token)
    build = eng.build
    build.plan([(PAGE, markdown)])
    build.enter_page(PAGE, markdown)
    html = render_page(build)
    assert html.count('data-answer="accept"') == 1 and f'data-review-token="{served.token}"' in html
    page = SimpleNamespace(file=SimpleNamespace(src_uri=PAGE))
    assert eng.on_post_page(html, page, config) == html
    entry = served.offered(PAGE, "second")
    assert entry is not None and entry.actual is not None and "now second" in entry.actual
    assert served.offered(PAGE, "first") is None  # it passes: nothing to accept
    session = eng.serve
    eng.on_shutdown()
    assert session.review is None and eng.serve is None
    assert served._server.socket.fileno() == -1  # closed

    plain = Engine(FakeRuntime())
    configured(plain, fixture_config(tmp_path), Settings(**BOOK))
    assert plain.serve is None and plain.build.render.review is None
    off = Engine(FakeRuntime())
    off.on_startup("serve", dirty=False)
    configured(off, fixture_config(tmp_path), Settings(execute=False, **BOOK))
    assert off.serve.review is None and off.build.render.review is None


def test_a_config_giving_the_books_languages_to_markdown_exec_is_refused(tmp_path):
    """markdown-exec's plugin with python in `languages` would run blocks in-process."""
    plugin = SimpleNamespace(config={"languages": ["bash", "python"]})
    config = fixture_config(tmp_path, plugins={"markdown-exec": plugin})
    with pytest.raises(BookError, match=r"markdown-exec's `languages` option lists python"):
        configured(Engine(FakeRuntime()), config, Settings(**BOOK))


def test_a_custom_fence_for_python_in_the_config_is_refused(tmp_path):
    """A `python` fence of the author's own in superfences' `custom_fences`: named, refused."""
    fence = {"name": "python", "class": "python", "format": lambda *args, **kwargs: ""}
    config = fixture_config(tmp_path)
    config.mdx_configs["pymdownx.superfences"] = {"custom_fences": [fence]}
    with pytest.raises(BookError, match=r"`custom_fences` has a 'python' fence"):
        configured(Engine(FakeRuntime()), config, Settings(**BOOK))


def test_markdown_exec_s_own_python_fence_in_the_config_is_taken_over(tmp_path):
    """A markdown-exec book may declare its python fence by hand, with markdown-exec's own
    formatter (Mathesis' does, tests/sites/mathesis): the switch to the engine changes only the
    plugins, so the engine's formatter takes its place, and no block runs in-process."""
    fence = {"name": "python", "class": "python", "format": markdown_exec.formatter}
    config = fixture_config(tmp_path)
    config.mdx_configs["pymdownx.superfences"] = {"custom_fences": [fence]}
    engine = Engine(FakeRuntime())
    configured(engine, config, Settings(**BOOK))
    fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    python = [each for each in fences if each["name"] == "python"]
    assert len(python) == 1 and python[0]["format"] is not markdown_exec.formatter
    assert python[0]["format"].__dict__.get("__bookexec__")


def test_a_config_without_superfences_is_refused(tmp_path):
    config = fixture_config(tmp_path, markdown_extensions=["bookexec.guard"])
    with pytest.raises(BookError, match=r"needs the 'pymdownx.superfences' Markdown extension"):
        configured(Engine(FakeRuntime()), config, Settings(**BOOK))


def _module_state(path: Path) -> list[str]:
    """`global` statements, and module-level mutable containers that the module mutates."""
    tree = ast.parse(path.read_text())
    found = [f"global {', '.join(n.names)}" for n in ast.walk(tree) if isinstance(n, ast.Global)]
    containers = {}
    for node in tree.body:
        value = getattr(node, "value", None)
        targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
        mutable = isinstance(value, ast.List | ast.Dict | ast.Set) or (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in {"list", "dict", "set", "defaultdict", "Counter"}
        )
        for target in targets:
            if mutable and isinstance(target, ast.Name):
                containers[target.id] = node.lineno
    mutators = {"append", "extend", "update", "add", "pop", "clear", "setdefault", "remove"}
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            name = getattr(node.value, "id", None)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in mutators:
                name = getattr(node.func.value, "id", None)
        elif isinstance(node, ast.AugAssign):
            name = getattr(node.target, "id", None)
        if name in containers:
            found.append(f"{name} is mutated")
    return sorted(set(found))


LEFT = {
    # The snippets' API, in the worker: one process is one page's session, and each block's
    # values are taken (and the lists emptied) after it runs.
    "facts.py": ["_claims is mutated", "_facts is mutated"],
}


def test_no_module_in_the_engine_keeps_state_at_module_level():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        state = _module_state(path)
        if state:
            found[path.relative_to(PACKAGE).as_posix()] = state
    assert found == LEFT


def test_the_state_scan_sees_globals_and_mutated_containers(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("_s = {'a': 0}\nx = []\n\ndef f():\n    global y\n    _s['a'] = 1\n")
    assert _module_state(module) == ["_s is mutated", "global y"]


def test_the_engine_imports_no_book_feature_and_no_jax():
    stages = [
        *sorted((INTERNAL / "render").glob("*.py")),
        *sorted((INTERNAL / "pipeline").glob("*.py")),
    ]
    for path in [INTERNAL / "engine.py", *stages]:
        tree = ast.parse(path.read_text())
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        bad = [n for n in names if n.startswith(("jaxbook", "bookexec._internal.jax", "jax"))]
        assert not bad, f"{path.name} imports {bad}"


def test_cache_paths_have_one_home(tmp_path):
    paths = CachePaths(tmp_path)
    assert paths.blocks == tmp_path / ".cache" / "bookexec" / "blocks"
    assert paths.lab_html.parent == paths.labs.parent == paths.base
    assert tmp_path / review.REPORT == paths.report
    assert (
        engine.Build(book_context(tmp_path), FakeRuntime(), executor=FakeExecutor({})).paths
        == paths
    )


@pytest.mark.needs_book
def test_census_headings_are_in_a_readers_words():
    """The census table is shown to readers: its headings say what each column counts, never
    an author's option (`raises=`) or an undefined word such as "counts"."""
    from jaxbook import census

    made = census.table([census.Row("a.md", "A", 3, 1, 1, 1, 1)], "how-it-stays-true.md")
    heading = made.splitlines()[0]
    for words in ("timing code", "with a count in the prose", "raising on purpose"):
        assert words in heading, (words, heading)
    for authoring in ("raises", "`", "errors", "counts", "timings"):
        assert authoring not in heading, (authoring, heading)
    assert "| **all 1 pages with code** | **3** |" in made


@pytest.mark.needs_book
def test_nav_order_is_read_with_mkdocs_own_loader(tmp_path):
    from bookexec import open_book
    from jaxbook import census, jax_changes

    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - executed-book\nnav:\n  - Home: index.md\n  - Part:\n"
        '      - "B: with a colon": b.md\n      - a.md\n      - Lab: labs/x.ipynb\n'
        "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: !relative $config_dir\n"
        "extra:\n  who: !ENV [NOBODY_SETS_THIS, default]\n"
    )
    (tmp_path / "docs").mkdir()
    book = open_book(tmp_path / "mkdocs.yml", {})
    assert census.nav_order(book.nav, ["a.md", "b.md", "z.md"]) == ["b.md", "a.md", "z.md"]
    assert jax_changes._chapters(book) == [
        ("index.md", "Home"),
        ("b.md", "B: with a colon"),
        ("a.md", "a.md"),
    ]


@pytest.mark.needs_book
def test_other_jax_records_use_the_golden_format():
    from jaxbook import jax_changes

    record = next(iter(sorted((REPO / jax_changes.RECORDS).glob("*/*/*.txt"))))
    parsed = parse(record.read_text())
    fields = parsed.header_fields()
    page, _, block_id = fields["block"].removeprefix("docs/").partition("#")
    block = Block(page, 0, 1, block_id, fields["snippet"], "")
    body = record.read_text().partition("---\n")[2]
    assert (
        jax_changes._record(block, fields["result"], body, fields["sources"]) == record.read_text()
    )


def test_a_page_that_marks_glossary_terms_renders_again_when_the_glossary_changes(tmp_path):
    """Under `mkdocs serve --dirty` an edit of a glossary entry renders again every page whose
    cards show it (issue 40), not the glossary page alone."""
    settings = Settings(glossary="glossary.md", **BOOK)
    build = make_build(tmp_path, FakeExecutor({}), settings=settings)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "glossary.md").write_text("**Tracer**\n:   A stand-in.\n")
    before = build.page_inputs(PAGE, "# Ch\n", docs / PAGE, set())
    (docs / "glossary.md").write_text("**Tracer**\n:   A stand-in, edited.\n")
    after = build.page_inputs(PAGE, "# Ch\n", docs / PAGE, set())
    assert "docs/glossary.md" in after.files
    assert after.changed(before) == ["snippets"]


def test_serve_watches_the_golden_folder_and_the_snippets_folders(tmp_path):
    build = make_build(tmp_path, FakeExecutor({}))
    assert build.watched() == [tmp_path / "snippets" / "ch", tmp_path / "tests" / "golden"]
