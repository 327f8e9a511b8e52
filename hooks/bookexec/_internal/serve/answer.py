"""Under `mkdocs serve`: every request answered at once, from the last build that finished.

MkDocs' live-reload server holds every request for a file of the site while a build runs, so
that it never serves a half-written site. A rebuild of this book renders every page (figures,
labs, the search index; `mkdocs serve` without `--dirty`), and on a loaded machine it took
longer than a minute, with the background runs asking for one every few minutes: a browser or
a test asking for a page then waited that long, or gave up.

Here each finished build's site is copied (`SiteCopies.take`, from `on_post_build`; a file
that did not change is a hard link to the last copy's), and the server's WSGI application is
wrapped (`server.set_app`, wsgiref's public API): a request for a file of the site is answered
at once from the last copy, with MkDocs' own live-reload script and the epoch MkDocs shows
now, so the browser reloads when the build under way ends, as it would have. The live-reload
poll, and any path outside the site, go to MkDocs' own `serve_request`, unchanged.

No public API gives that script or epoch: `LiveReloadServer._inject_js_into_html` and
`_visible_epoch` are read here alone. `tests/unit/test_answer.py` fails loudly when MkDocs
changes them, and without them the server is left as MkDocs made it (requests wait for
builds again), with a warning.
"""

from __future__ import annotations

import logging
import mimetypes
import os
import posixpath
import shutil
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

log = logging.getLogger("mkdocs.plugins.bookexec")

# What MkDocs reads of its server, here alone (no public API offers them).
EPOCH = "_visible_epoch"  # the version of the site the browsers were last told of
INJECT = "_inject_js_into_html"  # adds the live-reload script, with an epoch, to a page
Stat = tuple[int, int, int, int]  # size, mtime, ctime (ns), inode: a file rewritten differs
StartResponse = Callable[..., Any]


@dataclass(frozen=True)
class Copy:
    """One finished build's site: its folder, and each file's `Stat` when it was copied."""

    folder: Path
    stats: dict[str, Stat]


def _stat(path: Path) -> Stat:
    st = path.stat()
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class SiteCopies:
    """The copies of the served site, in a folder of their own: the last one is answered from;
    the one before it stays until the next copy, for requests that began reading it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._copies: list[Copy] = []  # oldest first; at most two
        self._made = 0
        self.removing: threading.Thread | None = None  # the older copies' removal, if any

    def take(self, site: Path) -> bool:
        """Copy the site MkDocs has just finished writing; the copy is answered from at once.
        False, said in the log, when it cannot be written: the last copy is answered still."""
        last = self.current()
        self._made += 1
        folder = self.folder / str(self._made)
        try:
            stats = self._copy(site, folder, last)
        except OSError as error:
            shutil.rmtree(folder, ignore_errors=True)
            said = f"bookexec: cannot copy the served site ({error}): pages show the last copy"
            log.warning(said)
            return False
        with self._lock:
            self._copies.append(Copy(folder, stats))
            gone, self._copies = self._copies[:-2], self._copies[-2:]
        if gone:
            # Off the rebuild's path (a fifth of a prose edit's rebuild on the book): the
            # browser reloads once the build ends, and no request reads a copy two builds old.
            folders = [old.folder for old in gone]
            self.removing = threading.Thread(target=_remove, args=(folders,), daemon=True)
            self.removing.start()
        return True

    @staticmethod
    def _copy(site: Path, folder: Path, last: Copy | None) -> dict[str, Stat]:
        stats: dict[str, Stat] = {}
        for path in sorted(site.rglob("*")):
            if not path.is_file():
                continue
            name = path.relative_to(site).as_posix()
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            stats[name] = _stat(path)
            if last is not None and last.stats.get(name) == stats[name]:
                try:  # unchanged since the last copy, which nothing writes to
                    os.link(last.folder / name, target)
                    continue
                except OSError:
                    pass
            shutil.copyfile(path, target)
        return stats

    def current(self) -> Copy | None:
        """The last copy taken, or None before the first."""
        with self._lock:
            return self._copies[-1] if self._copies else None

    def remove(self) -> None:
        """The serve is over."""
        with self._lock:
            self._copies = []
        shutil.rmtree(self.folder, ignore_errors=True)


def _remove(folders: list[Path]) -> None:
    """Delete copies no request reads any more."""
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def readable(server: Any) -> bool:
    """Whether this live-reload server has what `Answering` reads of it."""
    return isinstance(getattr(server, EPOCH, None), int) and callable(getattr(server, INJECT, None))


class Answering:
    """The served site's WSGI application: files from the last copy, at once; the rest to the
    application MkDocs set (`server.serve_request`)."""

    def __init__(self, server: Any, copies: SiteCopies) -> None:
        self.server = server
        self.inner: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
        self.inner = server.serve_request
        self.copies = copies

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Answer one request (a WSGI application)."""
        # As MkDocs reads the path: the bytes of the URL, as UTF-8.
        path = environ.get("PATH_INFO", "").encode("latin-1").decode("utf-8", "ignore")
        mount = self.server.mount_path
        if path.startswith("/livereload/") or not (path + "/").startswith(mount):
            return self.inner(environ, start_response)
        for _ in range(3):  # a copy removed as it was read: the newer one has the file
            copy = self.copies.current()
            if copy is None:
                return self.inner(environ, start_response)
            try:
                return self._answer(copy.folder, path, path[len(mount) :], start_response)
            except FileNotFoundError:
                continue
        return self.inner(environ, start_response)

    def _answer(
        self, site: Path, path: str, relative: str, start_response: StartResponse
    ) -> Iterable[bytes]:
        if path.endswith("/"):
            relative += "index.html"
        name = posixpath.normpath("/" + relative).lstrip("/")  # no way out of the site
        file = site / name
        if file.is_file():
            body = file.read_bytes()
            if name.endswith(".html"):
                body = getattr(self.server, INJECT)(body, getattr(self.server, EPOCH))
            headers = [("Content-Type", content_type(name)), ("Content-Length", str(len(body)))]
            start_response("200 OK", headers)
            return [body]
        if not path.endswith("/") and (file / "index.html").is_file():
            start_response("302 Found", [("Location", quote(path) + "/")])
            return []
        page = site / "404.html"
        body = page.read_bytes() if page.is_file() else b"404 Not Found"
        start_response("404 Not Found", [("Content-Type", "text/html")])
        return [body]


def content_type(name: str) -> str:
    """The type MkDocs' server gives a file (it names scripts and gzip itself)."""
    if name.endswith((".js", ".JS", ".mjs")):
        return "application/javascript"
    if name.endswith(".gz"):
        return "application/gzip"
    return mimetypes.guess_type(name)[0] or "application/octet-stream"


def attach(server: Any, copies: SiteCopies) -> bool:
    """`on_serve`: answer the site's files from `copies` from now on; False, with a warning,
    when this server does not have what that reads."""
    if not readable(server):
        log.warning(
            "bookexec: this live-reload server has no "
            f"{EPOCH} or {INJECT}: pages wait for each rebuild to end"
        )
        return False
    server.set_app(Answering(server, copies))
    return True
