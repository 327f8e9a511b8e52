"""Time what an author waits for under `./book serve`, in a real browser, against a baseline.

Figures (each a median of --rounds runs, on a copy of the book):
- trivial-build: `mkdocs build --strict` of a one-page Material site (one `index.md`, a
  heading and a paragraph) made in a temporary folder: the yardstick of the same run, which
  each figure is also printed against ("x trivial": its median over this one's);
- render-floor: `mkdocs build --strict` with execution off (`BOOK_EXEC=off`);
- first-page: `mkdocs serve` started with an empty block cache (`.cache/bookexec/blocks`):
  seconds until the first page answers 200;
- prose-reload: one word added to a chapter's prose, until Chromium (driven by Playwright)
  fires the `load` event of the page live reload brought back;
- snippet-reload: one line added to a snippet, until the reloaded page shows live outputs
  (no block still marked as recorded and being checked); printed with the seconds its page's
  worker ran, as the serve log reports them;
- accept-reload: a `print(...)` line appended to the same snippet, so that its block's output
  drifts; once the page shows the drift with its `accept` button (and every page is live), the
  click on `accept`, until the reloaded page shows no drift at that block. The snippet and the
  golden are then copied back from the saved originals. "n/a" for a checkout whose serve log
  never offers review in the browser (`bookexec: review drift in the browser: ...`);
- fresh-setup (only with --fresh): `./book setup` on a copy without `.venv`, then
  `mkdocs serve` until it listens: what a fresh clone waits for.

Targets, each from the same run's medians: prose-reload <= 1.5 x trivial-build; snippet-reload
<= its page's worker run + 1.5 x trivial-build; first-page <= 8 x trivial-build; accept-reload
<= 2 s; render-floor <= 0.5 x before; fresh-setup <= 60 s. Each prints "met" or "missed by X s".

`--before DIR` runs the same figures on another checkout (for example `git archive` of the
commit before a change) in the same run, interleaved round by round, and prints each ratio.
Without it the ratios are to the figures in `benchmarks/serve-baseline.json`, when present.
`--dirty` starts this checkout's `mkdocs serve` with `--dirty` (only touched pages rebuilt);
`--before-dirty` does the same for the `--before` checkout.

    ./book bench serve                      # 5 rounds
    ./book bench serve --before /tmp/old --rounds 5
    ./book bench serve --dirty --before /tmp/old --before-dirty
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from common import PAGE, SNIPPET, check_edits, edit_prose, edit_snippet

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # --help without the test tools
    PlaywrightTimeout = TimeoutError

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MKDOCS = Path(sys.executable).parent / "mkdocs"
COPY = ["mkdocs.yml", "docs", "snippets", "hooks", "tests/golden", "tests/other-jax"]
FIGURES = ["trivial-build", "render-floor", "first-page", "prose-reload", "snippet-reload"]
FIGURES += ["accept-reload", "fresh-setup"]
BASELINE = HERE / "serve-baseline.json"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
PENDING = ".executed-book-pending"  # a block shown from its golden while it is being checked
# What the serve log says when a drift can be accepted from the browser (a newer checkout).
REVIEW_LINE = "bookexec: review drift in the browser: accept and keep answer on"
ACCEPT = re.compile(r"^\s*accept\s*$", re.IGNORECASE)  # the button's text
TRIVIAL_CONFIG = "site_name: Trivial\ntheme:\n  name: material\n"
TRIVIAL_PAGE = "# A trivial site\n\nOne page, one heading and this paragraph: the yardstick.\n"


def copy_book(source: Path, target: Path, extra: tuple[str, ...] = ()) -> None:
    for name in (*COPY, *extra):
        path = source / name
        if path.is_dir():
            shutil.copytree(path, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif path.exists():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / name)


def environ(root: Path | None = None, **extra: str) -> dict[str, str]:
    """The environment of a command run on the copy `root`: its own engine first on the path,
    so that a `--before` copy runs its own code, not this venv's editable install."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOOK_EXEC", "BOOK_CACHE")}
    if root is not None and (root / "hooks" / "bookexec").is_dir():
        env["PYTHONPATH"] = str(root / "hooks")
    return {**env, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", **extra}


def build(root: Path, **env: str) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ(root, **env),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"build failed in {root} ({env}):\n{proc.stdout}{proc.stderr}")
    return seconds


