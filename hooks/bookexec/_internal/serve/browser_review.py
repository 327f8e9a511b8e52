"""Under `mkdocs serve`: accept or keep a drifted golden from the page that shows its drift.

A small HTTP server of its own, on the loopback address only (`127.0.0.1`, a port the system
picks), answers two requests, `POST /accept` and `POST /keep`, each naming one block of one
page (`{"page": ..., "block": ..., "token": ...}`). It knows only the blocks the last build
offered (`offer`, at each page's render), each as the `goldens.review.Entry` the terminal's
`./book review` would have; accepting writes that one golden with `review.accept`, under the
update lock, so the browser and the terminal write the same text the same way.

What a request must carry, or it is refused and nothing is written:

- the token this serve process drew (`secrets.token_urlsafe`), which only the served pages
  hold (403);
- a `Host` of `127.0.0.1:PORT` or `localhost:PORT`, so a DNS name rebound to the loopback
  address reaches nothing (403);
- no `Origin`, or the served site's own (the `mkdocs serve` address, spelt `127.0.0.1` or
  `localhost`, or `[::1]`; the loopback address when it serves on `0.0.0.0` or `::`), so no
  other site the browser has open can post (403); the CORS preflight is answered for that
  origin alone;
- a body of at most 4096 bytes (413), naming a block the last build offered (404).

An accepted golden is written in the book's golden folder; the plugin also writes a file in a
folder MkDocs watches (`attach`, from `on_serve`), so the page rebuilds even where the book's
`mkdocs.yml` does not watch the goldens, and live reload shows the block passing.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit

from bookexec._internal.errors import BookError
from bookexec._internal.files import CachePaths, exclusive
from bookexec._internal.goldens import review
from bookexec._internal.goldens.review import Entry
from bookexec._internal.logs import LogFilter
from bookexec._internal.serve.background import RebuildSignal

if TYPE_CHECKING:
    from mkdocs.livereload import LiveReloadServer

log = logging.getLogger("mkdocs.plugins.bookexec")

HOST = "127.0.0.1"
MAX_BODY = 4096  # bytes: a page, a block id and a token are far less
DRAINED = 65536  # bytes of a body too large that are read (and dropped) before the answer
LOOPBACK_NAMES = ("127.0.0.1", "localhost")


def allowed_origins(origin: str | None) -> frozenset[str]:
    """The served site's origin (`scheme://host:port` of `origin`, which may carry a path), as
    a browser sends it: both spellings of the loopback address when it is one of them or the
    server listens on every address (the browser here opens the loopback address), an IPv6
    address in brackets; none for None."""
    if not origin:
        return frozenset()
    parts = urlsplit(origin)
    host, port = _host_and_port(parts.netloc)
    if not parts.scheme or not host:
        return frozenset()
    if host in (*LOOPBACK_NAMES, "0.0.0.0"):
        names: tuple[str, ...] = LOOPBACK_NAMES
    elif host == "::":  # every address, IPv6 ones too
        names = (*LOOPBACK_NAMES, "[::1]")
    else:
        names = (f"[{host}]" if ":" in host else host,)
    port = f":{port}" if port else ""
    return frozenset(f"{parts.scheme.lower()}://{name}{port}" for name in names)


def _host_and_port(netloc: str) -> tuple[str, str]:
    """The host and port of a URL's netloc; MkDocs writes an IPv6 `dev_addr` without brackets
    (`http://::1:8000/`), its port last."""
    netloc = netloc.rpartition("@")[2]
    if netloc.startswith("["):
        host, _, rest = netloc[1:].partition("]")
        port = rest.removeprefix(":")
    elif netloc.count(":") > 1:
        host, _, port = netloc.rpartition(":")
    else:
        host, _, port = netloc.partition(":")
    return host.lower(), port if port.isdigit() else ""


class ServingNotice(LogFilter):
    """Adds a line to the live-reload server's `Serving on` record, once: what follows the
    site's address in the log, never before it."""

    LOGGERS = ("mkdocs.livereload", "properdocs.livereload")

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line

    def filter(self, record: logging.LogRecord) -> bool:
        """The record, with the line after it when it is the server's `Serving on`."""
        message = record.getMessage()
        # MkDocs' server puts the time first: "[16:50:00] Serving on http://..."
        if message.partition("] ")[2].startswith("Serving on") or message.startswith("Serving on"):
            record.msg, record.args = f"{message}\n{self.line}", None
            self.remove()  # said once
        return True


