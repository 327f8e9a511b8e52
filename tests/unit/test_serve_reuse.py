"""Under `mkdocs serve` a rebuild reuses what did not change since the last build (issue 55):
each page's scan, each golden's read. An edit of a page, a snippet or a golden between two
rebuilds is still seen, and a rebuild after a prose edit scans that page alone."""

from __future__ import annotations

import os
import time
from types import SimpleNamespace

import pytest
from markdown import Markdown
from test_engine import BOOK, PAGE, FakeExecutor, FakeRuntime, configured, fixture_config, make_book

from bookexec._internal.engine import Engine
from bookexec._internal.goldens.compare import Snapshot
from bookexec._internal.settings import Settings

pytestmark = pytest.mark.engine

OTHER = "other.md"


def aged(root) -> None:
    """Every file of the book written a minute ago, as an author's files are when they edit
    one: a file written in the last moments is never trusted (`discover.memo.RACY_NS`)."""
    past = time.time() - 60
    for folder, _, names in os.walk(root):
        for name in names:
            os.utime(os.path.join(folder, name), (past, past))


def two_page_book(root) -> dict[str, str]:
    """`ch.md` with three blocks (`test_engine.make_book`) and `other.md` with one."""
    pages = {PAGE: make_book(root)}
    (root / "snippets" / "other").mkdir(parents=True)
    (root / "snippets" / "other" / "alone.py").write_text("print('alone')\n")
    pages[OTHER] = (
        '# Other\n\n```python exec="on" id="alone"\n--8<-- "snippets/other/alone.py"\n```\n'
    )
    return pages


def serve_build(eng: Engine, root, pages: dict[str, str]):
    """One build of the serve, as the plugin drives it: a new config, every page planned."""
    config = fixture_config(root)
    configured(eng, config, Settings(**BOOK))
    eng.build.plan(list(pages.items()))
    return eng.build, config