def trivial_site(folder: Path) -> Path:
    """A one-page Material site: what any build of MkDocs costs on this machine, now."""
    root = folder / "trivial"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(TRIVIAL_CONFIG)
    (root / "docs" / "index.md").write_text(TRIVIAL_PAGE)
    return root


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`mkdocs serve` on a copy, its log in a file."""

    def __init__(self, root: Path, dirty: bool = False, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = root / f"serve-{self.port}.log"
        self.started = time.perf_counter()
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [str(MKDOCS), "serve", "-a", f"127.0.0.1:{self.port}"]
                + (["--dirty"] if dirty else []),
                cwd=root,
                env=environ(root, **env),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def first_page(self, timeout: float = 900) -> float:
        """Seconds from start until the home page answers 200."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                sys.exit(f"mkdocs serve stopped:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url, timeout=5) as answer:
                    if answer.status == 200:
                        return time.perf_counter() - self.started
            except OSError:
                pass
            time.sleep(0.05)
        sys.exit(f"mkdocs serve never served:\n{self.log.read_text()}")

    def page_seconds(self, page: str, count: int) -> float | None:
        """The run time of the count-th run of a page, as its progress line says."""
        found = re.findall(
            rf"docs/{re.escape(page)}: \d+ run[^\n]*?([\d.]+) s\n", self.log.read_text()
        )
        return float(found[count - 1]) if len(found) >= count else None

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def page_url(page: str) -> str:
    return "" if page == "index.md" else page.removesuffix(".md") + "/"


def wait_settled(browser_page, server: Server, timeout: float = 900) -> None:
    """Until the page shows no block still being checked (background execution is done)."""
    deadline = time.monotonic() + timeout
    while browser_page.locator(PENDING).count():
        if time.monotonic() > deadline or server.proc.poll() is not None:
            sys.exit(f"the page never settled:\n{server.log.read_text()}")
        browser_page.wait_for_event("load", timeout=timeout * 1000)


def reload_after(browser_page, edit, live: bool, timeout: float = 600) -> float:
    """Seconds from an edit until the browser has loaded the rebuilt page (with live outputs
    only, when `live`)."""
    start = time.perf_counter()
    with browser_page.expect_event("load", timeout=timeout * 1000):
        edit()
    while live and browser_page.locator(PENDING).count():
        browser_page.wait_for_event("load", timeout=timeout * 1000)
    return time.perf_counter() - start


def wait_all_live(server: Server, timeout: float = 1800) -> None:
    """Until no page shows recorded outputs (background execution, when there is one, is
    over), so that no rebuild it asks for is mistaken for the one an edit caused."""
    deadline = time.monotonic() + timeout
    while True:
        log = server.log.read_text()
        if "pages show recorded outputs" not in log:
            return  # a build that waited for every block
        if log.rfind("every page shows live outputs") > log.rfind("pages show recorded outputs"):
            return
        if time.monotonic() > deadline or server.proc.poll() is not None:
            sys.exit(f"the pages never became live:\n{log}")
        time.sleep(0.5)


def first_page(root: Path, dirty: bool) -> float:
    """`mkdocs serve` with an empty block cache: seconds until the first page answers."""
    shutil.rmtree(root / ".cache" / "bookexec" / "blocks", ignore_errors=True)
    server = Server(root, dirty)
    try:
        return server.first_page()
    finally:
        server.stop()


def golden_of(root: Path, snippet: str) -> tuple[Path, str] | None:
    """The golden file of the block that shows a snippet, and that block's id."""
    for path in sorted((root / "tests" / "golden").rglob("*.txt")):
        head = path.read_text(errors="replace").partition("\n---\n")[0]
        block = re.search(r"^block: \S+#(\S+)$", head, re.MULTILINE)
        if block and f"snippet: {snippet}" in head.splitlines():
            return path, block.group(1)
    return None


