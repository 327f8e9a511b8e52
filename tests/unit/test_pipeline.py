"""Each stage of a build alone (`bookexec._internal.pipeline`), with fakes in place of the others:
an in-memory golden snapshot for the store, a canned executor, a fake render stage for the fence.
Nothing here spawns a worker or a build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown import Markdown

from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import Block
from bookexec._internal.errors import BookError
from bookexec._internal.execute.cache import BlockCache
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.execute.progress import Progress
from bookexec._internal.execute.runtime import PythonRuntime
from bookexec._internal.goldens.compare import Comparison, Snapshot, compare
from bookexec._internal.goldens.report import Failure
from bookexec._internal.goldens.store import (
    Provenance,
    golden_path,
    read_versions,
    write_versions,
    written_by,
)
from bookexec._internal.goldens.store import render as render_golden
from bookexec._internal.pipeline.finish import Finish, Stages
from bookexec._internal.pipeline.judge import Judge
from bookexec._internal.pipeline.plan import Plan
from bookexec._internal.pipeline.render import RenderStage
from bookexec._internal.pipeline.run import PageExecutor, Runs
from bookexec._internal.privacy import Masker
from bookexec._internal.render.fence import format_python
from bookexec._internal.render.layout import Look, Shown
from bookexec._internal.settings import Settings
from conftest import REPO

pytestmark = pytest.mark.engine

GOLDENS = Path("/nowhere/tests/golden")  # never read: the snapshot holds the goldens
PAGE = "ch.md"


def block(block_id: str, index: int = 0) -> Block:
    return Block(PAGE, index, 3 + 4 * index, block_id, f"snippets/ch/{block_id}.py", "print(1)\n")


def snapshot(outputs: dict[str, str]) -> Snapshot:
    """A fake golden store: the goldens as the update mode would write them, in memory."""
    texts: dict[Path, tuple[str | None, str | None]] = {}
    for block_id, output in outputs.items():
        text = render_golden(PAGE, block_id, f"snippets/ch/{block_id}.py", output)
        texts[golden_path(GOLDENS, PAGE, block_id)] = (text, None)
    return Snapshot(GOLDENS, texts)


class CannedExecutor:
    """A `PageExecutor` handing back fixed runs; `running` pages are not ready yet."""

    def __init__(self, runs: dict[str, BlockRun], running: set[str] | None = None) -> None:
        self.runs = runs
        self.running = running or set()
        self.cache: BlockCache | None = None
        self.jobs = 1
        self.notes: list[Note] = []
        self.asked: list[str] = []
        self.submitted: dict[str, list[Block]] = {}

    def submit(self, page: str, blocks: list[Block]) -> None:
        self.submitted[page] = blocks

    def ready(self, page: str) -> bool:
        return page not in self.running

    def pending(self) -> list[str]:
        return sorted(self.running)

    def page(self, page: str) -> PageRun:
        self.asked.append(page)
        return PageRun(page, list(self.runs.values()), backend="cpu", devices=1)

    def close(self) -> None:
        pass

    def stop(self) -> None:
        pass


def context_at(root: Path, **settings: object) -> BookContext:
    """A book at `root` whose goldens are GOLDENS (never read: the snapshot holds them)."""
    chosen = Settings(**settings)  # type: ignore[arg-type]
    return BookContext(root, root / "mkdocs.yml", root / "docs", chosen, GOLDENS)


def judge_of(executor: PageExecutor, goldens: Snapshot, execute: bool = True) -> Judge:
    runs = Runs(executor, goldens, execute)
    return Judge(context_at(Path("/nowhere")), runs, PythonRuntime())


# -- plan ---------------------------------------------------------------------------------


def test_the_plan_scans_pages_and_knows_each_blocks_fence_and_golden(tmp_path):
    (tmp_path / "snippets" / "p").mkdir(parents=True)
    (tmp_path / "snippets" / "p" / "one.py").write_text("print(1)\n")
    page = '# P\n\n```python exec="on" id="one"\n--8<-- "snippets/p/one.py"\n```\n'
    plan = Plan()
    plan.scan([("p.md", page), ("empty.md", "# E\n")], tmp_path, ())
    assert [b.id for b in plan.pages["p.md"]] == ["one"] and plan.pages["empty.md"] == []
    assert plan.fence_line("p.md", "one") == 3 and plan.fence_line("p.md", "two") is None
    assert (plan.blocks(), plan.pages_with_blocks()) == (1, 1)
    assert plan.goldens(tmp_path) == {tmp_path / "p" / "one.txt"}
    with pytest.raises(BookError, match=r"docs/bad\.md:1: executed block has no id"):
        plan.scan([("bad.md", '```python exec="on"\nprint(1)\n```\n')], tmp_path, ())


# -- run ----------------------------------------------------------------------------------


def test_runs_show_the_goldens_when_nothing_runs_or_while_a_page_runs():
    first = block("first")
    goldens = snapshot({"first": "recorded\n"})
    live = {"first": BlockRun(block=first, output="live\n")}
    off = Runs(CannedExecutor(live), goldens, execute=False)
    assert off.results(PAGE, [first]) == ([(first, "recorded\n", [])], None)
    behind = CannedExecutor(live, running={PAGE})
    assert Runs(behind, goldens, execute=True).results(PAGE, [first])[0][0][1] == "recorded\n"
    assert behind.asked == []  # a page still running is not waited for
    results, run = Runs(CannedExecutor(live), goldens, execute=True).results(PAGE, [first])
    assert results == [(first, "live\n", [])] and run is not None and run.backend == "cpu"


def test_a_failed_blocks_values_are_missing_not_empty():
    first = block("first")
    failed = {"first": BlockRun(block=first, failure="docs/ch.md:3: raised")}
    runs = Runs(CannedExecutor(failed), snapshot({}), execute=True)
    with pytest.raises(BookError, match=r"its values are missing \(the block failed\)"):
        runs.facts(PAGE, first)


# -- judge --------------------------------------------------------------------------------


def test_the_judge_compares_with_the_store_it_was_given():
    blocks = [block("same", 0), block("moved", 1), block("unknown", 2)]
    executor = CannedExecutor({b.id: BlockRun(block=b, output=f"{b.id}\n") for b in blocks})
    judge = judge_of(executor, snapshot({"same": "same\n", "moved": "before\n"}))
    verdicts = {b.id: judge.judged(PAGE, b) for b in blocks}
    assert {k: c.status for k, (_, c, _) in verdicts.items() if c} == {
        "same": "ok",
        "moved": "drifted",
        "unknown": "new",
    }
    assert verdicts["same"][0] == "same\n" and verdicts["moved"][2] is None
    _, drifted = judge.page_problems(PAGE)
    assert [c.block_id for c in drifted] == ["moved", "unknown"]


def test_a_block_is_judged_once_and_a_failure_is_its_blocks():
    first, second = block("first", 0), block("second", 1)
    runs = {
        "first": BlockRun(block=first, output="a\n"),
        "second": BlockRun(block=second, failure="docs/ch.md:7: raised ValueError"),
    }
    executor = CannedExecutor(runs)
    judge = judge_of(executor, snapshot({"first": "a\n"}))
    assert judge.judged(PAGE, first) is judge.judged(PAGE, first)
    _, comparison, failure = judge.judged(PAGE, second)
    assert comparison is None and failure == Failure(
        PAGE, "second", "snippets/ch/second.py", "docs/ch.md:7: raised ValueError"
    )
    assert executor.asked == [PAGE, PAGE]  # once per block, never again
    running = Provenance.of({"python": "3.13"}, "cpu")
    report = judge.report(
        [], [Note(PAGE, "docs/ch.md: the worker's last word")], [], running, running
    )
    assert [(f.page, f.block_id) for f in report.failures] == [(PAGE, "second"), (PAGE, "")]
    assert report.failed and report.count("ok") == 1


def test_a_page_shown_recorded_is_marked_pending_and_not_compared():
    first = block("first")
    executor = CannedExecutor({"first": BlockRun(block=first, output="new\n")}, running={PAGE})
    judge = judge_of(executor, snapshot({"first": "old\n"}))
    assert judge.judged(PAGE, first) == ("old\n", None, None)
    assert judge.pending_blocks == {(PAGE, "first")} and judge.comparisons == {}


# -- render: the fence, through its narrow interface ----------------------------------------


class FakeSource:
    """A `BlockSource`: the fence's only view of the build."""

    def __init__(self, output: str, comparison: Comparison | None = None) -> None:
        self.root = Path("/nowhere")
        self.shows_problems = True
        self.review: tuple[str, str] | None = None
        self.masker = Masker()
        self.launcher = ""
        self.pending_blocks: set[tuple[str, str]] = set()
        self.pending_new: set[tuple[str, str]] = set()
        self.block = block("first")
        self.output = output
        self.comparison = comparison
        self.laid: list[tuple[str, str, Look]] = []
        self.said: set[str] = set()

    def output_for(
        self, block_id: str, code: str
    ) -> tuple[Block, str, Comparison | None, Failure | None]:
        return self.block, self.output, self.comparison, None

    def result_language(self, output: str) -> str:
        return "pycon"

    def laid_out(self, block: Block, output: str, look: Look) -> None:
        self.laid.append((block.id, output, look))

    def first_time(self, said: str) -> bool:
        first = said not in self.said
        self.said.add(said)
        return first


