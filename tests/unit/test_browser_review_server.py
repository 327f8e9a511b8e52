"""The browser review's server (`bookexec._internal.serve.browser_review`), over real HTTP on the
loopback address: a golden on disk, one drifted block offered, and requests as a browser, a
careless script or another site would make them. No build: the comparison is made directly."""

from __future__ import annotations

import http.client
import json
import logging
from dataclasses import asdict
from pathlib import Path

import pytest

from bookexec._internal.files import CachePaths, exclusive, write_atomic
from bookexec._internal.goldens import review
from bookexec._internal.goldens.compare import compare
from bookexec._internal.goldens.report import Report
from bookexec._internal.serve.browser_review import MAX_BODY, BrowserReview, allowed_origins

pytestmark = pytest.mark.engine

PAGE, BLOCK = "ch.md", "first"
SITE = "http://127.0.0.1:8123"  # the `mkdocs serve` address the pages come from


@pytest.fixture
def drifted(tmp_path: Path):
    """A golden written as the update mode writes it, and this build's drifted comparison."""
    golden_dir = tmp_path / "tests" / "golden"
    recorded = compare(golden_dir, PAGE, BLOCK, "snippets/ch/first.py", "old output\n")
    write_atomic(recorded.path, recorded.actual, inside=golden_dir)
    comparison = compare(golden_dir, PAGE, BLOCK, "snippets/ch/first.py", "new output\n")
    assert comparison.status == "drifted"
    return tmp_path, comparison


@pytest.fixture
def server(drifted):
    root, comparison = drifted
    served = BrowserReview(root, SITE + "/")
    served.golden_dir = root / "tests" / "golden"  # the engine sets the book's at each build
    served.offer(PAGE, [review.entry_of(comparison, root)])
    yield served, comparison
    served.close()


def post(
    served: BrowserReview,
    path: str,
    body: dict | bytes | None = None,
    *,
    host: str | None = None,
    origin: str | None = SITE,
    method: str = "POST",
) -> tuple[int, dict, dict]:
    """One request, as raw as a test needs it: status, JSON answer, headers."""
    if body is None:
        body = {"page": PAGE, "block": BLOCK, "token": served.token}
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    headers = {"Host": host or f"127.0.0.1:{served.port}", "Content-Type": "application/json"}
    if origin is not None:
        headers["Origin"] = origin
    try:
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        raw = answer.read()
        said = json.loads(raw) if raw else {}
        return answer.status, said, dict(answer.getheaders())
    finally:
        connection.close()


def golden_bytes(comparison) -> bytes:
    return Path(comparison.path).read_bytes()


def test_the_entry_is_the_one_the_terminal_review_saves(drifted):
    """`save` and the browser make their entries with the same function."""
    root, comparison = drifted
    saved = review.save(Report(root, root / "tests" / "golden", [comparison], []))
    entries = json.loads(saved.read_text())["entries"]
    assert entries == [asdict(review.entry_of(comparison, root))]


def test_it_listens_on_loopback_only_and_says_where_with_its_token(drifted, caplog):
    root, _ = drifted
    served = BrowserReview(root, SITE)
    try:
        assert served._server.server_address[0] == "127.0.0.1"
        assert len(served.token) >= 32
        said = (
            f"bookexec: review drift in the browser: accept and keep answer on "
            f"http://127.0.0.1:{served.port} (loopback only) with the token {served.token}"
        )
        # Said after the server's own first line, never before it (issue 41).
        with caplog.at_level(logging.INFO, logger="mkdocs.livereload"):
            served.announce()
            logging.getLogger("mkdocs.livereload").info("Serving on http://127.0.0.1:8000/")
            logging.getLogger("mkdocs.livereload").info("Serving on http://127.0.0.1:8000/")
        assert caplog.messages[0] == f"Serving on http://127.0.0.1:8000/\n{said}"
        assert caplog.messages[1] == "Serving on http://127.0.0.1:8000/"  # once
        other = BrowserReview(root, SITE)
        assert other.token != served.token and other.port != served.port  # drawn afresh
        other.close()
    finally:
        served.close()


def test_no_token_or_a_wrong_one_is_refused(server):
    served, comparison = server
    before = golden_bytes(comparison)
    no_token = [{"page": PAGE, "block": BLOCK}, {"page": PAGE, "block": BLOCK, "token": None}]
    wrong = ("", "x" * len(served.token), served.token[:-1], served.token + "x", "é")
    bodies = [*no_token, *({"page": PAGE, "block": BLOCK, "token": t} for t in wrong)]
    for body in [*bodies, b"", b"not json", b"[1]"]:
        for path in ("/accept", "/keep"):
            status, said, _ = post(served, path, body)
            assert (status, said["message"]) == (403, "wrong token"), body
    assert golden_bytes(comparison) == before


def test_another_origin_is_refused_and_gets_no_cors(server):
    served, comparison = server
    before = golden_bytes(comparison)
    for evil in ("http://evil.example", "http://127.0.0.1:9999", "null", "https://127.0.0.1:8123"):
        status, _, headers = post(served, "/accept", origin=evil)
        assert status == 403, evil
        assert "Access-Control-Allow-Origin" not in headers
        status, _, headers = post(served, "/accept", b"", origin=evil, method="OPTIONS")
        assert status == 403 and "Access-Control-Allow-Origin" not in headers
    assert golden_bytes(comparison) == before