def drift_at(browser_page, block: str):
    """The drift warning (or cosmetic note) a served page shows at one block."""
    return browser_page.locator(
        f'.executed-book-drift[data-block="{block}"], '
        f'.executed-book-drift-note[data-block="{block}"]'
    )


def accept_button(browser_page, block: str):
    """The `accept` button of a drifted block: inside its warning, else inside the element
    that carries the review server's address and token; None when the page has none."""
    if not browser_page.locator("[data-review-url][data-review-token]").count():
        return None
    for scope in (f'[data-block="{block}"]', "[data-review-url]", "body"):
        buttons = browser_page.locator(scope).get_by_role("button", name=ACCEPT)
        if buttons.count():
            return buttons.first
    return None


def wait_shown(browser_page, server: Server, ready, timeout: float = 900) -> None:
    """Reload after reload until `ready()` holds with no block still being checked."""
    deadline = time.monotonic() + timeout
    while not ready() or browser_page.locator(PENDING).count():
        left = deadline - time.monotonic()
        if left <= 0 or server.proc.poll() is not None:
            sys.exit(f"the page never showed what was awaited:\n{server.log.read_text()}")
        # Look again after a while: the page may have loaded before the wait began.
        with contextlib.suppress(PlaywrightTimeout):
            browser_page.wait_for_event("load", timeout=min(left, 5) * 1000)


def wait_quiet(browser_page, server: Server, ready, quiet: float = 2.0) -> None:
    """Until every page is live, `ready()` holds and no reload comes for `quiet` seconds: no
    rebuild the last change asked for is left to be mistaken for the next edit's."""
    while True:
        wait_shown(browser_page, server, ready)
        wait_all_live(server)
        try:
            browser_page.wait_for_event("load", timeout=quiet * 1000)
        except PlaywrightTimeout:
            if ready() and not browser_page.locator(PENDING).count():
                return


def accept_reload(browser_page, server: Server, root: Path, snippet: str, number: int) -> float:
    """A `print` appended to a snippet drifts its block; seconds from the click on `accept`
    until the reloaded page shows no drift there (NaN when the page offers no button). The
    snippet and its golden are put back from copies, and the page left settled."""
    found = golden_of(root, snippet)
    if found is None:
        print(f"accept-reload: no golden names {snippet}", flush=True)
        return float("nan")
    golden, block = found
    saved_snippet, saved_golden = (root / snippet).read_bytes(), golden.read_bytes()
    drift = drift_at(browser_page, block)
    time.sleep(1.0)  # let the file watcher settle
    with (root / snippet).open("a") as handle:
        handle.write(f'print("benchmark accept {number}")\n')
    seconds = float("nan")
    try:
        # The drift is shown once its block has run, and the server is idle again.
        wait_quiet(browser_page, server, lambda: bool(drift.count()))
        button = accept_button(browser_page, block)
        if button is None:
            print(f"accept-reload: the drift at {block} has no accept button", flush=True)
        else:
            start = time.perf_counter()
            with browser_page.expect_event("load", timeout=600_000):
                button.click()
            wait_shown(browser_page, server, lambda: not drift.count(), timeout=600)
            seconds = time.perf_counter() - start
    finally:
        (root / snippet).write_bytes(saved_snippet)
        golden.write_bytes(saved_golden)
        wait_quiet(browser_page, server, lambda: not drift.count())
    return seconds


