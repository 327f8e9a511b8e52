"""Under `mkdocs serve` every request is answered within seconds, whatever build runs behind
it: while a rebuild waits for a block, the server answers from the last build that finished,
and live reload brings the new page when the rebuild ends."""

from __future__ import annotations

import re
import time
import urllib.request

import pytest

from conftest import scaled, serving

pytestmark = [pytest.mark.build]

# Seconds: a file served on a loaded two-core machine takes far less; a build the answer
# waited for would last until the test opens its gate.
ANSWER = scaled(5.0)

PAGE = '# Slow\n\n```python exec="on" id="gated"\n--8<-- "snippets/slow/gated.py"\n```\n'


def gated(gate: str, text: str) -> str:
    """A block that runs until the test creates `gate`: a build waiting for it lasts exactly
    as long as the test needs."""
    return (
        "import pathlib\nimport time\n\n"
        f"while not pathlib.Path({gate!r}).exists():\n    time.sleep(0.1)\nprint({text!r})\n"
    )


def timed_get(url: str) -> tuple[float, str]:
    """Seconds until the page's last byte, and the page; a request that gets no answer within
    ten times what is allowed fails here, naming the page."""
    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=10 * ANSWER) as answer:
            html = answer.read().decode()
    except TimeoutError:
        raise AssertionError(f"GET {url}: no answer within {10 * ANSWER:g} s") from None
    return time.monotonic() - began, html


def test_a_page_is_answered_at_once_while_a_rebuild_waits_for_a_block(site, tmp_path):
    gate = tmp_path / "gate"
    gate.touch()
    site.page("slow.md", PAGE)
    site.page("index.md", "# Home\n")
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + "watch:\n  - snippets\n")
    site.snippet("slow/gated.py", gated(str(gate), "first output"))
    assert site.build("update").returncode == 0

    # Background off: each build waits for its blocks, as `--no-livereload` or the cache off do.
    log_path = tmp_path / "serve.log"
    with serving(site.root, log_path, BOOK_SERVE_BACKGROUND="off") as served:
        served.until(lambda: "bookexec summary:" in served.log(), 300)
        _, before = timed_get(served.url + "slow/")
        assert "first output" in before, before
        time.sleep(1.5)  # let the watcher settle before the edit

        gate.unlink()
        site.snippet("slow/gated.py", gated(str(gate), "second output"))
        served.until(lambda: served.log().count("Building documentation...") == 2, 120)
        # The rebuild now waits for the block, and the block for the gate.
        for path, shows in (("", "Home"), ("slow", "first output"), ("slow/", "first output")):
            seconds, during = timed_get(served.url + path)  # "slow": a redirect to "slow/"
            assert seconds < ANSWER, f"GET /{path} took {seconds:.1f} s during a rebuild"
            assert shows in during and "second output" not in during  # the last build's
        assert served.log().count("bookexec summary:") == 1, "the rebuild ended too soon"

        # Live reload: the page served meanwhile carries MkDocs' script and the epoch it shows,
        # and the poll for that epoch answers once the rebuild has ended.
        epoch = re.search(r"livereload\((\d+), \d+\)", during)
        assert epoch, during[-2000:]
        gate.touch()
        served.until(lambda: served.log().count("bookexec summary:") == 2, 300)
        seconds, newer = timed_get(served.url + f"livereload/{epoch[1]}/1")
        assert seconds < ANSWER and int(newer) > int(epoch[1]), newer
        _, after = timed_get(served.url + "slow/")
        assert "second output" in after, after
    assert "Traceback" not in log_path.read_text()