def render(source: FakeSource) -> str:
    options = {"id": "first", "source": "", "result": "", "extra": {}}
    return str(format_python(source, code="print(1)\n", md=Markdown(), **options))


def test_a_note_the_same_for_every_timed_block_is_said_once_a_page():
    timed = Shown("took 1.5 ms\n")
    timed.measured = ((5, 8),)
    timed.note = ("These numbers were measured; your run prints its own.", ("1.5",))
    source = FakeSource(timed)
    assert render(source).count("executed-book-measured-note") == 1
    assert "executed-book-measured-note" not in render(source)  # the page's next timed block
    assert 'class="executed-book-measured"' in render(source)  # its values are still marked


def test_the_fence_lays_out_what_the_stage_hands_it_and_says_so():
    source = FakeSource("printed by the stage\n")
    html = render(source)
    assert "printed by the stage" in html
    assert [(i, o, look.result) for i, o, look in source.laid] == [
        ("first", "printed by the stage\n", "pycon")
    ]
    assert "executed-book-pending" not in html and "executed-book-drift" not in html
    source.pending_blocks.add((PAGE, "first"))
    assert 'class="executed-book-pending" data-block="first"' in render(source)


def test_a_block_still_being_checked_gets_a_small_marker_not_a_box():
    """Under serve, while blocks run behind the page, each shows its golden with a one-line
    marker under it, not an admonition box of its own (issue 41: the pending state is quiet)."""
    source = FakeSource("printed by the stage\n")
    plain = render(source)
    source.pending_blocks.add((PAGE, "first"))
    marker = render(source).removeprefix(plain)
    assert "executed-book-pending" in marker
    assert "admonition" not in marker
    text = re.sub(r"<[^>]+>", "", marker)
    assert len(text) < 80 and "\n" not in text, text


