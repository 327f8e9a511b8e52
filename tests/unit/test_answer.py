"""`bookexec._internal.serve.answer`: the served site answered from the last finished build's copy,
never waiting for the build under way, over MkDocs' own (unstarted) live-reload server. The
real `mkdocs serve` is tests/e2e/test_serve_answers.py."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from mkdocs.livereload import LiveReloadServer

from bookexec._internal.serve import answer

pytestmark = pytest.mark.engine


def unstarted(root: Path) -> LiveReloadServer:
    """MkDocs' server as `mkdocs serve` makes it, bound to no port."""
    return LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(root))


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def get(app, path: str) -> tuple[str, dict[str, str], bytes]:
    said: list[tuple[str, list[tuple[str, str]]]] = []
    body = b"".join(app({"PATH_INFO": path}, lambda status, head: said.append((status, head))))
    return said[0][0], dict(said[0][1]), body


def test_mkdocs_live_reload_server_still_has_what_answering_reads(tmp_path):
    """The two names `answer` reads of MkDocs' server, which no public API offers: when MkDocs
    renames either, this fails, and `attach` leaves the server as MkDocs made it."""
    server = unstarted(tmp_path)
    assert answer.readable(server)
    epoch = getattr(server, answer.EPOCH)
    page = getattr(server, answer.INJECT)(b"<html><body>text</body></html>", epoch)
    assert page.startswith(b"<html><body>text<script>") and page.endswith(b"</body></html>")
    assert f"livereload({epoch}, ".encode() in page

    class Older:  # a server without them
        mount_path = "/"

        def set_app(self, app) -> None:
            raise AssertionError("set_app called on a server answer cannot read")

    assert not answer.readable(Older())
    assert not answer.attach(Older(), answer.SiteCopies(tmp_path / "copies"))


def test_a_copy_links_what_did_not_change_and_copies_what_did(tmp_path):
    site, copies = tmp_path / "site", answer.SiteCopies(tmp_path / "copies")
    write(site / "index.html", "home v1")
    write(site / "assets" / "theme.css", "body {}")
    copies.take(site)
    first = copies.current()
    assert first is not None
    write(site / "index.html", "home v2")  # rewritten in place, as MkDocs writes
    copies.take(site)
    second = copies.current()
    assert second is not None
    assert (first.folder / "index.html").read_text() == "home v1"  # the older copy is intact
    assert (second.folder / "index.html").read_text() == "home v2"
    css = [os.stat(c.folder / "assets" / "theme.css").st_ino for c in (first, second)]
    assert css[0] == css[1]  # unchanged: one file, linked
    copies.take(site)
    assert copies.removing is not None
    copies.removing.join(timeout=60)  # removed beside the serve, off the rebuild's path
    assert not first.folder.exists()  # two copies are kept: the last, and one being read
    copies.remove()
    assert not (tmp_path / "copies").exists()


def test_pages_come_from_the_last_copy_while_a_build_is_under_way(tmp_path):
    site, copies = tmp_path / "site", answer.SiteCopies(tmp_path / "copies")
    write(site / "index.html", "<body>home</body>")
    write(site / "slow" / "index.html", "<body>built</body>")
    write(site / "404.html", "<body>no such page</body>")
    write(site / "assets" / "app.js", "run()")
    copies.take(site)
    server = unstarted(site)
    app = answer.Answering(server, copies)
    # What MkDocs' server is in while its builder runs: the wanted epoch is not yet visible,
    # and its own application holds every request for a file until the build ends.
    server._wanted_epoch = server._visible_epoch + 1
    write(site / "slow" / "index.html", "<body>half writ")  # the build rewrites the page
    answers: list[tuple[str, dict[str, str], bytes]] = []
    asking = threading.Thread(target=lambda: answers.append(get(app, "/slow/")), daemon=True)
    asking.start()
    asking.join(timeout=5)
    assert answers, "the request waited for the build"
    status, headers, body = answers[0]
    assert status == "200 OK" and headers["Content-Type"] == "text/html"
    assert body.startswith(b"<body>built<script>")  # the finished build's, with live reload
    assert f"livereload({server._visible_epoch}, ".encode() in body
    assert int(headers["Content-Length"]) == len(body)

    assert get(app, "/assets/app.js")[1]["Content-Type"] == "application/javascript"
    status, headers, _ = get(app, "/slow")
    assert status == "302 Found" and headers["Location"] == "/slow/"
    status, _, body = get(app, "/missing/")
    assert status == "404 Not Found" and body == b"<body>no such page</body>"
    status, _, body = get(app, "/../../" + str(tmp_path / "copies"))  # nothing outside
    assert status == "404 Not Found"
    # The live-reload poll is MkDocs' own: it answers with the epoch shown now.
    status, _, body = get(app, "/livereload/0/1")
    assert status == "200 OK" and int(body) == server._visible_epoch


def test_a_copy_that_cannot_be_written_is_said_and_the_last_one_stays(tmp_path, caplog):
    site, copies = tmp_path / "site", answer.SiteCopies(tmp_path / "copies")
    write(site / "index.html", "home v1")
    assert copies.take(site)
    last = copies.current()
    (tmp_path / "copies" / "2").write_text("in the way")  # where the next copy would go
    write(site / "index.html", "home v2")
    with caplog.at_level("WARNING", logger="mkdocs.plugins.bookexec"):
        assert not copies.take(site)  # no traceback: a line in the log
    assert copies.current() == last and (last.folder / "index.html").read_text() == "home v1"
    assert "bookexec: cannot copy the served site" in caplog.text
    assert "pages show the last copy" in caplog.text
