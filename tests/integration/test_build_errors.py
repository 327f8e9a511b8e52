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