def test_a_source_box_is_titled_with_the_file_name_not_the_repository_path():
    """The reader sees the name to save the code under; `title=` still sets it, or none."""
    source = FakeSource("printed\n")
    assert source.block.snippet == "snippets/ch/first.py"
    html = render(source)
    assert '<span class="filename">first.py</span>' in html and "snippets/" not in html
    options = {"id": "first", "source": "", "result": "", "extra": {"title": "Two lines"}}
    titled = str(format_python(source, code="print(1)\n", md=Markdown(), **options))
    assert '<span class="filename">Two lines</span>' in titled
    options["extra"] = {"title": ""}
    untitled = str(format_python(source, code="print(1)\n", md=Markdown(), **options))
    assert 'class="filename"' not in untitled


def test_the_fence_shows_drift_at_the_block_under_serve():
    goldens = snapshot({"first": "old\n"})
    drift = compare(GOLDENS, PAGE, "first", "snippets/ch/first.py", "new\n", snapshot=goldens)
    assert drift.status == "drifted"
    html = render(FakeSource("new\n", drift))
    assert 'class="admonition warning executed-book-drift" data-block="first"' in html
    assert "<button" not in html and "<script" not in html  # no browser review: no buttons


def test_with_the_browser_review_the_drift_has_accept_and_keep_escaped():
    goldens = snapshot({"first": "old\n"})
    drift = compare(GOLDENS, PAGE, "first", "snippets/ch/first.py", "new\n", snapshot=goldens)
    source = FakeSource("new\n", drift)
    source.review = ('http://127.0.0.1:1/"><script>', "tok&en")
    html = render(source)
    warning = html[html.index('<div class="admonition warning executed-book-drift"') :]
    head = warning[: warning.index(">")]
    assert 'data-block="first"' in head and f'data-page="{PAGE}"' in head
    assert 'data-review-url="http://127.0.0.1:1/&quot;&gt;&lt;script&gt;"' in head
    assert 'data-review-token="tok&amp;en"' in head
    assert '<button type="button" class="md-button" data-answer="accept"' in warning
    assert '<button type="button" class="md-button" data-answer="keep"' in warning
    assert '<span class="executed-book-review-status" role="status"></span>' in warning
    assert warning.count("<script>") == 1 and "fetch(" in warning
    # A cosmetic drift's one-line note gets them too.
    cosmetic = compare(GOLDENS, PAGE, "first", "snippets/ch/first.py", "old \n", snapshot=goldens)
    assert cosmetic.kind == "cosmetic"
    source.comparison = cosmetic
    note = render(source)
    assert '<div class="executed-book-drift-note" data-block="first" data-page="ch.md"' in note
    assert 'data-answer="accept"' in note and note.count("<script>") == 1