def test_the_served_sites_preflight_is_answered_in_both_spellings(server):
    served, _ = server
    for origin in (SITE, "http://localhost:8123"):
        status, _, headers = post(served, "/keep", b"", origin=origin, method="OPTIONS")
        assert status == 204
        assert headers["Access-Control-Allow-Origin"] == origin
        assert "POST" in headers["Access-Control-Allow-Methods"]
        assert "Content-Type" in headers["Access-Control-Allow-Headers"]
    assert allowed_origins("http://localhost:8123/book/") == {SITE, "http://localhost:8123"}
    assert allowed_origins(None) == frozenset()


# `mkdocs serve -a ADDRESS:PORT` sets site_url to http://ADDRESS:PORT/, an IPv6 address bare.
SERVED_ON = {
    # Every address: the browser on this machine opens the loopback address, by either name.
    "http://0.0.0.0:8123/": {SITE, "http://localhost:8123"},
    "http://:::8123/": {SITE, "http://localhost:8123", "http://[::1]:8123"},
    "http://::1:8123/": {"http://[::1]:8123"},
    "http://[::1]:8123/book/": {"http://[::1]:8123"},
}


@pytest.mark.parametrize("site_url", list(SERVED_ON))
def test_the_origin_is_the_address_the_browser_opens(drifted, site_url):
    """The origins were built as `http://0.0.0.0:8123` and `http://::1:8123`, which no browser
    sends: every review button was refused."""
    root, comparison = drifted
    assert allowed_origins(site_url) == SERVED_ON[site_url]
    served = BrowserReview(root, site_url)
    served.offer(PAGE, [review.entry_of(comparison, root)])
    try:
        for origin in sorted(SERVED_ON[site_url]):
            status, _, headers = post(served, "/keep", b"", origin=origin, method="OPTIONS")
            assert status == 204, origin
            assert headers["Access-Control-Allow-Origin"] == origin
        assert post(served, "/keep", origin="http://0.0.0.0:8123")[0] == 403
    finally:
        served.close()


def test_a_wrong_host_is_refused(server):
    """A DNS name rebound to 127.0.0.1 sends its own name as the Host."""
    served, comparison = server
    before = golden_bytes(comparison)
    for host in ("evil.example", f"evil.example:{served.port}", "127.0.0.1", "127.0.0.1:1"):
        assert post(served, "/accept", host=host)[0] == 403, host
    assert post(served, "/keep", host=f"localhost:{served.port}")[0] == 200
    assert golden_bytes(comparison) == before


def test_an_oversize_body_is_refused(server):
    served, comparison = server
    before = golden_bytes(comparison)
    big = {"page": PAGE, "block": BLOCK, "token": served.token, "pad": "x" * MAX_BODY}
    status, said, _ = post(served, "/accept", big)
    assert status == 413 and said["message"] == f"at most {MAX_BODY} bytes"
    assert golden_bytes(comparison) == before


def test_an_unknown_page_or_block_is_not_found(server):
    served, _ = server
    for page, block in ((PAGE, "other"), ("other.md", BLOCK), ("", "")):
        body = {"page": page, "block": block, "token": served.token}
        assert post(served, "/accept", body)[0] == 404
    assert post(served, "/delete")[0] == 404


def test_keep_leaves_the_golden_byte_for_byte(server, caplog):
    served, comparison = server
    before = golden_bytes(comparison)
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.bookexec"):
        status, said, headers = post(served, "/keep")
    assert status == 200 and said["ok"]
    assert headers["Access-Control-Allow-Origin"] == SITE
    assert golden_bytes(comparison) == before
    assert f"bookexec: kept in the browser: docs/{PAGE}#{BLOCK}" in caplog.messages


def test_accept_writes_what_the_terminal_review_writes(server, tmp_path, caplog):
    served, comparison = server
    # What `./book review` would write, in a copy of the book: its own accept, its own entry.
    copy = tmp_path / "copy"
    golden = Path(comparison.path).relative_to(served.root)
    write_atomic(copy / golden, golden_bytes(comparison).decode())
    entry = review.entry_of(comparison, served.root)
    said_there = review.accept(copy, entry, copy / "tests" / "golden")
    assert said_there == f"rewrote {golden}"
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.bookexec"):
        status, said, _ = post(served, "/accept")
    assert (status, said["message"]) == (200, said_there)
    assert golden_bytes(comparison) == (copy / golden).read_bytes()
    assert golden_bytes(comparison).decode() == comparison.actual
    assert f"bookexec: accepted in the browser: docs/{PAGE}#{BLOCK}: {said_there}" in (
        caplog.messages
    )
    # Accepted once: the next render offers what the page shows then; until then, not found.
    assert post(served, "/accept")[0] == 404


def test_accept_waits_for_no_one_holding_the_update_lock(server):
    """An update (or `./book review`) writing the goldens: the browser's accept says so."""
    served, comparison = server
    before = golden_bytes(comparison)
    with exclusive(CachePaths(served.root).update_lock, "GOLDEN=update"):
        status, said, _ = post(served, "/accept")
    assert status == 409 and "is writing the goldens right now" in said["message"]
    assert golden_bytes(comparison) == before


def test_a_golden_changed_since_the_build_is_not_accepted(server):
    served, comparison = server
    Path(comparison.path).write_text("edited by hand\n")
    status, said, _ = post(served, "/accept")
    assert status == 409 and said["message"].startswith("not accepted: ")
    assert Path(comparison.path).read_text() == "edited by hand\n"


def test_each_render_replaces_what_its_page_offered(server):
    served, _ = server
    served.offer(PAGE, [])  # the page rendered again, passing
    assert post(served, "/keep")[0] == 404


def test_close_stops_serving(drifted):
    root, _ = drifted
    served = BrowserReview(root, SITE)
    served.close()
    with pytest.raises(OSError):
        post(served, "/keep")
