"""The author's cache re-runs only changed pages; plain builds and BOOK_EXEC=off don't use it."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.build

PAGE = '# {name}\n\n```python exec="on" id="only"\n--8<-- "snippets/{name}/only.py"\n```\n'


@pytest.fixture
def two_pages(site):
    for name in ("one", "two"):
        site.page(f"{name}.md", PAGE.format(name=name))
        site.snippet(f"{name}/only.py", f"print('{name}')\n")
    assert site.build("update").returncode == 0
    return site


def test_unchanged_pages_are_reused_and_an_edited_one_reruns(two_pages):
    first = two_pages.build(BOOK_CACHE="on")
    assert first.returncode == 0 and "reused" not in first.output
    again = two_pages.build(BOOK_CACHE="on")
    assert again.returncode == 0 and "1 pages reused" not in again.output
    assert "2 pages reused from the cache" in again.output

    two_pages.snippet("two/only.py", "print('two, edited')\n")
    edited = two_pages.build(BOOK_CACHE="on")
    assert "1 pages reused from the cache" in edited.output
    assert edited.returncode != 0 and "+two, edited" in edited.output


def test_environment_jax_reads_is_part_of_the_key(two_pages):
    assert two_pages.build(BOOK_CACHE="on").returncode == 0
    changed = two_pages.build(BOOK_CACHE="on", JAX_ENABLE_X64="1")
    assert "reused" not in changed.output


def test_a_plain_build_never_uses_the_cache(two_pages):
    assert two_pages.build(BOOK_CACHE="on").returncode == 0
    plain = two_pages.build()
    assert plain.returncode == 0 and "reused" not in plain.output


def test_exec_off_shows_goldens_and_runs_nothing(two_pages):
    two_pages.snippet("one/only.py", "raise SystemExit('this would fail if it ran')\n")
    result = two_pages.build(BOOK_EXEC="off")
    assert result.returncode == 0, result.output
    html = (two_pages.root / "site" / "one" / "index.html").read_text()
    assert "SystemExit" in html  # the source is shown...
    result_html = html.split('class="result"', 1)[1]
    assert "<code>one\n</code>" in result_html  # ...with the output its golden recorded
