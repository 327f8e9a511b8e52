"""Shared helpers: small fixture sites built with the real plugin, and the real MkDocs."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# How a fixture book enables the engine: the plugin, with the JAX book's runtime and extensions.
PLUGIN = """\
  - executed-book:
      runtime: bookexec.JaxRuntime
      extensions: [jaxbook.extensions.book_extensions]
      goldens: tests/golden
      snippets: page-folders
      fences: engine
      launcher: ./book
"""
MKDOCS = Path(sys.executable).parent / "mkdocs"
# The suite's layers, each a folder of tests/ (pyproject.toml's testpaths).
LAYERS = ("unit", "integration", "e2e")

_CONFIG = """\
site_name: fixture
docs_dir: docs
plugins:
  - markdown-exec:
      languages: []
{plugin}markdown_extensions:
  - admonition
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""


# A fixture book's mkdocs.yml with the JAX book's way of reading pages (`open_fixture`).
FIXTURE_BOOK = """\
site_name: fixture
plugins:
  - executed-book:
      goldens: tests/golden
      snippets: page-folders
      fences: engine
"""


def open_fixture(root: Path, nav: str = "", environ: dict[str, str] | None = None):
    """The book at `root` opened as `./book` opens it (`bookexec.open_book`): its mkdocs.yml,
    written as FIXTURE_BOOK with `nav` (YAML) when it has none; its docs folder made."""
    from bookexec import open_book

    config = root / "mkdocs.yml"
    if not config.is_file():
        config.write_text(FIXTURE_BOOK + nav)
    (root / "docs").mkdir(exist_ok=True)
    return open_book(config, dict(os.environ) if environ is None else environ)


def pytest_configure(config) -> None:
    """Under GitHub Actions, the fixture books' builds (which drift and fail on purpose) must
    not annotate the run nor write the job summary: only the workflow's own build step speaks
    there (`bookexec._internal.goldens.actions`). Each test that wants them sets them itself.

    The machine's slowness is measured here, once per run: pytest-xdist's workers, started
    after this, inherit it through the environment."""
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"):
        os.environ.pop(name, None)
    os.environ[SLOWNESS] = f"{slowness():.2f}"
    config.pluginmanager.register(CpuReport(), "cpu-report")


# -- how slow this machine is now: what every time limit that is not a test's subject scales with


SLOWNESS = "BOOK_TEST_SLOWNESS"  # set it to impose a factor rather than measure one
# Wall seconds of `_calibration_work` on one core of a quiet 2-core runner (the suite's
# reference machine: its timeouts and bounds are written for it).
QUIET_SECONDS = 0.07
MOST_SLOWNESS = 20.0  # past this, a hang would take hours to be reported


def _calibration_work() -> int:
    total = 0
    for i in range(1_000_000):
        total += i * i % 7
    return total


@functools.cache
def slowness() -> float:
    """How many times slower than the reference machine this one runs now, at least 1: the
    median of five timings of a fixed piece of Python work (which a loaded machine slows in
    proportion to its load), or the load average per core where that is higher (the load the
    suite's own workers will add once started), or $BOOK_TEST_SLOWNESS where it is set."""
    if os.environ.get(SLOWNESS):
        return max(1.0, float(os.environ[SLOWNESS]))
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        _calibration_work()
        timings.append(time.perf_counter() - start)
    measured = sorted(timings)[2] / QUIET_SECONDS
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(MOST_SLOWNESS, max(1.0, measured, load))


def scaled(seconds: float) -> float:
    """A time limit written for the reference machine, on this one now."""
    return seconds * slowness()


# The files that take longest on 2 cores (wall time, measured by the suite's own reports),
# longest first; every other file follows in the layers' order. The first starts the one cold
# build of the whole book (`built_book`) at once, so that the files waiting for it start after
# the long files that need no book, not beside them. `OneFileAtATime` hands files out in this
# order, so no long file starts last and runs alone at the end.
HEAVIEST_FIRST = (
    "tests/e2e/test_page_integrity.py",  # starts `built_book`
    "tests/e2e/test_upgrade.py",
    "tests/e2e/test_engine_pythons.py",
    "tests/e2e/test_lab_wrong_answers.py",
    "tests/e2e/test_cache.py",
    "tests/e2e/test_stress.py",
    "tests/e2e/test_bad_inputs.py",
    "tests/e2e/test_update_interrupted.py",
    # These wait for `built_book`: handed out once the files above have kept the cores busy.
    "tests/e2e/test_notebooks.py",
    "tests/e2e/test_mutation.py",
    "tests/e2e/test_determinism.py",
    "tests/e2e/test_site.py",
    "tests/e2e/test_lab_notebooks.py",
    "tests/e2e/test_readable_outputs.py",
    "tests/e2e/test_labs.py",
    "tests/e2e/test_sharded_run.py",
)


