"""`./book serve` tells the truth (issue 55): what a new author met in a fixture book under the
real `mkdocs serve --dirty`, each finding as a test."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO, Site, free_port, scaled, serving, wait_for

pytestmark = pytest.mark.build

PAGE = """\
# Home

Words.

```python exec="on" id="hello"
--8<-- "snippets/index/hello.py"
```
"""
# The page as the author saves it after the new snippet: its first paragraph grew by a line,
# so the line where the build's scan found the first fence is now blank.
SAVED = """\
# Home

Words, and more words
on a second line.

```python exec="on" id="hello"
--8<-- "snippets/index/hello.py"
```

```python exec="on" id="second"
--8<-- "snippets/index/second.py"
```
"""
# A hook that holds a build, after the engine scanned the pages and before MkDocs reads them,
# while a file `hold` exists, until the test writes `go`: the whole book's rebuild that a new
# snippet asks for, during which the author saves the page.
HOLD = """\
import pathlib
import subprocess
import sys
import time


from mkdocs.plugins import event_priority


def _hold(config, marker):
    here = pathlib.Path(config.config_file_path).parent
    if (here / marker).exists():
        while not (here / "go").exists():
            time.sleep(0.05)
        (here / marker).unlink()


@event_priority(100)  # before the engine's own: the build has none of its filters on yet
def on_config(config):
    _hold(config, "hold-config")
    return config


def on_nav(nav, config, files):
    _hold(config, "hold")
    return nav