def edits(root: Path, browser, args, count: int, dirty: bool) -> dict[str, list[float]]:
    """One server with a warm cache: `count` prose edits, then `count` snippet edits, each
    timed from the edit to the browser's load event of the reloaded page, then (when the
    server offers review in the browser) `count` drifts accepted with the page's button."""
    out: dict[str, list[float]] = {"prose-reload": [], "snippet-reload": [], "snippet-run": []}
    out["accept-reload"] = []
    server = Server(root, dirty)
    try:
        server.first_page()
        wait_all_live(server)
        view = browser.new_page()
        try:
            view.goto(server.url + page_url(args.page), timeout=900_000)
            wait_settled(view, server)
            for number in range(count):
                time.sleep(1.0)  # let the file watcher settle
                out["prose-reload"].append(
                    reload_after(
                        view, lambda n=number: edit_prose(root, args.page, f"indeed{n}"), live=False
                    )
                )
            snippet_page = Path(args.snippet).parent.name + ".md"
            view.goto(server.url + page_url(snippet_page))
            wait_settled(view, server)
            for number in range(count):
                time.sleep(1.0)
                runs_before = len(
                    re.findall(rf"docs/{re.escape(snippet_page)}: \d+ run", server.log.read_text())
                )
                out["snippet-reload"].append(
                    reload_after(
                        view, lambda n=number: edit_snippet(root, args.snippet, n), live=True
                    )
                )
                ran = server.page_seconds(snippet_page, runs_before + 1)
                out["snippet-run"].append(ran if ran is not None else float("nan"))
                wait_all_live(server)
            if REVIEW_LINE not in server.log.read_text():  # an older checkout: no review
                out["accept-reload"] = [float("nan")] * count
            else:
                for number in range(count):
                    out["accept-reload"].append(
                        accept_reload(view, server, root, args.snippet, number)
                    )
        finally:
            view.close()
    finally:
        server.stop()
    return out


