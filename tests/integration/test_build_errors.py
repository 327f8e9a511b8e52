"""Declared errors pass, and one failing page does not stop the others (the other bad inputs, with
their messages and timings, are in test_bad_inputs.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.build


def one_block(site, info: str, code: str, include: str = "snippets/broken/block.py") -> None:
    site.page("broken.md", f'# Broken\n\nText.\n\n```python {info}\n--8<-- "{include}"\n```\n')
    site.snippet("broken/block.py", code)


def test_declared_error_passes_and_its_golden_shows_the_message(site):
    one_block(site, 'exec="on" id="declared" raises="ZeroDivisionError"', "print('a')\n1 / 0\n")
    assert site.build("update").returncode == 0
    golden = site.goldens()["broken/declared.txt"]
    assert golden.endswith("---\na\nZeroDivisionError: division by zero\n")


def test_failure_on_one_page_does_not_stop_the_others(site):
    site.page("a.md", '# A\n\n```python exec="on" id="fine"\n--8<-- "snippets/a/fine.py"\n```\n')
    site.snippet("a/fine.py", "print('fine')\n")
    one_block(site, 'exec="on" id="boom"', "raise ValueError('first')\n")
    result = site.build("update", BOOK_JOBS="2")
    assert result.returncode != 0
    assert "block 'boom'" in result.output and "ValueError: first" in result.output
    assert "golden update: 2 blocks checked, 1 written (1 new)" in result.output
    assert site.goldens() == {"a/fine.txt": site.goldens()["a/fine.txt"]}


@pytest.mark.parametrize("length", [59, 300])
def test_a_long_block_id_is_a_clear_error_not_a_traceback(site, length):
    from measure import raw_traceback

    one_block(site, f'exec="on" id="{"x" * length}"', "print('a')\n")
    result = site.build("update")
    assert result.returncode != 0
    assert f"docs/broken.md:5: block id '{'x' * 48}...'" in result.output, result.output
    assert f"is {length} characters long" in result.output
    assert not raw_traceback(result.output), result.output


def test_a_page_that_is_not_utf8_is_named_with_its_line(site):
    from measure import raw_traceback

    one_block(site, 'exec="on" id="fine"', "print('a')\n")
    (site.root / "docs" / "latin.md").write_bytes(b"# Caf\xc3\xa9\n\nna\xefve prose\n")
    result = site.build("update")
    assert result.returncode != 0
    assert "docs/latin.md:3: the page is not valid UTF-8 (byte 11, b'\\xef')" in result.output, (
        result.output
    )
    assert not raw_traceback(result.output), result.output


def _page_html(site) -> str:
    return (site.root / "site" / "broken" / "index.html").read_text()


def test_a_claim_on_a_text_fact_is_named_and_the_page_never_shows_the_raw_fence(site):
    """Issue 53: a claim comparing a text fact raised a ValueError inside the engine's fence
    formatting, which superfences swallowed: the build said only that no page rendered the
    block, and the page was written with the raw fence and its hidden lines."""
    from measure import raw_traceback

    one_block(
        site,
        'exec="on" id="textual"',
        "from bookexec.facts import claim, record  # hidden\n"
        "print('the backend')\n"
        "record('backend', 'cpu')  # hidden\n"
        "claim('backend', '>', 1)  # hidden\n",
    )
    result = site.build("update")
    assert result.returncode != 0
    assert "claim: backend > 1 compares backend, which is not a finite number" in result.output, (
        result.output
    )
    assert "no page rendered" not in result.output, result.output
    assert not raw_traceback(result.output), result.output
    page = _page_html(site)
    assert "# hidden" not in page and 'exec="on"' not in page, page


def test_an_error_inside_the_engine_is_reported_with_its_cause_and_the_page_withheld(site):
    """Issue 53: any exception of the engine's own while it formats a block (here a huge
    bound recorded straight into the worker's list, past `claim`'s own check) is reported with
    the block's page, line and id and its real cause, never as a block no page rendered; the
    page shows an error box where the block was, never the fence and its hidden lines."""
    one_block(
        site,
        'exec="on" id="huge"',
        "import bookexec.facts as facts  # hidden\n"
        "print('bounded')\n"
        "facts.record('n', 3)  # hidden\n"
        "facts._claims.append({'left': 'n', 'op': '<', 'right': 10**400, 'says': ''})  # hidden\n",
    )
    result = site.build()
    assert result.returncode != 0
    assert "docs/broken.md:5 (block 'huge', snippet snippets/broken/block.py)" in result.output
    assert "OverflowError" in result.output, result.output
    assert "no page rendered" not in result.output, result.output
    page = _page_html(site)
    assert "# hidden" not in page and 'exec="on"' not in page, page
    assert "executed-book-failure" in page


def test_an_executed_fence_the_scan_did_not_plan_is_refused_naming_its_page(site):
    """A page may show an executed fence only as text (inside an `md` fence, say): one that
    superfences hands the engine but the scan never planned (here through an include of a
    README whose list item holds it) would run unchecked under markdown-exec, so it is refused,
    naming the page, and nothing else on the page is lost (issue 53: checked or refused)."""
    site.page(
        "example.md",
        '# Example\n\n--8<-- "snippets/example/readme.md"\n\n'
        '```python exec="on" id="real"\n--8<-- "snippets/example/real.py"\n```\n',
    )
    site.snippet(
        "example/readme.md",
        "1. Write a block:\n\n"
        '       ```python exec="on" result="text"\n'
        "       print(sum(range(10)))\n"
        "       ```\n",
    )
    site.snippet("example/real.py", "print('run')\n")
    result = site.build("update")
    assert result.returncode == 1, result.output
    assert "FAILED: docs/example.md: markdown-exec rendered block" in result.output, result.output
    assert "Traceback" not in result.output