"""


def held_book(site: Site) -> None:
    (site.root / "hold.py").write_text(HOLD)
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + "hooks:\n  - hold.py\n")
    site.page("index.md", PAGE)
    site.snippet("index/hello.py", 'print("hello")\n')
    written = site.build("update")
    assert written.returncode == 0, written.output


def test_a_page_saved_while_a_rebuild_reads_the_book_never_crashes_it(prebuilt, tmp_path):
    """A new snippet, then its page, saved while the rebuild the snippet asked for runs: the
    page MkDocs reads is not the one the engine scanned. That rebuild must not crash (it did,
    with IndexError in the chapter's notebook), and the next one shows the new block."""
    book = prebuilt(held_book, tmp_path)
    with serving(book.root, tmp_path / "serve.log", "--dirty") as served:
        served.settled()
        builds = served.log().count("Building documentation...")
        (book.root / "hold").write_text("")
        book.snippet("index/second.py", 'print("second")\n')
        served.until(lambda: served.log().count("Building documentation...") > builds, 60)
        time.sleep(0.5)  # the held build has scanned the page, as it was
        book.page("index.md", SAVED)
        (book.root / "go").write_text("")
        served.until(lambda: "no golden yet" in served.log(), 120)
        served.settled()
        log = served.log()
    assert "Traceback" not in log and "IndexError" not in log, log[-5000:]
    assert "index.md#second: no golden yet" in log, log[-5000:]


def review_list(root) -> str:
    """`python -m bookexec review --list` in the book: what `./book review` would walk."""
    done = subprocess.run(
        [sys.executable, "-m", "bookexec", "review", "--list"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return f"rc={done.returncode}\n{done.stdout}{done.stderr}"


def last_summary(log: str) -> str:
    """The last build's summary line, up to its time."""
    lines = [line for line in log.splitlines() if "bookexec summary:" in line]
    return lines[-1].rpartition(";")[0] if lines else ""


def two_pages(site: Site) -> None:
    site.page("index.md", PAGE)
    site.page(
        "other.md",
        '# Other\n\n```python exec="on" id="alone"\n--8<-- "snippets/other/alone.py"\n```\n',
    )
    site.snippet("index/hello.py", 'print("hello")\n')
    site.snippet("other/alone.py", 'print("alone")\n')
    written = site.build("update")
    assert written.returncode == 0, written.output


def test_review_walks_the_drift_serve_shows(prebuilt, tmp_path):
    """`./book review` reads what serve recorded: the drift of every page, also after a
    rebuild that renders another page only, and nothing once the drift is gone."""
    book = prebuilt(two_pages, tmp_path)
    with serving(book.root, tmp_path / "serve.log", "--dirty") as served:
        served.settled()
        book.snippet("index/hello.py", 'print("hello, changed")\n')
        served.until(lambda: "index.md#hello drifted" in served.log(), 120)
        served.settled()
        listed = review_list(book.root)
        assert "rc=0" in listed and "index.md#hello" in listed, listed
        book.snippet("other/alone.py", 'print("alone, changed")\n')  # renders other.md only
        served.until(lambda: "other.md#alone drifted" in served.log(), 120)
        served.settled()
        listed = review_list(book.root)
        assert "index.md#hello" in listed and "other.md#alone" in listed, listed
        book.snippet("index/hello.py", 'print("hello")\n')
        book.snippet("other/alone.py", 'print("alone")\n')
        served.until(lambda: last_summary(served.log()).endswith(" 0 drifted"), 120)
        served.settled()
        assert "nothing to review" in review_list(book.root)


@pytest.mark.parametrize(
    ("how", "code"), [("ctrl-c", 130), ("sigterm", 143)], ids=["ctrl-c 130", "sigterm 143"]
)
def test_a_stopped_book_serve_exits_as_its_help_says(prebuilt, tmp_path, how, code):
    """`./book serve --help` says 130 for an interrupted command, and the guide 143 after
    SIGTERM; MkDocs' own serve exits 0 after either. What `./book serve` becomes
    (`serve_command`), in a fixture book, gets the terminal's SIGINT (its process group's) or a
    process manager's SIGTERM (to its pid) once it serves, and must exit so, having removed its
    serve folder, as on any stop."""
    from jaxbook.cli.commands import serve_command
    from jaxbook.cli.environments import Environment

    book = prebuilt(two_pages, tmp_path)
    argv = [str(word) for word in serve_command(Environment(REPO, None), [])]
    log_path = tmp_path / "serve.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [*argv, "-a", f"127.0.0.1:{free_port()}"],
            cwd=book.root,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, as a terminal's foreground job
        )
    try:
        wait_for(lambda: "Serving on" in log_path.read_text(), 120, log_path.read_text)
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)  # what Ctrl+C does
        else:
            os.kill(proc.pid, signal.SIGTERM)  # what `kill PID` or a process manager does
        exited = proc.wait(timeout=scaled(60))
    finally:
        if proc.poll() is None:
            proc.kill()
    assert exited == code, log_path.read_text()[-3000:]
    assert not list((book.root / ".cache" / "bookexec" / "serve").glob(f"{proc.pid}*"))


def text_of(url: str) -> str:
    """The page's words (tags and their attributes included: a tooltip is read too), or "" while
    the server has none."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return html.unescape(answer.read().decode())
    except urllib.error.HTTPError:
        return ""


def test_a_new_block_running_says_it_has_no_golden_yet(prebuilt, tmp_path):
    """A page's new block (a draft's) shown while it runs has no golden to show: the page says
    so, not that execution is off, nor that its output is one a golden recorded; once it ran,
    the page does not say it differs from goldens it never had."""
    book = prebuilt(two_pages, tmp_path)
    go = tmp_path / "go"
    env = {"BOOK_SERVE_WAIT": "0", "BOOK_SNIPPET_GO": str(go)}
    with serving(book.root, tmp_path / "serve.log", "--dirty", **env) as served:
        served.settled()
        book.snippet("draft/slow.py", WAITS)
        book.page("draft.md", DRAFT)

        def page_when(pending: bool) -> str:
            page = text_of(served.url + "draft/")
            return page if page and ("executed-book-pending" in page) == pending else ""

        shown = served.until(lambda: page_when(pending=True), 120)
        go.write_text("")
        ran = served.until(lambda: "done" in (page := page_when(pending=False)) and page, 120)
    assert "no golden yet" in shown, shown[-3000:]
    for untrue in ("execution is off", "the golden recorded", "recorded output"):
        assert untrue not in shown, untrue
    assert "no golden yet" in ran.lower() and "differs from its goldens" not in ran, ran[-3000:]


# A new block that runs until the test lets it end (BOOK_SNIPPET_GO names the file).
WAITS = """\
import os
import shutil
import time

