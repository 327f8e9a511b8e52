"""Hidden lines through the real build: they run, their facts and claims count, and the page,
its copy button and the chapter's notebook never show them."""

from __future__ import annotations

import json
from importlib.metadata import version

import pytest

from bookexec._internal.render.verify import boxes_of

pytestmark = pytest.mark.build

PAGE = """\
# Hidden

Twice three is {{fact:twice.at_3}}.

```python exec="on" id="twice"
--8<-- "snippets/hidden/twice.py"
```
"""

SNIPPET = """\
from bookexec.facts import claim, record  # hidden


def twice(x):
    return 2 * x


print("twice 3:", twice(3))
# hidden: begin
record("at_3", twice(3))
claim("at_3", ">=", {bound})
# hidden: end
"""

SHOWN = 'def twice(x):\n    return 2 * x\n\n\nprint("twice 3:", twice(3))\n'


def hidden_book(site):
    site.page("hidden.md", PAGE)
    site.snippet("hidden/twice.py", SNIPPET.format(bound=5))
    written = site.build("update")
    assert written.returncode == 0, written.output


@pytest.fixture
def book(prebuilt, tmp_path):
    return prebuilt(hidden_book, tmp_path)


def test_the_page_and_the_notebook_show_the_snippet_without_its_hidden_lines(book):
    html = (book.root / "site" / "hidden" / "index.html").read_text()
    source = [b for b in boxes_of(html) if b.kind == "source"]
    assert [(b.block_id, "".join(b.text)) for b in source] == [("twice", SHOWN)]
    assert "bookexec.facts" not in html and "hidden: begin" not in html
    assert "Twice three is 6." in html  # the fact a hidden line recorded
    golden = book.goldens()["hidden/twice.txt"]
    assert "twice 3: 6\n" in golden and "at_3 = 6" in golden
    nb = json.loads((book.root / "site" / "hidden" / "hidden.ipynb").read_text())
    (cell,) = [c for c in nb["cells"] if c["metadata"].get("executed-book", {}).get("block")]
    assert "".join(cell["source"]) == SHOWN.rstrip("\n")


def test_the_notebook_of_a_chapter_that_needs_no_engine_opens_with_a_short_set_up(book):
    nb = json.loads((book.root / "site" / "hidden" / "hidden.ipynb").read_text())
    (setup,) = [c for c in nb["cells"] if c["metadata"].get("executed-book", {}).get("setup")]
    source = "".join(setup["source"])
    assert "bookexec" not in source and len(source) < 1000, source[:300]
    assert f"    %pip install -q jax=={version('jax')} jaxlib=={version('jaxlib')}\n" in source
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "bookexec" not in code and "hidden" not in code
    notebook = (book.root / "site" / "hidden" / "hidden.ipynb").read_text()
    assert "bookexec" not in notebook  # nor in any metadata: the keys name the plugin


def test_a_claim_on_a_hidden_line_still_fails_the_build(book):
    book.snippet("hidden/twice.py", SNIPPET.format(bound=7))
    result = book.build()
    assert result.returncode != 0, result.output
    assert "claim: at_3 >= 7" in result.output
    assert "docs/hidden.md" in result.output


def test_a_bad_marker_fails_the_build_naming_page_block_snippet_and_line(book):
    book.snippet("hidden/twice.py", "print(1)\n# hidden: begin\nprint(2)\n")
    result = book.build()
    assert result.returncode != 0, result.output
    where = "docs/hidden.md:5 (block 'twice', snippet snippets/hidden/twice.py): line 2:"
    assert f"{where} '# hidden: begin' is never closed" in result.output
    assert "Traceback" not in result.output