@pytest.hookimpl(optionalhook=True)  # a run without pytest-xdist (`-p no:xdist`) knows no such hook
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile`, handing files out as `OneFileAtATime` does."""
    from xdist.scheduler import LoadFileScheduling

    class OneFileAtATime(LoadFileScheduling):
        """pytest-xdist's loadfile, but in collection order (not most tests first) and a worker
        is handed its next file only when it holds the last test of the one it runs (a worker
        runs a test once it holds the next: xdist hands the next file at two tests left), so
        a long file's neighbour never waits behind it while another worker is idle."""

        def __init__(self, config, log=None) -> None:
            super().__init__(config, log)
            config.option.loadscopereorder = False

        def _reschedule(self, node) -> None:
            if node.shutting_down:
                return
            if not self.workqueue:
                node.shutdown()
            elif self._pending_of(self.assigned_work[node]) <= 1:
                self._assign_work_unit(node)

    return OneFileAtATime(config, log) if config.getoption("dist") == "loadfile" else None


# The engine's suite, as `./book test-engine` selects it (jaxbook.cli.engine_suite.SUITE).
ENGINE_SUITE = "engine and not needs_book"


def pytest_ignore_collect(collection_path: Path, config) -> bool | None:
    """The engine's suite runs where the engine's wheel alone is installed: only the test files
    marked `engine` are read, since the others may import JAX or jaxbook at their top."""
    if config.getoption("markexpr") != ENGINE_SUITE or collection_path.suffix != ".py":
        return None
    return "pytest.mark.engine" not in collection_path.read_text()


def pytest_collection_modifyitems(config, items) -> None:
    _scale_timeouts(config, items)
    rank = {name: index for index, name in enumerate(HEAVIEST_FIRST)}
    root = Path(str(config.rootpath))

    def place(item) -> int:
        return rank.get(Path(str(item.path)).relative_to(root).as_posix(), len(rank))

    items.sort(key=place)  # stable: every other file keeps its place


def _scale_timeouts(config, items) -> None:
    """pytest-timeout's limit of each test (its own `timeout` mark, else pyproject's), scaled to
    this machine: a test, or the shared build its set-up waits for, is not failed for being
    slow on a loaded machine. A test whose subject is a time measures it itself."""
    default = config.getoption("timeout", None) or config.getini("timeout")
    for item in items:
        mark = item.get_closest_marker("timeout")
        seconds = (mark.args[0] if mark.args else mark.kwargs.get("timeout")) if mark else default
        if seconds:
            item.add_marker(pytest.mark.timeout(scaled(float(seconds))), append=False)


# -- CPU per test file: what the suite's time on a busy machine is made of ----------------------


def _cpu_seconds() -> float:
    """CPU of this process and of every child it has waited for (a build, its workers)."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _charged(item, "setup"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _charged(item, "call"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    return (yield from _charged(item, "teardown"))


# CPU that a session fixture's teardown collects (the browser's processes, waited for as it
# closes), by the name the report gives it: it runs within the last test's teardown, which is
# not charged with it.
SESSION_CPU: dict[str, float] = {}
SESSION_CPU_NAME = "(the browser's processes, all the run: tests/conftest.py::browser)"


def _charged(item, when: str):
    """Run the phase (the `yield` of a wrapper hook) and note its CPU on the item: the report
    carries it to xdist's controller."""
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        spent = _cpu_seconds() - start
        for name, session in SESSION_CPU.items():
            item.user_properties.append((f"cpu-session:{name}", session))
            spent -= session
        SESSION_CPU.clear()
        item.user_properties.append((f"cpu-{when}", spent))


class CpuReport:
    """Sums each file's CPU from its tests' reports (on xdist's controller, every worker's)."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = {}

    def pytest_runtest_logreport(self, report) -> None:
        properties = dict(report.user_properties)
        spent = properties.get(f"cpu-{report.when}")
        if spent is not None:
            name = report.nodeid.partition("::")[0]
            self.totals[name] = self.totals.get(name, 0.0) + spent
        if report.when == "teardown":
            for key, session in properties.items():
                if isinstance(key, str) and key.startswith("cpu-session:"):
                    name = key.removeprefix("cpu-session:")
                    self.totals[name] = self.totals.get(name, 0.0) + session

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not self.totals or hasattr(terminalreporter.config, "workerinput"):
            return
        terminalreporter.section("CPU seconds by test file, most first")
        for name, spent in sorted(self.totals.items(), key=lambda item: (-item[1], item[0]))[:25]:
            terminalreporter.write_line(f"{spent:8.1f}  {name}")
        total = sum(self.totals.values())
        terminalreporter.write_line(f"{total:8.1f}  in all ({len(self.totals)} files)")


def jaxpr_goldens() -> list[Path]:
    """Every golden of the book, but those of blocks shown as a diff: a drift report quotes
    jaxpr lines behind `+` and `-`, which is diff text, not a jaxpr."""
    from bookexec._internal.discover.blocks import scan_page
    from bookexec._internal.goldens.store import golden_path

    golden_dir = REPO / "tests" / "golden"
    shown_as_diff = {
        golden_path(golden_dir, block.page, block.id)
        for page in (REPO / "docs").glob("*.md")
        for block in scan_page(page.name, page.read_text(), REPO)
        if block.options.get("result") == "diff"
    }
    return [p for p in sorted(golden_dir.rglob("*.txt")) if p not in shown_as_diff]


def suite_files() -> list[Path]:
    """The suite's own Python files: the helpers in tests/ (the wrong-answer package's too) and
    each layer's test modules."""
    folders = [REPO / "tests", REPO / "tests" / "lab_wrong_answers"]
    folders += [REPO / "tests" / layer for layer in LAYERS]
    return sorted(path for folder in folders for path in folder.glob("*.py"))


def free_port() -> int:
    """A localhost port nothing listens on now, for a server a test starts."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(
    ready: Callable[[], object],
    seconds: float,
    explain: Callable[[], str] = str,
    every: float = 0.1,
):
    """Poll `ready` until it returns something true, which is returned; fail after `seconds`
    with `explain()`, what the test knows about why (a log's tail, say). `seconds` is for the
    reference machine: it is scaled to this one."""
    deadline = time.monotonic() + scaled(seconds)
    while not (found := ready()):
        assert time.monotonic() < deadline, explain()
        time.sleep(every)
    return found


@dataclass
class Served:
    """A running `mkdocs serve` of a fixture book, its URL and its log."""

    proc: subprocess.Popen
    url: str
    log_path: Path

    def log(self) -> str:
        """What the server has logged so far."""
        return self.log_path.read_text()

    def until(self, ready: Callable[[], object], seconds: float = 120):
        """Wait for `ready`, failing at once, with the log, if the server has died."""

        def check():
            assert self.proc.poll() is None, self.log()[-5000:]
            return ready()

        return wait_for(check, seconds, lambda: self.log()[-5000:])

    def settled(self, quiet: float = 3.0, seconds: float = 120) -> None:
        """Wait until no rebuild runs or is coming: every build the log began has ended and
        the log has not grown for `quiet` seconds. A browser that opens a page earlier can
        have it replaced by the live reload that ends the next build (the engine's own
        rebuild of the pages the first build left starts a second after the server)."""
        state = {"log": "", "since": time.monotonic()}

        def calm() -> bool:
            log = self.log()
            if log != state["log"]:
                state["log"], state["since"] = log, time.monotonic()
                return False
            began, ended = log.count("Building documentation..."), log.count("Documentation built")
            return began == ended and time.monotonic() - state["since"] >= quiet

        self.until(calm, seconds)


@contextlib.contextmanager
def serving(root: Path, log_path: Path, *args: str, up: float = 120, **env: str | None):
    """`mkdocs serve` in `root` on a free port, up once it says "Serving on" (it listens after
    its first build: `up` seconds at most); stopped after. `env` adds to the environment; a
    value of None removes that name."""
    port = free_port()
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", **env}
    environ = {name: value for name, value in environ.items() if value is not None}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(MKDOCS), "serve", *args, "-a", f"127.0.0.1:{port}"],
            cwd=root,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        served = Served(proc, f"http://127.0.0.1:{port}/", log_path)
        served.until(lambda: "Serving on" in served.log(), up)
        yield served
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@dataclass
class Result:
    """How a build ended and what it printed (stdout and stderr together)."""

    returncode: int
    output: str


@dataclass
class Site:
    """A throwaway book: pages, snippets and goldens in the real layout, built by real MkDocs."""

    root: Path

    def page(self, name: str, markdown: str) -> None:
        """Write docs/<name> (dedented)."""
        path = self.root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(markdown))

    def snippet(self, name: str, code: str) -> None:
        """Write snippets/<name> (dedented)."""
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))

    def golden(self, page: str, block_id: str) -> Path:
        """Where the golden of a page's block lives."""
        return self.root / "tests" / "golden" / Path(page).with_suffix("") / f"{block_id}.txt"

    def goldens(self) -> dict[str, str]:
        """Every golden's text, by its path under tests/golden."""
        base = self.root / "tests" / "golden"
        return {str(p.relative_to(base)): p.read_text() for p in sorted(base.rglob("*.txt"))}

    def build(
        self,
        mode: str = "check",
        timeout: float = 300,
        command: Sequence[str] = (),
        **env: str,
    ) -> Result:
        """`mkdocs build --strict` (or `command`) in GOLDEN=`mode`, with `env` added to the
        environment."""
        environ = {**os.environ, "GOLDEN": mode, "NO_MKDOCS_2_WARNING": "1", **env}
        proc = subprocess.run(
            list(command) or [str(MKDOCS), "build", "--strict"],
            cwd=self.root,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=scaled(timeout),
        )
        return Result(proc.returncode, proc.stdout)

    def copy(self, root: Path) -> Site:
        """This book as it stands (pages, goldens, built site, cache) in a folder of its own."""
        shutil.copytree(self.root, root, symlinks=True)
        return type(self)(root)


def new_site(root: Path) -> Site:
    """An empty fixture book at `root`, configured with the real plugin."""
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(_CONFIG.format(plugin=PLUGIN))
    return Site(root)


@pytest.fixture
def site(tmp_path: Path) -> Site:
    """An empty fixture book of the test's own."""
    return new_site(tmp_path / "book")


@pytest.fixture(scope="session")
def prebuilt(tmp_path_factory) -> Callable[[Callable[[Site], None], Path], Site]:
    """A fixture book made by `make` (which writes and builds it) once per test run; each call
    returns a fresh copy, so a test that edits or rebuilds it never sees another test's edits."""
    made: dict[Callable[[Site], None], Site] = {}

    def copy_of(make: Callable[[Site], None], dest: Path) -> Site:
        if make not in made:
            template = new_site(tmp_path_factory.mktemp(make.__name__) / "book")
            make(template)
            made[make] = template
        return made[make].copy(dest / "book")

    return copy_of


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, driven by Playwright (its own browser download cannot work here)."""
    from playwright.sync_api import sync_playwright

    path = shutil.which("chromium") or "/usr/bin/chromium"
    assert Path(path).exists(), "the browser tests need chromium; ./book test installs it"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        start = _cpu_seconds()
        chromium.close()
    # The CPU of Playwright's driver and of chromium's processes, every page of the run's, is
    # counted once they are collected, here, in the last test's teardown: the report names it.
    SESSION_CPU[SESSION_CPU_NAME] = _cpu_seconds() - start


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def static_server(directory: Path):
    """Serve `directory` on a free localhost port; yields its URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


def page_paths(site: Path) -> list[str]:
    """Every page of the site as a URL path: 'tracers/', '' for the home page, '404.html'."""
    paths = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).as_posix()
        paths.append(rel.removesuffix("index.html") if rel.endswith("index.html") else rel)
    return paths


def visit(page, url: str | None = None, timeout: float = 60_000):
    """Open `url` (or reload the page) and return once its document is parsed whole and the
    network has gone quiet.

    `networkidle` alone is not that: it fires after 500 ms with no request, and on a busy
    machine the parser can still be halfway down a long page, so a check would read half of it.
    `timeout` (milliseconds) is for the reference machine.
    """
    timeout = scaled(timeout)
    if url is None:
        response = page.reload(wait_until="load", timeout=timeout)
    else:
        response = page.goto(url, wait_until="load", timeout=timeout)
    page.wait_for_load_state("networkidle", timeout=timeout)
    return response


@pytest.fixture
def browser_page(browser):
    """Open a path of a built site, served from localhost, in a fresh browser page."""
    with contextlib.ExitStack() as stack:

        def open_page(site_dir: Path, path: str):
            base = stack.enter_context(static_server(site_dir))
            page = browser.new_page(viewport={"width": 1200, "height": 1600})
            stack.callback(page.close)
            response = page.goto(base + path)
            assert response is not None and response.ok, path
            return page

        yield open_page


@pytest.fixture(scope="session")
def built_book(tmp_path_factory, worker_id) -> Path:
    """Build the book exactly as CI does, once per test run, into a throwaway site directory.

    It builds a copy of the checkout (`book_source`: its files as a fresh clone has them, with
    the working tree's edits), so that the copy's block cache, stored by this build, serves the
    e2e test that serves the book under drift without running the whole book a second time.
    CI's build never reads the cache: this one reads an empty one, so every block runs.

    It runs under another hash seed (`OTHER_SEED`) than the goldens were written under (0), so
    the one cold run of the whole book also judges its determinism: every chapter block and
    lab cell must equal its golden whatever the workers' seed (issue 24; the seed's path through
    the build: tests/e2e/test_determinism_book.py). A test that reads its cache sets the same.

    Under pytest-xdist the workers share one build: the first to ask builds it, under a lock,
    and the others read its result (the run's base folder is new for every run).
    """
    if worker_id == "master":
        return _build_book(tmp_path_factory.mktemp("site"))
    shared = tmp_path_factory.getbasetemp().parent
    with open(shared / "built-book.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        site_dir, log = shared / "built-book", shared / "built-book.log"
        if not log.exists():
            try:
                _build_book(site_dir)
            except AssertionError as failure:
                log.write_text(f"failed: {failure}")
                raise
            log.write_text("ok")
        assert log.read_text() == "ok", log.read_text()
    return site_dir


def run_folder(tmp_path_factory, worker_id: str) -> Path:
    """The run's base folder: the same for every xdist worker, new for every run."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


def lab_compile_cache(shared: Path) -> dict[str, str]:
    """The variables that give a lab's play JAX's persistent compilation cache, one folder for
    the whole run (`shared`: the run's base folder, the same for every xdist worker).

    A lab's checks compile the same small programs again and again: the reference and the
    answer on each drawn shape, for every wrong answer, and again after each
    `jax.clear_caches()` a counting check makes. The cache gives back XLA's executable for a
    program it has compiled before, in this process or another (about half the compiles of a
    lab's trials). Nothing a check reads changes: JAX still traces and lowers every function
    (its log lines, which `counting` reads, come from there), and a program it has not seen is
    compiled. The folder is new for every run, so no run reads what another wrote."""
    return {
        "JAX_COMPILATION_CACHE_DIR": str(shared / "jax-compilation-cache"),
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
        "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "-1",
    }


@pytest.fixture(scope="session")
def lab_play(tmp_path_factory, worker_id) -> Callable[[str], dict]:
    """`lab_play(name)`: what tests/lab_runner.py reported for docs/labs/<name>.ipynb, played
    given, solved, and with every wrong and other right answer. One process per lab for the
    whole run: under pytest-xdist the first worker to ask plays it, under a lock, and the
    others read its report."""
    shared = run_folder(tmp_path_factory, worker_id)
    folder = shared / "lab-plays"
    folder.mkdir(exist_ok=True)

    # The audit that every draw catches a wrong answer: see tests/lab_runner.py.
    repeats = max(1, int(os.environ.get("LAB_CHECK_REPEATS", "1")))

    @functools.cache
    def play(name: str) -> dict:
        from bookexec._internal.privacy import worker_environment

        saved = folder / f"{name}.json"
        with open(folder / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not saved.exists():
                done = subprocess.run(
                    [
                        sys.executable,
                        str(REPO / "tests" / "lab_runner.py"),
                        f"docs/labs/{name}.ipynb",
                    ],
                    capture_output=True,
                    text=True,
                    timeout=scaled(900 * repeats),
                    cwd=REPO,
                    env=worker_environment(os.environ)
                    | lab_compile_cache(shared)
                    | {"LAB_CHECK_REPEATS": str(repeats)},
                )
                lines = [ln for ln in done.stdout.splitlines() if ln.startswith("LAB-PLAYS ")]
                assert lines, done.stdout[-2000:] + done.stderr[-2000:]
                saved.write_text(lines[0].removeprefix("LAB-PLAYS "))
        return json.loads(saved.read_text())

    return play


def book_source(site_dir: Path) -> Path:
    """The copy of the checkout that `built_book` built `site_dir` from."""
    return site_dir.with_name(site_dir.name + "-source")


# The workers' hash seed of the suite's build of the book (`built_book`); the goldens were written
# under "0".
OTHER_SEED = "2718281828"

# Links into the pages a cut book leaves out are said, not failed (`cut_book`).
LENIENT = {
    "nav": {"omitted_files": "info", "not_found": "info"},
    "links": {
        "not_found": "info",
        "anchors": "info",
        "unrecognized_links": "info",
        "absolute_links": "info",
    },
}


def _pruned(entries: list, docs: Path) -> list:
    """The nav without the pages cut, nor the sections they leave empty."""
    kept: list = []
    for entry in entries:
        ((title, value),) = entry.items() if isinstance(entry, dict) else ((None, entry),)
        if isinstance(value, list):
            if value := _pruned(value, docs):
                kept.append({title: value})
        elif (docs / value).exists():
            kept.append({title: value} if title else value)
    return kept


def cut_book(book: Path, chapters: Iterable[str]) -> None:
    """Cut a copy of the book down to `chapters` (their stems), their labs and the pages that
    run nothing. Out go the pages made from, or quoting, records of the whole book (the changes
    across releases, the accelerators, the guide), and the home page's quotes of the whole nav;
    mkdocs.yml's nav is cut to match, and a link into a page cut is said, not failed."""
    import yaml

    keep = set(chapters)
    goldens, docs = book / "tests" / "golden", book / "docs"
    for page in docs.glob("*.md"):
        if (goldens / page.stem).is_dir() and page.stem not in keep:
            page.unlink()
            shutil.rmtree(goldens / page.stem)
    for lab in docs.glob("labs/*.ipynb"):
        if lab.stem not in keep:
            lab.unlink()
            shutil.rmtree(goldens / "labs" / lab.stem, ignore_errors=True)
    for records in ("other-jax", "other-backends"):
        shutil.rmtree(book / "tests" / records)
    shutil.rmtree(docs / "guide")
    for page in ("jax-changes.md", "accelerators.md"):
        (docs / page).unlink()
    (docs / "index.md").write_text("# Tracing JAX\n\nA few chapters of the book.\n")
    config = book / "mkdocs.yml"
    text = config.read_text()
    nav = re.search(r"(?ms)^nav:\n.*?(?=^\S)", text)
    validation = re.search(r"(?ms)^validation:\n.*?(?=^\S|\Z)", text)
    assert nav and validation, "mkdocs.yml has no nav or no validation to cut down"
    small_nav = {"nav": _pruned(yaml.safe_load(nav[0])["nav"], docs)}
    text = text.replace(nav[0], yaml.safe_dump(small_nav, sort_keys=False) + "\n")
    text = text.replace(validation[0], yaml.safe_dump({"validation": LENIENT}, sort_keys=False))
    config.write_text(text)


def _build_book(site_dir: Path) -> Path:
    from jaxbook.drift_watch import scratch_copy

    source = book_source(site_dir)
    scratch_copy(REPO, source)
    env = {
        **os.environ,
        "GOLDEN": "check",
        "NO_MKDOCS_2_WARNING": "1",
        "BOOK_CACHE": "on",
        "BOOK_HASH_SEED": OTHER_SEED,
    }
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site_dir)],
        cwd=source,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=scaled(1800),
    )
    assert proc.returncode == 0, proc.stdout
    clean = r"golden check: (\d+) blocks checked, 0 failed, 0 drifted, 0 new, 0 stale"
    summary = re.search(clean, proc.stdout)
    assert summary, proc.stdout
    assert int(summary[1]) == len(list((REPO / "tests" / "golden").rglob("*.txt")))
    # Every block ran: the cache was empty (a cache entry is never CI's output).
    assert re.search(r"bookexec summary: \d+ blocks executed, 0 from cache", proc.stdout)
    return site_dir
