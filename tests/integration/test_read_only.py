"""The book is read-only to its blocks, and a golden cannot be changed by what it judges.

A block that creates, changes or deletes a file of the checkout (docs/, snippets/, mkdocs.yml,
tests/golden/ with its VERSIONS) fails, with a message naming the block and the file; pages
run in parallel, and a change two running blocks could have made names both and says so. The
goldens are read before any block runs: a block that rewrites its own golden to match what it
prints still drifts. A build a block kills is named by the next build.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from test_execution import fixture_watch, run_page

from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute.runner import Executor, ExecutorOptions
from bookexec._internal.execute.runtime import PythonRuntime
from bookexec._internal.goldens.compare import Snapshot, compare
from bookexec._internal.goldens.store import golden_path, render
from conftest import scaled


def book(root: Path) -> None:
    """The files a checkout has."""
    for name, text in {
        "mkdocs.yml": "site_name: fixture\n",
        "docs/page.md": "# Page\n",
        "snippets/other/one.py": "print(1)\n",
        "tests/golden/VERSIONS": "jax: 0\n",
        "tests/golden/page/b0.txt": "block: b0\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.mark.parametrize(
    ("code", "path", "what"),
    [
        ("open('docs/new.md', 'w').write('# New')\n", "docs/new.md", "created"),
        ("open('snippets/other/one.py', 'a').write('#')\n", "snippets/other/one.py", "changed"),
        ("import os\nos.remove('mkdocs.yml')\n", "mkdocs.yml", "deleted"),
        (
            "open('tests/golden/VERSIONS', 'w').write('jax: 9')\n",
            "tests/golden/VERSIONS",
            "changed",
        ),
        (
            "import pathlib\npathlib.Path('tests/golden/page/b0.txt').unlink()\n",
            "tests/golden/page/b0.txt",
            "deleted",
        ),
    ],
    ids=["create-docs", "change-snippet", "delete-mkdocs-yml", "change-versions", "delete-golden"],
)
def test_a_block_that_changes_the_checkout_fails_naming_the_block_and_the_file(
    tmp_path, code, path, what
):
    book(tmp_path)
    first, after = run_page(tmp_path, code, 'print("fine")\n', runtime=PythonRuntime()).blocks
    assert first.failure == (
        f"docs/page.md:1 (block 'b0', snippet snippets/page/block0.py): {what} {path} while it "
        "ran; the book is read-only to its blocks: write to a temporary folder (tempfile) instead"
    )
    assert after.failure is None  # the change is named once, on the block that made it


def test_a_block_that_writes_elsewhere_is_fine(tmp_path):
    book(tmp_path)
    code = (
        "import tempfile\nwith tempfile.TemporaryFile('w') as f:\n    f.write('x')\nprint('ok')\n"
    )
    (run,) = run_page(tmp_path, code, runtime=PythonRuntime()).blocks
    assert run.failure is None and run.output == "ok\n"


def test_a_change_two_running_blocks_could_have_made_names_both(tmp_path):
    book(tmp_path)
    started = tmp_path.parent / f"{tmp_path.name}-sleeper-started"  # outside the book
    # The writer waits until the sleeper runs, so both run when the file changes.
    writer = (
        "import os, time\n"
        f"while not os.path.exists({str(started)!r}):\n"
        "    time.sleep(0.02)\n"
        "open('docs/page.md', 'a').write('!')\n"
    )
    sleeper = f"import pathlib, time\npathlib.Path({str(started)!r}).touch()\ntime.sleep(3.0)\n"
    blocks = {}
    for page, code in (("a.md", writer), ("b.md", sleeper)):
        snippet = f"snippets/{page[0]}/block.py"
        (tmp_path / snippet).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / snippet).write_text(code)
        blocks[page] = [Block(page, 0, 1, "x", snippet, code, {})]
    options = ExecutorOptions(environ=os.environ, jobs=2, watch=fixture_watch(tmp_path))
    executor = Executor(tmp_path, options, PythonRuntime())
    for page, page_blocks in blocks.items():
        executor.submit(page, page_blocks)
    try:
        (a,) = executor.page("a.md").blocks
        (b,) = executor.page("b.md").blocks
    finally:
        executor.close()
    assert a.failure is not None and b.failure is None
    assert a.failure.startswith(
        "docs/page.md was changed while these blocks ran, so it is ambiguous"
    )
    assert "docs/a.md:1 (block 'x'" in a.failure and "docs/b.md:1 (block 'x'" in a.failure


def test_the_verdict_uses_the_goldens_as_they_were_before_any_block_ran(tmp_path):
    golden_dir = tmp_path / "tests" / "golden"
    path = golden_path(golden_dir, "p.md", "b")
    path.parent.mkdir(parents=True)
    path.write_text(render("p.md", "b", "snippets/p/b.py", "old\n"))
    snapshot = Snapshot.read(golden_dir)
    path.write_text(render("p.md", "b", "snippets/p/b.py", "new\n"))  # as a block could
    (golden_dir / "p" / "planted.txt").write_text(render("p.md", "planted", "s.py", "x\n"))
    result = compare(golden_dir, "p.md", "b", "snippets/p/b.py", "new\n", snapshot=snapshot)
    assert result.status == "drifted"
    assert snapshot.paths() == {path}  # a golden planted later is neither judged nor stale
    assert compare(golden_dir, "p.md", "gone", "s.py", "x\n", snapshot=snapshot).status == "new"


OWN_GOLDEN = """\
import pathlib
from bookexec._internal.goldens.store import render

