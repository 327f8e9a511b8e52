"""What a reader's browser downloads for a page of the built site: how many requests, how many
bytes, and the largest files.

Serves the built site (`site/` after `./book build`, or `--site`) on a local port, opens each
page in a fresh Chromium context at 1280 by 1000 pixels (an empty cache, as a first visit),
waits until no request has been made for a second (Material's search worker fetches the index
after the page has loaded), and counts every request the page and its workers made. The bytes
are the bodies as served: the local server does not compress, as most hosts would, so they are
an upper bound on what travels over the network and the same on every machine.

    ./book build && ./book bench transfer                 # a chapter and a lab page
    ./book bench transfer --page tracers/ --page labs/tracers/ --json sizes.json
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Request, ViewportSize

REPO = Path(__file__).resolve().parent.parent
PAGES = ("control-flow/", "labs/control-flow/")  # a chapter and its lab
VIEWPORT: ViewportSize = {"width": 1280, "height": 1000}
QUIET = 1.0  # seconds without a new request after which a page has loaded all it will
LONGEST = 60.0  # seconds a page may take to load everything, on a busy machine
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "site", help="the built site (site/)")
    parser.add_argument(
        "--page",
        action="append",
        help=f"a page's path in the site, e.g. tracers/ (repeatable; default {' '.join(PAGES)})",
    )
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    return parser


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Nothing: the report is the output."""


@contextmanager
def serving(site: Path) -> Iterator[str]:
    """The site on a free local port, for as long as the block runs: its base URL."""
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def measure(browser: Browser, base: str, page: str) -> dict[str, Any]:
    """One page's requests: their count, their bytes, and each file's path and size (0 for
    one that failed, such as another host's when the machine is offline)."""
    context = browser.new_context(viewport=VIEWPORT)
    seen: list[Request] = []
    last = [time.monotonic()]

    def issued(request: Request) -> None:
        seen.append(request)
        last[0] = time.monotonic()

    context.on("request", issued)
    tab = context.new_page()
    tab.goto(base + page, wait_until="load")
    started = time.monotonic()
    while time.monotonic() - last[0] < QUIET and time.monotonic() - started < LONGEST:
        tab.wait_for_timeout(100)
    files = []
    for request in seen:
        response = request.response()
        size = len(response.body()) if response is not None and response.ok else 0
        # The site's own files by path; another host's (a CDN, a font) by its whole address.
        url = request.url
        files.append((unquote(urlparse(url).path) if url.startswith(base) else url, size))
    context.close()
    files.sort(key=lambda file: -file[1])
    return {
        "requests": len(files),
        "bytes": sum(size for _, size in files),
        "files": files,
    }


def report(results: dict[str, dict[str, Any]]) -> str:
    rows = [f"{'page':28} {'requests':>8} {'bytes':>12}  largest"]
    for page, result in results.items():
        files = result["files"]
        largest = ", ".join(f"{path} {size:,}" for path, size in files[:2])
        rows.append(f"{page:28} {result['requests']:>8} {result['bytes']:>12,}  {largest}")
    return "\n".join(rows)


def main() -> None:
    args = arguments().parse_args()
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        sys.exit(f"no built site at {site}: build it first (./book build)")
    pages = args.page or list(PAGES)
    for page in pages:
        target = site / page
        if not (target.is_file() or (target / "index.html").is_file()):
            sys.exit(f"--page: the site has no page {page}")
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with serving(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        results = {page: measure(browser, base, page) for page in pages}
        browser.close()
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