def serving(monkeypatch) -> Engine:
    """An engine under `mkdocs serve`, its executor a fake one per build."""
    outputs = {i: f"out {i}\n" for i in ("first", "second", "third", "alone")}
    monkeypatch.setattr(Engine, "_executor", lambda self, *made_for: (FakeExecutor(outputs), False))
    eng = Engine(FakeRuntime())
    eng.on_startup("serve", dirty=False)
    return eng


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The two-page book, aged, under serve and built once: its engine, pages and first
    build; the engine shut down after the test."""
    pages = two_page_book(tmp_path)
    aged(tmp_path)
    eng = serving(monkeypatch)
    first, _ = serve_build(eng, tmp_path, pages)
    yield eng, pages, first
    eng.on_shutdown()


def test_a_snippet_edited_between_two_rebuilds_shows_its_new_code(tmp_path, served):
    eng, pages, _ = served
    (tmp_path / "snippets" / "ch" / "first.py").write_text("print('first, as edited')\n")
    build, config = serve_build(eng, tmp_path, pages)
    assert build.plans[PAGE][0].code == "print('first, as edited')\n", (
        "the rebuild reused the scan of a page whose snippet changed"
    )
    build.enter_page(PAGE, pages[PAGE])
    md = Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)
    html = md.convert(pages[PAGE])
    assert "as edited" in html, "the rebuilt page shows the snippet's old code"


def test_a_page_edited_between_two_rebuilds_shows_its_new_blocks(tmp_path, served):
    eng, pages, _ = served
    pages[OTHER] = pages[OTHER].replace('id="alone"', 'id="renamed"')
    build, _ = serve_build(eng, tmp_path, pages)
    assert [block.id for block in build.plans[OTHER]] == ["renamed"]


def test_a_second_rebuild_scans_only_the_page_whose_prose_changed(tmp_path, served):
    eng, pages, _ = served
    scans = eng.serve.scans
    assert scans.scanned == [PAGE, OTHER]  # the first build reads every page
    pages[PAGE] = pages[PAGE].replace("# Ch", "# Ch\n\nA new sentence.")
    build, _ = serve_build(eng, tmp_path, pages)
    assert scans.scanned == [PAGE, OTHER, PAGE], "the rebuild scanned pages that did not change"
    assert [block.id for block in build.plans[OTHER]] == ["alone"]  # reused, still planned
    serve_build(eng, tmp_path, pages)
    assert scans.scanned == [PAGE, OTHER, PAGE]  # nothing changed: nothing scanned


def test_a_plain_build_keeps_no_scan(tmp_path, monkeypatch):
    """`mkdocs build`: no serve, so nothing is kept for a next build."""
    pages = two_page_book(tmp_path)
    monkeypatch.setattr(Engine, "_executor", lambda self, *made_for: (FakeExecutor({}), False))
    eng = Engine(FakeRuntime())
    eng.on_startup("build", dirty=False)
    build, _ = serve_build(eng, tmp_path, pages)
    assert build.planned.memo is None and eng.serve is None


def test_a_golden_rewritten_between_two_rebuilds_is_read_again(tmp_path):
    golden = tmp_path / "tests" / "golden" / "ch" / "first.txt"
    golden.parent.mkdir(parents=True)
    golden.write_text("one\n")
    aged(tmp_path)
    kept: dict = {}
    first = Snapshot.read(golden.parent.parent, kept=kept)
    assert first.golden(golden)[0] == "one\n" and golden in kept
    again = Snapshot.read(golden.parent.parent, kept=kept)
    assert again.golden(golden) is first.golden(golden)  # unchanged: the same read
    golden.write_text("two\n")  # the same size
    assert Snapshot.read(golden.parent.parent, kept=kept).golden(golden)[0] == "two\n", (
        "the rebuild reused the read of a golden that changed"
    )
    golden.unlink()
    assert Snapshot.read(golden.parent.parent, kept=kept).golden(golden) == (None, None)
    assert golden not in kept


@pytest.mark.needs_book  # the labs' extension is the book's (jaxbook), not the engine's
def test_a_lab_is_scanned_again_only_when_its_notebook_changed(tmp_path):
    """The labs' extension under serve: a lab's cells reused while its notebook is unchanged,
    read again once it is saved; a build of its own reads it every time."""
    from test_lab_reader_notebook import LAB

    from jaxbook.extensions import LabRenders, Labs, ProvenanceNote

    src, path = "labs/demo.ipynb", tmp_path / "demo.ipynb"
    path.write_text(LAB)
    aged(tmp_path)
    labs = Labs(ProvenanceNote(), LabRenders())
    served = SimpleNamespace(context=SimpleNamespace(serving=True))
    first = labs.scan(served, src, path)
    assert labs.scan(served, src, path) == first and labs.scans.scanned == [src]
    path.write_text(LAB.replace("x = 7", "x = 8").replace("x == 7", "x == 8"))
    again = labs.scan(served, src, path)
    assert labs.scans.scanned == [src, src] and "x = 8" in again[0].code, (
        "the rebuild reused the scan of a lab whose notebook changed"
    )
    labs.scan(SimpleNamespace(context=SimpleNamespace(serving=False)), src, path)
    assert labs.scans.scanned == [src, src]  # a plain build keeps nothing


def test_a_snippet_edited_between_two_rebuilds_changes_its_pages_inputs(tmp_path, served):
    """`--dirty`: the page graph's reads of the snippets are kept too, and an edit still
    renders its page again."""
    eng, pages, build = served
    path = tmp_path / "docs" / PAGE
    before = build.page_inputs(PAGE, pages[PAGE], path, set())
    build, _ = serve_build(eng, tmp_path, pages)
    assert build.page_inputs(PAGE, pages[PAGE], path, set()).changed(before) == []
    (tmp_path / "snippets" / "ch" / "third.py").write_text("print('3')\n")
    build, _ = serve_build(eng, tmp_path, pages)
    assert "snippets" in build.page_inputs(PAGE, pages[PAGE], path, set()).changed(before), (
        "the rebuild reused the text of a snippet that changed"
    )
