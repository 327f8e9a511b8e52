"""Under `mkdocs serve`, a drifted block's warning has "accept" and "keep" buttons: keep
leaves its golden, accept rewrites it (with `./book review`'s own writer), and the page comes
back passing. The review server answers only on the loopback address, only with the serve's
token (`bookexec._internal.serve.browser_review`).

The fixture book watches only its snippets, as `test_serve_background` does: the rebuild after
an accept comes from the review itself, not from a watch of `tests/golden`.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from bookexec._internal.goldens.store import parse
from conftest import scaled, serving

pytestmark = [pytest.mark.build, pytest.mark.browser]

PAGE = """\
# Drift

```python exec="on" id="own"
--8<-- "snippets/drift/own.py"
```
"""
ANNOUNCED = re.compile(
    r"review drift in the browser: accept and keep answer on (http://127\.0\.0\.1:(\d+)) "
    r"\(loopback only\) with the token (\S+)"
)

# From the served page itself (the allowed origin, so the answer is readable): its status.
WRONG_TOKEN_FETCH = """async ([url, body]) => (await fetch(url + "/accept", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
})).status"""
# The page as one reading, only once it is parsed whole: a reload's half-parsed page can hold
# the page's drift note at the top and the result, but not yet the block's warning below it.
PAGE_STATE = """() => document.readyState !== "complete" ? null : {
    drift: document.querySelectorAll(".executed-book-drift").length,
    notes: document.querySelectorAll(".executed-book-drift-note, .executed-book-page-drift").length,
    result: Array.from(document.querySelectorAll(".result"), (r) => r.innerText).join("\\n"),
}"""


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def post(url: str, body: dict) -> int:
    """The status of one POST from a script (no browser, so no Origin)."""
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def non_loopback_address() -> str | None:
    """An IPv4 address of this machine that is not a loopback one, or None if it has none."""
    found = []
    with contextlib.suppress(OSError):
        found.append(socket.gethostbyname(socket.gethostname()))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe, contextlib.suppress(OSError):
        # A UDP "connection" sends nothing: it only picks the outgoing interface.
        probe.connect(("192.0.2.255", 9))
        found.append(probe.getsockname()[0])
    try:
        listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=10)
        found += listed.stdout.split()
    except (OSError, subprocess.SubprocessError):
        pass
    return next((a for a in found if "." in a and not a.startswith(("127.", "0."))), None)


def drifted_book(site):
    site.page("drift.md", PAGE)
    site.page("index.md", "# Home\n")
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + "watch:\n  - snippets\n")
    site.snippet("drift/own.py", "print('recorded output')\n")
    assert site.build("update").returncode == 0


@pytest.fixture(params=[(), ("--dirty",)], ids=["serve", "serve-dirty"])
def served(prebuilt, tmp_path, request):
    """The drifted book under `mkdocs serve`, and under `--dirty` as `./book serve` runs it
    (an accepted golden then renders its page again through the engine's page graph)."""
    site = prebuilt(drifted_book, tmp_path)
    site.snippet("drift/own.py", "print('edited output')\n")  # its output now drifts
    with serving(site.root, tmp_path / "serve.log", *request.param, BOOK_CACHE=None) as served:
        yield site, served


def test_accept_and_keep_in_the_browser(served, browser):
    site, served = served
    golden = site.golden("drift.md", "own")
    recorded = golden.read_bytes()

    def drifting() -> str | None:  # the live page, with the block's drift
        html = get(served.url + "drift/")
        return (
            html if "executed-book-drift" in html and "executed-book-pending" not in html else None
        )

    html = served.until(drifting, 180)
    found = served.until(lambda: ANNOUNCED.search(served.log()))
    review_url, port, token = found[1], int(found[2]), found[3]
    assert f'data-review-url="{review_url}"' in html and f'data-review-token="{token}"' in html

    # Refused without the token, and with a wrong one: nothing is written.
    where = {"page": "drift.md", "block": "own"}
    assert post(review_url + "/accept", where) == 403
    assert post(review_url + "/accept", {**where, "token": token[::-1]}) == 403
    assert post(review_url + "/keep", {**where, "token": ""}) == 403
    # Not reachable from another machine: it listens on the loopback address only.
    address = non_loopback_address()
    if address is None:
        pytest.skip("this machine has no non-loopback address to connect from")
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((address, port), timeout=10).close()
    assert golden.read_bytes() == recorded

    served.settled()  # no live reload will replace the page while the test reads it
    page = browser.new_page()
    try:
        page.goto(served.url + "drift/")
        warning = page.locator(".executed-book-drift")
        assert warning.count() == 1 and warning.is_visible()
        text = warning.inner_text()
        assert "-recorded output" in text and "+edited output" in text  # the diff
        accept = warning.locator('button[data-answer="accept"]')
        keep = warning.locator('button[data-answer="keep"]')
        assert accept.is_visible() and keep.is_visible()
        shown = page.locator(".result").inner_text()
        assert "edited output" in shown
        # A wrong token from the page itself (the served site's origin): refused too.
        wrong = {**where, "token": "not-the-token"}
        refused = page.evaluate(WRONG_TOKEN_FETCH, [review_url, wrong])
        assert refused == 403

        keep.click()
        page.locator(".executed-book-drift[data-review-answer]").wait_for(timeout=30_000)
        assert golden.read_bytes() == recorded
        assert warning.get_attribute("data-review-answer") == "keep"
        assert (
            "kept tests/golden/drift/own.txt"
            in warning.locator(".executed-book-review-status").inner_text()
        )
        served.until(lambda: "kept in the browser: docs/drift.md#own" in served.log(), 30)

        clicked = time.monotonic()
        accept.click()
        deadline = clicked + scaled(60)
        while True:  # the page reloads once rebuilt: poll until it shows the block passing
            assert time.monotonic() < deadline, served.log()[-5000:]
            try:  # one reading of a whole page: a page still being parsed is not judged
                shown_now = page.evaluate(PAGE_STATE)
            except Exception:  # the page is being replaced as it is read
                shown_now = None
            if shown_now and shown_now["drift"] == 0 and "edited output" in shown_now["result"]:
                break
            time.sleep(0.02)
        seconds = time.monotonic() - clicked
        print(f"\naccept -> block passing on the page: {seconds:.2f} s")
        assert shown_now["notes"] == 0, shown_now
        assert page.locator(".result").inner_text() == shown  # the same output, now passing
    finally:
        page.close()
    log = served.log()
    assert "accepted in the browser: docs/drift.md#own: rewrote tests/golden/drift/own.txt" in log
    assert served.proc.poll() is None

    # The new golden is this run's own output, as the check build finds it: it passes.
    written = golden.read_text()
    assert written.encode() != recorded
    assert parse(written).output.strip("\n") == shown.strip("\n")
    checked = site.build()
    assert checked.returncode == 0, checked.output
    assert "0 drifted" in checked.output
    # About 1 s on an idle machine (the watcher's poll, one rebuild, live reload); the
    # target is 2 s, the bound leaves room for a loaded one, and grows with a slower one.
    assert seconds <= scaled(10.0), f"accept took {seconds:.2f} s to show the block passing"