print("new")
golden = pathlib.Path("tests/golden/cheat/b.txt")
golden.write_text(render("cheat.md", "b", "snippets/cheat/b.py", "new\\n"))
"""


def test_a_block_that_rewrites_its_own_golden_fails_the_build(site):
    site.page(
        "cheat.md", '# Cheat\n\n```python exec="on" id="b"\n--8<-- "snippets/cheat/b.py"\n```\n'
    )
    site.snippet("cheat/b.py", 'print("old")\n')
    assert site.build("update").returncode == 0
    site.snippet("cheat/b.py", OWN_GOLDEN)
    result = site.build()
    assert result.returncode != 0, result.output
    assert (
        "docs/cheat.md:3 (block 'b', snippet snippets/cheat/b.py): changed "
        "tests/golden/cheat/b.txt while it ran" in result.output
    )


KILLER = """\
import os
import signal

os.kill(os.getppid(), signal.SIGKILL)
"""


def test_a_build_killed_by_a_block_is_named_by_the_next_build(site):
    site.page(
        "kill.md", '# Kill\n\n```python exec="on" id="killer"\n--8<-- "snippets/kill/k.py"\n```\n'
    )
    site.snippet("kill/k.py", KILLER)
    first = site.build("update")
    assert first.returncode < 0, first.output  # the block killed it: nothing could be said
    site.snippet("kill/k.py", 'print("tame")\n')
    started = time.monotonic()
    second = site.build("update")
    assert second.returncode == 0, second.output
    assert "was ended from outside while these blocks ran" in second.output
    assert "docs/kill.md:3 (block 'killer', snippet snippets/kill/k.py)" in second.output
    assert "was ended from outside" not in site.build().output  # said once
    assert time.monotonic() - started < scaled(300)


def test_the_build_judges_against_the_goldens_it_found_when_it_began(tmp_path, monkeypatch):
    """A golden rewritten after the build began (as a block could, while it runs) to match
    this build's output still drifts; a golden planted then is not stale."""
    from test_engine import IDS, PAGE, FakeExecutor, code, make_build

    golden_dir = tmp_path / "tests" / "golden"
    for block_id in IDS:
        path = golden_path(golden_dir, PAGE, block_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(PAGE, block_id, f"snippets/ch/{block_id}.py", "before\n"))
    build = make_build(tmp_path, FakeExecutor({i: f"now {i}\n" for i in IDS}))
    for block_id in IDS:  # each golden made to agree with the output, after the build began
        body = f"now {block_id}\n"
        path = golden_path(golden_dir, PAGE, block_id)
        path.write_text(render(PAGE, block_id, f"snippets/ch/{block_id}.py", body))
    (golden_dir / "ch" / "planted.txt").write_text(render(PAGE, "planted", "s.py", "x\n"))
    for block_id in IDS:
        build.render.output_for(block_id, code(build, block_id))
    report = build.report()
    assert [c.status for c in report.comparisons] == ["drifted"] * len(IDS)
    assert report.stale == []