while not os.path.exists(os.environ["BOOK_SNIPPET_GO"]):
    time.sleep(0.1)
print("done")
"""
DRAFT = '# Draft\n\n```python exec="on" id="slow"\n--8<-- "snippets/draft/slow.py"\n```\n'


def waiting_lab(site: Site) -> None:
    """The labs' fixture book, its first cell waiting until BOOK_SNIPPET_GO names a file."""
    from test_labs import DEMO, configure_labs, notebook

    configure_labs(site)
    wait = {"type": "code", "id": "wait", "source": WAITS.replace('print("done")\n', "")}
    (site.root / "docs" / "labs" / "demo.ipynb").write_text(notebook([DEMO[0], wait, *DEMO[1:]]))
    go = site.root / "go"
    go.write_text("")
    written = site.build("update", BOOK_SNIPPET_GO=str(go))
    assert written.returncode == 0, written.output
    go.unlink()


def test_a_lab_whose_cells_run_says_so_and_logs_no_error(prebuilt, tmp_path):
    """Issue 55: every cold start showed each lab a red "does not show its blocks as they ran"
    box, and logged an ERROR for each of its cells, while the cells merely ran."""
    book = prebuilt(waiting_lab, tmp_path)
    shutil.rmtree(book.root / ".cache" / "bookexec" / "blocks")  # a fresh clone's cold start
    go = tmp_path / "go"
    env = {"BOOK_SERVE_WAIT": "0", "BOOK_SNIPPET_GO": str(go)}
    with serving(book.root, tmp_path / "serve.log", "--dirty", **env) as served:
        lab = served.url + "labs/demo/"
        served.until(lambda: "cells are running" in text_of(lab), 120)
        served.settled()
        waiting, log_then = text_of(lab), served.log()
        go.write_text("")
        served.until(lambda: "x squared is" in text_of(lab), 120)
        served.settled()
        log = served.log()
    assert "executed-book-page-check" not in waiting, waiting[-3000:]
    assert "ERROR" not in log_then and " failed" not in log_then, log_then[-3000:]
    assert "ERROR" not in log, log[-3000:]


@pytest.mark.parametrize("marker", ["hold", "hold-config"])
def test_the_warnings_box_holds_only_what_a_strict_build_stops_at(prebuilt, tmp_path, marker):
    """The dev server's own log lines (a request for a page that is not there, answered 404
    while a rebuild runs) are no strict build's warnings: no box says so, and the rebuild is
    not aborted, whether the request comes once the engine's build has begun (`hold`: held at
    the nav) or before it has (`hold-config`: held before the engine's `on_config`, as a
    rebuild is on a busy machine while MkDocs loads the config)."""
    book = prebuilt(held_book, tmp_path)
    config = book.root / "mkdocs.yml"
    config.write_text(config.read_text() + "strict: true\nnav:\n  - index.md\n")
    with serving(book.root, tmp_path / "serve.log", "--dirty") as served:
        served.settled()
        builds = served.log().count("Building documentation...")
        (book.root / marker).write_text("")
        book.page("index.md", PAGE.replace("Words.", "Other words."))
        served.until(lambda: served.log().count("Building documentation...") > builds, 60)
        served.until(lambda: text_of(served.url + "draft/") == "" and "404" in served.log(), 60)
        (book.root / "go").write_text("")
        served.until(lambda: "Other words" in text_of(served.url), 120)
        served.settled()
        home = text_of(served.url)
        log = served.log()
    assert "Aborted" not in log, log[-3000:]
    assert "executed-book-strict-warnings" not in home, home[-3000:]
    assert "code 404" not in home


