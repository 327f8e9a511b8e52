"""Under `mkdocs serve`, a background run that ends asks MkDocs for a rebuild through its public
serve API only: the folder `on_serve` watches (`server.watch`) gets a file, and MkDocs' own
watcher rebuilds. No browser, no book build: the real `LiveReloadServer`, a real worker."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from mkdocs.livereload import LiveReloadServer

from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.execute.cache import BlockCache
from bookexec._internal.execute.progress import Progress
from bookexec._internal.execute.runner import Executor, ExecutorOptions
from bookexec._internal.execute.runtime import PythonRuntime
from bookexec._internal.files import CachePaths
from bookexec._internal.serve.background import WATCH_START, Background
from conftest import free_port, wait_for

PAGE = '# Nap\n\n```python exec="on" id="nap"\n--8<-- "snippets/nap/nap.py"\n```\n'


def _executor(root: Path) -> Executor:
    """The serve process's executor: its block cache, plain Python, no watch."""
    options = ExecutorOptions(environ=dict(os.environ), cache=BlockCache(CachePaths(root).blocks))
    return Executor(root, options, PythonRuntime())


def background_with_a_recorded_page(root: Path) -> tuple[Background, object]:
    """A serve process's background, its first build showing the page from its goldens; the
    page's run starts when that build ends (`close`)."""
    (root / "snippets" / "nap").mkdir(parents=True)
    (root / "snippets" / "nap" / "nap.py").write_text("import time\ntime.sleep(1)\nprint(1)\n")
    background = Background(root, _executor(root))
    build = background.for_build(Progress(lambda _: None))
    build.submit("nap.md", scan_page("nap.md", PAGE, root))
    assert not build.ready("nap.md")  # shown recorded: its end must ask for a rebuild
    return background, build


class WatchOnly:
    """A server with nothing but MkDocs' public `watch`."""

    def __init__(self) -> None:
        self.watched: list[str] = []

    def watch(self, path: str) -> None:
        self.watched.append(path)


def test_a_finished_run_writes_into_the_folder_the_server_watches(tmp_path):
    background, build = background_with_a_recorded_page(tmp_path)
    server = WatchOnly()
    try:
        background.attach(server)
        folder = CachePaths(tmp_path).serve / str(os.getpid())
        assert server.watched == [str(folder)] and folder.is_dir()
        assert not any(folder.iterdir())
        build.close()  # the build ends: the run starts
        assert build.page("nap.md").blocks[0].output == "1\n"
        wait_for(lambda: any(folder.iterdir()), 30, lambda: "no file written for the rebuild")
    finally:
        background.shutdown()
    assert not folder.exists()  # the serve process's folder goes with it


def recording_server(root, built: list[float]) -> LiveReloadServer:
    """MkDocs' own server, whose builder notes when it was asked to build."""
    return LiveReloadServer(
        builder=lambda: built.append(time.monotonic()),
        host="127.0.0.1",
        port=free_port(),
        root=str(root),
    )


def test_mkdocs_own_server_rebuilds_when_a_run_ends(tmp_path):
    """The real server, serving: its builder runs for the run, and for nothing before it
    started (near its end it may be asked a little early: that build waits for the run)."""
    built: list[float] = []
    server = recording_server(tmp_path, built)
    background, build = background_with_a_recorded_page(tmp_path)
    background.attach(server)  # what `on_serve` does
    serving = threading.Thread(target=server.serve, daemon=True)
    serving.start()
    try:
        time.sleep(1.5)  # the watcher is running: a rebuild now would be one nobody asked for
        assert built == []
        started = time.monotonic()
        build.close()  # the run starts
        assert build.page("nap.md").blocks[0].output == "1\n"
        wait_for(lambda: built, 30, lambda: "MkDocs never rebuilt for the run")
        assert built[0] > started
    finally:
        server.shutdown()
        serving.join(timeout=30)
        background.shutdown()


