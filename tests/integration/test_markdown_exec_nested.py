"""Every fence markdown-exec runs is run and checked by the engine (issue 53, point 3; issue
58), in the markdown-exec book of tests/sites/mdexec.

A Python fence written inside a fence markdown-exec renders as Markdown (````md exec="on"````),
as markdown-exec's own documentation writes its examples, is a block of its page: it runs, has
its golden, and drifts. A fence a block prints, which markdown-exec runs as it renders the
output, runs right after that block in the page's worker (fresh globals, or the session it
names), has a golden of its own and drifts, named by the block that printed it.
"""

from __future__ import annotations

import shutil

import pytest

from bookexec._internal.goldens.store import decode_output
from conftest import REPO, Site

pytestmark = [pytest.mark.build, pytest.mark.engine]

NESTED = """\
# Nested

````md exec="on"
Some Markdown, then a fence markdown-exec runs:

```python exec="on" result="text"
print("nested", 6 * 7)
```
````
"""

# The second block prints two fences: one in the session `s`, where the first block set
# `factor`, and one without a session, in fresh globals.
PRINTS_FENCES = """\
# Printed

```python exec="on" session="s"
factor = 7
```

```python exec="on" session="s"
print('```python exec="on" session="s"\\nprint("printed", 6 * factor)\\n```\\n')
print('```python exec="on"\\nprint("fresh:", "factor" in globals())\\n```')
```
"""


def nested_book(root, page: str) -> Site:
    shutil.copytree(REPO / "tests" / "sites" / "mdexec", root)
    config = root / "mkdocs.yml"
    config.write_text(
        config.read_text().replace(
            "  - Sessions: sessions.md\n", "  - Sessions: sessions.md\n  - Nested: nested.md\n"
        )
    )
    (root / "docs" / "nested.md").write_text(page)
    return Site(root)


def test_a_python_fence_inside_an_md_fence_runs_with_its_golden_and_drifts(tmp_path):
    book = nested_book(tmp_path / "book", NESTED)
    update = book.build("update")
    assert update.returncode == 0, update.output
    golden = book.root / "goldens" / "nested" / "block-1.txt"
    assert golden.is_file(), update.output
    assert golden.read_text().endswith("---\nnested 42\n")
    assert "nested 42" in (book.root / "site" / "nested" / "index.html").read_text()
    page = book.root / "docs" / "nested.md"
    page.write_text(page.read_text().replace("6 * 7", "6 * 8"))
    drifted = book.build("check")
    assert drifted.returncode != 0, drifted.output
    assert "DRIFTED (text): page docs/nested.md, block 'block-1'" in drifted.output
    assert "+nested 48" in drifted.output


def test_the_fences_a_block_prints_run_in_their_globals_get_goldens_and_drift(tmp_path):
    book = nested_book(tmp_path / "book", PRINTS_FENCES)
    update = book.build("update")
    assert update.returncode == 0, update.output
    folder = book.root / "goldens" / "nested"
    goldens = {p.name: shown(p.read_text()) for p in folder.glob("*.txt")}
    assert goldens["block-2.printed-1.txt"] == "printed 42\n", update.output
    assert goldens["block-2.printed-2.txt"] == "fresh: False\n", update.output
    page = (book.root / "site" / "nested" / "index.html").read_text()
    assert "printed 42" in page and "fresh: False" in page
    assert book.build("check").returncode == 0
    source = book.root / "docs" / "nested.md"
    source.write_text(source.read_text().replace("factor = 7", "factor = 8"))
    drifted = book.build("check")
    assert drifted.returncode != 0, drifted.output
    said = "DRIFTED (text): page docs/nested.md, block 'block-2', the fence it printed #1,"
    assert said in drifted.output, drifted.output
    assert "+printed 48" in drifted.output
    assert "block 'block-2', snippet" not in drifted.output  # what it printed is the same
    assert "Traceback" not in drifted.output


def test_a_fence_no_longer_printed_leaves_its_golden_stale(tmp_path):
    book = nested_book(tmp_path / "book", PRINTS_FENCES)
    assert book.build("update").returncode == 0
    source = book.root / "docs" / "nested.md"
    text = source.read_text()
    second = text.index('print(\'```python exec="on"\\n')  # the line printing the second fence
    source.write_text(text[:second] + "```\n")
    checked = book.build("check")
    assert checked.returncode != 0, checked.output
    stale = book.root / "goldens" / "nested" / "block-2.printed-2.txt"
    assert str(stale.relative_to(book.root)) in checked.output, checked.output
    assert "block-2.printed-1.txt" not in checked.output  # still printed, and the same
    assert book.build("update").returncode == 0
    assert not stale.exists() and stale.with_name("block-2.printed-1.txt").exists()


SHELL = """\
# Shell

```console exec="on"
$ echo "hello from the shell"
```

```pycon exec="on"
>>> print(6 * 7)
```

```sh exec="on" result="text"
echo two
```
"""


def shown(golden: str) -> str:
    """The output a golden file stores: its body after the header's `---` line, decoded."""
    return decode_output(golden.split("\n---\n", 1)[1])[0]


def test_shell_console_and_pycon_fences_get_goldens_and_drift(tmp_path):
    """Issue 53, point 4: markdown-exec still runs these fences itself; what each shows now has
    a golden, so a changed output fails the check."""
    book = nested_book(tmp_path / "book", SHELL)
    update = book.build("update")
    assert update.returncode == 0, update.output
    folder = book.root / "goldens" / "nested"
    # What each golden stores, as the engine reads it back (line ends kept, escaped or not).
    goldens = {p.name: shown(p.read_text()) for p in folder.glob("*.txt")}
    assert sorted(goldens) == ["console-1.txt", "pycon-1.txt", "sh-1.txt"], update.output
    assert goldens["console-1.txt"].strip("\n") == "hello from the shell"
    assert goldens["pycon-1.txt"].strip("\n") == "42"
    assert goldens["sh-1.txt"].strip("\n") == "two"
    assert book.build("check").returncode == 0
    page = book.root / "docs" / "nested.md"
    page.write_text(page.read_text().replace("hello from the shell", "hello again"))
    drifted = book.build("check")
    assert drifted.returncode != 0, drifted.output
    assert "DRIFTED (text): page docs/nested.md, block 'console-1'" in drifted.output
    assert "+\\hello again" in drifted.output  # the last line, without a newline: escaped