def test_the_time_left_counts_only_the_blocks_that_run(prebuilt, tmp_path):
    """A snippet edit under serve runs one page; the time left must not count the blocks of
    the pages that do not run (their last run times say 10 minutes: the estimate said so)."""
    book = prebuilt(two_pages, tmp_path)
    times = book.root / ".cache" / "bookexec" / "run-times.json"
    with serving(book.root, tmp_path / "serve.log", "--dirty") as served:
        served.settled()  # both pages ran (a copy's cache is not its original's) and are cached
        recorded = json.loads(times.read_text())
        times.write_text(json.dumps({**recorded, "other.md#alone": 600.0}))
        before = len(served.log())
        book.snippet("index/hello.py", 'print("hello, edited")\n')

        def edited_line() -> str:
            lines = served.log()[before:].splitlines()
            return next((ln for ln in lines if "docs/index.md: 1/1 blocks" in ln), "")

        line = served.until(edited_line, 120)
    assert "min" not in line and "about 0 s left" in line, line


def test_a_prose_edit_shows_while_blocks_run_behind_it(prebuilt, tmp_path):
    """A prose edit is visible while another page's blocks still run: its rebuild waits for no
    run. The run here never ends until the test lets it, so a rebuild that waited for it would
    never show the edit (no clock: a busy machine only makes both slower)."""
    book = prebuilt(two_pages, tmp_path)
    go = tmp_path / "go"
    book.snippet("other/alone.py", WAITS)
    env = {"BOOK_SERVE_WAIT": "0", "BOOK_SNIPPET_GO": str(go)}
    with serving(book.root, tmp_path / "serve.log", "--dirty", **env) as served:
        served.until(lambda: "1 pages show recorded outputs" in served.log(), 120)
        served.until(lambda: "Words." in text_of(served.url), 60)
        book.page("index.md", PAGE.replace("Words.", "Words, edited."))
        served.until(lambda: "Words, edited." in text_of(served.url), 120)
        assert "docs/other.md: 1/1 blocks" not in served.log()  # it still ran meanwhile
        go.write_text("")


def workers_of(pid: int) -> list[int]:
    """The processes `pid` started that run the engine's worker
    (`bookexec._internal.execute.worker`)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
        if parent == pid and b"bookexec._internal.execute.worker" in command:
            found.append(int(stat.parent.name))
    return found


def test_a_rebuild_shares_the_processor_with_no_block_and_no_second_watcher(prebuilt, tmp_path):
    """Issue 55: on the real book a prose edit took 24 s while blocks ran behind it (5.6 s
    after): its rebuild had the processor at the priority of the serve's own workers, and
    MkDocs polled every snippet folder twice, each in a thread of its own holding the
    interpreter's lock that the rebuild needs (the book's `watch:` names `snippets`, the engine
    added each of its folders). Under serve the workers behind run at a lower priority than the
    serve, and no folder watched lies inside another (the log's list, MkDocs' own)."""
    book = prebuilt(two_pages, tmp_path)
    config = book.root / "mkdocs.yml"
    config.write_text(config.read_text() + "watch:\n  - snippets\n  - tests/golden\n")
    go = tmp_path / "go"
    book.snippet("other/alone.py", WAITS)
    env = {"BOOK_SERVE_WAIT": "0", "BOOK_SNIPPET_GO": str(go)}
    with serving(book.root, tmp_path / "serve.log", "--dirty", **env) as served:
        served.until(lambda: "1 pages show recorded outputs" in served.log(), 120)
        workers = served.until(lambda: workers_of(served.proc.pid), 60)
        serve = os.getpriority(os.PRIO_PROCESS, served.proc.pid)
        behind = {pid: os.getpriority(os.PRIO_PROCESS, pid) for pid in workers}
        watching = next(ln for ln in served.log().splitlines() if "Watching paths" in ln)
        go.write_text("")
    assert all(nice > serve for nice in behind.values()), f"serve {serve}, workers {behind}"
    paths = re.findall(r"'([^']+)'", watching.partition("changes:")[2])
    nested = [(a, b) for a in paths for b in paths if b.startswith(a + "/")]
    assert not nested, f"watched twice: {nested} ({watching})"
