"""A build says what it is doing: progress per page, slow blocks by name, one summary line."""

from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.build

PAGE = """\
# Timed

```python exec="on" id="quick"
--8<-- "snippets/timed/quick.py"
```

```python exec="on" id="slow"
--8<-- "snippets/timed/slow.py"
```
"""


def timed_book(site):
    site.page("timed.md", PAGE)
    site.page("plain.md", "# No blocks here\n")
    site.page(
        "other.md", '# Other\n\n```python exec="on" id="one"\n--8<-- "snippets/other/one.py"\n```\n'
    )
    site.snippet("timed/quick.py", "print('quick')\n")
    site.snippet("timed/slow.py", "import time\ntime.sleep(1.5)\nprint('slow')\n")
    site.snippet("other/one.py", "print('one')\n")
    assert site.build("update").returncode == 0


@pytest.fixture
def timed(prebuilt, tmp_path):
    return prebuilt(timed_book, tmp_path)


def test_progress_counts_pages_and_blocks_and_names_slow_blocks(timed):
    result = timed.build(BOOK_SLOW="1")
    assert result.returncode == 0, result.output
    done = re.findall(
        r"\[(\d+)/(\d+) pages, (\d+)/(\d+) blocks\] docs/(\S+): (\d+) run", result.output
    )
    assert sorted(page for *_, page, _ in done) == ["other.md", "timed.md"]
    assert {(total_pages, total_blocks) for _, total_pages, _, total_blocks, *_ in done} == {
        ("2", "3")
    }
    assert max(int(pages) for pages, *_ in done) == 2
    slow = re.findall(r"slow block (docs/\S+) \(block '(\S+)', .*\): ([\d.]+) s", result.output)
    assert [(where, block) for where, block, _ in slow] == [("docs/timed.md:7", "slow")]
    assert float(slow[0][2]) >= 1.5


def test_one_summary_line_ends_the_build(timed):
    result = timed.build()
    lines = [line for line in result.output.splitlines() if "bookexec summary" in line]
    assert len(lines) == 1
    found = re.search(r"summary: 3 blocks executed, 0 from cache, 0 drifted; ([\d.]+) s", lines[0])
    assert found and float(found[1]) > 0

    timed.snippet("other/one.py", "print('one, changed')\n")
    drifted = timed.build()
    assert drifted.returncode != 0
    assert "bookexec summary: 3 blocks executed, 0 from cache, 1 drifted;" in drifted.output


def test_a_block_no_page_rendered_fails_the_build(site):
    """The scanner saw it, the page never ran it: unchecked output must not pass."""
    site.page(
        "hidden.md",
        '# Hidden\n\n```py exec="on" id="unseen"\n--8<-- "snippets/hidden/unseen.py"\n```\n',
    )
    # Another hook, after the engine's, turns the fence into plain code before it renders.
    (site.root / "drop.py").write_text(
        "def on_page_markdown(markdown, **kwargs):\n"
        "    return markdown.replace('exec=\"on\" ', '')\n"
    )
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + "hooks:\n  - drop.py\n")  # after the plugins
    site.snippet(
        "hidden/unseen.py", "print('nobody checks me')\nprint('an author note')  # hidden\n"
    )
    result = site.build("update")
    assert result.returncode != 0
    assert "executed blocks that no page rendered" in result.output
    assert "docs/hidden.md:3 (block 'unseen', snippet snippets/hidden/unseen.py)" in result.output
    # Issue 53: the page was written with the fence raw, its hidden line shown (and
    # `mkdocs serve` would serve it); it is withheld, with a box that says why.
    page = (site.root / "site" / "hidden" / "index.html").read_text()
    assert "an author note" not in page and "nobody checks me" not in page, page
    assert "This page was not written" in page
    assert "docs/hidden.md:3 (block &#x27;unseen&#x27;" in page


def test_block_lines_count_finished_blocks_and_estimate_the_time_left(timed):
    """One line per finished block; the estimate comes from the last build's run times."""
    times = json.loads((timed.root / ".cache" / "bookexec" / "run-times.json").read_text())
    assert set(times) == {"timed.md#quick", "timed.md#slow", "other.md#one"}
    assert times["timed.md#slow"] >= 1.5  # the update build recorded it

    result = timed.build(BOOK_JOBS="1")
    assert result.returncode == 0, result.output
    lines = re.findall(
        r"\[(\d+)/3 blocks done, about (\d+) s left\] docs/(\S+): (\d)/(\d) blocks, '(\S+)'",
        result.output,
    )
    assert [int(done) for done, *_ in lines] == [1, 2, 3]  # finished blocks only, in order
    by_block = {block: (int(left), page, f"{n}/{of}") for _, left, page, n, of, block in lines}
    assert by_block["quick"][1:] == ("timed.md", "1/2")
    assert by_block["slow"][1:] == ("timed.md", "2/2")
    assert by_block["quick"][0] >= 1  # the slow block, 1.5 s last time, is still to run
    assert int(lines[-1][1]) == 0