# -- finish: the build's end, with the extensions' part through `Contributions` ------------


class Asked:
    """A `Contributions` that notes what the finish stage asked of it."""

    def __init__(self, stale: str | None = None) -> None:
        self.stale = stale
        self.asked: list[str] = []

    def problems(self) -> list[str]:
        self.asked.append("problems")
        return []

    def check(self) -> str | None:
        self.asked.append("check")
        return self.stale

    def after_update(self) -> None:
        self.asked.append("after_update")


def finish_of(root: Path, contributions: Asked, mode: str = "check") -> Finish:
    """The finish stage of a build of a book without blocks, alone."""
    plan, runs = Plan(), Runs(CannedExecutor({}), snapshot({}), execute=True)
    context = context_at(root, mode=mode)
    judge = Judge(context, runs, PythonRuntime())
    render = RenderStage(context, plan, judge, PythonRuntime(), lambda *a: None)
    stages = Stages(plan, judge, render, Progress(lambda line: None), started=0.0)
    return Finish(context, stages, contributions)


def test_the_finish_stage_asks_the_extensions_in_its_order_and_fails_on_their_check(tmp_path):
    clean = Asked()
    finish_of(tmp_path, clean).end()
    assert clean.asked == ["problems", "check"]
    stale = Asked(stale="the table page is not as its goldens say")
    finish = finish_of(tmp_path, stale)
    with pytest.raises(BookError, match="the table page is not as its goldens say"):
        finish.end()
    assert finish.finished  # a build stopped after its end keeps its report
    updated = Asked()
    finish_of(tmp_path, updated, mode="update").end()
    assert updated.asked == ["problems", "after_update"]


# -- the store: named versions, no runtime's names built in ----------------------------------


def test_the_store_records_and_compares_whatever_versions_a_runtime_names(tmp_path):
    prov = Provenance.of({"lua": "5.4.6", "luarocks": "", "python": "3.13"}, "cpu", devices=2)
    assert write_versions(tmp_path, prov)
    text = (tmp_path / "VERSIONS").read_text()
    assert text.endswith("lua: 5.4.6\npython: 3.13\nbackend: cpu\n")  # the empty one is not
    read = read_versions(tmp_path)
    assert read == prov and read is not None and read.devices == 0  # devices: not recorded
    assert read.version("lua") == "5.4.6" and read.version("jax") == ""
    assert read.describe() == "lua 5.4.6 (Python 3.13, cpu)"
    assert read != Provenance.of({"lua": "5.4.7", "python": "3.13"}, "cpu")
    assert not write_versions(tmp_path, prov)  # unchanged: not rewritten


def test_the_versions_file_names_the_command_that_writes_it(tmp_path):
    """The VERSIONS header names the book's update command, as a golden's `written-by` does."""
    prov = Provenance.of({"python": "3.13"}, "cpu")
    write_versions(tmp_path, prov, written_by("./book"))
    assert (tmp_path / "VERSIONS").read_text().startswith("# Written by ./book update (never")
    write_versions(tmp_path, prov)
    first = (tmp_path / "VERSIONS").read_text().splitlines()[0]
    assert first.startswith("# Written by GOLDEN=update mkdocs build --strict (never"), first
    assert read_versions(tmp_path) == prov


def test_goldens_name_no_runtime():
    """The runtime supplies its version names; the golden store names none of JAX's."""
    store = REPO / "hooks" / "bookexec" / "_internal" / "goldens" / "store.py"
    code = store.read_text()
    assert '"jax"' not in code and '"jaxlib"' not in code


def test_a_page_that_ends_before_the_next_build_has_planned_counts_against_the_last_plan():
    """Under serve the build right after the server starts (the home page's first build left
    the other pages for it) can see a page's run end before it has scanned the book: its
    progress line counts against the plan it carries over, never 'of 0 pages' (issue 41: the
    log's counters add up)."""
    from bookexec._internal.execute.progress import Progress

    block = Block("a.md", 0, 3, "b", "snippets/a/b.py", "print(1)\n")
    earlier = Progress(lambda line: None)
    earlier.expect(35, 513, {"a.md": [block]})
    earlier.block_done(block.where, 0.1, cached=False, block=block)
    said: list[str] = []
    later = Progress(said.append)
    later.carry(earlier)
    later.page_done("a.md", 1, 0, 0.5)
    assert said == ["bookexec: [1/35 pages, 1/513 blocks] docs/a.md: 1 run, 0.5 s"], said
    later.expect(35, 513)
    assert (later.pages, later.blocks) == (35, 513)