def test_a_run_that_ends_before_the_watcher_looks_still_gets_its_rebuild(tmp_path):
    """On a busy machine MkDocs' watcher can take its first look at the folder seconds after
    `on_serve`, when the run has ended and asked already: that ask is part of what the watcher
    first sees, not a change. The ask is made again until a build begins."""
    built: list[float] = []
    server = recording_server(tmp_path, built)
    background, build = background_with_a_recorded_page(tmp_path)
    background.attach(server)  # what `on_serve` does
    folder = CachePaths(tmp_path).serve / str(os.getpid())
    serving = threading.Thread(target=server.serve, daemon=True)
    try:
        build.close()  # the run starts, and ends before the server watches
        assert build.page("nap.md").blocks[0].output == "1\n"
        wait_for(lambda: any(folder.iterdir()), 30, lambda: "no file written for the rebuild")
        time.sleep(2 * WATCH_START)  # past the ask made when `on_serve` found the run ended
        serving.start()  # the watcher's first look: the file is already there
        wait_for(lambda: built, 30, lambda: "MkDocs never rebuilt for the run")
    finally:
        server.shutdown()
        if serving.is_alive():
            serving.join(timeout=30)
        background.shutdown()


GATED = (
    '# Gated\n\n```python exec="on" id="first"\n--8<-- "snippets/gated/first.py"\n```\n\n'
    '```python exec="on" id="gate"\n--8<-- "snippets/gated/gate.py"\n```\n\n'
    '```python exec="on" id="last"\n--8<-- "snippets/gated/last.py"\n```\n'
)


def test_a_page_that_ends_in_a_later_build_is_counted_whole_in_its_progress_line(tmp_path):
    """Under serve a page's run can start in one build and end in the next, whose progress
    says it (issue 41: `[1/35 pages, 9/476 blocks] docs/derivatives.md: 14 run`). The blocks it
    finished before that build began count there too, so the line adds up."""
    folder = tmp_path / "snippets" / "gated"
    folder.mkdir(parents=True)
    gate = tmp_path / "open"
    (folder / "first.py").write_text("print(1)\n")
    (folder / "gate.py").write_text(
        f"import pathlib, time\nwhile not pathlib.Path({str(gate)!r}).exists():\n"
        "    time.sleep(0.05)\nprint(2)\n"
    )
    (folder / "last.py").write_text("print(3)\n")
    blocks = scan_page("gated.md", GATED, tmp_path)
    background = Background(tmp_path, _executor(tmp_path))
    said: list[str] = []
    try:
        progress = Progress(said.append)
        first = background.for_build(progress)
        progress.expect(1, 3, {"gated.md": blocks})
        first.submit("gated.md", blocks)
        first.close()  # the first build ends: its run starts
        wait_for(lambda: any("'first'" in line for line in said), 60, lambda: f"{said}")
        later = Progress(said.append)
        second = background.for_build(later)  # an edit elsewhere: the next build
        later.expect(1, 3, {"gated.md": blocks})
        second.submit("gated.md", blocks)  # the same run, still under way
        gate.write_text("")
        assert [run.output for run in second.page("gated.md").blocks] == ["1\n", "2\n", "3\n"]
        wait_for(
            lambda: any("docs/gated.md: 3 run" in line for line in said), 30, lambda: f"{said}"
        )
    finally:
        background.shutdown()
    line = next(line for line in said if "docs/gated.md: 3 run" in line)
    assert "[1/1 pages, 3/3 blocks]" in line, said


def test_a_rebuild_runs_a_page_again_when_code_it_imported_changed(tmp_path):
    """Issue 53: under serve a rebuild reused the page's earlier run whenever its blocks' keys
    were the same, so an edited package (as an editable install's source is) kept showing its
    old output. The run is reused only while the code its blocks imported is unchanged."""
    package = tmp_path / "src" / "bookpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("WORD = 'before'\n")
    (tmp_path / "snippets" / "word").mkdir(parents=True)
    (tmp_path / "snippets" / "word" / "word.py").write_text("import bookpkg\nprint(bookpkg.WORD)\n")
    page = '# W\n\n```python exec="on" id="word"\n--8<-- "snippets/word/word.py"\n```\n'
    environ = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
    options = ExecutorOptions(environ=environ, cache=BlockCache(CachePaths(tmp_path).blocks))
    executor = Executor(tmp_path, options, PythonRuntime())
    background = Background(tmp_path, executor)

    def shown() -> str:
        build = background.for_build(Progress(lambda _: None))
        build.submit("word.md", scan_page("word.md", page, tmp_path))
        build.close()
        return build.page("word.md").blocks[0].output

    try:
        assert shown() == "before\n"
        assert shown() == "before\n"
        (package / "__init__.py").write_text("WORD = 'after, edited'\n")
        assert shown() == "after, edited\n", "the rebuild showed the run of the old code"
    finally:
        background.shutdown()
