"""Shared helpers: small fixture sites built with the real hooks, and the real MkDocs."""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HOOK = REPO / "hooks" / "executed_book.py"
MKDOCS = Path(sys.executable).parent / "mkdocs"

_CONFIG = """\
site_name: fixture
docs_dir: docs
hooks:
  - {hook}
plugins:
  - markdown-exec:
      languages: [python]
markdown_extensions:
  - admonition
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""


def jaxpr_goldens() -> list[Path]:
    """Every golden of the book, but those of blocks shown as a diff: a drift report quotes
    jaxpr lines behind `+` and `-`, which is diff text, not a jaxpr."""
    from bookexec.discover.blocks import scan_page
    from bookexec.goldens.store import golden_path

    golden_dir = REPO / "tests" / "golden"
    shown_as_diff = {
        golden_path(golden_dir, block.page, block.id)
        for page in (REPO / "docs").glob("*.md")
        for block in scan_page(page.name, page.read_text(), REPO)
        if block.options.get("result") == "diff"
    }
    return [p for p in sorted(golden_dir.rglob("*.txt")) if p not in shown_as_diff]


def free_port() -> int:
    """A localhost port nothing listens on now, for a server a test starts."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Result:
    returncode: int
    output: str


@dataclass
class Site:
    """A throwaway book: pages, snippets and goldens in the real layout, built by real MkDocs."""

    root: Path

    def page(self, name: str, markdown: str) -> None:
        path = self.root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(markdown))

    def snippet(self, name: str, code: str) -> None:
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))

    def golden(self, page: str, block_id: str) -> Path:
        return self.root / "tests" / "golden" / Path(page).with_suffix("") / f"{block_id}.txt"

    def goldens(self) -> dict[str, str]:
        base = self.root / "tests" / "golden"
        return {str(p.relative_to(base)): p.read_text() for p in sorted(base.rglob("*.txt"))}

    def build(self, mode: str = "check", timeout: float = 300, **env: str) -> Result:
        environ = {**os.environ, "GOLDEN": mode, "NO_MKDOCS_2_WARNING": "1", **env}
        proc = subprocess.run(
            [str(MKDOCS), "build", "--strict"],
            cwd=self.root,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )
        return Result(proc.returncode, proc.stdout)


@pytest.fixture
def site(tmp_path: Path) -> Site:
    root = tmp_path / "book"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(_CONFIG.format(hook=HOOK))
    return Site(root)


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
        chromium.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def static_server(directory: Path):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()


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
def built_book(tmp_path_factory) -> Path:
    """Build the book exactly as CI does, once per test run, into a throwaway site directory."""
    site_dir = tmp_path_factory.mktemp("site")
    env = {**os.environ, "GOLDEN": "check", "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(site_dir)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0, proc.stdout
    clean = r"golden check: (\d+) blocks checked, 0 failed, 0 drifted, 0 new, 0 stale"
    summary = re.search(clean, proc.stdout)
    assert summary, proc.stdout
    assert int(summary[1]) == len(list((REPO / "tests" / "golden").rglob("*.txt")))
    return site_dir
