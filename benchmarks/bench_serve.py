"""Time what an author waits for under `./book serve`, in a real browser, against a baseline.

Figures (each a median of --rounds runs, on a copy of the book):
- render-floor: `mkdocs build --strict` with execution off (`BOOK_EXEC=off`);
- first-page: `mkdocs serve` started with an empty block cache (`.cache/bookexec/blocks`):
  seconds until the first page answers 200;
- prose-reload: one word added to a chapter's prose, until Chromium (driven by Playwright)
  fires the `load` event of the page live reload brought back;
- snippet-reload: one line added to a snippet, until the reloaded page shows live outputs
  (no block still marked as recorded and being checked); printed with the seconds its page's
  worker ran, as the serve log reports them (the target is that run time + 1 s);
- fresh-setup (only with --fresh): `./book setup` on a copy without `.venv`, then
  `mkdocs serve` until it listens: what a fresh clone waits for.

`--before DIR` runs the same figures on another checkout (for example `git archive` of the
commit before a change) in the same run, interleaved round by round, and prints each ratio.
Without it the ratios are to the figures in `benchmarks/serve-baseline.json`, when present.

    ./book bench serve                      # 5 rounds
    ./book bench serve --before /tmp/old --rounds 5
"""

from __future__ import annotations

import argparse
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

from common import edit_prose, edit_snippet

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MKDOCS = Path(sys.executable).parent / "mkdocs"
COPY = ["mkdocs.yml", "docs", "snippets", "hooks", "tests/golden", "tests/other-jax"]
FIGURES = ["render-floor", "first-page", "prose-reload", "snippet-reload", "fresh-setup"]
BASELINE = HERE / "serve-baseline.json"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
PENDING = ".bookexec-pending"  # a block shown from its golden while it is being checked


def copy_book(source: Path, target: Path, extra: tuple[str, ...] = ()) -> None:
    for name in (*COPY, *extra):
        path = source / name
        if path.is_dir():
            shutil.copytree(path, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif path.exists():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / name)


def environ(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BOOK_EXEC", "BOOK_CACHE")}
    return {**env, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", **extra}


def build(root: Path, **env: str) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ(**env),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"build failed in {root} ({env}):\n{proc.stdout}{proc.stderr}")
    return seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`mkdocs serve` on a copy, its log in a file."""

    def __init__(self, root: Path, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = root / f"serve-{self.port}.log"
        self.started = time.perf_counter()
        with open(self.log, "w") as log:
            self.proc = subprocess.Popen(
                [str(MKDOCS), "serve", "-a", f"127.0.0.1:{self.port}"],
                cwd=root,
                env=environ(**env),
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


def first_page(root: Path) -> float:
    """`mkdocs serve` with an empty block cache: seconds until the first page answers."""
    shutil.rmtree(root / ".cache" / "bookexec" / "blocks", ignore_errors=True)
    server = Server(root)
    try:
        return server.first_page()
    finally:
        server.stop()


def edits(root: Path, browser, args, count: int) -> dict[str, list[float]]:
    """One server with a warm cache: `count` prose edits, then `count` snippet edits, each
    timed from the edit to the browser's load event of the reloaded page."""
    out: dict[str, list[float]] = {"prose-reload": [], "snippet-reload": [], "snippet-run": []}
    server = Server(root)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a checkout to measure as the baseline")
    parser.add_argument("--page", default="tracers.md", help="the chapter whose prose is edited")
    parser.add_argument("--snippet", default="snippets/captures/retrace_counter.py")
    parser.add_argument("--fresh", action="store_true", help="also time a fresh clone's setup")
    parser.add_argument("--save-baseline", action="store_true", help=f"write {BASELINE.name}")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    books = {"now": REPO} | ({"before": args.before.resolve()} if args.before else {})
    times: dict[str, dict[str, list[float]]] = {
        name: {f: [] for f in [*FIGURES, "snippet-run"]} for name in books
    }
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        roots = {}
        for name, source in books.items():
            roots[name] = Path(folder) / name
            copy_book(source, roots[name])
            # A timing that leaves its band on a loaded machine must not stop the server
            # (strict mode turns its warning into an abort): this run measures time only.
            config = roots[name] / "mkdocs.yml"
            config.write_text(config.read_text().replace("strict: true", "strict: false"))
        for number in range(args.rounds):
            for name, root in roots.items():
                seconds = build(root, BOOK_EXEC="off")
                times[name]["render-floor"].append(seconds)
                print(f"round {number + 1} {name:<6} render-floor   {seconds:7.2f} s", flush=True)
        for number in range(args.rounds):
            for name, root in roots.items():
                seconds = first_page(root)
                times[name]["first-page"].append(seconds)
                print(f"round {number + 1} {name:<6} first-page     {seconds:7.2f} s", flush=True)
        for name, root in roots.items():
            # A warm cache, as an author's (not strict: a timing drift under load is no failure).
            subprocess.run(
                [str(MKDOCS), "build"],
                cwd=root,
                env=environ(BOOK_CACHE="on"),
                capture_output=True,
                check=False,
            )
            for figure, values in edits(root, browser, args, args.rounds).items():
                times[name][figure] += values
                for number, seconds in enumerate(values):
                    print(f"edit {number + 1}  {name:<6} {figure:<14} {seconds:7.2f} s", flush=True)
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
    now = medians["now"]
    load = os.getloadavg()
    print(
        f"\nrounds: {args.rounds}; cores: {os.cpu_count()}; load average at the end: "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(f"{'figure':<15} {'median s':>9} {'before s':>9} {'ratio':>6}  target")
    for figure in FIGURES:
        value = now[figure]
        if value != value:
            continue
        old = baseline.get(figure, float("nan")) if baseline else float("nan")
        ratio = value / old if old == old and old else float("nan")
        print(f"{figure:<15} {value:9.2f} {old:9.2f} {ratio:6.2f}  {verdict(figure, now, ratio)}")


def verdict(figure: str, now: dict[str, float], ratio: float) -> str:
    value = now[figure]
    if figure == "prose-reload":
        return f"<= 1.0 s: {'met' if value <= 1.0 else 'MISSED'}"
    if figure == "snippet-reload":
        limit = now["snippet-run"] + 1.0
        return f"<= page run {now['snippet-run']:.2f} s + 1.0 s: " + (
            "met" if value <= limit else "MISSED"
        )
    if figure == "render-floor":
        return "<= 0.5 x before: " + ("met" if ratio <= 0.5 else "MISSED")
    if figure == "first-page":
        return f"<= 10 s: {'met' if value <= 10 else 'MISSED'}"
    return f"<= 60 s: {'met' if value <= 60 else 'MISSED'}"


if __name__ == "__main__":
    main()