def fresh_setup(source: Path) -> float:
    """A copy without .venv: `./book setup`, then `mkdocs serve` until it listens."""
    with tempfile.TemporaryDirectory(prefix="book-fresh-") as folder:
        root = Path(folder)
        copy_book(source, root, extra=("book", "pyproject.toml", ".python-version", "README.md"))
        start = time.perf_counter()
        subprocess.run(["./book", "setup"], cwd=root, check=True, env=environ())
        mkdocs = root / ".venv" / "bin" / "mkdocs"
        port = free_port()
        with open(root / "serve.log", "w") as log:
            proc = subprocess.Popen(
                [str(mkdocs), "serve", "-a", f"127.0.0.1:{port}"],
                cwd=root,
                env=environ(),
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            while True:
                if proc.poll() is not None:
                    sys.exit(f"serve stopped:\n{(root / 'serve.log').read_text()}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                        return time.perf_counter() - start
                except OSError:
                    time.sleep(0.1)
        finally:
            proc.terminate()
            proc.wait(timeout=60)


def median(values: list[float]) -> float:
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a checkout to measure as the baseline")
    parser.add_argument("--page", default=PAGE, help="the chapter whose prose is edited")
    parser.add_argument(
        "--snippet",
        default=SNIPPET,
        help="the snippet edited (its output kept, then drifted and accepted)",
    )
    parser.add_argument("--fresh", action="store_true", help="also time a fresh clone's setup")
    parser.add_argument("--dirty", action="store_true", help="serve this checkout with --dirty")
    parser.add_argument(
        "--before-dirty", action="store_true", help="serve the --before checkout with --dirty"
    )
    parser.add_argument("--save-baseline", action="store_true", help=f"write {BASELINE.name}")
    return parser


def main() -> None:
    args = arguments().parse_args()
    check_edits(REPO, args.page, args.snippet)
    from playwright.sync_api import sync_playwright

    books = {"now": REPO} | ({"before": args.before.resolve()} if args.before else {})
    dirty = {"now": args.dirty, "before": args.before_dirty}
    times: dict[str, dict[str, list[float]]] = {
        name: {f: [] for f in [*FIGURES, "snippet-run"]} for name in books
    }
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        trivial = trivial_site(Path(folder))
        roots = {}
        for name, source in books.items():
            roots[name] = Path(folder) / name
            copy_book(source, roots[name])
            # A timing that leaves its band on a loaded machine must not stop the server
            # (strict mode turns its warning into an abort): this run measures time only.
            config = roots[name] / "mkdocs.yml"
            config.write_text(config.read_text().replace("strict: true", "strict: false"))
        for number in range(args.rounds):
            seconds = build(trivial)  # the same yardstick for every checkout
            for name in roots:
                times[name]["trivial-build"].append(seconds)
            print(f"round {number + 1} {'':<6} trivial-build  {seconds:7.2f} s", flush=True)
            for name, root in roots.items():
                seconds = build(root, BOOK_EXEC="off")
                times[name]["render-floor"].append(seconds)
                print(f"round {number + 1} {name:<6} render-floor   {seconds:7.2f} s", flush=True)
        for number in range(args.rounds):
            for name, root in roots.items():
                seconds = first_page(root, dirty[name])
                times[name]["first-page"].append(seconds)
                print(f"round {number + 1} {name:<6} first-page     {seconds:7.2f} s", flush=True)
        for name, root in roots.items():
            # A warm cache, as an author's (not strict: a timing drift under load is no failure).
            subprocess.run(
                [str(MKDOCS), "build"],
                cwd=root,
                env=environ(root, BOOK_CACHE="on"),
                capture_output=True,
                check=False,
            )
            for figure, values in edits(root, browser, args, args.rounds, dirty[name]).items():
                times[name][figure] += values
                for number, seconds in enumerate(values):
                    text = "n/a" if seconds != seconds else f"{seconds:7.2f} s"
                    print(f"edit {number + 1}  {name:<6} {figure:<14} {text:>9}", flush=True)
        browser.close()
    if args.fresh:
        for name, source in books.items():
            seconds = fresh_setup(source)
            times[name]["fresh-setup"].append(seconds)
            print(f"once    {name:<6} fresh-setup    {seconds:7.2f} s", flush=True)

    medians = {name: {f: median(v) for f, v in figs.items()} for name, figs in times.items()}
    baseline = medians.get("before")
    if baseline is None and BASELINE.exists():
        baseline = json.loads(BASELINE.read_text())["medians"]
    if args.save_baseline:
        which = "before" if "before" in medians else "now"
        BASELINE.write_text(json.dumps({"medians": medians[which]}, indent=1) + "\n")
    now, old = medians["now"], baseline or {}
    load = os.getloadavg()
    served = ", ".join(f"{name}{' --dirty' if dirty[name] else ''}" for name in books)
    print(
        f"\nrounds: {args.rounds}; served: {served}; cores: {os.cpu_count()}; "
        f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    table(now, old, args.fresh)


def table(now: dict[str, float], old: dict[str, float], fresh: bool) -> None:
    """Each figure's median, over the trivial build's, the baseline's, and its target."""
    print(
        f"{'figure':<15} {'median s':>9} {'x trivial':>9} {'before s':>9} {'x trivial':>9} "
        f"{'ratio':>6}  target"
    )
    for figure in FIGURES:
        value, before = now[figure], old.get(figure, float("nan"))
        if figure == "fresh-setup" and not fresh:
            continue
        print(
            f"{figure:<15} {shown(value, 9)} {shown(value / now['trivial-build'], 9)} "
            f"{shown(before, 9)} {shown(before / old.get('trivial-build', float('nan')), 9)} "
            f"{shown(value / before if before else float('nan'), 6)}  "
            f"{verdict(figure, now, before)}"
        )


def shown(value: float, width: int) -> str:
    """A figure to two decimals, or n/a when it was not measured."""
    return f"{'n/a':>{width}}" if value != value else f"{value:{width}.2f}"


def verdict(figure: str, now: dict[str, float], before: float) -> str:
    """The figure's target, from the same run's medians, and whether it is met (or by how many
    seconds it is missed)."""
    trivial, run = now["trivial-build"], now["snippet-run"]
    targets = {
        "trivial-build": (float("nan"), "the yardstick"),
        "render-floor": (0.5 * before, "<= 0.5 x before"),
        "first-page": (8 * trivial, "<= 8 x trivial"),
        "prose-reload": (1.5 * trivial, "<= 1.5 x trivial"),
        "snippet-reload": (run + 1.5 * trivial, f"<= page run {run:.2f} s + 1.5 x trivial"),
        "accept-reload": (2.0, "<= 2 s"),
        "fresh-setup": (60.0, "<= 60 s"),
    }
    limit, text = targets[figure]
    if figure == "trivial-build":
        return text
    value = now[figure]
    if limit != limit or value != value:
        return f"{text}: n/a"
    text += "" if figure in ("accept-reload", "fresh-setup") else f" ({limit:.2f} s)"
    return f"{text}: met" if value <= limit else f"{text}: missed by {value - limit:.2f} s"


if __name__ == "__main__":
    main()