class BrowserReview:
    """The serve process's review server: one for the whole `mkdocs serve`, kept across
    rebuilds; each build offers the drift its pages show."""

    def __init__(self, root: Path, origin: str | None) -> None:
        """Start serving on 127.0.0.1 (a free port) from a daemon thread; `origin` is the
        served site's address (`site_url` under `mkdocs serve`), the one origin allowed."""
        self.root = root
        # Set by the engine at each build: the book's golden folder, the only one an accept
        # writes in, and the `written-by` words of a golden accepted here.
        self.golden_dir: Path | None = None
        self.writer = ""
        self.token = secrets.token_urlsafe(24)
        self.origins = allowed_origins(origin)
        self._entries: dict[tuple[str, str], Entry] = {}
        self._lock = threading.Lock()
        # Watched by MkDocs once `attach`ed: a file written here asks for a rebuild.
        self.changes = RebuildSignal(CachePaths(root).serve / f"{os.getpid()}-review")
        self._server = _Server((HOST, 0), _Handler)
        self._server.review = self
        self.port: int = self._server.server_address[1]
        self.hosts = frozenset(f"{name}:{self.port}" for name in LOOPBACK_NAMES)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.1},  # `close` waits this long at most
            name="executed-book-browser-review",
            daemon=True,
        )
        self._thread.start()
        # Said after MkDocs' "Serving on" (`announce`): the site's address comes first.
        self.announcement = (
            f"bookexec: review drift in the browser: accept and keep answer on {self.url} "
            f"(loopback only) with the token {self.token}"
        )

    def announce(self) -> None:
        """Say where the pages' answers go, right after the server's own `Serving on` line
        (`ServingNotice`)."""
        ServingNotice(self.announcement).install()

    @property
    def url(self) -> str:
        """Where the pages post their answers."""
        return f"http://{HOST}:{self.port}"

    def offer(self, page: str, entries: list[Entry]) -> None:
        """The drift a page shows now, as rendered by this build: it replaces what the page
        offered before."""
        with self._lock:
            for key in [key for key in self._entries if key[0] == page]:
                del self._entries[key]
            for entry in entries:
                self._entries[(page, entry.block_id)] = entry

    def offered(self, page: str, block_id: str) -> Entry | None:
        """The entry of a block the last render of its page offered, or None."""
        with self._lock:
            return self._entries.get((page, block_id))

    def attach(self, server: LiveReloadServer) -> None:
        """`on_serve`: MkDocs watches this process's folder; an accepted golden writes there."""
        self.changes.attach(server)

    def accept(self, entry: Entry) -> tuple[bool, str]:
        """Write the block's golden with `review.accept` (the terminal review's writer), under
        the update lock; whether it was written, and what was said."""
        try:
            with exclusive(CachePaths(self.root).update_lock, "the browser review"):
                outcome = review.accept(self.root, entry, self.golden_dir, self.writer)
        except BookError as busy:
            return False, str(busy)
        if outcome.startswith("not accepted"):
            log.warning(f"bookexec: not accepted in the browser: {entry.where}: {outcome}")
            return False, outcome
        log.info(f"bookexec: accepted in the browser: {entry.where}: {outcome}")
        with self._lock:
            if self._entries.get((entry.page, entry.block_id)) is entry:
                del self._entries[(entry.page, entry.block_id)]
        self.changes.ask("accepted")  # the page rebuilds, even where goldens are not watched
        return True, outcome

    def keep(self, entry: Entry) -> tuple[bool, str]:
        """Leave the golden as it is: the snippet is what should change."""
        log.info(f"bookexec: kept in the browser: {entry.where}")
        return True, f"kept {entry.golden}; change the snippet to match it"

    def close(self) -> None:
        """Stop serving, and remove the watched folder."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        self.changes.remove()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    review: BrowserReview


class _Handler(BaseHTTPRequestHandler):
    server_version = "executed-book-review"
    sys_version = ""
    timeout = 10  # seconds a request may take to arrive: a stalled client holds no thread

    @property
    def review(self) -> BrowserReview:
        return cast(_Server, self.server).review

    def log_message(self, format: str, *args: Any) -> None:
        pass  # MkDocs' log says what was accepted or kept; each request is not news

    def _origin_allowed(self) -> bool:
        origin = self.headers.get("Origin")
        return origin is None or origin in self.review.origins

    def _refused(self) -> str | None:
        """Why this request is refused before its body is read, or None."""
        if self.headers.get("Host") not in self.review.hosts:
            return "the Host must be this server's loopback address"
        if not self._origin_allowed():
            return "the Origin must be the served book's"
        return None

    def do_OPTIONS(self) -> None:
        """The CORS preflight of the served site's fetch: answered for its origin only."""
        refused = self._refused()
        origin = self.headers.get("Origin")
        if refused or origin is None:
            self._answer(HTTPStatus.FORBIDDEN, refused or "a preflight needs an Origin")
            return
        self.send_response(HTTPStatus.NO_CONTENT)
        self.send_header("Access-Control-Allow-Origin", origin)
        self.send_header("Access-Control-Allow-Methods", "POST")
        self.send_header("Access-Control-Allow-Headers", "Content-Type")
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Vary", "Origin")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        """Nothing to read here."""
        self._answer(HTTPStatus.METHOD_NOT_ALLOWED, "POST /accept or /keep")

    def do_POST(self) -> None:
        """`/accept` or `/keep` for one offered block, with the token."""
        refused = self._refused()
        if refused:
            self._answer(HTTPStatus.FORBIDDEN, refused)
            return
        if self.path not in ("/accept", "/keep"):
            self._answer(HTTPStatus.NOT_FOUND, "POST /accept or /keep")
            return
        try:
            length = int(self.headers.get("Content-Length") or "0")
        except ValueError:
            length = -1
        if length > MAX_BODY or length < 0:
            # Never parsed; a little of it is read, so that the client, still sending, reads
            # the answer instead of a reset connection.
            with contextlib.suppress(OSError):
                self.rfile.read(min(max(length, 0), DRAINED))
            self.close_connection = True
            self._answer(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"at most {MAX_BODY} bytes")
            return
        try:
            body = json.loads(self.rfile.read(length).decode("utf-8")) if length else None
        except (UnicodeDecodeError, ValueError):
            body = None
        body = body if isinstance(body, dict) else {}
        token = body.get("token")
        if not isinstance(token, str) or not hmac.compare_digest(
            token.encode("utf-8"), self.review.token.encode("utf-8")
        ):
            self._answer(HTTPStatus.FORBIDDEN, "wrong token")
            return
        if not all(isinstance(body.get(key), str) for key in ("page", "block")):
            self._answer(HTTPStatus.BAD_REQUEST, "expected JSON: page, block and token")
            return
        entry = self.review.offered(body["page"], body["block"])
        if entry is None:
            self._answer(HTTPStatus.NOT_FOUND, "no such drifted block on the served page")
            return
        if self.path == "/accept":
            done, message = self.review.accept(entry)
        else:
            done, message = self.review.keep(entry)
        self._answer(HTTPStatus.OK if done else HTTPStatus.CONFLICT, message)

    def _answer(self, status: HTTPStatus, message: str) -> None:
        data = json.dumps({"ok": status == HTTPStatus.OK, "message": message}).encode("utf-8")
        self.send_response(status)
        origin = self.headers.get("Origin")
        if origin is not None and origin in self.review.origins:
            self.send_header("Access-Control-Allow-Origin", origin)
            self.send_header("Vary", "Origin")
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)
